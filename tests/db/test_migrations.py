"""The migrations produce exactly the schema the code declares, and round-trip."""

from __future__ import annotations

import contextlib
import random
import uuid
from collections.abc import Iterator

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, Engine, create_engine, inspect, pool, text

from memforest.db import migrate
from memforest.db.embedded import EmbeddedServer
from memforest.db.schema import TENANT_TABLES, metadata
from memforest.settings import EmbeddingSettings
from memforest.store.forest_indexes import FOREST_INDEXES


def _diff(url: str) -> list[object]:
    engine = create_engine(migrate.sync_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True, "compare_server_default": False})
            return list(compare_metadata(ctx, metadata))
    finally:
        engine.dispose()


def test_head_matches_declared_schema(db_url: str) -> None:
    assert migrate.current_revision(db_url) == migrate.head_revision()
    assert _diff(db_url) == []


def test_downgrade_then_upgrade_round_trips(db_url: str) -> None:
    migrate.downgrade(db_url, embedding_dim=64)
    engine = create_engine(migrate.sync_url(db_url), poolclass=pool.NullPool)
    try:
        left = set(inspect(engine).get_table_names()) - {"alembic_version"}
        assert left == set()
    finally:
        engine.dispose()
    migrate.upgrade(db_url, embedding_dim=64)
    assert migrate.current_revision(db_url) == migrate.head_revision()
    assert _diff(db_url) == []
    assert migrate.stored_embedding_dim(db_url) == 64


def test_every_tenant_table_has_tenant_first_and_rls(db_url: str) -> None:
    engine = create_engine(migrate.sync_url(db_url), poolclass=pool.NullPool)
    try:
        insp = inspect(engine)
        with engine.connect() as conn:
            for table in TENANT_TABLES:
                pk = insp.get_pk_constraint(table)["constrained_columns"]
                assert pk[0] == "tenant_id", table
                for fk in insp.get_foreign_keys(table):
                    assert fk["constrained_columns"][0] == "tenant_id", (table, fk["name"])
                    assert fk["referred_columns"][0] == "tenant_id", (table, fk["name"])
                rls = conn.execute(
                    text("SELECT relrowsecurity FROM pg_class WHERE relname = :t"), {"t": table}
                ).scalar()
                assert rls is True, table
    finally:
        engine.dispose()


