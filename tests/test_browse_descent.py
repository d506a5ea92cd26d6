"""The emb beam descent read in one statement chooses exactly what the level-by-level descent
chose, and falls back to reading level by level where the database's prediction differs."""

from __future__ import annotations

import math
import uuid
from collections import Counter
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from test_retrieval import DIM, FactSpec, build_forest, ts

from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.retrieval import browse
from memforest.retrieval.browse import OUT_OF_WINDOW_PENALTY, Leaf, browse_emb
from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.recall import TreeHit
from memforest.retrieval.timecues import TimeCues, parse_time_cues
from memforest.settings import Settings
from memforest.store.browse.descent import beam_descent, children_of
from memforest.store.sql import Conn, fetch_all

THINGS = ["a kayak", "a violin", "a tent", "a bicycle", "a telescope", "a guitar", "a camera", "a drone"]
FACTS = [
    FactSpec(f"{who} bought {thing} in spring {2015 + i % 9}", ts(2015 + i % 9, 1 + i % 12, 1 + i % 27),
             ts(2015 + i % 9, 1 + i % 12, 1 + i % 27), entity=who)
    for i, (who, thing) in enumerate((w, t) for w in ("Bob", "Alice") for t in THINGS * 3)
]  # fmt: skip


def _order(score: float, node_id: int) -> tuple[bool, float, int]:
    """Best first: the higher score, a NaN last, ties by node id."""
    nan = math.isnan(score)
    return nan, 0.0 if nan else -score, node_id


async def _reference(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    roots: list[int],
    q: Any,
    beam: int,
    cues: TimeCues,
    keep: int = 0,
) -> list[Leaf]:
    """The level-by-level descent (children read a level at a time, the beam chosen here), then the
    ``keep`` best leaves of each tree (0 keeps all); "best" by :func:`_order` throughout."""
    frontier, leaves, scores = list(roots), [], {}
    while frontier:
        rows = await children_of(conn, tenant_id, forest_id, frontier, q)
        by_tree: dict[int, list[tuple[float, int]]] = {}
        for r in rows:
            score = float(r["sim"])
            if cues.has_window and not browse._overlaps(r, cues.after, cues.before):
                score -= OUT_OF_WINDOW_PENALTY
            if int(r["level"]) == 0:
                leaves.append(Leaf(int(r["node_id"]), int(r["tree_id"]), r["leaf_fact_id"], r["leaf_cell_id"],
                                   float(r["sim"])))  # fmt: skip
                scores[int(r["node_id"])] = score
                continue
            by_tree.setdefault(int(r["tree_id"]), []).append((score, int(r["node_id"])))
        frontier = []
        for scored in by_tree.values():
            scored.sort(key=lambda s: _order(*s))
            frontier.extend(n for _, n in scored[:beam])
    if keep <= 0:
        return leaves
    best: set[int] = set()
    for tree_id in {lf.tree_id for lf in leaves}:
        mine = sorted((lf.node_id for lf in leaves if lf.tree_id == tree_id), key=lambda n: _order(scores[n], n))
        best.update(mine[:keep])
    return [lf for lf in leaves if lf.node_id in best]


