"""A temporal question's subject lookups under row-level security (migrations 0020 and 0028, ADRs
0029 and 0072): they read the speaker, subject and entity-link indexes, not every fact of the
forest, and keep to the caller's tenant."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from memforest.db.engine import Database
from memforest.store import temporal as store
from memforest.store.sql import Conn, scalar

_BASE = datetime(2024, 1, 1, tzinfo=UTC)
# the facts of the forest the lookups touch, this transaction (the functions' reads as the owner count too)
_FETCHED = (
    "SELECT pg_stat_get_xact_tuples_fetched('facts'::regclass) + pg_stat_get_xact_tuples_returned('facts'::regclass)"
)


async def _forest(db: Database, name: str, others: int) -> tuple[uuid.UUID, int]:
    """A tenant with one forest: ``others`` facts said by Blake, and three about Alice (one her own
    state with a subject, two she said)."""
    tenant = uuid.uuid4()
    async with db.system() as conn:
        await conn.execute(text("INSERT INTO tenants (tenant_id, name) VALUES (:t, :n)"), {"t": tenant, "n": name})
        forest = (
            await conn.execute(
                text("INSERT INTO forests (tenant_id, name) VALUES (:t, 'f') RETURNING forest_id"), {"t": tenant}
            )
        ).scalar_one()
        rows = [("Blake", None, f"Blake mentioned item {i}") for i in range(others)]
        rows += [("Blake", "Alice", "Alice lives in Davis"), ("Alice", None, "I moved"), ("Alice", None, "I sold it")]
        for i, (speaker, subject, fact) in enumerate(rows):
            await conn.execute(
                text(
                    "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, speaker, subject, valid_from) "
                    "VALUES (:t, :f, :x, :h, 'event', :sp, :su, :v)"
                ),
                {"t": tenant, "f": forest, "x": fact, "h": f"{name}-{i}", "sp": speaker, "su": subject,
                 "v": _BASE + timedelta(minutes=i)},
            )  # fmt: skip
        await conn.execute(text("ANALYZE facts"))
    return tenant, forest


async def _no_scans(conn: Conn) -> None:
    """Sequential scans off, as a large forest would make the planner choose: on a small table
    the planner may read it all whatever the indexes, which would hide the difference."""
    await conn.execute(text("SET LOCAL enable_seqscan = off"))


async def test_lookups_read_the_subjects_facts_not_the_forest(db: Database) -> None:
    tenant, forest = await _forest(db, "lookups", others=300)
    async with db.tenant(tenant) as conn:
        await _no_scans(conn)
        before = int(await scalar(conn, _FETCHED))
        assert await store.known_subjects(conn, tenant, forest, ["alice", "blake", "nobody"]) == {"alice", "blake"}
        facts = await store.subject_facts(conn, tenant, forest, "Alice", None)
        read = int(await scalar(conn, _FETCHED)) - before
    # her subject's fact, and the two she said that have no subject of their own
    assert [f["text"] for f in facts] == ["Alice lives in Davis", "I moved", "I sold it"]
    # a probe per name stops at its first row; her facts are three (before migration 0020 the
    # policy kept ``lower(...)`` out of the index conditions: every fact of the forest was read)
    assert read < 30, read


async def test_lookups_keep_to_the_callers_tenant(db: Database) -> None:
    a, _ = await _forest(db, "tenant-a", others=1)
    b, forest_b = await _forest(db, "tenant-b", others=1)
    async with db.tenant(a) as conn:  # tenant B's forest id, asked for as tenant A
        assert await store.known_subjects(conn, a, forest_b, ["alice", "blake"]) == set()
        assert await store.subject_facts(conn, a, forest_b, "alice", None) == []
    async with db.tenant(b) as conn:
        assert await store.known_subjects(conn, b, forest_b, ["alice", "blake"]) == {"alice", "blake"}
        assert len(await store.subject_facts(conn, b, forest_b, "alice", None)) == 3
    async with db.engine.begin() as conn:  # no tenant set
        await conn.execute(text("SET LOCAL ROLE memforest_app"))
        counts = [
            (await conn.execute(text(f"SELECT count(*) FROM {call}"), {"f": forest_b})).scalar()
            for call in ("memforest_known_subjects(:f, ARRAY['alice'])", "memforest_subject_facts(:f, 'alice')")
        ]
    assert counts == [0, 0]


async def test_the_probe_reads_what_the_three_lookups_read(db: Database) -> None:
    tenant, forest = await _forest(db, "probe", others=5)
    async with db.tenant(tenant) as conn:
        cases = ((["nobody", "alice", "blake"], ""), (["alice", "blake"], "alice"), (["nobody"], ""))
        for names, anchor in cases:
            probe = await store.subject_probe(conn, tenant, forest, names, anchor, 4)
            known = await store.known_subjects(conn, tenant, forest, names)
            first = next((n for n in names if n in known and n != anchor), None)
            assert probe.known == known
            assert probe.first == first
            texts = await store.texts_naming(conn, tenant, forest, first, 4) if first else []
            assert list(probe.texts) == texts
            assert probe.root == (await store.entity_root(conn, tenant, forest, first) if first else None)
        assert (await store.subject_probe(conn, tenant, forest, ["blake"], "", 4)).texts == (
            "Blake mentioned item 4", "Blake mentioned item 3", "Blake mentioned item 2", "Blake mentioned item 1",
        )  # fmt: skip


async def _link(conn: Conn, tenant: uuid.UUID, forest: int, key: str, speaker: bool, texts: list[str]) -> None:
    """The entity ``key`` (a speaker or not) linked to the forest's facts whose text is in ``texts``."""
    await conn.execute(
        text("INSERT INTO entities (tenant_id, forest_id, key, label, is_speaker) VALUES (:t, :f, :k, :k, :sp)"),
        {"t": tenant, "f": forest, "k": key, "sp": speaker},
    )
    await conn.execute(
        text(
            "INSERT INTO entity_facts (tenant_id, entity_id, fact_id, forest_id, session_id) "
            "SELECT :t, e.entity_id, x.fact_id, :f, 1 FROM facts x JOIN entities e ON e.tenant_id = x.tenant_id "
            "AND e.forest_id = x.forest_id AND e.key = :k "
            "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.text = ANY(:x)"
        ),
        {"t": tenant, "f": forest, "k": key, "x": texts},
    )