def test_vector_columns_have_the_initialised_dimension(db_url: str) -> None:
    engine = create_engine(migrate.sync_url(db_url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            typmods = conn.execute(
                text(
                    "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
                    "JOIN pg_class c ON c.oid = a.attrelid WHERE format_type(a.atttypid, a.atttypmod) "
                    "LIKE 'vector%' AND c.relkind = 'r'"
                )
            ).all()
    finally:
        engine.dispose()
    assert {(t, c) for t, c, _ in typmods} == {
        ("facts", "embedding"),
        ("nodes", "embedding"),
        ("scene_clusters", "centroid"),
    }
    assert {ty for _, _, ty in typmods} == {"vector(64)"}


def test_fact_pages_keep_room_for_hot_updates(db_url: str) -> None:
    """Migrations 0006 and 0018: source_count / superseded_by updates can stay on the row's page (HOT)."""
    engine = create_engine(migrate.sync_url(db_url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            options = conn.execute(text("SELECT reloptions FROM pg_class WHERE relname = 'facts'")).scalar()
            indexed = (
                conn.execute(
                    text(
                        "SELECT DISTINCT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
                        "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'facts'::regclass"
                    )
                )
                .scalars()
                .all()
            )
    finally:
        engine.dispose()
    assert options == ["fillfactor=75"]
    assert not {"source_count", "superseded_by", "valid_to"} & set(indexed)


def test_fact_rows_at_the_default_dimension_update_in_place(pg_server: EmbeddedServer) -> None:
    """At the default dimension a page of facts keeps room for one more version of an inline row,
    also when it holds rows whose long text pushed their vector out of line (migration 0018):
    superseding or re-mentioning an old fact is a HOT update, no new index entries. The control:
    the same facts stored at 0006's fill factor of 85 move some of those updates to other pages."""
    hot, updated = _hot_updates_of_old_facts(pg_server, fillfactor=None)
    assert updated > 50 and hot == updated
    hot_85, updated_85 = _hot_updates_of_old_facts(pg_server, fillfactor=85)
    assert updated_85 == updated and hot_85 < updated_85


def _hot_updates_of_old_facts(pg_server: EmbeddedServer, fillfactor: int | None) -> tuple[int, int]:
    """In a new database at the default dimension (``fillfactor``: set on facts first), insert 24
    sessions of 5 facts (three short texts, then two long ones whose rows keep the vector out of
    line), then update every short-text fact as a supersession does, a third per transaction;
    returns (HOT updates, updates)."""
    with _default_dim_database(pg_server) as (engine, dim):
        rnd = random.Random(0)
        words = [
            "alice",
            "bob",
            "moved",
            "to",
            "davis",
            "in",
            "may",
            "and",
            "started",
            "work",
            "at",
            "a",
            "bakery",
            "near",
            "the",
            "river",
        ]
        with engine.begin() as conn:
            if fillfactor is not None:
                conn.execute(text(f"ALTER TABLE facts SET (fillfactor = {int(fillfactor)})"))
            t = uuid.uuid4()
            conn.execute(text("INSERT INTO tenants (tenant_id, name) VALUES (:t, 'fill')"), {"t": t})
            f = conn.execute(
                text("INSERT INTO forests (tenant_id, name) VALUES (:t, 'f') RETURNING forest_id"), {"t": t}
            ).scalar()
        short: list[int] = []
        for _ in range(24):
            with engine.begin() as conn:
                for i in range(5):
                    vec = "[" + ",".join(f"{rnd.uniform(-1, 1):.6f}" for _ in range(dim)) + "]"
                    fid = conn.execute(
                        text(
                            "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, valid_from, embedding) "
                            "VALUES (:t, :f, :x, :h, 'state', now(), CAST(:e AS vector)) RETURNING fact_id"
                        ),
                        {"t": t, "f": f, "x": " ".join(rnd.choice(words) for _ in range(100 if i >= 3 else 12)),
                         "h": uuid.uuid4().hex, "e": vec},
                    ).scalar()  # fmt: skip
                    if i < 3:
                        short.append(int(fid))
        with engine.connect() as conn:  # the premise: long texts keep their rows' vectors out of line
            out_of_line = conn.execute(
                text("SELECT count(*) FROM facts WHERE pg_column_toast_chunk_id(embedding) IS NOT NULL")
            )
            assert out_of_line.scalar() == 24 * 2
        hot = 0
        for part in range(3):
            with engine.begin() as conn:
                conn.execute(
                    text(
                        "UPDATE facts SET source_count = source_count + 1, valid_to = now() WHERE fact_id = ANY(:ids)"
                    ),
                    {"ids": short[part::3]},
                )
                hot += int(conn.execute(text("SELECT pg_stat_get_xact_tuples_hot_updated('facts'::regclass)")).scalar())
    return hot, len(short)


@contextlib.contextmanager
def _default_dim_database(pg_server: EmbeddedServer) -> Iterator[tuple[Engine, int]]:
    """A new database migrated at the default embedding dimension (the test database uses 64,
    whose rows never reach PostgreSQL's TOAST threshold), and that dimension; dropped afterwards."""
    dim = EmbeddingSettings().dim  # the default (a BaseModel: no environment override)
    name = f"mf_dim_{uuid.uuid4().hex[:8]}"
    pg_server.handle.psql(f"CREATE DATABASE {name};")
    engine = create_engine(migrate.sync_url(pg_server.url(name)), poolclass=pool.NullPool)
    try:
        migrate.upgrade(pg_server.url(name), embedding_dim=dim)
        yield engine, dim
    finally:
        engine.dispose()
        pg_server.handle.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")


def test_a_summary_node_keeps_its_vector_in_its_row(pg_server: EmbeddedServer) -> None:
    """Migration 0022: at the default dimension a level-1 node with a full summary budget stores its
    embedding in its own row, not in the TOAST table. The control: the same row without the
    table's option keeps its embedding out of line."""
    rnd = random.Random(1)  # (words that do not compress: a summary's text, not a repeated phrase)
    words = ("".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randint(3, 9))) for _ in range(200))
    summary = ("[2024-03-01 .. 2024-03-09] " + " ".join(words))[:600]
    assert len(summary) >= 600
    with _default_dim_database(pg_server) as (engine, dim), engine.begin() as conn:
        vec = "[" + ",".join(f"{(i % 7 - 3) / 10:.6f}" for i in range(dim)) + "]"
        t = uuid.uuid4()
        conn.execute(text("INSERT INTO tenants (tenant_id, name) VALUES (:t, 'toast')"), {"t": t})
        f = conn.execute(text("INSERT INTO forests (tenant_id, name) VALUES (:t, 'f') RETURNING forest_id"), {"t": t})
        tree = conn.execute(
            text(
                "INSERT INTO trees (tenant_id, forest_id, kind, key, label, fanout) "
                "VALUES (:t, :f, 'entity', 'ilse', 'Ilse', 8) RETURNING tree_id"
            ),
            {"t": t, "f": f.scalar()},
        ).scalar()

        def out_of_line() -> bool:
            node = conn.execute(
                text(
                    "INSERT INTO nodes (tenant_id, forest_id, tree_id, level, t_start, t_end, seq, summary, embedding) "
                    "SELECT tenant_id, forest_id, tree_id, 1, now(), now(), 0, :s, CAST(:e AS vector) FROM trees "
                    "WHERE tree_id = :tree RETURNING node_id"
                ),
                {"s": summary, "e": vec, "tree": tree},
            ).scalar()
            stored = "SELECT pg_column_toast_chunk_id(embedding) IS NOT NULL FROM nodes WHERE node_id = :n"
            return bool(conn.execute(text(stored), {"n": node}).scalar())

        assert not out_of_line()
        conn.execute(text("ALTER TABLE nodes RESET (toast_tuple_target)"))
        assert out_of_line()


def _node_text_state(url: str) -> tuple[str, str]:
    """The definition of forest 42's node GIN index and the node candidates function's body."""
    engine = create_engine(migrate.sync_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            index = conn.execute(text("SELECT pg_get_indexdef('ix_nodes_tsv_f42'::regclass)")).scalar()
            body = conn.execute(
                text("SELECT prosrc FROM pg_proc WHERE proname = 'memforest_node_text_candidates'")
            ).scalar()
            others = conn.execute(text("SELECT relname FROM pg_class WHERE relname LIKE 'ix_nodes_tsv_f42%'")).all()
    finally:
        engine.dispose()
    assert [r[0] for r in others] == ["ix_nodes_tsv_f42"]  # the new index took the old one's name
    return str(index), str(body)


def test_migration_0016_rebuilds_forest_node_text_indexes_over_cell_leaves(db_url: str) -> None:
    """A forest's node GIN index built before 0016 (every row without a fact) holds its cell leaves
    after it, as the index a forest gets now; the candidates function reads the same rows; a
    downgrade restores both."""
    spec = next(s for s in FOREST_INDEXES if s.prefix == "ix_nodes_tsv_f")
    migrate.downgrade(db_url, embedding_dim=64, revision="0015")
    engine = create_engine(migrate.sync_url(db_url), poolclass=pool.NullPool)
    try:
        with engine.begin() as conn:
            old = "CREATE INDEX ix_nodes_tsv_f42 ON nodes USING gin (tsv) WHERE forest_id = 42 AND leaf_fact_id IS NULL"
            conn.execute(text(old))
    finally:
        engine.dispose()
    migrate.upgrade(db_url, embedding_dim=64)
    index, body = _node_text_state(db_url)
    assert spec.rows == "leaf_cell_id IS NOT NULL"
    assert index.endswith("WHERE ((forest_id = 42) AND (leaf_cell_id IS NOT NULL))")
    assert "x.leaf_cell_id IS NOT NULL" in body and "leaf_fact_id" not in body
    migrate.downgrade(db_url, embedding_dim=64, revision="0015")
    index, body = _node_text_state(db_url)
    assert index.endswith("WHERE ((forest_id = 42) AND (leaf_fact_id IS NULL))")
    assert "x.leaf_fact_id IS NULL" in body and "leaf_cell_id IS NOT NULL" not in body


def _index_definitions(url: str, names: str) -> dict[str, str]:
    """The definitions of the indexes whose names are ``LIKE names``, by name."""
    engine = create_engine(migrate.sync_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT indexname, indexdef FROM pg_indexes WHERE indexname LIKE :names"), {"names": names}
            ).all()
    finally:
        engine.dispose()
    return {str(r[0]): str(r[1]) for r in rows}


def _node_graphs(url: str) -> dict[str, str]:
    """Forest 42's node graphs by name: their definitions."""
    return _index_definitions(url, "ix_nodes_%_vec_f42%")


def _text_index(url: str) -> str:
    """Forest 42's node text index: its definition from ``USING`` on."""
    definition = _index_definitions(url, "ix_nodes_tsv_f42")["ix_nodes_tsv_f42"]
    return "USING " + definition.split(" USING ", 1)[1]


def test_migration_0017_rebuilds_forest_node_graphs_at_half_precision(db_url: str) -> None:
    """A forest's two node graphs built before 0017 (full precision) index ``halfvec`` keys of the
    stored dimension after it, under the same names and predicates, as the specs build them now;
    the facts' graph is left alone; a downgrade restores full precision."""
    migrate.downgrade(db_url, embedding_dim=64, revision="0016")
    engine = create_engine(migrate.sync_url(db_url), poolclass=pool.NullPool)
    try:
        with engine.begin() as conn:
            for spec in FOREST_INDEXES:
                if spec.prefix.startswith("ix_nodes_") and "hnsw" in spec.using:
                    old = f"USING hnsw (embedding vector_cosine_ops) WHERE {spec.predicate(42)}"
                    conn.execute(text(f"CREATE INDEX {spec.name(42)} ON nodes {old}"))
    finally:
        engine.dispose()
    before = _node_graphs(db_url)
    assert sorted(before) == ["ix_nodes_cell_vec_f42", "ix_nodes_root_vec_f42"]
    migrate.upgrade(db_url, embedding_dim=64, revision="0017")
    after = _node_graphs(db_url)
    assert sorted(after) == sorted(before)  # the new graphs took the old ones' names
    for name, definition in after.items():
        assert "USING hnsw (((embedding)::halfvec(64)) halfvec_cosine_ops)" in definition
        assert definition.split(" WHERE ")[1] == before[name].split(" WHERE ")[1]
        assert ("WITH (m='8')" in definition) is ("cell" in name)  # the cell leaves' graph links fewer
    migrate.downgrade(db_url, embedding_dim=64, revision="0016")
    assert all("embedding vector_cosine_ops" in d and "WITH" not in d for d in _node_graphs(db_url).values())


def _vec(i: int) -> str:
    return "[" + ",".join(f"{((i * 7 + k) % 11 - 5) / 10:.3f}" for k in range(64)) + "]"


def _nodes_state(conn: Connection) -> list[tuple[object, ...]]:
    """Per node of the test forest: id, summary, embedding, tsv, and the graph vector (NULL where
    the column is not there yet)."""
    has_graph = conn.execute(
        text("SELECT count(*) FROM pg_attribute WHERE attrelid = 'nodes'::regclass AND attname = 'graph_embedding'")
    ).scalar()
    graph = "CAST(graph_embedding AS text)" if has_graph else "NULL"
    rows = conn.execute(
        text(
            f"SELECT node_id, summary, CAST(embedding AS text), CAST(tsv AS text), {graph} FROM nodes "
            "WHERE forest_id = 42 ORDER BY node_id"
        )
    ).all()
    return [tuple(r) for r in rows]


def test_migration_0029_keeps_indexed_node_columns_to_the_indexed_rows(db_url: str) -> None:
    """A database at 0028 with a forest's nodes and its own node graphs: after 0029 every node keeps
    its summary and vector, a root and a cell leaf carry their vector (at half precision) in
    ``graph_embedding`` and an inner node none, only the cell leaf keeps a ``tsv``; the forest's
    graphs key on the new column with their names, rows and parameters; the nearest root and cell by
    the new graphs are those of the old; an inner node's refresh write is then a HOT update; a
    downgrade restores the columns and the graphs."""
    migrate.downgrade(db_url, embedding_dim=64, revision="0028")
    engine = create_engine(migrate.sync_url(db_url), poolclass=pool.NullPool)
    t = uuid.uuid4()
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO tenants (tenant_id, name) VALUES (:t, 'upgrade')"), {"t": t})
            conn.execute(
                text("INSERT INTO forests (tenant_id, forest_id, name) OVERRIDING SYSTEM VALUE VALUES (:t, 42, 'f')"),
                {"t": t},
            )
            tree = conn.execute(
                text(
                    "INSERT INTO trees (tenant_id, forest_id, kind, key, label, fanout) "
                    "VALUES (:t, 42, 'session', 'harbour-log', 'harbour log', 8) RETURNING tree_id"
                ),
                {"t": t},
            ).scalar()
            session = conn.execute(
                text(
                    "INSERT INTO sessions (tenant_id, forest_id, external_id, time, content_hash, n_turns) "
                    "VALUES (:t, 42, 's1', now(), 'h', 2) RETURNING session_id"
                ),
                {"t": t},
            ).scalar()
            cells = [
                conn.execute(
                    text(
                        "INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, "
                        "t_start, t_end) VALUES (:t, 42, :s, :q, 0, 1, :x, now(), now()) RETURNING cell_id"
                    ),
                    {"t": t, "s": session, "q": q, "x": x},
                ).scalar()
                for q, x in enumerate(("the ferry timetable changed in spring", "a lantern hangs by the pier"))
            ]
            insert = (
                "INSERT INTO nodes (tenant_id, forest_id, tree_id, level, parent_id, t_start, t_end, seq, summary, "
                "embedding, leaf_cell_id) VALUES (:t, 42, :tree, :lvl, :p, now(), now(), :seq, :s, "
                "CAST(:e AS vector), :c) "
                "RETURNING node_id"
            )

            def node(level: int, parent: int | None, seq: int, summary: str, cell: int | None = None) -> int:
                params = {"t": t, "tree": tree, "lvl": level, "p": parent, "seq": seq, "s": summary, "c": cell}
                return int(conn.execute(text(insert), {**params, "e": _vec(seq)}).scalar_one())

            root = node(2, None, 0, "a harbour town through one year")
            inner = node(1, root, 1, "timetables and lights along the waterfront")
            for i, c in enumerate(cells):
                node(0, inner, 2 + i, f"cell text {i}", c)
            for spec in FOREST_INDEXES:
                if spec.prefix.startswith("ix_nodes_") and "hnsw" in spec.using:
                    with_ = f" WITH ({', '.join(spec.options)})" if spec.options else ""
                    key = "(CAST(embedding AS halfvec(64))) halfvec_cosine_ops"
                    conn.execute(
                        text(
                            f"CREATE INDEX {spec.name(42)} ON nodes USING hnsw ({key}){with_} "
                            f"WHERE {spec.predicate(42)}"
                        )
                    )
                elif spec.prefix == "ix_nodes_tsv_f":  # a text index, dropped with ``tsv`` and built again
                    conn.execute(
                        text(f"CREATE INDEX {spec.name(42)} ON nodes USING gin (tsv) WHERE {spec.predicate(42)}")
                    )
            before = _nodes_state(conn)
        migrate.upgrade(db_url, embedding_dim=64)
        with engine.begin() as conn:
            after = _nodes_state(conn)
            graphs = _node_graphs(db_url)
            analysed = (
                "SELECT attname FROM pg_stats WHERE tablename = 'nodes' AND attname IN ('tsv', 'graph_embedding')"
            )
            assert sorted(conn.execute(text(analysed)).scalars()) == ["graph_embedding", "tsv"]  # planner statistics
            conn.execute(text("SET LOCAL enable_seqscan = off"))
            nearest = {
                "parent_id IS NULL": root,
                "level = 0 AND leaf_cell_id IS NOT NULL": before[2][0],
            }
            for rows, expected in nearest.items():
                order = "CAST(graph_embedding AS halfvec(64)) <=> CAST(CAST(:q AS vector) AS halfvec(64))"
                plan = conn.execute(
                    text(f"EXPLAIN SELECT node_id FROM nodes WHERE forest_id = 42 AND {rows} ORDER BY {order} LIMIT 1"),
                    {"q": _vec(0) if expected == root else _vec(2)},
                ).all()
                assert "_vec_f42" in " ".join(str(r[0]) for r in plan)  # read through the forest's graph
                got = conn.execute(
                    text(f"SELECT node_id FROM nodes WHERE forest_id = 42 AND {rows} ORDER BY {order} LIMIT 1"),
                    {"q": _vec(0) if expected == root else _vec(2)},
                ).scalar()
                assert got == expected
        assert [r[:3] for r in after] == [r[:3] for r in before]  # summaries and vectors carried
        by_id = {r[0]: r for r in after}
        assert by_id[inner][3] is None and by_id[inner][4] is None  # no indexed column on the inner node
        assert by_id[root][3] is None and by_id[root][4] is not None
        for r in after[2:]:
            assert r[3] == next(b[3] for b in before if b[0] == r[0]) and r[4] is not None
        for name, definition in graphs.items():
            assert "USING hnsw (((graph_embedding)::halfvec(64)) halfvec_cosine_ops)" in definition
            assert ("WITH (m='8')" in definition) is ("cell" in name)
        assert sorted(graphs) == ["ix_nodes_cell_vec_f42", "ix_nodes_root_vec_f42"]
        assert _text_index(db_url) == "USING gin (tsv) WHERE ((forest_id = 42) AND (leaf_cell_id IS NOT NULL))"
        # an inner node's refresh write (summary, vector, version) in a transaction of its own: HOT
        upd = (
            "UPDATE nodes SET summary = 'lights, ferries and a new timetable', embedding = CAST(:e AS vector), "
            "version = version + 1 WHERE node_id = :n"
        )
        counts = "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = 'nodes'"
        with engine.begin() as conn:
            conn.execute(text(upd), {"e": _vec(9), "n": inner})
            assert tuple(conn.execute(text(counts)).one()) == (1, 1)
        migrate.downgrade(db_url, embedding_dim=64, revision="0028")
        with engine.begin() as conn:
            back = {r[0]: r for r in _nodes_state(conn)}
        downgraded = _node_graphs(db_url)
        assert sorted(downgraded) == sorted(graphs)
        for name, definition in downgraded.items():
            assert "USING hnsw (((embedding)::halfvec(64)) halfvec_cosine_ops)" in definition
            assert definition.split(" WHERE ")[1] == graphs[name].split(" WHERE ")[1]
            assert ("WITH (m='8')" in definition) is ("cell" in name)
        assert back[inner][3] is not None and "ferri" in str(back[inner][3])  # every row's text again
        assert _text_index(db_url) == "USING gin (tsv) WHERE ((forest_id = 42) AND (leaf_cell_id IS NOT NULL))"
    finally:
        engine.dispose()


def _fact(conn: Connection, t: uuid.UUID, f: int, slot: str, value: str, day: int) -> int:
    """A fact of Quilla's stored in ``slot`` with ``value`` from day ``day`` of 2024."""
    return int(
        conn.execute(
            text(
                "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, subject, attribute, value, "
                "valid_from) VALUES (:t, :f, :x, :h, 'state', 'Quilla', :a, :v, "
                "CAST('2024-01-01' AS timestamptz) + make_interval(days => :d)) RETURNING fact_id"
            ),
            {"t": t, "f": f, "x": f"Quilla's {slot} is {value}.", "h": f"{slot}-{value}", "a": slot, "v": value,
             "d": day},
        ).scalar_one()
    )  # fmt: skip


def _spellings_forest(conn: Connection, t: uuid.UUID) -> int:
    conn.execute(text("INSERT INTO tenants (tenant_id, name) VALUES (:t, 'spellings')"), {"t": t})
    return int(
        conn.execute(
            text("INSERT INTO forests (tenant_id, name) VALUES (:t, 'f') RETURNING forest_id"), {"t": t}
        ).scalar_one()
    )


def test_migration_0030_files_stored_facts_under_a_kinds_one_spelling(db_url: str) -> None:
    """A database at 0029 whose facts were filed under other spellings of a kind ("physiotherapist",
    "sports_physiotherapist", "gp", "roommate"): after 0030 each is under the kind's one slot word, as
    the readers now file it; other slots, and a word that only ends like one ("ubergp"), stay."""
    migrate.downgrade(db_url, embedding_dim=64, revision="0029")
    engine = create_engine(migrate.sync_url(db_url), poolclass=pool.NullPool)
    slots = {
        "physiotherapist": "physio",
        "sports_physiotherapist": "sports_physio",
        "gp": "doctor",
        "roommate": "flatmate",
        "dentist": "dentist",
        "ubergp": "ubergp",
    }
    t = uuid.uuid4()
    try:
        with engine.begin() as conn:
            f = _spellings_forest(conn, t)
            ids = {slot: _fact(conn, t, f, slot, "Harbour Clinic", 0) for slot in slots}
        migrate.upgrade(db_url, embedding_dim=64)
        with engine.connect() as conn:
            after = dict(
                conn.execute(text("SELECT fact_id, attribute FROM facts WHERE tenant_id = :t"), {"t": t}).all()
            )
        assert {slot: after[ids[slot]] for slot in slots} == slots
    finally:
        engine.dispose()


def test_migration_0030_threads_the_two_chains_a_slot_then_holds(db_url: str) -> None:
    """Quilla's physio told as "physiotherapist" (A, then B) and as "physio" (C, after B; D, between
    A and B): after 0030 the slot is one chain, each state that had no successor superseded by the
    next one in time (D by B, B by C), the links made before kept (A by B), and only C current."""
    migrate.downgrade(db_url, embedding_dim=64, revision="0029")
    engine = create_engine(migrate.sync_url(db_url), poolclass=pool.NullPool)
    t = uuid.uuid4()
    try:
        with engine.begin() as conn:
            f = _spellings_forest(conn, t)
            a, b = _fact(conn, t, f, "physiotherapist", "Ash", 0), _fact(conn, t, f, "physiotherapist", "Birch", 20)
            c, d = _fact(conn, t, f, "physio", "Cedar", 30), _fact(conn, t, f, "physio", "Dogwood", 10)
            conn.execute(
                text("UPDATE facts SET superseded_by = :b, valid_to = CAST('2024-01-21' AS timestamptz) "
                     "WHERE tenant_id = :t AND fact_id = :a"), {"t": t, "a": a, "b": b},
            )  # fmt: skip
            conn.execute(text("UPDATE facts SET supersedes = :a WHERE tenant_id = :t AND fact_id = :b"),
                         {"t": t, "a": a, "b": b})  # fmt: skip
        migrate.upgrade(db_url, embedding_dim=64)
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT fact_id, superseded_by, supersedes, valid_to FROM facts WHERE tenant_id = :t"), {"t": t}
            ).all()
        links = {r[0]: (r[1], r[2]) for r in rows}
        assert links == {a: (b, None), b: (c, a), c: (None, b), d: (b, None)}
        ended = {r[0]: r[3] for r in rows}
        assert ended[c] is None and ended[b] is not None and ended[d] is not None
        assert ended[d].date().isoformat() == "2024-01-21" and ended[b].date().isoformat() == "2024-01-31"
    finally:
        engine.dispose()
