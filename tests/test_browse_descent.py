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
    """The level-by-level descent as it was before the one-statement read, then the ``keep`` best
    leaves of each tree (a NaN score last, ties by node id; 0 keeps all)."""
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
            scored.sort(key=lambda s: (-s[0], s[1]))
            frontier.extend(n for _, n in scored[:beam])
    if keep <= 0:
        return leaves
    best: set[int] = set()
    for tree_id in {lf.tree_id for lf in leaves}:
        mine = sorted(
            (lf.node_id for lf in leaves if lf.tree_id == tree_id),
            key=lambda n: (math.isnan(scores[n]), 0.0 if math.isnan(scores[n]) else -scores[n], n),
        )
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
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch, beam: int, keep: int
) -> None:
    tenant_id = await build_forest(db, "t", "gear", FACTS)
    emb = HashedEmbedder(DIM)
    ref_time = ts(2024, 1, 1)
    questions = ["What did Bob buy in spring?", "What did Alice buy before 2018?", "telescope camera after 2020"]
    calls = {"children": 0}
    capped: list[bool] = []
    real_children = browse.children_of

    async def counting_children(*args: Any, **kwargs: Any) -> Any:
        calls["children"] += 1
        return await real_children(*args, **kwargs)

    monkeypatch.setattr(browse, "children_of", counting_children)
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
                per_tree = Counter(int(r["tree_id"]) for r in rows if int(r["level"]) == 0)
                assert max(per_tree.values()) <= keep
    assert calls["children"] <= 2  # the NaN question may fall back; the others never do
    assert not keep or any(capped)


async def test_a_wrong_prediction_falls_back_to_reading_level_by_level(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    tenant_id = await build_forest(db, "t", "gear", FACTS)
    real = browse.beam_descent

    async def wrong(*args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        rows = await real(*args, **kwargs)
        return [r | {"kept": not r["kept"]} if r["depth"] == 1 else r for r in rows]

    monkeypatch.setattr(browse, "beam_descent", wrong)
    preset = RetrievalPreset.from_settings(settings.retrieval)
    cues = parse_time_cues("What did Bob buy before 2019?", ts(2024, 1, 1))
    q = HashedEmbedder(DIM).embed_sync(["What did Bob buy before 2019?"])[0]
    async with db.tenant(tenant_id) as conn:
        forest_id = int((await fetch_all(conn, "SELECT forest_id FROM forests WHERE name = 'gear'"))[0]["forest_id"])
        trees = await _trees(conn, tenant_id, forest_id)
        roots = [int(t.root_node_id) for t in trees if t.root_node_id is not None]
        want = _key(await _reference(conn, tenant_id, forest_id, roots, q, preset.beam_width, cues,
                                     preset.leaves_per_tree))  # fmt: skip
        assert _key(await browse_emb(conn, tenant_id, forest_id, trees, q, preset, cues)) == want
