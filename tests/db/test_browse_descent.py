"""The emb beam descent read in one statement (the database chooses the beam and the leaves) gives
the same leaves, in the same order, as a descent read level by level and chosen here: with and
without the per-tree cap of live leaves, NaN scores last, superseded and retracted facts left out
first where the cap applies."""

from __future__ import annotations

import math
import uuid
from collections import Counter
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np
import pytest
from support import record_leaf_caps
from support.reads import read_tx
from support.sessions import noon_utc
from test_retrieval import DIM, FactSpec, build_forest

from memforest.backends.factory import build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.retrieval import QueryRequest, browse, query
from memforest.retrieval.browse import OUT_OF_WINDOW_PENALTY, BrowseLeaf, browse_emb, leaf_cap
from memforest.retrieval.filters import SourceFilter
from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.recall import RankedTree
from memforest.retrieval.timecues import TimeCues, parse_time_cues
from memforest.settings import Settings
from memforest.store.browse.descent import beam_descent, children_of
from memforest.store.sql import Conn, execute, fetch_all

THINGS = ["a kayak", "a violin", "a tent", "a bicycle", "a telescope", "a guitar", "a camera", "a drone"]
FACTS = [
    FactSpec(f"{who} bought {thing} in spring {2015 + i % 9}", noon_utc(2015 + i % 9, 1 + i % 12, 1 + i % 27),
             noon_utc(2015 + i % 9, 1 + i % 12, 1 + i % 27), entity=who)
    for i, (who, thing) in enumerate((w, t) for w in ("Bob", "Alice") for t in THINGS * 3)
]  # fmt: skip
REF_TIME = noon_utc(2024, 1, 1)


def _order(score: float, outside: bool, node_id: int) -> tuple[bool, float, bool, int]:
    """Best first: the higher score, a NaN after every number, inside the window before outside,
    then the node id."""
    nan = math.isnan(score)
    return nan, 0.0 if nan else -score, outside, node_id


async def _hidden_facts(conn: Conn, tenant_id: uuid.UUID) -> set[int]:
    rows = await fetch_all(
        conn,
        "SELECT fact_id FROM facts WHERE tenant_id = :t AND (superseded_by IS NOT NULL OR retracted_at IS NOT NULL)",
        {"t": tenant_id},
    )
    return {int(r["fact_id"]) for r in rows}


async def _reference(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    roots: list[int],
    q: Any,
    beam: int,
    cues: TimeCues,
    keep: int = 0,
) -> list[BrowseLeaf]:
    """The descent read level by level (the beam chosen here by :func:`_order`), then with ``keep``
    > 0 the ``keep`` best leaves of each tree among those not of a superseded or retracted fact."""
    frontier, leaves, rank = list(roots), [], {}
    while frontier:
        rows = await children_of(conn, tenant_id, forest_id, frontier, q)
        by_tree: dict[int, list[tuple[bool, float, bool, int]]] = {}
        for r in rows:
            score = float(r["sim"])
            outside = cues.has_window and not browse._overlaps(r, cues.after, cues.before)
            if outside:
                score -= OUT_OF_WINDOW_PENALTY
            if int(r["level"]) == 0:
                leaves.append(BrowseLeaf(int(r["node_id"]), int(r["tree_id"]), r["leaf_fact_id"], r["leaf_cell_id"],
                                   float(r["sim"])))  # fmt: skip
                rank[int(r["node_id"])] = _order(score, outside, int(r["node_id"]))
                continue
            by_tree.setdefault(int(r["tree_id"]), []).append(_order(score, outside, int(r["node_id"])))
        frontier = []
        for ranked in by_tree.values():
            frontier.extend(o[-1] for o in sorted(ranked)[:beam])
    if keep <= 0:
        return leaves
    hidden = await _hidden_facts(conn, tenant_id)
    live = [lf for lf in leaves if lf.fact_id is None or int(lf.fact_id) not in hidden]
    best: set[int] = set()
    for tree_id in {lf.tree_id for lf in live}:
        mine = sorted((lf for lf in live if lf.tree_id == tree_id), key=lambda lf: rank[lf.node_id])
        best.update(lf.node_id for lf in mine[:keep])
    return [lf for lf in live if lf.node_id in best]


async def _forest(conn: Conn, tenant_id: uuid.UUID) -> tuple[int, list[RankedTree], list[int]]:
    """The "gear" forest's id, trees and their root nodes."""
    rows = await fetch_all(conn, "SELECT forest_id FROM forests WHERE name = 'gear'")
    forest_id = int(rows[0]["forest_id"])
    trees = await _trees(conn, tenant_id, forest_id)
    return forest_id, trees, [int(t.root_node_id) for t in trees if t.root_node_id is not None]


