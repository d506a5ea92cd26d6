"""A large forest's own indexes (ADR 0024): a forest past ``exact_scan_max_rows`` facts gets its own
partial HNSW and GIN indexes from its refresh job, recall and the write path's near-duplicate
lookup use them (also once a statement has been prepared and run many times), full-text matches
are the same by index and by scan, an index left invalid is rebuilt, and forgetting the forest
drops them."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from support import session_input
from support.plans import generic_plan, planning

from memforest.backends.factory import build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.cli import main
from memforest.db.engine import Database
from memforest.domain import SessionInput
from memforest.lifecycle.forget import forget_forest
from memforest.pipeline.forest_indexes import ensure_all_indexes, ensure_forest_indexes
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.settings import Settings
from memforest.store import forest_indexes as vx
from memforest.store.facts_batch import _lookup_sql, lookup_many
from memforest.store.read_conn import positional
from memforest.store.recall import TIE_MARGIN, nearest_cells, nearest_facts, nearest_roots, nearest_sql
from memforest.store.recall_channels import (
    ChannelLimits,
    channels_sql,
    plans_as_usual,
    recall_channels,
    recall_knobs,
)
from memforest.store.sql import Conn, execute, fetch_all, vector_array
from memforest.store.tenants import ensure_forest, ensure_tenant

FOREST = "big"
TEXTS = [
    "I adopted a grey cat named Pistachio last weekend.",
    "Nice, I repaired my old bicycle in the garage yesterday.",
    "Pistachio sleeps on the windowsill every afternoon.",
    "I plan to cycle along the river next Sunday.",
]


def _small_threshold(settings: Settings, rows: int) -> Settings:
    retrieval = settings.retrieval.model_copy(update={"exact_scan_max_rows": rows})
    return settings.model_copy(update={"retrieval": retrieval})


def _sessions(n: int) -> list[SessionInput]:
    when = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    return [session_input(f"s{i}", when + timedelta(days=7 * i), TEXTS, ("Ilse", "Marek"), role=None) for i in range(n)]


async def _ingest(db: Database, settings: Settings) -> tuple[uuid.UUID, int]:
    backends = build_backends(settings)
    try:
        tenant_id = await ensure_tenant(db, "acme")
        report = await ingest_sessions(db, settings, backends, tenant_id, FOREST, _sessions(2))
        assert report.jobs_failed == 0 and not report.errors
        async with db.tenant(tenant_id) as conn:
            rows = await fetch_all(conn, "SELECT forest_id FROM forests WHERE name = :n", {"n": FOREST})
        return tenant_id, int(rows[0]["forest_id"])
    finally:
        await backends.aclose()


async def test_the_refresh_job_gives_a_large_forest_its_own_indexes(db: Database, settings: Settings) -> None:
    s = _small_threshold(settings, 3)
    tenant_id, forest_id = await _ingest(db, s)
    async with db.autocommit() as conn:
        state = await vx.index_state(conn, forest_id)
        assert await vx.forest_indexed(conn, forest_id)
    assert state == {spec.name(forest_id): True for spec in vx.FOREST_INDEXES}
    backends = build_backends(s)
    try:
        result = await query(db, s, backends, tenant_id, QueryRequest(FOREST, "What is the cat called?"))
    finally:
        await backends.aclose()
    assert result.strategy == "hnsw"
    assert any("Pistachio" in e.text for e in result.evidence)
    # a forest under the threshold has none, and is scanned exactly
    other_id = (await _ingest_other(db, settings, tenant_id))[1]
    async with db.autocommit() as conn:
        assert set((await vx.index_state(conn, other_id)).values()) == {None}


async def test_an_indexed_forests_vector_channels_planned_once_read_its_graphs(
    db: Database, settings: Settings
) -> None:
    """With ``recall_knobs(planned_once=True)`` the vector channels' statement of a forest with its
    own indexes runs on a generic plan (made once per connection). It names the forest by a
    literal, so that plan still reads the forest's three graphs; it returns what the plan made for
    the parameters returns; and it hands the rest of the transaction back to custom plans with
    sequential scans allowed (a statement that finds no forest row cannot: ``plans_as_usual``)."""
    s = _small_threshold(settings, 3)
    tenant_id, forest_id = await _ingest(db, s)
    q = np.asarray(HashedEmbedder(s.embedding.dim).embed_sync(["a grey cat"])[0], dtype=np.float32)
    sql = channels_sql(False, None, scan_text=False, parts=("vector",), dim=s.embedding.dim, forest_id=forest_id)
    stmt, names = positional(sql)
    assert "f" not in names and f"forest_id = {forest_id}" in stmt
    kinds, names = ["session", "entity", "scene"], ["cat"]
    params: dict[str, object] = {"t": tenant_id, "q": q, "kinds": kinds, "names": names}
    params |= {"nr": 5, "nrg": 13, "nf": 5, "nc": 5}
    limits = ChannelLimits(roots=5, facts=5, cells=5, lexical=5, lexical_cap=50, roots_read=13)
    ef = s.retrieval.hnsw_ef_search

    async def channel_rows(planned_once: bool, forest: int) -> tuple[set[tuple[str, int]], list[tuple[str, str]]]:
        async with db.tenant(tenant_id, knobs=recall_knobs(ef, planned_once=planned_once)) as conn:
            rows = await recall_channels(conn, tenant_id, forest, q, [], kinds, names, limits,
                                         exact=False, scan_text=False, as_of=None, parts=("vector",))  # fmt: skip
            after = [await planning(conn)]
            if planned_once and not rows:
                await plans_as_usual(conn)
                after.append(await planning(conn))
        return {(str(r["ch"]), int(r["id"])) for r in rows}, after

    async with db.tenant(tenant_id, knobs=recall_knobs(ef, planned_once=True)) as conn:
        nodes = await generic_plan(conn, sql, params)
    assert any("$1" in json.dumps(n.get("Order By", "")) for n in nodes)  # generic (a custom plan shows values)
    read = {str(n.get("Index Name")) for n in nodes}
    assert {f"{graph}{forest_id}" for graph in ("ix_facts_vec_f", "ix_nodes_root_vec_f", "ix_nodes_cell_vec_f")} <= read
    once, after = await channel_rows(True, forest_id)
    custom, _ = await channel_rows(False, forest_id)
    assert once == custom and {ch for ch, _ in once} >= {"fact", "cell", "root", "forest"}
    assert after == [("force_custom_plan", "on")]
    gone, after = await channel_rows(True, forest_id + 1000)  # (no such forest: no forest row)
    assert not gone and after == [("force_generic_plan", "off"), ("force_custom_plan", "on")]


async def _ingest_other(db: Database, settings: Settings, tenant_id: uuid.UUID) -> tuple[uuid.UUID, int]:
    backends = build_backends(settings)
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "small", _sessions(1))
    finally:
        await backends.aclose()
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(conn, "SELECT forest_id FROM forests WHERE name = 'small'")
    return tenant_id, int(rows[0]["forest_id"])


async def test_tenant_statements_use_the_partial_index_even_when_prepared(db: Database, settings: Settings) -> None:
    """The partial predicate ``forest_id = N`` matches only a plan made for the parameter's value:
    tenant transactions force custom plans (until a query's assembly, which reads by key only), so no
    run of a prepared nearest-rows statement gets a generic one."""
    s = _small_threshold(settings, 3)
    tenant_id, forest_id = await _ingest(db, s)
    q = np.asarray(HashedEmbedder(s.embedding.dim).embed_sync(["a grey cat"])[0], dtype=np.float32)
    sql = nearest_sql("facts", exact=False)
    params: dict[str, object] = {"t": tenant_id, "f": forest_id, "q": q, "n": 5}
    async with db.tenant(tenant_id) as conn:
        await execute(conn, "SET LOCAL enable_seqscan = off")  # a 16-row table would rather be read whole
        for _ in range(10):  # past the five custom plans after which a generic plan may be chosen
            await fetch_all(conn, sql, params)
            await lookup_many(conn, tenant_id, forest_id, ["no-such-hash"], [q])  # the write path's lookup
        plans = await fetch_all(
            conn,
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%embedding <=>%' "
            "AND ltrim(statement, E' \\n') LIKE 'WITH %' AND statement NOT LIKE '%pg_prepared_statements%'",
        )
        plan = await fetch_all(conn, "EXPLAIN " + sql, params)
    # (the connection may hold other statements the ingest prepared: none got a generic plan either)
    assert all(r["generic_plans"] == 0 for r in plans)
    assert len([r for r in plans if r["custom_plans"] >= 10]) >= 2
    assert f"ix_facts_vec_f{forest_id}" in "\n".join(str(r["QUERY PLAN"]) for r in plan)


async def test_an_index_holding_other_rows_than_its_spec_is_rebuilt(db: Database, settings: Settings) -> None:
    """An index built with another predicate (the node full-text index as releases before
    migration 0016 built it) counts as to build again, and ``db index-forests`` rebuilds it."""
    s = _small_threshold(settings, 3)
    _, forest_id = await _ingest(db, s)
    name = f"ix_nodes_tsv_f{forest_id}"
    old = f"CREATE INDEX {name} ON nodes USING gin (tsv) WHERE forest_id = {forest_id} AND leaf_fact_id IS NULL"
    definition = await _rebuilt_from(db, s, forest_id, name, old)
    assert definition.endswith(f"WHERE ((forest_id = {forest_id}) AND (leaf_cell_id IS NOT NULL))")


async def _definition(conn: Conn, name: str) -> str:
    """The index's ``CREATE INDEX`` statement as the catalogue prints it."""
    rows = await fetch_all(conn, "SELECT pg_get_indexdef(to_regclass(:n)) AS d", {"n": name})
    return str(rows[0]["d"])


async def _rebuilt_from(db: Database, s: Settings, forest_id: int, name: str, old_definition: str) -> str:
    """Replace the forest's index ``name`` by ``old_definition`` (an index as an older release built
    it), which must count as to build again while the forest's other indexes stand; run ``db
    index-forests`` (``ensure_all_indexes``), which must rebuild only it. Returns the definition it
    rebuilt."""
    async with db.autocommit() as conn:
        assert (await vx.index_state(conn, forest_id))[name] is True
        await execute(conn, f"DROP INDEX {name}")
        await execute(conn, old_definition)
        state = await vx.index_state(conn, forest_id)
    assert state[name] is False and all(v for k, v in state.items() if k != name)
    report = await ensure_all_indexes(db, s)
    assert report.rebuilt == [name] and report.built == []
    async with db.autocommit() as conn:
        assert all((await vx.index_state(conn, forest_id)).values())
        return await _definition(conn, name)


async def _rebuilt_without(db: Database, forest_id: int, name: str, storage: str) -> str:
    """Replace the forest's index ``name`` by the same index without its storage parameters
    ``storage`` (as pgvector's defaults build it, e.g. by an older release), which must count as
    stale; returns the definition it had."""
    async with db.autocommit() as conn:
        definition = await _definition(conn, name)
        assert f" WITH ({storage})" in definition
        await execute(conn, f"DROP INDEX {name}")
        await execute(conn, definition.replace(f" WITH ({storage})", ""))
        assert (await vx.index_state(conn, forest_id))[name] is False
    return definition


async def _full_precision_cell_graph(db: Database, forest_id: int) -> str:
    """Replace the forest's cell graph by one as releases before migration 0017 built it (stale)."""
    name = f"ix_nodes_cell_vec_f{forest_id}"
    async with db.autocommit() as conn:
        await execute(conn, f"DROP INDEX {name}")
        await execute(conn, f"CREATE INDEX {name} ON nodes USING hnsw (embedding vector_cosine_ops) "
                            f"WHERE forest_id = {forest_id} AND level = 0 AND leaf_cell_id IS NOT NULL")  # fmt: skip
        assert (await vx.index_state(conn, forest_id))[name] is False
    return name


async def test_the_vector_channels_read_the_half_precision_node_graphs(db: Database, settings: Settings) -> None:
    """The roots' and cell leaves' graphs index ``halfvec`` keys (migration 0017): the vector
    channels' statement must order by the same key, or the planner would scan the forest; each row
    keeps its full-precision similarity. A graph of an older release (full precision, or pgvector's
    default links where the spec asks for fewer) counts as to build again."""
    s = _small_threshold(settings, 3)
    tenant_id, forest_id = await _ingest(db, s)
    q = np.asarray(HashedEmbedder(s.embedding.dim).embed_sync(["a grey cat"])[0], dtype=np.float32)
    sql = channels_sql(False, None, scan_text=False, parts=("vector",), dim=s.embedding.dim)
    params: dict[str, object] = {"t": tenant_id, "f": forest_id, "q": q, "kinds": ["session", "entity", "scene"],
                                 "names": [], "nr": 5, "nrg": 13, "nf": 5, "nc": 5}  # fmt: skip
    async with db.tenant(tenant_id) as conn:
        await execute(conn, "SET LOCAL enable_seqscan = off")  # a tiny forest would rather be read whole
        plan = "\n".join(str(r["QUERY PLAN"]) for r in await fetch_all(conn, "EXPLAIN " + sql, params))
        cells = await fetch_all(conn, sql, params)
        exact = await fetch_all(
            conn,
            "SELECT leaf_cell_id AS id, 1 - (embedding <=> :q) AS s FROM nodes WHERE tenant_id = :t "
            "AND forest_id = :f AND leaf_cell_id = ANY(:ids) AND level = 0",
            {"t": tenant_id, "f": forest_id, "q": q, "ids": [int(r["id"]) for r in cells if r["ch"] == "cell"]},
        )
    assert f"ix_nodes_root_vec_f{forest_id}" in plan and f"ix_nodes_cell_vec_f{forest_id}" in plan
    got = {int(r["id"]): float(r["s"]) for r in cells if r["ch"] == "cell"}
    assert got and got == pytest.approx({int(r["id"]): float(r["s"]) for r in exact}, abs=1e-6)
    name = await _full_precision_cell_graph(db, forest_id)
    # the forest's refresh job rebuilds it (a worker of an older release may have built it) ...
    assert (await ensure_forest_indexes(db, s, tenant_id, forest_id)).rebuilt == [name]
    await _full_precision_cell_graph(db, forest_id)
    assert (await ensure_all_indexes(db, s)).rebuilt == [name]  # ... and so does `db index-forests`
    await _rebuilt_without(db, forest_id, name, "m='8'")  # the right key with pgvector's default links is stale too


async def test_rows_at_the_same_distance_are_kept_by_id_through_the_graphs_and_exactly(
    db: Database, settings: Settings
) -> None:
    """Equal vectors (a statement restated in several sessions) tie: the exact scans and the forest's
    graphs keep the same ones, the smallest ids first, whichever the graph meets first."""
    s = _small_threshold(settings, 3)
    tenant_id, forest_id = await _ingest(db, s)
    cell_leaves = "level = 0 AND leaf_cell_id IS NOT NULL"
    async with db.system() as conn:  # every fact, every cell leaf and every root: one vector each
        for table, rows in (("facts", "true"), ("nodes", cell_leaves), ("nodes", "parent_id IS NULL")):
            await execute(
                conn,
                f"UPDATE {table} SET embedding = (SELECT embedding FROM {table} WHERE forest_id = :f AND {rows} "
                f"AND embedding IS NOT NULL ORDER BY 1 LIMIT 1) "
                f"WHERE forest_id = :f AND {rows} AND embedding IS NOT NULL",
                {"f": forest_id},
            )
    got: dict[tuple[str, bool], list[int]] = {}
    async with db.tenant(tenant_id, knobs=recall_knobs(s.retrieval.hnsw_ef_search)) as conn:
        await execute(conn, "SET LOCAL enable_seqscan = off")  # a tiny forest would rather be read whole
        for kind, nearest, table, key, rows in (
            ("facts", nearest_facts, "facts", "fact_id", "true"),
            ("cells", nearest_cells, "nodes", "leaf_cell_id", cell_leaves),
            ("roots", nearest_roots, "nodes", "node_id", "parent_id IS NULL"),
        ):
            ids = await fetch_all(
                conn, f"SELECT {key} AS id, embedding FROM {table} WHERE tenant_id = :t AND forest_id = :f "
                f"AND {rows} AND embedding IS NOT NULL ORDER BY {key}", {"t": tenant_id, "f": forest_id},
            )  # fmt: skip
            vectors = [r["embedding"].to_numpy() for r in ids]
            tied = [int(r["id"]) for r, v in zip(ids, vectors, strict=True) if np.array_equal(v, vectors[-1])]
            assert 3 < len(tied) <= 3 + TIE_MARGIN, kind  # wider than the limit, within the margin
            q = np.asarray(vectors[-1], dtype=np.float32)
            for exact in (True, False):
                got[(kind, exact)] = [i for i, _ in await nearest(conn, tenant_id, forest_id, q, 3, exact=exact)]
            assert got[(kind, True)] == got[(kind, False)] == tied[:3], kind
        graphs = {
            f"ix_facts_vec_f{forest_id}": nearest_sql("facts", exact=False),
            f"ix_nodes_cell_vec_f{forest_id}": nearest_sql("cells", exact=False, dim=len(q)),
            f"ix_nodes_root_vec_f{forest_id}": nearest_sql("roots", exact=False, dim=len(q)),
        }
        for index, sql in graphs.items():  # (the graph answered, not a b-tree and a sort)
            plan = await fetch_all(conn, "EXPLAIN " + sql, {"t": tenant_id, "f": forest_id, "q": q, "n": 3})
            assert index in "\n".join(str(r["QUERY PLAN"]) for r in plan)


async def test_the_facts_graph_is_built_wider_and_a_default_one_is_rebuilt(db: Database, settings: Settings) -> None:
    """The facts' graph is built with ``ef_construction = 128`` (session 27: at pgvector's default
    64 a 10K forest's graph missed up to 6% of the exact top 60); one built at the default (by an
    older release) counts as to build again, and the forest's refresh job rebuilds it."""
    s = _small_threshold(settings, 3)
    tenant_id, forest_id = await _ingest(db, s)
    name = f"ix_facts_vec_f{forest_id}"
    definition = await _rebuilt_without(db, forest_id, name, "ef_construction='128'")
    assert (await ensure_forest_indexes(db, s, tenant_id, forest_id)).rebuilt == [name]
    async with db.autocommit() as conn:
        assert await _definition(conn, name) == definition


async def test_a_graph_keyed_at_another_dimension_is_stale(db: Database, settings: Settings) -> None:
    """A half-precision graph keyed at another dimension than the stored vectors' (a builder that
    a dimension change overtook) would refuse every new vector: it counts as to build again."""
    forest_id = 987654321  # no rows: any key builds
    spec = next(s for s in vx.FOREST_INDEXES if s.prefix == "ix_nodes_cell_vec_f")
    name = spec.name(forest_id)
    async with db.autocommit() as conn:
        for dim, fresh in ((settings.embedding.dim // 2, False), (settings.embedding.dim, True)):
            await vx.create_index(conn, spec, forest_id, dim)
            assert (await vx.index_state(conn, forest_id))[name] is fresh, dim
            await vx.drop_index(conn, name)


async def test_an_invalid_index_is_rebuilt_and_forgetting_drops_them(db: Database, settings: Settings) -> None:
    s = _small_threshold(settings, 3)
    tenant_id, forest_id = await _ingest(db, s)
    name = f"ix_facts_vec_f{forest_id}"
    async with db.system() as conn:  # what an interrupted CREATE INDEX CONCURRENTLY leaves behind
        await execute(conn, "UPDATE pg_index SET indisvalid = false WHERE indexrelid = to_regclass(:n)", {"n": name})
    async with db.autocommit() as conn:
        assert not await vx.forest_indexed(conn, forest_id)
    report = await ensure_forest_indexes(db, s, tenant_id, forest_id)
    assert report.rebuilt == [name] and report.built == []
    async with db.autocommit() as conn:
        assert await vx.forest_indexed(conn, forest_id)
    assert (await ensure_forest_indexes(db, s, tenant_id, forest_id)).built == []  # nothing left to do
    await forget_forest(db, tenant_id, FOREST)
    async with db.autocommit() as conn:
        assert set((await vx.index_state(conn, forest_id)).values()) == {None}


async def test_index_forests_builds_what_is_missing_and_drops_orphans(db: Database, settings: Settings) -> None:
    _, forest_id = await _ingest(db, settings)  # default threshold: no index yet
    async with db.autocommit() as conn:
        assert not await vx.forest_indexed(conn, forest_id)
        # an index whose forest is gone (deleted behind our back)
        await vx.create_index(conn, vx.FOREST_INDEXES[-1], 987654321, settings.embedding.dim)
    report = await ensure_all_indexes(db, _small_threshold(settings, 3))
    assert report.dropped == ["ix_facts_vec_f987654321"]
    assert sorted(report.built) == sorted(spec.name(forest_id) for spec in vx.FOREST_INDEXES)
    async with db.autocommit() as conn:
        assert await vx.forest_indexed(conn, forest_id)


async def test_scanning_and_the_forests_gin_index_find_the_same_text_matches(db: Database, settings: Settings) -> None:
    """Full-text candidates of a forest without its own indexes come from its rows (migration 0013),
    of one with them from its GIN indexes; where the cap does not bind and fewer rows than the
    channel returns match every term of the question (migration 0023), both find the same rows
    with the same ranks."""
    tenant_id, forest_id = await _ingest(db, _small_threshold(settings, 3))
    q = np.asarray(HashedEmbedder(settings.embedding.dim).embed_sync(["cat bicycle"])[0], dtype=np.float32)
    limits = ChannelLimits(roots=5, facts=5, cells=5, lexical=50, lexical_cap=300, roots_read=13)
    got = {}
    for scan in (False, True):
        async with db.tenant(tenant_id) as conn:
            rows = await recall_channels(
                conn, tenant_id, forest_id, q, ["pistachio", "bicycle", "windowsill"], ["session", "entity"], [],
                limits, exact=True, scan_text=scan, as_of=None, parts=("lexical",),
            )  # fmt: skip
        got[scan] = sorted((r["ch"], int(r["id"]), float(r["s"])) for r in rows if str(r["ch"]).startswith("lexical"))
    assert got[True] == got[False]
    assert {ch for ch, _, _ in got[True]} == {"lexical_fact", "lexical_node"}


async def test_the_index_forests_command_reports_what_it_built(
    db: Database, settings: Settings, db_env: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    await _ingest(db, settings)
    monkeypatch.setenv("MEMFOREST_RETRIEVAL__EXACT_SCAN_MAX_ROWS", "3")
    assert await asyncio.to_thread(main, ["db", "index-forests"]) == 0
    assert capsys.readouterr().out.strip() == f"forest indexes: {len(vx.FOREST_INDEXES)} built, 0 rebuilt, 0 dropped"
    assert await asyncio.to_thread(main, ["db", "index-forests"]) == 0
    assert capsys.readouterr().out.strip() == "forest indexes: 0 built, 0 rebuilt, 0 dropped"


async def _text_forest(db: Database, texts: list[str]) -> tuple[uuid.UUID, int]:
    """A tenant and a forest holding one fact per text (no vectors: the full-text functions only)."""
    tenant_id = await ensure_tenant(db, "acme")
    async with db.tenant(tenant_id) as conn:
        forest_id = (await ensure_forest(conn, tenant_id, "lex")).forest_id
        for i, t in enumerate(texts):
            await execute(
                conn,
                "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, valid_from) "
                "VALUES (:t, :f, :x, :h, 'event', now())",
                {"t": tenant_id, "f": forest_id, "x": t, "h": f"h{i}"},
            )
    return tenant_id, forest_id


# the candidates of a forest with its own indexes (migration 0023's signature), by their texts, in
# the order the function returns them
_TEXT_CANDIDATES = (
    "SELECT f.text FROM memforest_fact_text_candidates(:f, to_tsquery('english', :any), to_tsquery('english', :two), "
    "to_tsquery('english', :all), :enough, :cap, NULL) WITH ORDINALITY AS c(fact_id, tsv, n) "
    "JOIN facts f ON f.fact_id = c.fact_id ORDER BY c.n"
)


async def test_text_candidates_keep_pair_matches_first_up_to_the_cap(db: Database) -> None:
    """Migration 0014's one call per kind (a forest with its own indexes): the rows matching a pair
    of the question's terms come first, up to the cap; rows matching one term join only while the
    pairs did not fill it, up to the cap (a question of two terms: no every-term query)."""
    texts = ["amber beacon one", "amber beacon two"] + [f"amber alone {i}" for i in range(6)] + ["nothing here"]
    tenant_id, forest_id = await _text_forest(db, texts)
    pairs = {"amber beacon one", "amber beacon two"}
    async with db.tenant(tenant_id) as conn:
        pair_query = {"f": forest_id, "any": "amber | beacon", "two": "amber & beacon", "all": None, "enough": 10}
        got = {}
        for cap in (1, 2, 3, 10):
            got[cap] = {str(r["text"]) for r in await fetch_all(conn, _TEXT_CANDIDATES, pair_query | {"cap": cap})}
        no_pairs = await fetch_all(conn, _TEXT_CANDIDATES, pair_query | {"two": None, "cap": 3})
    assert len(got[1]) == 1 and got[1] <= pairs  # the pairs fill the cap: nothing else
    assert got[2] == pairs
    assert len(got[3]) == 5 and pairs <= got[3]  # two pairs, then three single matches
    assert got[10] == set(texts[:-1])  # the cap does not bind: every match
    assert len(no_pairs) == 3  # one term only: any match, up to the cap


async def test_text_candidates_read_rows_matching_every_term_first(db: Database) -> None:
    """Migration 0023: with a query of every term, its matches come first, up to the cap; when
    there are ``enough`` of them (the caller's own row count) nothing else is read; otherwise the
    pair matches that are not every-term matches follow, then the single-term ones while those
    did not fill the cap, each read once."""
    every = {f"amber beacon cedar {i}" for i in range(3)}
    pairs = {f"amber beacon {i}" for i in range(2)}
    singles = {f"cedar alone {i}" for i in range(2)}
    tenant_id, forest_id = await _text_forest(db, [*sorted(every | pairs | singles), "nothing here"])
    question = {
        "f": forest_id,
        "any": "amber | beacon | cedar",
        "two": "(amber & beacon) | (amber & cedar) | (beacon & cedar)",
        "all": "amber & beacon & cedar",
    }

    async def candidates(enough: int, cap: int) -> list[str]:
        async with db.tenant(tenant_id) as conn:
            params = question | {"enough": enough, "cap": cap}
            return [str(r["text"]) for r in await fetch_all(conn, _TEXT_CANDIDATES, params)]

    assert sorted(await candidates(3, 10)) == sorted(every)  # enough every-term matches: those alone
    assert sorted(await candidates(2, 10)) == sorted(every)  # (up to the cap, not to ``enough``)
    more = await candidates(4, 10)
    assert sorted(more) == sorted(every | pairs | singles)  # too few: pairs and single terms too, once
    assert sorted(await candidates(4, 5)) == sorted(every | pairs)  # the two reads filled the cap: no single terms
    capped = await candidates(5, 2)
    assert len(capped) == 4 and set(capped[:2]) <= every and set(capped[2:]) == pairs  # the cap per read


async def test_the_full_text_channel_of_an_indexed_forest_ranks_every_term_matches_alone(db: Database) -> None:
    """Through ``recall_channels`` (a forest with its own indexes: the candidate functions): a
    question of three terms with as many every-term matches as the channel returns gets those,
    though a pair match ranks higher by ``ts_rank``; with fewer, the pair match joins them."""
    filler = " ".join(f"filler{j}" for j in range(40))
    every = [f"amber beacon cedar {i} {filler}" for i in range(3)]  # (long: ts_rank divides by length)
    pair = "amber amber amber beacon beacon beacon"  # (short, terms repeated: the higher ts_rank)
    tenant_id, forest_id = await _text_forest(db, [*every, pair])
    terms = ["amber", "beacon", "cedar"]

    async def lexical(rows: int) -> list[str]:
        limits = ChannelLimits(roots=0, facts=0, cells=0, lexical=rows, lexical_cap=300, roots_read=0)
        async with db.tenant(tenant_id) as conn:
            got = await recall_channels(conn, tenant_id, forest_id, None, terms, ["session"], [], limits,
                                        exact=False, scan_text=False, as_of=None, parts=("lexical",))  # fmt: skip
            ids = [int(r["id"]) for r in got if r["ch"] == "lexical_fact"]
            texts = await fetch_all(conn, "SELECT fact_id, text FROM facts WHERE fact_id = ANY(:ids)", {"ids": ids})
        by_id = {int(r["fact_id"]): str(r["text"]) for r in texts}
        return [by_id[i] for i in ids]

    assert sorted(await lexical(3)) == sorted(every)
    four = await lexical(4)
    assert sorted(four) == sorted([*every, pair]) and four[0] == pair  # ranked together: the pair first


async def test_the_write_paths_lookup_ranks_a_copy_of_a_small_forest_and_an_indexed_forests_graph(
    db: Database, settings: Settings
) -> None:
    """``lookup_many`` reads a forest without its own indexes once into ``live`` and ranks that copy
    per candidate; a forest with them leaves ``live`` empty and ranks by its HNSW graph. Either way
    the three nearest are those of the exact order (ADR 0065)."""
    s = _small_threshold(settings, 3)
    tenant_id, forest_id = await _ingest(db, s)
    other_id = (await _ingest_other(db, settings, tenant_id))[1]
    q = np.asarray(HashedEmbedder(s.embedding.dim).embed_sync(["a grey cat"])[0], dtype=np.float32)
    exact = (
        "SELECT fact_id FROM facts WHERE tenant_id = :t AND forest_id = :f AND retracted_at IS NULL "
        "AND embedding IS NOT NULL ORDER BY embedding <=> :q, fact_id LIMIT 3"
    )
    params: dict[str, object] = {"t": tenant_id, "h": ["no-such-hash"], "nz": [True], "n": 1}
    params["v"] = vector_array([q])
    async with db.tenant(tenant_id) as conn:
        await execute(conn, "SET LOCAL enable_seqscan = off")  # a 16-row table would rather be read whole
        for forest, indexed in ((forest_id, True), (other_id, False)):
            rows = await lookup_many(conn, tenant_id, forest, ["no-such-hash"], [q])
            want = [r["fact_id"] for r in await fetch_all(conn, exact, {"t": tenant_id, "f": forest, "q": q})]
            assert [r["fact_id"] for r in rows] == want and len(want) == 3
            plan = await fetch_all(conn, "EXPLAIN (ANALYZE, COSTS OFF) " + _lookup_sql(forest), params | {"f": forest})
            text = "\n".join(str(r["QUERY PLAN"]) for r in plan)
            assert (f"Index Scan using ix_facts_vec_f{forest}" in text) is indexed
            live = next(line for line in text.splitlines() if "CTE Scan on live" in line)
            assert ("never executed" in live or "rows=0" in live) is indexed


async def test_a_node_graph_over_the_full_vector_column_is_rebuilt(db: Database, settings: Settings) -> None:
    """A root graph keyed on ``embedding`` (as releases before migration 0029 built it: same rows,
    operator class and dimension) counts as to build again, and ``db index-forests`` rebuilds it
    over ``graph_embedding``, the column only roots and cell leaves fill."""
    s = _small_threshold(settings, 3)
    _, forest_id = await _ingest(db, s)
    name = f"ix_nodes_root_vec_f{forest_id}"
    async with db.autocommit() as conn:
        dim = await vx.embedding_dim(conn)
    old = (
        f"CREATE INDEX {name} ON nodes USING hnsw ((CAST(embedding AS halfvec({dim}))) halfvec_cosine_ops) "
        f"WHERE forest_id = {forest_id} AND parent_id IS NULL"
    )
    definition = await _rebuilt_from(db, s, forest_id, name, old)
    assert f"USING hnsw (((graph_embedding)::halfvec({dim})) halfvec_cosine_ops)" in definition
