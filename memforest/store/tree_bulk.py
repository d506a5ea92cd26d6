"""Bulk loading of empty MemTrees (tree rebuilds, ADR 0009): the bottom-up layout of
:mod:`memforest.memtree.layout` written with a constant number of statements.

``insert_leaf`` costs O(height) statements per leaf. A tree that is built from scratch with all its
leaves known (a re-materialisation) is instead laid out in memory; ids come from the node sequence
in one query and every node (all levels, parents first), every placement and every tree row is
written with one multi-row statement each, for any number of trees. Leaf rows follow
``insert_leaf``'s conventions exactly; every internal node is dirty, so refresh summarises it. Later
``insert_leaf``/``insert_leaves`` calls work on a bulk-built tree as on any other.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.memtree.layout import plan_trees, trees_to_build
from memforest.memtree.model import InsertStats, LeafSpec, TreeRef
from memforest.store.sql import execute, fetch_all
from memforest.store.tree_columns import NodeRow, PlacementRow, insert_nodes, insert_placements, next_node_ids

__all__ = ["bulk_build_tree", "bulk_build_trees"]

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
    todo = trees_to_build(items)
    if not todo:
        return
    busy = await fetch_all(
        conn,
        _FIRST_BUSY,
        {"t": tenant_id, "ids": sorted(tree.tree_id for tree, _ in todo)},
    )
    if busy:
        raise ValueError(f"tree {busy[0]['tree_id']} is not empty: bulk building needs an empty tree")

    plan = plan_trees(todo)
    rows, roots = plan.nodes, plan.roots
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
            "id": [root.tree.tree_id for root in roots],
            "r": [ids[root.root] for root in roots],
            "h": [root.height for root in roots],
            "n": [root.leaves for root in roots],
        },
    )
    for root in roots:
        root.tree.root_node_id, root.tree.height = ids[root.root], root.height
    if stats is not None:
        stats.leaves += len(leaf_rows)
        stats.nodes_created += len(rows)
        stats.touched_trees.update(root.tree.tree_id for root in roots)


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
