"""Evidence assembly's key lookups on cached generic plans (ADR 0024, session 18): the emb descent
switches the rest of its transaction, and only that transaction, to generic plans without
sequential scans; those plans read the candidates and their provenance through their keys even
on tables small enough for a scan to look cheaper; and a query reads the same evidence either way."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np
import pytest
from support.db import log_statements
from support.plans import generic_plan, planning
from support.reads import read_tx
from support.sessions import noon_utc
from test_forest_indexes import FOREST as BIG_FOREST
from test_forest_indexes import _ingest as ingest_big_forest
from test_forest_indexes import _small_threshold as small_threshold
from test_retrieval import DIM, FactSpec, build_forest

from memforest.backends.factory import build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.retrieval import QueryRequest, query
from memforest.retrieval.browse import OUT_OF_WINDOW_PENALTY
from memforest.retrieval.filters import SourceFilter
from memforest.settings import Settings
from memforest.store import corroborate, evidence, reading, recall_channels
from memforest.store.browse import descent as descent_sql
from memforest.store.read_conn import positional
from memforest.store.sql import Conn, RowView, execute, fetch_all, scalar

FACTS = [
    FactSpec(f"{who} repaired {thing} in {2016 + i % 7}", noon_utc(2016 + i % 7, 1 + i % 12, 1 + i % 27),
             noon_utc(2016 + i % 7, 1 + i % 12, 1 + i % 27), entity=who)
    for i, (who, thing) in enumerate((w, t) for w in ("Dana", "Eli") for t in ("a boat", "a clock", "a lamp") * 4)
]  # fmt: skip
QUESTION = "What did Dana repair?"


async def _forest(conn: Conn, tenant_id: uuid.UUID) -> tuple[int, list[int]]:
    """The "shop" forest's id and its trees' root nodes."""
    forest_id = int(await scalar(conn, "SELECT forest_id FROM forests WHERE name = 'shop'"))
    rows = await fetch_all(
        conn, "SELECT root_node_id FROM trees WHERE tenant_id = :t AND forest_id = :f AND root_node_id IS NOT NULL",
        {"t": tenant_id, "f": forest_id},
    )  # fmt: skip
    return forest_id, [int(r["root_node_id"]) for r in rows]


async def _descend(conn: Conn, tenant_id: uuid.UUID, *, switch: bool) -> list[dict[str, Any]]:
    """A beam descent in a read transaction that reads by key after it (``switch``) or not."""
    forest_id, roots = await _forest(conn, tenant_id)
    q = HashedEmbedder(DIM).embed_sync([QUESTION])[0]
    tx = read_tx(conn, tenant_id, key_lookups_after_browse=switch)
    rows = await tx.descend(forest_id, roots, q, 2, None, None, OUT_OF_WINDOW_PENALTY, 0)
    return [dict(r) for r in rows]


async def test_the_descent_switches_only_the_rest_of_its_transaction(db: Database) -> None:
    tenant_id = await build_forest(db, "t", "shop", FACTS)
    async with db.tenant(tenant_id) as conn:
        assert await planning(conn) == ("force_custom_plan", "on")  # as every tenant transaction starts
        plain = await _descend(conn, tenant_id, switch=False)
        assert await planning(conn) == ("force_custom_plan", "on")
        switched = await _descend(conn, tenant_id, switch=True)
        assert await planning(conn) == ("force_generic_plan", "off")
    assert plain and [{k: v for k, v in r.items() if k != "plans"} for r in switched] == plain
    async with db.tenant(tenant_id) as conn:  # (transaction-local: the next one plans as before)
        assert await planning(conn) == ("force_custom_plan", "on")


async def test_assembly_reads_by_key_on_generic_plans_of_small_tables(db: Database) -> None:
    tenant_id = await build_forest(db, "t", "shop", FACTS)
    async with db.system() as conn:  # statistics of tables this small: a scan looks cheapest
        await execute(conn, "ANALYZE facts, cells, placements, trees, nodes, sessions, turns, fact_sources")
    async with db.tenant(tenant_id) as conn:
        forest_id, _ = await _forest(conn, tenant_id)
        ids = await fetch_all(
            conn, "SELECT fact_id FROM facts WHERE tenant_id = :t ORDER BY fact_id LIMIT 5", {"t": tenant_id}
        )
        cells = await fetch_all(
            conn, "SELECT cell_id FROM cells WHERE tenant_id = :t ORDER BY cell_id LIMIT 5", {"t": tenant_id}
        )
        trees = await fetch_all(
            conn, "SELECT tree_id FROM trees WHERE tenant_id = :t ORDER BY tree_id", {"t": tenant_id}
        )
        q = HashedEmbedder(DIM).embed_sync([QUESTION])[0]
        params = {
            "t": tenant_id, "f": forest_id, "q": np.asarray(q, dtype=np.float32),
            "fids": [int(r["fact_id"]) for r in ids], "cids": [int(r["cell_id"]) for r in cells],
            "rt": [int(r["tree_id"]) for r in trees], "tids": [int(r["tree_id"]) for r in trees][:3],
            "nkind": "fact", "nid": int(ids[0]["fact_id"]),  # (provenance's follow-on cell: ADR 0052)
        }  # fmt: skip
        statements = (
            evidence._CANDIDATES_IN_TREES, evidence._CANDIDATES, evidence._PROVENANCE, corroborate._CANDIDATE_TURNS,
        )  # fmt: skip
        assert await _descend(conn, tenant_id, switch=True)
        scans: set[str] = set()
        for sql in statements:
            nodes = await generic_plan(conn, sql, params)
            assert any("$" in str(n.get("Index Cond", "")) for n in nodes), "not a generic plan"
            scans |= {str(n["Node Type"]) for n in nodes if "Scan" in str(n["Node Type"])}
        assert "Seq Scan" not in scans and "Index Scan" in scans
        # the same generic plans with sequential scans allowed: on tables this small some read a whole
        # table (what the switch leaves out, so that a plan kept while the tables grow stays a lookup)
        await execute(conn, "SELECT set_config('enable_seqscan', 'on', true)")
        allowed = [await generic_plan(conn, sql, params) for sql in statements]
        assert any(n["Node Type"] == "Seq Scan" for nodes in allowed for n in nodes)


@pytest.mark.parametrize(("indexed", "corroborated"), [(False, False), (True, True)])
@pytest.mark.parametrize("filtered", [False, True])
async def test_a_query_reads_the_same_evidence_either_way(
    db: Database,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    filtered: bool,
    indexed: bool,
    corroborated: bool,
) -> None:
    """The query switches after its descent unless a source filter runs a vector search after it;
    only assembly's key lookups (candidates, read by the descent's own statement, then
    corroboration on their turns, provenance) then run in the transaction; the evidence equals that
    of the same query with the switch refused (the descent alone, then the candidates on parameter
    plans), in a forest read exactly and in one with its own indexes."""
    if corroborated:  # (the hashed vectors of the test settings leave it off by default)
        retrieval = settings.retrieval.model_copy(update={"support_weight": 0.025})
        settings = settings.model_copy(update={"retrieval": retrieval})
    if indexed:
        settings = small_threshold(settings, 3)
        tenant_id, _ = await ingest_big_forest(db, settings)
        forest, question, sessions = BIG_FOREST, "What is the cat called?", ("s0",)
    else:
        tenant_id = await build_forest(db, "t", "shop", FACTS)
        forest, question, sessions = "shop", QUESTION, ("S1", "S2", "S4")
    backends = build_backends(settings)
    switched: list[tuple[bool, bool]] = []  # (asked, the rows carried the switch)
    refuse = {"on": False}
    real, real_joint = reading.beam_descent, reading.beam_descent_and_candidates

    async def descent(*args: Any, key_lookups_after: bool = False, **kwargs: Any) -> list[dict[str, Any]]:
        rows = await real(*args, key_lookups_after=key_lookups_after and not refuse["on"], **kwargs)
        switched.append((key_lookups_after, bool(rows) and "plans" in rows[0]))
        return rows

    async def joint(*args: Any) -> tuple[list[RowView], list[RowView]]:
        assert not refuse["on"]
        leaves, rows = await real_joint(*args)
        switched.append((True, all("plans" in r for r in leaves + rows) and bool(leaves)))
        return leaves, rows

    async def alone(self: reading.ReadTransaction, *args: Any) -> tuple[list[RowView], None]:
        return await self.descend(*args[:-1]), None  # (the descent alone: no candidates read with it)

    monkeypatch.setattr(reading, "beam_descent", descent)
    monkeypatch.setattr(reading, "beam_descent_and_candidates", joint)
    source = SourceFilter(session_ids=sessions) if filtered else None

    async def evidence_of() -> tuple[str, list[tuple[Any, ...]]]:
        res = await query(db, settings, backends, tenant_id, QueryRequest(forest, question, source_filter=source))
        return res.strategy, [(e.kind, e.source_id, round(e.score, 9), e.turn_ids, e.tree) for e in res.evidence]

    log = log_statements(db)
    strategy, got = await evidence_of()
    assert strategy == ("hnsw" if indexed else "exact") and got
    if not filtered:  # after the descent, on its connection: assembly's candidates, their turns, provenance, COMMIT
        at = next(i for i, (_, sql) in enumerate(log) if "WITH RECURSIVE walk" in sql)
        assert log[at][1] in [positional(sql)[0] for sql in descent_sql._WITH_CANDIDATES.values()]
        after = [sql for key, sql in log[at + 1 :] if key == log[at][0]]
        turns = (corroborate._CANDIDATE_TURNS,) if corroborated else ()
        lookups = (*turns, evidence._PROVENANCE)
        assert after[: len(lookups)] == [positional(sql)[0] for sql in lookups]
        assert [sql.strip().rstrip(";").upper() for sql in after[len(lookups) : len(lookups) + 1]] == ["COMMIT"]
    refuse["on"] = True  # (and the vector channels' switch before the descent: session 24)
    monkeypatch.setattr(recall_channels, "GENERIC_PLANS_NEXT", recall_channels.CUSTOM_PLANS_AGAIN)
    monkeypatch.setattr(reading.ReadTransaction, "descend_and_read", alone)
    assert await evidence_of() == (strategy, got)
    assert switched == [(not filtered, not filtered), (not filtered, False)]


@pytest.mark.parametrize("indexed", [False, True])
async def test_the_descent_plans_once_per_connection_unless_a_vector_search_may_follow(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch, indexed: bool
) -> None:
    """After the vector channels, a query that will only read by key (no event anchor, no source
    filter) runs its descent on generic plans (ADR 0022, session 24); one with an anchor, whose
    nearest facts may need the forest's own graphs, or a source filter keeps custom plans. The
    evidence equals that of the same query kept on custom plans."""
    if indexed:
        settings = small_threshold(settings, 3)
        tenant_id, _ = await ingest_big_forest(db, settings)
        forest, plain, anchored = BIG_FOREST, "What is the cat called?", "What was the cat called before the move?"
    else:
        tenant_id = await build_forest(db, "t", "shop", FACTS)
        forest, plain, anchored = "shop", QUESTION, "What did Dana repair before the lamp?"
    backends = build_backends(settings)
    seen: list[tuple[str, str]] = []
    real, real_joint = reading.beam_descent, reading.beam_descent_and_candidates

    async def descent(conn: Conn, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        seen.append(await planning(conn))
        return await real(conn, *args, **kwargs)

    async def joint(conn: Conn, *args: Any) -> tuple[list[RowView], list[RowView]]:
        seen.append(await planning(conn))  # (the descent with assembly's candidates)
        return await real_joint(conn, *args)

    monkeypatch.setattr(reading, "beam_descent", descent)
    monkeypatch.setattr(reading, "beam_descent_and_candidates", joint)

    async def evidence_of(question: str, **kw: Any) -> list[tuple[Any, ...]]:
        res = await query(db, settings, backends, tenant_id, QueryRequest(forest, question, **kw))
        return [(e.kind, e.source_id, round(e.score, 9), e.turn_ids, e.tree) for e in res.evidence]

    got = await evidence_of(plain)
    await evidence_of(anchored)
    await evidence_of(plain, source_filter=SourceFilter(session_ids=("s0", "S1")))
    assert seen == [("force_generic_plan", "off"), ("force_custom_plan", "on"), ("force_custom_plan", "on")]
    monkeypatch.setattr(recall_channels, "GENERIC_PLANS_NEXT", recall_channels.CUSTOM_PLANS_AGAIN)
    assert await evidence_of(plain) == got and got
    assert seen[-1] == ("force_custom_plan", "on")


Evidence = list[tuple[Any, ...]]


async def _watched_query(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch, indexed: bool, part: str
) -> tuple[Callable[[], Awaitable[Evidence]], list[tuple[str, str, int]]]:
    """A forest read exactly (``indexed`` False) or through its own indexes, and a query of it
    (its evidence), which records the planning settings of each statement of the recall channels
    holding ``part`` ("vector" or "lexical") and the number of rows of that part it read."""
    if indexed:
        settings = small_threshold(settings, 3)
        tenant_id, _ = await ingest_big_forest(db, settings)
        forest, question = BIG_FOREST, "What is the cat called?"
    else:
        tenant_id = await build_forest(db, "t", "shop", FACTS)
        forest, question = "shop", QUESTION
    backends = build_backends(settings)
    seen: list[tuple[str, str, int]] = []
    real = recall_channels.recall_channels
    part_rows = {"vector": ("root", "fact", "cell", "label"), "lexical": ("lexical_fact", "lexical_node")}[part]

    async def channels(conn: Conn, *args: Any, **kwargs: Any) -> list[Any]:
        if part not in kwargs.get("parts", recall_channels.PARTS):
            return await real(conn, *args, **kwargs)
        plan_mode = await planning(conn)
        rows = await real(conn, *args, **kwargs)
        seen.append((*plan_mode, sum(r["ch"] in part_rows for r in rows)))
        return rows

    monkeypatch.setattr(recall_channels, "recall_channels", channels)

    async def evidence_of() -> Evidence:
        res = await query(db, settings, backends, tenant_id, QueryRequest(forest, question))
        assert res.strategy == ("hnsw" if indexed else "exact")
        return [(e.kind, e.source_id, round(e.score, 9), e.turn_ids, e.tree) for e in res.evidence]

    return evidence_of, seen


@pytest.mark.parametrize("indexed", [False, True])
async def test_a_known_forests_vector_channels_run_on_the_plan_made_once(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch, indexed: bool
) -> None:
    """A query of a forest this process has read before runs its vector channels' statement on
    generic plans, read exactly or through the forest's own indexes (ADR 0022, session 26: exact
    forests too); the first query, which looks the forest up, plans it for its parameters. The
    evidence is the same."""
    evidence_of, seen = await _watched_query(db, settings, monkeypatch, indexed, "vector")
    first = await evidence_of()
    assert first and await evidence_of() == first
    assert [mode[:2] for mode in seen] == [("force_custom_plan", "on"), ("force_generic_plan", "off")]
    assert all(n > 0 for *_, n in seen)


@pytest.mark.parametrize("indexed", [False, True])
async def test_the_full_text_read_beside_a_query_is_planned_for_its_parameters(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch, indexed: bool
) -> None:
    """The full-text channels, read in a transaction of the side pool beside the query, are planned
    for their parameters with sequential scans allowed, on the first query of a forest and, in one
    with its own indexes, on the next (ADR 0039). The next query of a forest read exactly reads
    them in its own statement with every channel, on the plan made once (ADR 0054)."""
    evidence_of, seen = await _watched_query(db, settings, monkeypatch, indexed, "lexical")
    got = await evidence_of()
    assert await evidence_of() == got and got
    beside = ("force_custom_plan", "on")
    assert [mode[:2] for mode in seen] == [beside, beside if indexed else ("force_generic_plan", "off")]
    assert all(n > 0 for *_, n in seen)  # (full-text matches read each time: the evidence is theirs too)


@pytest.mark.parametrize("scan_text", [True, False])
async def test_a_generic_full_text_plan_parses_the_question_once_per_execution(db: Database, scan_text: bool) -> None:
    """Every channel in one statement runs on a known forest's generic plan (when no side
    transaction reads full text beside it); there the question's tsquery is an InitPlan, computed
    once per execution (in each place it is written): written ``to_tsquery('english', $1)`` in a
    filter or a ranking, it would be parsed again for every row, as a custom plan folds it into a
    constant and a generic one cannot. Both forms of the full-text channels: a forest's rows
    scanned (through its (tenant, forest) b-trees), or its own indexes' functions."""
    tenant_id = await build_forest(db, "t", "shop", FACTS)
    async with db.tenant(tenant_id, knobs=recall_channels.recall_knobs(96, planned_once=True)) as conn:
        forest_id, _ = await _forest(conn, tenant_id)
        literal = None if scan_text else forest_id
        sql = recall_channels.channels_sql(scan_text, None, scan_text=scan_text, dim=DIM, forest_id=literal)
        params = {
            "t": tenant_id, "f": forest_id, "tsq": "dana | repair", "tsq2": "dana & repair", "tsq3": None, "cap": 300,
            "nl": 30, "as_of": None, "kinds": ["session", "entity", "scene"], "names": ["dana"],
            "q": np.asarray(HashedEmbedder(DIM).embed_sync([QUESTION])[0], dtype=np.float32),
            "nr": 8, "nrg": 16, "nf": 30, "nc": 20,
        }  # fmt: skip
        nodes = await generic_plan(conn, sql, params)
    shown = [str(n.get(key, "")) for n in nodes for key in ("Filter", "Sort Key")]
    assert any("$" in str(n.get("Index Cond", "")) for n in nodes), "not a generic plan"
    assert any(n.get("Parent Relationship") == "InitPlan" for n in nodes)
    assert not any("to_tsquery" in s for s in shown if "ts_rank" in s or "@@" in s)
    if scan_text:  # the forest's facts and cell leaves, each through a b-tree on (tenant, forest)
        scans = [(str(n["Relation Name"]), str(n.get("Index Cond", ""))) for n in nodes if "Relation Name" in n]
        assert all(any(rel == table and "forest_id" in cond for rel, cond in scans) for table in ("facts", "nodes"))