def _timeless(question: str) -> tuple[TimeCues, Any]:
    """The cues of a question that names no time, and its vector."""
    cues = parse_time_cues(question, REF_TIME)
    assert not cues.has_window
    return cues, HashedEmbedder(DIM).embed_sync([question])[0]


async def _descent_rows(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, roots: list[int], q: Any, beam: int, cues: TimeCues, keep: int
) -> list[dict[str, Any]]:
    window: tuple[datetime | None, datetime | None] = (cues.after, cues.before) if cues.has_window else (None, None)
    return await beam_descent(conn, tenant_id, forest_id, roots, q, beam, *window, OUT_OF_WINDOW_PENALTY, keep)


async def _trees(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[RankedTree]:
    rows = await fetch_all(
        conn,
        "SELECT tree_id, kind, label, root_node_id, height FROM trees WHERE tenant_id = :t AND forest_id = :f "
        "ORDER BY tree_id",
        {"t": tenant_id, "f": forest_id},
    )
    return [RankedTree(int(r["tree_id"]), r["kind"], r["label"], r["root_node_id"], int(r["height"])) for r in rows]


def _key(leaves: list[BrowseLeaf]) -> list[tuple[int, int, int | None, int | None, str]]:
    return [(lf.node_id, lf.tree_id, lf.fact_id, lf.cell_id, repr(lf.sim)) for lf in leaves]  # NaN equal to NaN


@pytest.mark.parametrize(("beam", "keep"), [(1, 0), (2, 0), (2, 3), (4, 0), (4, 2)])
async def test_one_statement_descent_matches_the_level_by_level_one(
    db: Database, settings: Settings, beam: int, keep: int
) -> None:
    tenant_id = await build_forest(db, "t", "gear", FACTS)
    emb = HashedEmbedder(DIM)
    questions = [
        "What did Bob buy in spring?",
        "What did Alice buy before 2018?",
        "telescope camera after 2020",
        "Which camera did Alice buy?",
    ]
    capped: list[bool] = []
    preset = replace(RetrievalPreset.from_settings(settings.retrieval), beam_width=beam, leaves_per_tree=keep)
    async with db.tenant(tenant_id) as conn:
        forest_id, trees, roots = await _forest(conn, tenant_id)
        assert max(t.height for t in trees) >= 3  # several levels to choose among
        zero = np.zeros(DIM, dtype=np.float32)  # a zero vector: NaN cosines, so the window and ids decide
        vectors = [*emb.embed_sync(questions), zero, zero]
        for q, question in zip(vectors, [*questions, "the", "What was bought before 2018?"], strict=True):
            cues = parse_time_cues(question, REF_TIME)
            cap = 0 if cues.has_window else keep  # none with a time window
            assert leaf_cap(preset, cues, live_only=True) == cap
            want = await _reference(conn, tenant_id, forest_id, roots, q, beam, cues, cap)
            assert want
            got = await browse_emb(read_tx(conn, tenant_id), forest_id, trees, q, preset, cues, live_only=True)
            assert _key(got) == _key(want)
            every = await _reference(conn, tenant_id, forest_id, roots, q, beam, cues)
            uncapped = await browse_emb(read_tx(conn, tenant_id), forest_id, trees, q, preset, cues, live_only=False)
            assert _key(uncapped) == _key(every)
            if cap:  # the cap took some leaves away, and the statement sends no more than cap of a tree
                capped.append(len(every) > len(want))
                rows = await _descent_rows(conn, tenant_id, forest_id, roots, q, beam, cues, cap)
                assert max(Counter(int(r["tree_id"]) for r in rows).values()) <= cap
    assert not keep or any(capped)


async def test_leaves_without_a_score_rank_last_and_only_leaves_come_back(db: Database, settings: Settings) -> None:
    """Facts without content words have a zero vector, so pgvector's cosine to them is NaN: they rank
    after every scored leaf (the database sorts NaN above every number unless told otherwise), and
    the statement sends no internal node."""
    stopwords = ["it was the one", "it is what it is", "was it that", "this was it", "they were there", "so it is"]
    blank = [FactSpec(text, noon_utc(2016, 3, 1 + i), noon_utc(2016, 3, 1 + i)) for i, text in enumerate(stopwords)]
    tenant_id = await build_forest(db, "t", "gear", FACTS + blank)
    # a beam wider than any node's children: every leaf is reached, and the cap alone chooses
    preset = replace(RetrievalPreset.from_settings(settings.retrieval), beam_width=64, leaves_per_tree=2)
    question = "What did Bob buy?"
    cues, q = _timeless(question)
    async with db.tenant(tenant_id) as conn:
        forest_id, trees, roots = await _forest(conn, tenant_id)
        every = await _reference(conn, tenant_id, forest_id, roots, q, preset.beam_width, cues)
        assert any(math.isnan(lf.sim) for lf in every)  # the descent reaches unscored leaves
        want = await _reference(conn, tenant_id, forest_id, roots, q, preset.beam_width, cues, preset.leaves_per_tree)
        got = await browse_emb(read_tx(conn, tenant_id), forest_id, trees, q, preset, cues, live_only=True)
        assert _key(got) == _key(want)
        rows = await _descent_rows(conn, tenant_id, forest_id, roots, q, preset.beam_width, cues, 0)
        assert rows and all(r["leaf_fact_id"] is not None or r["leaf_cell_id"] is not None for r in rows)


async def test_the_cap_leaves_out_superseded_and_retracted_facts_first(db: Database, settings: Settings) -> None:
    """A query without time filters never shows a superseded or retracted fact, so under the cap such
    a leaf must not take a live leaf's place; a query that may show them gets every leaf."""
    tenant_id = await build_forest(db, "t", "gear", FACTS)
    preset = replace(RetrievalPreset.from_settings(settings.retrieval), leaves_per_tree=3)
    question = "Which kayak or violin did Bob buy?"
    cues, q = _timeless(question)
    async with db.tenant(tenant_id) as conn:
        forest_id, trees, roots = await _forest(conn, tenant_id)
        before = await browse_emb(read_tx(conn, tenant_id), forest_id, trees, q, preset, cues, live_only=True)
        firsts = sorted({int(lf.fact_id) for lf in before if lf.fact_id is not None})
        assert len(firsts) >= 3
        # hide three of the facts the cap chose: two superseded, one retracted
        supersede = "UPDATE facts SET superseded_by = (SELECT max(fact_id) FROM facts) WHERE fact_id = ANY(:ids)"
        await execute(conn, supersede, {"ids": firsts[:2]})
        await execute(conn, "UPDATE facts SET retracted_at = now() WHERE fact_id = :id", {"id": firsts[2]})
        hidden = await _hidden_facts(conn, tenant_id)
        assert set(firsts[:3]) <= hidden
        got = await browse_emb(read_tx(conn, tenant_id), forest_id, trees, q, preset, cues, live_only=True)
        want = await _reference(conn, tenant_id, forest_id, roots, q, preset.beam_width, cues, preset.leaves_per_tree)
        assert _key(got) == _key(want)
        assert not {int(lf.fact_id) for lf in got if lf.fact_id is not None} & hidden
        assert len(got) == len(before)  # live leaves took their places
        every = await browse_emb(read_tx(conn, tenant_id), forest_id, trees, q, preset, cues, live_only=False)
        assert {int(lf.fact_id) for lf in every if lf.fact_id is not None} & hidden  # shown when they may be asked


async def test_only_a_query_without_time_filters_caps_the_leaves(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The query service asks browse for the live-leaf cap only when nothing it was asked (as_of, a
    time range, superseded facts, a source filter) may show a superseded or retracted fact, and
    browse caps only a question without a time window."""
    tenant_id = await build_forest(db, "t", "gear", FACTS)
    asked = record_leaf_caps(monkeypatch)
    backends = build_backends(settings)
    question = "Which camera did Alice buy?"
    await query(db, settings, backends, tenant_id, QueryRequest("gear", question))
    await query(db, settings, backends, tenant_id, QueryRequest("gear", question, as_of=noon_utc(2020, 1, 1)))
    await query(db, settings, backends, tenant_id, QueryRequest("gear", question, time_from=noon_utc(2018, 1, 1)))
    await query(db, settings, backends, tenant_id, QueryRequest("gear", question, time_to=noon_utc(2018, 1, 1)))
    await query(db, settings, backends, tenant_id, QueryRequest("gear", question, include_superseded=True))
    await query(
        db,
        settings,
        backends,
        tenant_id,
        QueryRequest("gear", question, source_filter=SourceFilter.of(speakers=["Bob"])),
    )
    await query(
        db, settings, backends, tenant_id, QueryRequest("gear", "What did Alice buy before 2018?")
    )  # a time window
    default_k = settings.retrieval.top_k
    cap = RetrievalPreset.from_settings(settings.retrieval).for_top_k(default_k).leaves_per_tree
    assert cap > 0 and asked == [cap, 0, 0, 0, 0, 0, 0]
