"""MemTree deletion: remove leaves, then rebalance along the one affected path
(:mod:`memforest.memtree.rebalance`, run here over SQL).

Removing a leaf deletes the leaf node and its placement and walks up from its parent; a concurrent
refresh write of a node the walk changed is rejected as stale (its version was bumped). A tree whose
last leaf goes stays, empty, with ``root_node_id`` NULL (``memforest check`` accepts that and the
next insert grows a new root). Callers decide whether to drop empty trees.

Cost per removed leaf: O(height) statements over at most ``k`` rows each; no tree is ever rebuilt.
The caller holds the forest lock (:func:`memforest.store.sql.lock_forest`).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from memforest.memtree.model import DeleteStats, TreeRef
from memforest.memtree.rebalance import NodeRow, rebalance
from memforest.store.sql import Conn, execute, fetch_all, fetch_one, scalar
from memforest.store.trees import load_tree

__all__ = ["drop_tree", "remove_leaf", "remove_source"]

_CHILDREN_SQL = (
    "SELECT node_id, t_start, seq, t_end, n_children FROM nodes WHERE tenant_id = :t AND parent_id = :p "
    "ORDER BY t_start, seq, node_id"
)
_NODE_SQL = "SELECT node_id, level, parent_id, t_start, seq, t_end FROM nodes WHERE tenant_id = :t AND node_id = :id"
_REFIT_SQL = (
    "UPDATE nodes SET n_children = :n, t_start = :ts, seq = :seq, t_end = :te, dirty = true, "
    "version = version + 1 WHERE tenant_id = :t AND node_id = :id"
)
_REPARENT_SQL = "UPDATE nodes SET parent_id = :p WHERE tenant_id = :t AND node_id = ANY(:ids)"
_DETACH_SQL = "UPDATE nodes SET parent_id = NULL WHERE tenant_id = :t AND node_id = :c"
_DELETE_NODE_SQL = "DELETE FROM nodes WHERE tenant_id = :t AND node_id = :id"
_SET_ROOT_SQL = "UPDATE trees SET root_node_id = :r, height = :h WHERE tenant_id = :t AND tree_id = :tree"
_DELETE_LEAF_SQL = (
    "DELETE FROM nodes WHERE tenant_id = :t AND node_id = :n AND tree_id = :tree AND level = 0 RETURNING parent_id"
)
_LOST_LEAF_SQL = "UPDATE trees SET n_leaves = n_leaves - 1 WHERE tenant_id = :t AND tree_id = :tree"
_PLACEMENTS_OF_SQL = (
    "SELECT tree_id, node_id FROM placements WHERE tenant_id = :t AND source_kind = :k AND source_id = :s "
    "ORDER BY tree_id"
)
_COUNT_TREE_NODES_SQL = "SELECT count(*) FROM nodes WHERE tenant_id = :t AND tree_id = :tree"
_DROP_TREE_SQL = (
    "DELETE FROM placements WHERE tenant_id = :t AND tree_id = :tree",
    "DELETE FROM nodes WHERE tenant_id = :t AND tree_id = :tree",
    "DELETE FROM trees WHERE tenant_id = :t AND tree_id = :tree",
)
_MARK_UP_SQL = """
WITH RECURSIVE chain AS (
    SELECT node_id, parent_id FROM nodes WHERE tenant_id = :t AND node_id = :start
    UNION ALL
    SELECT n.node_id, n.parent_id FROM nodes n JOIN chain c ON n.tenant_id = :t AND n.node_id = c.parent_id
)
UPDATE nodes n SET dirty = true, version = n.version + 1
FROM chain WHERE n.tenant_id = :t AND n.node_id = chain.node_id
"""


class _SqlNodes:
    """The :class:`memforest.memtree.rebalance.NodeEditor` of one tenant's nodes: one statement a call."""

    def __init__(self, conn: Conn, tenant_id: uuid.UUID) -> None:
        self.conn = conn
        self.tenant_id = tenant_id

    async def node(self, node_id: int) -> NodeRow | None:
        return await fetch_one(self.conn, _NODE_SQL, {"t": self.tenant_id, "id": node_id})

    async def children(self, node_id: int) -> Sequence[NodeRow]:
        return await fetch_all(self.conn, _CHILDREN_SQL, {"t": self.tenant_id, "p": node_id})

    async def refit(self, node_id: int, n_children: int, t_start: Any, seq: int, t_end: Any) -> None:
        params = {"n": n_children, "ts": t_start, "seq": seq, "te": t_end, "t": self.tenant_id, "id": node_id}
        await execute(self.conn, _REFIT_SQL, params)

    async def reparent(self, node_ids: list[int], parent_id: int) -> None:
        await execute(self.conn, _REPARENT_SQL, {"p": parent_id, "t": self.tenant_id, "ids": node_ids})

    async def detach(self, node_id: int) -> None:
        await execute(self.conn, _DETACH_SQL, {"t": self.tenant_id, "c": node_id})

    async def delete(self, node_id: int) -> None:
        await execute(self.conn, _DELETE_NODE_SQL, {"t": self.tenant_id, "id": node_id})

    async def set_root(self, tree_id: int, root: int | None, height: int) -> None:
        await execute(self.conn, _SET_ROOT_SQL, {"r": root, "h": height, "t": self.tenant_id, "tree": tree_id})

    async def mark_up(self, start: int) -> int:
        return await execute(self.conn, _MARK_UP_SQL, {"t": self.tenant_id, "start": start})


