"""Bottom-up bulk loading of empty MemTrees (tree rebuilds, ADR 0009).

``insert_leaf`` costs O(height) statements per leaf. A tree that is built from scratch with all its
leaves known (a re-materialisation) is instead laid out in memory: leaves in key order, each level
groups consecutive nodes of the level below into parents of between ``ceil(k/2)`` and ``k`` children
(shared as evenly as possible), up to one root. Ids come from the node sequence in one query and
every node (all levels, parents first), every placement and every tree row is written with one
multi-row statement each, for any number of trees. The result satisfies the same invariants as
repeated ``insert_leaf`` (``store/check.py``): keys are the smallest key below, intervals the widest,
every non-root node holds ``ceil(k/2)..k`` children, a tree has height >= 1. Leaf rows follow
``insert_leaf``'s conventions exactly; every internal node is dirty, so refresh summarises it. Later
``insert_leaf``/``insert_leaves`` calls work on a bulk-built tree as on any other.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.store.sql import execute, fetch_all
from memforest.store.tree_columns import NodeRow, PlacementRow, insert_nodes, insert_placements, next_node_ids
from memforest.store.tree_model import InsertStats, LeafSpec, TreeRef

__all__ = ["bulk_build_tree", "bulk_build_trees", "group_sizes", "layout"]

CHUNK = 4096  # rows per multi-row statement

_FIRST_BUSY = """
SELECT tree_id FROM trees WHERE tenant_id = :t AND tree_id = ANY(:ids)
AND (root_node_id IS NOT NULL OR n_leaves <> 0) LIMIT 1
"""
_SET_ROOTS = """
UPDATE trees tr SET root_node_id = u.r, height = u.h, n_leaves = u.n FROM unnest(CAST(:id AS bigint[]),
CAST(:r AS bigint[]), CAST(:h AS int[]), CAST(:n AS int[])) AS u(id, r, h, n)
WHERE tr.tenant_id = :t AND tr.tree_id = u.id
"""


def group_sizes(count: int, fanout: int) -> list[int]:
    """Child counts of the parents of ``count`` consecutive nodes: one parent when they fit in one,
    else ``ceil(count / fanout)`` parents sharing them evenly, so each gets ``ceil(fanout/2)..fanout``."""
    if count < 1 or fanout < 2:
        raise ValueError(f"need count >= 1 and fanout >= 2, got {count} and {fanout}")
    groups = -(-count // fanout)
    q, r = divmod(count, groups)
    return [q + 1] * r + [q] * (groups - r)


def layout(n_leaves: int, fanout: int) -> list[list[int]]:
    """The shape of a bulk-built tree: for each level from 1 up to the root, its nodes' child counts.
    Empty for no leaves; the root is always the single node of the last level (height = length)."""
    levels: list[list[int]] = []
    count = n_leaves
    while count > 0:
        sizes = group_sizes(count, fanout)
        levels.append(sizes)
        if len(sizes) == 1:
            break
        count = len(sizes)
    return levels


@dataclass(slots=True)
class _Row:
    """A node to write: ``parent`` and ``ref`` index the forest-wide row list until ids exist."""

    tree: TreeRef
    level: int
    t_start: datetime
    seq: int
    t_end: datetime
    n_children: int = 0
    parent: int | None = None
    leaf: LeafSpec | None = None


def _check_leaves(tree: TreeRef, leaves: Sequence[LeafSpec]) -> None:
    if tree.root_node_id is not None:
        raise ValueError(f"tree {tree.tree_id} is not empty: bulk building needs an empty tree")
    for a, b in itertools.pairwise(leaves):
        if (a.t_start, a.seq) >= (b.t_start, b.seq):
            raise ValueError(f"tree {tree.tree_id}: leaves must be sorted by (t_start, seq) without repeated keys")
    for leaf in leaves:
        if leaf.source_kind not in ("fact", "cell"):
            raise ValueError(f"unknown leaf source kind {leaf.source_kind!r}")


def _plan(tree: TreeRef, leaves: Sequence[LeafSpec], rows: list[_Row]) -> tuple[int, int]:
    """Append the tree's nodes to ``rows`` (leaves first, then each level); returns (root row, height)."""
    below = list(range(len(rows), len(rows) + len(leaves)))
    rows.extend(_Row(tree, 0, leaf.t_start, leaf.seq, leaf.t_end, leaf=leaf) for leaf in leaves)
    levels = layout(len(leaves), tree.fanout)
    for level, sizes in enumerate(levels, start=1):
        above: list[int] = []
        start = 0
        for size in sizes:
            kids = below[start : start + size]
            start += size
            first = rows[kids[0]]
            parent = len(rows)
            rows.append(_Row(tree, level, first.t_start, first.seq, max(rows[k].t_end for k in kids), size))
            for k in kids:
                rows[k].parent = parent
            above.append(parent)
        below = above
    return below[0], len(levels)


