"""Merge step 5: trees. An A tree whose (kind, key) exists in B gets A's leaves through the normal
leaf insertion, in batches (placements make a leaf that is already there a no-op); other trees are
copied as they are, and the leaves of merged facts are then removed with ``store.tree_delete.remove_leaf``.
Entities that now earn a tree (``rules.entity_earns_tree``) get it and are backfilled."""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any

from memforest import rules
from memforest.domain import TreeKind
from memforest.lifecycle.merge.report import MergeReport, Progress, notify
from memforest.memtree.model import DeleteStats, InsertStats, LeafSpec, TreeRef
from memforest.settings import Settings
from memforest.store.sql import Conn
from memforest.store.transfer import trees as tree_store
from memforest.store.tree_delete import remove_leaf
from memforest.store.trees import get_or_create_tree, load_tree
from memforest.store.trees import insert_leaves as hang_leaves

__all__ = ["activate_entities", "copy_trees", "insert_leaves"]

# leaves hung by one ``store.trees.insert_leaves`` call at most: a fixed number of statements each,
# and a batch's in-memory view of the trees it touches stays small; smaller batches when that gives
# the merge's progress fewer than PROGRESS_STEPS reports
LEAF_BATCH = 2000
PROGRESS_STEPS = 20


def batch_size(leaves: int) -> int:
    """Leaves a call hangs when ``leaves`` are to go in: ``LEAF_BATCH``, or fewer so that progress is
    reported about ``PROGRESS_STEPS`` times."""
    return max(1, min(LEAF_BATCH, -(-leaves // PROGRESS_STEPS)))


async def _hang_in_batches(
    conn: Conn,
    t: uuid.UUID,
    items: list[tuple[TreeRef, LeafSpec]],
    stats: InsertStats,
    size: int,
    progress: Progress | None,
) -> None:
    """Hang ``items`` in order, ``size`` a call, reporting the leaves stage's progress after each."""
    for start in range(0, len(items), size):
        await hang_leaves(conn, t, items[start : start + size], stats)
        await notify(progress, "leaves", min(start + size, len(items)), len(items))


async def copy_trees(conn: Conn, t: uuid.UUID, f: int, report: MergeReport) -> None:
    """Plan every A tree (insert, skip, rebuild, copy), copy the ``copy`` trees as they are, then take
    out the leaves of facts that merged into B's facts, with the usual rebalancing (only their paths
    become dirty)."""
    await tree_store.plan_trees(conn, t, f)
    report.trees_copied, report.nodes_copied = await tree_store.copy_planned_trees(conn, t, f)
    trees: dict[int, TreeRef] = {}
    removed = DeleteStats()
    for r in await tree_store.merged_leaves(conn):
        tree_id = int(r["tree_id"])
        if tree_id not in trees:
            trees[tree_id] = await load_tree(conn, t, tree_id)
        await remove_leaf(conn, t, trees[tree_id], int(r["node_id"]), removed)
    report.leaves_removed = removed.leaves


async def insert_leaves(
    conn: Conn,
    t: uuid.UUID,
    f: int,
    report: MergeReport,
    stats: InsertStats,
    progress: Progress | None,
) -> None:
    """A's leaves of ``insert``/``rebuild`` trees go in through ``store.trees.insert_leaves``, in
    batches of :func:`batch_size` (the same trees, node ids and dirty marks as hanging them one at a time
    in this order): into B's tree in time order (as routing appends), into a rebuilt tree in A's
    insertion order (node ids). Facts that merged into B's facts bring no leaf."""
    plans = await tree_store.tree_plans(conn)
    if not plans:
        return
    leaves = await tree_store.leaves_to_insert(conn, t)
    by_tree: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for leaf in leaves:
        by_tree[(str(leaf["kind"]), str(leaf["key"]))].append(leaf)
    items: list[tuple[TreeRef, LeafSpec]] = []
    for plan in plans:
        kind, key = TreeKind(str(plan["kind"])), str(plan["key"])
        rows = by_tree.get((kind.value, key), [])
        if plan["action"] == "insert":
            report.trees_matched += 1
            tree: TreeRef = await load_tree(conn, t, int(plan["new"]))
            rows.sort(key=lambda r: (r["ts"], r["sid"]))
        elif rows:
            report.trees_rebuilt += 1
            tree = await get_or_create_tree(conn, t, f, kind, key, str(plan["label"]), int(plan["fanout"]), stats)
            rows.sort(key=lambda r: int(r["a_node"]))
        for leaf in rows:
            sid = int(leaf["sid"])
            spec = LeafSpec(str(leaf["sk"]), sid, leaf["ts"], leaf["te"], sid, str(leaf["text"]), leaf["embedding"])
            items.append((tree, spec))
    await _hang_in_batches(conn, t, items, stats, batch_size(len(items)), progress)


async def activate_entities(
    conn: Conn, t: uuid.UUID, f: int, settings: Settings, report: MergeReport, stats: InsertStats
) -> None:
    """Every entity the merge touched that has (or now earns, by ``rules.entity_earns_tree``) a tree
    holds all its live linked facts, as routing would have left it: trees backfilled in time order."""
    pipe = settings.pipeline
    earning = [
        int(r["entity_id"])
        for r in await tree_store.entity_candidates(conn, t, f)
        if r["has_tree"]
        or rules.entity_earns_tree(
            is_speaker=bool(r["is_speaker"]),
            fact_count=int(r["fact_count"]),
            session_count=int(r["session_count"]),
            settings=pipe,
        )
    ]
    report.entities_activated = await tree_store.activate_entities(conn, t, earning)
    trees: dict[str, TreeRef] = {}
    items: list[tuple[TreeRef, LeafSpec]] = []
    for r in await tree_store.missing_entity_leaves(conn, t):
        key = str(r["key"])
        if key not in trees:
            trees[key] = await get_or_create_tree(
                conn, t, f, TreeKind.ENTITY, key, str(r["label"]), pipe.fanout_entity, stats
            )
        fid = int(r["fact_id"])
        spec = LeafSpec("fact", fid, r["valid_from"], r["valid_from"], fid, str(r["text"]), r["embedding"])
        items.append((trees[key], spec))
    await _hang_in_batches(conn, t, items, stats, LEAF_BATCH, None)