async def test_a_non_speakers_named_facts_are_read_by_their_links(db: Database) -> None:
    """Blake's slotless words linked to Dana (no speaker) are Dana's too, read by key: the forest's
    other facts are not read, and a speaker's entity adds none (her own words are hers already)."""
    tenant, forest = await _forest(db, "named", others=300)
    named = ["Blake mentioned item 7", "Blake mentioned item 150", "Blake mentioned item 299"]
    async with db.system() as conn:
        await _link(conn, tenant, forest, "dana", False, named)
        await _link(conn, tenant, forest, "alice", True, ["Blake mentioned item 8"])
        for table in ("entities", "entity_facts"):
            await conn.execute(text(f"ANALYZE {table}"))
    async with db.tenant(tenant) as conn:  # no state of her own yet ("Caroline agrees, Mel"): none
        assert await store.subject_facts(conn, tenant, forest, "Dana", None) == []
    await _own_state(db, tenant, forest, "Dana")
    async with db.tenant(tenant) as conn:
        await _no_scans(conn)
        before = int(await scalar(conn, _FETCHED))
        dana = await store.subject_facts(conn, tenant, forest, "Dana", None)
        read = int(await scalar(conn, _FETCHED)) - before
        alice = await store.subject_facts(conn, tenant, forest, "Alice", None)
        ids = [int(f["fact_id"]) for f in dana + alice]
        by_id = await store.facts_by_id(conn, tenant, forest, "Dana", ids, None)
    assert [f["text"] for f in dana] == [*named, "Dana lives in Kelso"]
    assert read < 30, read
    assert [f["text"] for f in alice] == ["Alice lives in Davis", "I moved", "I sold it"]
    assert [f["text"] for f in by_id] == [*named, "Dana lives in Kelso"]


# index entries of entity_facts read in this transaction (an index-only scan touches no heap row)
_LINKS_READ = (
    "SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) FROM pg_index"
    " WHERE indrelid = 'entity_facts'::regclass"
)


async def test_a_non_speakers_named_facts_are_the_newest_links_only(db: Database) -> None:
    """The newest NAMED_FACTS links are read and no more, however many the person has."""
    others = store.NAMED_FACTS * 5
    tenant, forest = await _forest(db, "named-newest", others=others)
    async with db.system() as conn:
        await _link(conn, tenant, forest, "dana", False, [f"Blake mentioned item {i}" for i in range(others)])
        await _crowd(conn, tenant, forest, 2000)
        for table in ("entities", "entity_facts"):
            await conn.execute(text(f"ANALYZE {table}"))
    await _own_state(db, tenant, forest, "Dana")
    async with db.tenant(tenant) as conn:
        before = int(await scalar(conn, _LINKS_READ))
        dana = await store.subject_facts(conn, tenant, forest, "Dana", None)
        links_read = int(await scalar(conn, _LINKS_READ)) - before
    newest = [f"Blake mentioned item {i}" for i in range(others - store.NAMED_FACTS, others)]
    assert [f["text"] for f in dana] == [*newest, "Dana lives in Kelso"]
    assert links_read <= store.NAMED_FACTS + 2, links_read


async def _crowd(conn: Conn, tenant: uuid.UUID, forest: int, people: int) -> None:
    """``people`` more entities, each linked to one fact of the forest (statistics like a real forest's)."""
    await conn.execute(
        text(
            "INSERT INTO entities (tenant_id, forest_id, key, label, is_speaker) "
            "SELECT :t, :f, 'person ' || i, 'Person ' || i, false FROM generate_series(1, :n) i"
        ),
        {"t": tenant, "f": forest, "n": people},
    )
    await conn.execute(
        text(
            "INSERT INTO entity_facts (tenant_id, entity_id, fact_id, forest_id, session_id) "
            "SELECT :t, e.entity_id, (SELECT min(fact_id) FROM facts WHERE tenant_id = :t AND forest_id = :f), :f, 1 "
            "FROM entities e WHERE e.tenant_id = :t AND e.forest_id = :f AND e.key LIKE 'person %'"
        ),
        {"t": tenant, "f": forest},
    )


async def _own_state(db: Database, tenant: uuid.UUID, forest: int, name: str) -> None:
    """A fact whose subject is ``name`` (a state of their own), after every other fact."""
    async with db.system() as conn:
        await conn.execute(
            text(
                "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, speaker, subject, valid_from) "
                "VALUES (:t, :f, :x, :h, 'event', 'Blake', :su, :v)"
            ),
            {"t": tenant, "f": forest, "x": f"{name} lives in Kelso", "h": f"own-{name}", "su": name,
             "v": _BASE + timedelta(days=30)},
        )  # fmt: skip
