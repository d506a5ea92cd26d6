"""Tree browse: ``emb`` beam descent by embedding similarity, ``llm`` planner + navigator.

Both modes return leaves (fact or cell) with a similarity to the (sub-)query and the tree they
were reached in. ``llm`` never holds a transaction open across a model call: every level is read
in its own short transaction, then the navigator calls run, then the next level is read.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from memforest.backends.base import Embedder, UsageLedger
from memforest.backends.llm import LLMNavigator, LLMPlanner
from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.recall import RankedTree
from memforest.retrieval.timecues import TimeCues
from memforest.store.browse.descent import children_of, node_summaries, node_vectors
from memforest.store.reading import ReadTransaction
from memforest.store.recall import Vec
from memforest.store.sql import Conn, RowView

OUT_OF_WINDOW_PENALTY = 0.2


@dataclass(slots=True)
class BrowseLeaf:
    """A leaf reached by browsing."""

    node_id: int
    tree_id: int
    fact_id: int | None
    cell_id: int | None
    sim: float


ConnFactory = Callable[[], AbstractAsyncContextManager[Conn]]


def _overlaps(row: dict[str, Any], after: datetime | None, before: datetime | None) -> bool:
    if after is not None and row["t_end"] < after:
        return False
    return not (before is not None and row["t_start"] >= before)


def _day(value: str | None) -> datetime | None:
    """A planner's ``YYYY-MM-DD`` bound as a UTC datetime (None when absent or unreadable)."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    except ValueError:
        return None


def in_window(rows: list[dict[str, Any]], cues: TimeCues) -> list[dict[str, Any]]:
    """The children whose time meets the window, or all of them when none does (or no window is
    known): the llm navigator's version of emb mode's out-of-window penalty."""
    if not cues.has_window:
        return rows
    inside = [r for r in rows if _overlaps(r, cues.after, cues.before)]
    return inside or rows


def _leaf(row: RowView, sim: float | None = None, *, node_id: int | None = None) -> BrowseLeaf:
    return BrowseLeaf(
        node_id=int(row["node_id"]) if node_id is None else node_id,
        tree_id=int(row["tree_id"]),
        fact_id=row["leaf_fact_id"],
        cell_id=row["leaf_cell_id"],
        sim=float(row["sim"]) if sim is None else sim,
    )


async def browse_emb(
    tx: ReadTransaction,
    forest_id: int,
    trees: Sequence[RankedTree],
    q: Vec,
    preset: RetrievalPreset,
    cues: TimeCues,
    *,
    live_only: bool = False,
) -> list[BrowseLeaf]:
    """Beam descent from every recalled root: per tree keep the ``beam_width`` best children
    (cosine to ``q``, lowered for nodes outside the question's time window) until leaves. The
    database chooses the beam and sends the leaves only, in one statement. Every leaf reached comes
    back, except for a query that shows live facts only (``live_only``: no as_of, time range,
    superseded facts or source filter asked) and has no time window: then the ``leaves_per_tree``
    best of each tree among the leaves that query can show (:func:`leaf_cap`)."""
    roots = [int(t.root_node_id) for t in trees if t.root_node_id is not None]
    if not roots:
        return []
    after, before = (cues.after, cues.before) if cues.has_window else (None, None)
    cap = leaf_cap(preset, cues, live_only=live_only)
    rows = await tx.descend(forest_id, roots, q, preset.beam_width, after, before, OUT_OF_WINDOW_PENALTY, cap)
    return [_leaf(r) for r in rows]


async def browse_emb_reading(
    tx: ReadTransaction,
    forest_id: int,
    trees: Sequence[RankedTree],
    q: Vec,
    preset: RetrievalPreset,
    cues: TimeCues,
    candidates: tuple[Sequence[int], Sequence[int], Sequence[int]],
    *,
    live_only: bool = False,
) -> tuple[list[BrowseLeaf], list[RowView] | None]:
    """:func:`browse_emb`'s leaves and, read in the same statement, assembly's candidate rows of
    ``candidates`` = ``(fact_ids, cell_ids, scoring_trees)`` and of the leaves' facts and cells
    (``ReadTransaction.descend_and_read``); None for the rows when it did not read them (no root,
    or the descent ran alone)."""
    roots = [int(t.root_node_id) for t in trees if t.root_node_id is not None]
    if not roots:
        return [], None
    after, before = (cues.after, cues.before) if cues.has_window else (None, None)
    cap = leaf_cap(preset, cues, live_only=live_only)
    leaves, rows = await tx.descend_and_read(
        forest_id, roots, q, preset.beam_width, after, before, OUT_OF_WINDOW_PENALTY, cap, candidates
    )
    if rows is None:
        return [_leaf(r) for r in leaves], None
    return [_leaf(r, node_id=int(r["id"])) for r in leaves], rows