async def remove_leaf(conn: Conn, tenant_id: uuid.UUID, tree: TreeRef, leaf_node_id: int, stats: DeleteStats) -> bool:
    """Remove one leaf (and its placement) from ``tree`` and rebalance; False when it is not a leaf
    of this tree (nothing changes then)."""
    # (its placement goes with it: placements cascade on their node)
    deleted = await fetch_one(conn, _DELETE_LEAF_SQL, {"t": tenant_id, "n": leaf_node_id, "tree": tree.tree_id})
    if deleted is None:
        return False
    await execute(conn, _LOST_LEAF_SQL, {"t": tenant_id, "tree": tree.tree_id})
    stats.leaves += 1
    stats.touched_trees.add(tree.tree_id)
    if deleted["parent_id"] is not None:  # the leaf's parent lost a child
        await rebalance(_SqlNodes(conn, tenant_id), tree, int(deleted["parent_id"]), stats)
    return True


async def remove_source(
    conn: Conn,
    tenant_id: uuid.UUID,
    source_kind: str,
    source_id: int,
    stats: DeleteStats,
    trees: dict[int, TreeRef] | None = None,
) -> list[int]:
    """Remove every leaf of a fact or cell, in every tree that holds one (found through placements).
    Returns the ids of the trees it was removed from. ``trees`` caches tree rows across calls."""
    cache = trees if trees is not None else {}
    rows = await fetch_all(conn, _PLACEMENTS_OF_SQL, {"t": tenant_id, "k": source_kind, "s": source_id})
    out = []
    for r in rows:
        tree_id = int(r["tree_id"])
        tree = cache.get(tree_id)
        if tree is None:
            tree = cache[tree_id] = await load_tree(conn, tenant_id, tree_id)
        if await remove_leaf(conn, tenant_id, tree, int(r["node_id"]), stats):
            out.append(tree_id)
    return out


async def drop_tree(conn: Conn, tenant_id: uuid.UUID, tree_id: int) -> int:
    """Delete a tree with its nodes and placements; returns how many nodes it had (0 when absent)."""
    p = {"t": tenant_id, "tree": tree_id}
    nodes = await scalar(conn, _COUNT_TREE_NODES_SQL, p)
    for statement in _DROP_TREE_SQL:
        await execute(conn, statement, p)
    return int(nodes or 0)