async def bulk_build_trees(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    items: Sequence[tuple[TreeRef, Sequence[LeafSpec]]],
    stats: InsertStats | None = None,
) -> None:
    """Build every given EMPTY tree bottom-up from its leaves (sorted by ``(t_start, seq)``, one per
    source): one ``nextval`` query, multi-row INSERTs of nodes and placements and one UPDATE of the
    tree rows for all of them. The caller holds the forest lock. Trees given no leaves stay empty.
    Raises ValueError for a tree that is not empty or leaves out of order (nothing is written)."""
    todo = [(tree, list(leaves)) for tree, leaves in items if leaves]
    for tree, leaves in todo:
        _check_leaves(tree, leaves)
    if not todo:
        return
    seen: set[int] = set()
    for tree, _ in todo:
        if tree.tree_id in seen:
            raise ValueError(f"tree {tree.tree_id} is given twice")
        seen.add(tree.tree_id)
    busy = await fetch_all(
        conn,
        _FIRST_BUSY,
        {"t": tenant_id, "ids": sorted(seen)},
    )
    if busy:
        raise ValueError(f"tree {busy[0]['tree_id']} is not empty: bulk building needs an empty tree")

    rows: list[_Row] = []
    roots: list[tuple[TreeRef, int, int, int]] = []  # tree, root row, height, leaves
    for tree, leaves in todo:
        root, height = _plan(tree, leaves, rows)
        roots.append((tree, root, height, len(leaves)))
    ids = await next_node_ids(conn, len(rows))  # leaves first (in key order), then level by level

    def real(i: int | None) -> int | None:
        return None if i is None else ids[i]

    order = sorted(range(len(rows)), key=lambda i: -rows[i].level)  # parents before children
    for c in range(0, len(order), CHUNK):
        chunk = order[c : c + CHUNK]
        await insert_nodes(conn, tenant_id, [
            NodeRow(ids[i], rows[i].tree.forest_id, rows[i].tree.tree_id, rows[i].level, real(rows[i].parent),
                    rows[i].t_start, rows[i].t_end, rows[i].seq, rows[i].n_children, 0, rows[i].leaf)
            for i in chunk
        ])  # fmt: skip
    leaf_rows = [i for i, r in enumerate(rows) if r.leaf is not None]
    for c in range(0, len(leaf_rows), CHUNK):
        await insert_placements(conn, tenant_id, [
            PlacementRow(rows[i].tree.tree_id, leaf.source_kind, leaf.source_id, rows[i].tree.forest_id, ids[i])
            for i in leaf_rows[c : c + CHUNK]
            if (leaf := rows[i].leaf) is not None
        ])  # fmt: skip
    await execute(
        conn,
        _SET_ROOTS,
        {
            "t": tenant_id,
            "id": [tree.tree_id for tree, *_ in roots],
            "r": [ids[root] for _, root, _, _ in roots],
            "h": [height for _, _, height, _ in roots],
            "n": [n for *_, n in roots],
        },
    )
    for tree, root, height, _ in roots:
        tree.root_node_id, tree.height = ids[root], height
    if stats is not None:
        stats.leaves += len(leaf_rows)
        stats.nodes_created += len(rows)
        stats.touched_trees.update(tree.tree_id for tree, *_ in roots)


async def bulk_build_tree(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    tree: TreeRef,
    leaves: Sequence[LeafSpec],
    stats: InsertStats | None = None,
) -> None:
    """Build one EMPTY tree bottom-up from ``leaves`` sorted by ``(t_start, seq)`` (see
    :func:`bulk_build_trees`): O(1) statements instead of O(n * height)."""
    await bulk_build_trees(conn, tenant_id, [(tree, leaves)], stats)