def leaf_cap(preset: RetrievalPreset, cues: TimeCues, *, live_only: bool) -> int:
    """Live leaves kept per tree by :func:`browse_emb` (0: every leaf). Only a query that shows live
    facts alone and names no time is capped: assembly drops superseded and retracted facts there
    (but those its temporal plan pins, which join the candidates without browse), so the cap can
    leave them out first; with a time window, an as_of or a time range, superseded states may be
    the answer and every leaf goes on to assembly."""
    return preset.leaves_per_tree if live_only and not cues.has_window else 0


@dataclass(slots=True)
class LLMBrowseStats:
    """What the ``llm`` browse did."""

    planner_calls: int = 0
    navigator_calls: int = 0


async def browse_llm(
    connect: ConnFactory,
    tenant_id: uuid.UUID,
    forest_id: int,
    trees: Sequence[RankedTree],
    question: str,
    embedder: Embedder,
    planner: LLMPlanner,
    navigator: LLMNavigator,
    preset: RetrievalPreset,
    cues: TimeCues,
    ledger: UsageLedger | None = None,
) -> tuple[list[BrowseLeaf], LLMBrowseStats]:
    """Planner writes one sub-query (and time focus) per tree; per level, one navigator call per
    expanded node picks children from their summaries. Leaves are scored by cosine to their
    tree's sub-query."""
    stats = LLMBrowseStats()
    roots = [t for t in trees if t.root_node_id is not None]
    if not roots:
        return [], stats
    root_ids = [int(t.root_node_id) for t in roots if t.root_node_id is not None]
    async with connect() as conn:  # recall reads no summaries: only this mode shows them
        summaries = await node_summaries(conn, tenant_id, forest_id, root_ids)
    shown = [summaries.get(nid) or f"{t.kind}: {t.label}" for t, nid in zip(roots, root_ids, strict=True)]
    plan = await planner.plan(question, shown, ledger)
    stats.planner_calls += 1
    sub_queries = [p.sub_query for p in plan.plans]
    # each tree's window: the planner's time focus narrowing the question's own; it restricts the
    # descent as in emb mode (out-of-window nodes only when nothing under a parent is in it)
    windows = [cues.with_window(_day(p.after), _day(p.before)) for p in plan.plans]
    hints = [w.describe() for w in windows]
    vecs = np.asarray(await embedder.embed(sub_queries, stage="query_embed", ledger=ledger), dtype=np.float32)
    tree_index = {t.tree_id: i for i, t in enumerate(roots)}
    frontier = list(root_ids)
    leaves: list[BrowseLeaf] = []
    while frontier:
        async with connect() as conn:
            rows = await children_of(conn, tenant_id, forest_id, frontier, None)
        by_parent: dict[int, list[dict[str, Any]]] = {}
        for r in rows:
            by_parent.setdefault(int(r["parent_id"]), []).append(r)
        calls: list[Awaitable[list[int]]] = []
        groups: list[list[dict[str, Any]]] = []
        for all_kids in by_parent.values():
            i = tree_index[int(all_kids[0]["tree_id"])]
            kids = in_window(all_kids, windows[i])
            is_leaf_level = int(kids[0]["level"]) == 0
            limit = preset.llm_leaf_choices if is_leaf_level else preset.beam_width
            calls.append(
                navigator.choose(sub_queries[i], [str(k["summary"]) for k in kids], limit, ledger, time_hint=hints[i])
            )
            groups.append(kids)
        choices = await asyncio.gather(*calls)
        stats.navigator_calls += sum(1 for kids in groups if len(kids) > 1)
        frontier = []
        for kids, picked in zip(groups, choices, strict=True):
            for idx in picked:
                row = kids[idx]
                if int(row["level"]) == 0:
                    leaves.append(_leaf(row, 0.0))
                else:
                    frontier.append(int(row["node_id"]))
    if leaves:
        async with connect() as conn:
            embs = await node_vectors(conn, tenant_id, forest_id, [lf.node_id for lf in leaves])
        for lf in leaves:
            e = embs.get(lf.node_id)
            if e is not None:
                lf.sim = float(np.dot(e, vecs[tree_index[lf.tree_id]]))
    return leaves, stats