async def _trees(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[TreeHit]:
    rows = await fetch_all(
        conn,
        "SELECT tree_id, kind, label, root_node_id, height FROM trees WHERE tenant_id = :t AND forest_id = :f "
        "ORDER BY tree_id",
        {"t": tenant_id, "f": forest_id},
    )
    return [TreeHit(int(r["tree_id"]), r["kind"], r["label"], r["root_node_id"], int(r["height"])) for r in rows]


def _key(leaves: list[Leaf]) -> list[tuple[int, int, int | None, int | None, str]]:
    return [(lf.node_id, lf.tree_id, lf.fact_id, lf.cell_id, repr(lf.sim)) for lf in leaves]  # NaN equal to NaN


@pytest.mark.parametrize(("beam", "keep"), [(1, 0), (2, 0), (2, 3), (4, 0), (4, 2)])
async def test_one_statement_descent_matches_the_level_by_level_one(
    db: Database, settings: Settings, beam: int, keep: int
) -> None:
    tenant_id = await build_forest(db, "t", "gear", FACTS)
    emb = HashedEmbedder(DIM)
    ref_time = ts(2024, 1, 1)
    questions = ["What did Bob buy in spring?", "What did Alice buy before 2018?", "telescope camera after 2020"]
    capped: list[bool] = []
    preset = RetrievalPreset.from_settings(settings.retrieval)
    preset = replace(preset, beam_width=beam, leaves_per_tree=keep)
    async with db.tenant(tenant_id) as conn:
        forest_id = int((await fetch_all(conn, "SELECT forest_id FROM forests WHERE name = 'gear'"))[0]["forest_id"])
        trees = await _trees(conn, tenant_id, forest_id)
        assert max(t.height for t in trees) >= 3  # several levels to choose among
        roots = [int(t.root_node_id) for t in trees if t.root_node_id is not None]
        vectors = [*emb.embed_sync(questions), np.zeros(DIM, dtype=np.float32)]  # a zero vector: NaN cosines
        for q, question in zip(vectors, [*questions, "the"], strict=True):
            cues = parse_time_cues(question, ref_time)
            want = _key(await _reference(conn, tenant_id, forest_id, roots, q, beam, cues, keep))
            assert want
            assert _key(await browse_emb(conn, tenant_id, forest_id, trees, q, preset, cues)) == want
            if keep:  # the cap took some leaves away (the descent reaches more than it keeps) ...
                every = await _reference(conn, tenant_id, forest_id, roots, q, beam, cues)
                capped.append(len(every) > len(want))
                # ... and the statement itself sends no more than ``keep`` leaves of a tree
                window = (cues.after, cues.before) if cues.has_window else (None, None)
                rows = await beam_descent(
                    conn, tenant_id, forest_id, roots, q, beam, *window, OUT_OF_WINDOW_PENALTY, keep
                )
                assert max(Counter(int(r["tree_id"]) for r in rows).values()) <= keep
    assert not keep or any(capped)


async def test_leaves_without_a_score_rank_last_and_only_leaves_come_back(db: Database, settings: Settings) -> None:
    """Facts without content words have a zero vector, so pgvector's cosine to them is NaN: they rank
    after every scored leaf (the database sorts NaN above every number unless told otherwise), and
    the statement sends no internal node."""
    stopwords = ["it was the one", "it is what it is", "was it that", "this was it", "they were there", "so it is"]
    blank = [FactSpec(text, ts(2016, 3, 1 + i), ts(2016, 3, 1 + i)) for i, text in enumerate(stopwords)]
    tenant_id = await build_forest(db, "t", "gear", FACTS + blank)
    preset = replace(RetrievalPreset.from_settings(settings.retrieval), leaves_per_tree=2)
    question = "What did Bob buy before 2019?"
    cues = parse_time_cues(question, ts(2024, 1, 1))
    q = HashedEmbedder(DIM).embed_sync([question])[0]
    async with db.tenant(tenant_id) as conn:
        forest_id = int((await fetch_all(conn, "SELECT forest_id FROM forests WHERE name = 'gear'"))[0]["forest_id"])
        trees = await _trees(conn, tenant_id, forest_id)
        roots = [int(t.root_node_id) for t in trees if t.root_node_id is not None]
        every = await _reference(conn, tenant_id, forest_id, roots, q, preset.beam_width, cues)
        assert any(math.isnan(lf.sim) for lf in every)  # the descent reaches unscored leaves
        want = await _reference(conn, tenant_id, forest_id, roots, q, preset.beam_width, cues, preset.leaves_per_tree)
        got = await browse_emb(conn, tenant_id, forest_id, trees, q, preset, cues)
        assert _key(got) == _key(want)
        scored_trees = {lf.tree_id for lf in every if not math.isnan(lf.sim)}
        assert not any(math.isnan(lf.sim) and lf.tree_id in scored_trees for lf in got)  # scored ones won
        window = (cues.after, cues.before) if cues.has_window else (None, None)
        rows = await beam_descent(conn, tenant_id, forest_id, roots, q, preset.beam_width, *window, 0.2, 0)
        assert rows and all(r["leaf_fact_id"] is not None or r["leaf_cell_id"] is not None for r in rows)
