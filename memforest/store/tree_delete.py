"""MemTree deletion: remove leaves, then rebalance B+-tree style along the one affected path.

Removing a leaf deletes the leaf node and its placement and walks up from its parent. A node left
under-full (fewer than ``ceil(k/2)`` children, the root excepted) first borrows one child from an
adjacent sibling in time order that has children to spare, else merges with that sibling (the
merged node has at most ``k`` children); a merge removes a child of the parent, which may then be
under-full in turn. Every node on the path gets its key ``(t_start, seq)``, ``t_end`` and
``n_children`` recomputed from its (at most k) children and is marked dirty with a version bump,
the same convention as the insert path (:meth:`memforest.store.tree_batch.Batch.insert` marks the
new leaf's ancestors that way), so refresh regenerates exactly the touched paths and a concurrent
refresh write of a changed node is rejected as stale. An internal root left with one child is
replaced by that child (the height shrinks); a root left with no child is deleted: the tree stays,
empty, with ``root_node_id`` NULL (``memforest check`` accepts that and the next insert grows a new
root). Callers decide whether to drop empty trees.

Cost per removed leaf: O(height) statements over at most ``k`` rows each; no tree is ever rebuilt.
The caller holds the forest lock (:func:`memforest.store.sql.lock_forest`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from memforest.store.sql import Conn, execute, fetch_all, fetch_one, scalar
from memforest.store.trees import TreeRef, load_tree


@dataclass(slots=True)
class DeleteStats:
    """Counters of structural work done by deletions."""

    leaves: int = 0
    borrows: int = 0
    merges: int = 0
    collapses: int = 0
    nodes_removed: int = 0  # internal nodes removed by merges, collapses and emptied roots
    marks: int = 0
    trees_emptied: int = 0
    touched_trees: set[int] = field(default_factory=set)

    def add(self, other: DeleteStats) -> None:
        self.leaves += other.leaves
        self.borrows += other.borrows
        self.merges += other.merges
        self.collapses += other.collapses
        self.nodes_removed += other.nodes_removed
        self.marks += other.marks
        self.trees_emptied += other.trees_emptied
        self.touched_trees |= other.touched_trees

    def as_dict(self) -> dict[str, int]:
        """Plain JSON (the touched trees as a count)."""
        return {
            "leaves": self.leaves,
            "borrows": self.borrows,
            "merges": self.merges,
            "collapses": self.collapses,
            "nodes_removed": self.nodes_removed,
            "marks": self.marks,
            "trees_emptied": self.trees_emptied,
            "trees_touched": len(self.touched_trees),
        }


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


async def _children(conn: Conn, tenant_id: uuid.UUID, node_id: int) -> list[dict[str, Any]]:
    return await fetch_all(conn, _CHILDREN_SQL, {"t": tenant_id, "p": node_id})


async def _refit(
    conn: Conn, tenant_id: uuid.UUID, node_id: int, kids: list[dict[str, Any]], stats: DeleteStats
) -> None:
    """Recompute key, interval and child count of ``node_id`` from ``kids`` (in order); mark it dirty."""
    t_start, seq, t_end = _fit(kids)
    params = {"n": len(kids), "ts": t_start, "seq": seq, "te": t_end, "t": tenant_id, "id": node_id}
    await execute(conn, _REFIT_SQL, params)
    stats.marks += 1


def _fit(kids: list[dict[str, Any]]) -> tuple[Any, int, Any]:
    """The key and end a node with these children (in order) has."""
    return kids[0]["t_start"], int(kids[0]["seq"]), max(k["t_end"] for k in kids)


MARK_UP_SQL = """
WITH RECURSIVE chain AS (
    SELECT node_id, parent_id FROM nodes WHERE tenant_id = :t AND node_id = :start
    UNION ALL
    SELECT n.node_id, n.parent_id FROM nodes n JOIN chain c ON n.tenant_id = :t AND n.node_id = c.parent_id
)
UPDATE nodes n SET dirty = true, version = n.version + 1
FROM chain WHERE n.tenant_id = :t AND n.node_id = chain.node_id
"""


async def _mark_up(conn: Conn, tenant_id: uuid.UUID, start: int) -> int:
    """Mark ``start`` and its ancestors dirty (keys untouched) in one statement; returns how many."""
    return await execute(conn, MARK_UP_SQL, {"t": tenant_id, "start": start})


async def _reparent(conn: Conn, tenant_id: uuid.UUID, ids: list[int], parent_id: int) -> None:
    await execute(conn, _REPARENT_SQL, {"p": parent_id, "t": tenant_id, "ids": ids})


async def _delete_node(conn: Conn, tenant_id: uuid.UUID, node_id: int, stats: DeleteStats) -> None:
    await execute(conn, _DELETE_NODE_SQL, {"t": tenant_id, "id": node_id})
    stats.nodes_removed += 1


async def _set_root(conn: Conn, tenant_id: uuid.UUID, tree: TreeRef, root: int | None, height: int) -> None:
    await execute(conn, _SET_ROOT_SQL, {"r": root, "h": height, "t": tenant_id, "tree": tree.tree_id})
    tree.root_node_id, tree.height = root, height


async def _rebalance(conn: Conn, tenant_id: uuid.UUID, tree: TreeRef, start: int, stats: DeleteStats) -> None:
    """Walk up from ``start`` (a node that just lost a child): borrow, merge or collapse as needed and
    refit every node on the way to the root."""
    min_k = (tree.fanout + 1) // 2
    current: int | None = start
    while current is not None:
        node = await fetch_one(conn, _NODE_SQL, {"t": tenant_id, "id": current})
        assert node is not None, f"node {current} vanished"
        kids = await _children(conn, tenant_id, current)
        level = int(node["level"])
        if node["parent_id"] is None:  # the root
            if not kids:
                await _delete_node(conn, tenant_id, current, stats)
                await _set_root(conn, tenant_id, tree, None, 1)
                stats.trees_emptied += 1
                return
            if level > 1 and len(kids) == 1:
                child = int(kids[0]["node_id"])
                await execute(conn, _DETACH_SQL, {"t": tenant_id, "c": child})
                await _delete_node(conn, tenant_id, current, stats)
                await _set_root(conn, tenant_id, tree, child, level - 1)
                stats.collapses += 1
                current = child
                continue
            await _refit(conn, tenant_id, current, kids, stats)
            return
        parent = int(node["parent_id"])
        if len(kids) >= min_k:
            await _refit(conn, tenant_id, current, kids, stats)
            if _fit(kids) == (node["t_start"], int(node["seq"]), node["t_end"]):
                # Key and interval unchanged, so no ancestor's changes either: mark them, done.
                stats.marks += await _mark_up(conn, tenant_id, parent)
                return
            current = parent
            continue
        # Under-full: borrow from or merge with an adjacent sibling in time order.
        siblings = await _children(conn, tenant_id, parent)
        pos = next(i for i, s in enumerate(siblings) if int(s["node_id"]) == current)
        left = siblings[pos - 1] if pos > 0 else None
        right = siblings[pos + 1] if pos + 1 < len(siblings) else None
        if left is not None and int(left["n_children"]) > min_k:
            lkids = await _children(conn, tenant_id, int(left["node_id"]))
            moved = lkids[-1]
            await _reparent(conn, tenant_id, [int(moved["node_id"])], current)
            await _refit(conn, tenant_id, int(left["node_id"]), lkids[:-1], stats)
            await _refit(conn, tenant_id, current, [moved, *kids], stats)
            stats.borrows += 1
        elif right is not None and int(right["n_children"]) > min_k:
            rkids = await _children(conn, tenant_id, int(right["node_id"]))
            moved = rkids[0]
            await _reparent(conn, tenant_id, [int(moved["node_id"])], current)
            await _refit(conn, tenant_id, int(right["node_id"]), rkids[1:], stats)
            await _refit(conn, tenant_id, current, [*kids, moved], stats)
            stats.borrows += 1
        elif left is not None or right is not None:
            target = left if left is not None else right
            assert target is not None
            tid = int(target["node_id"])
            tkids = await _children(conn, tenant_id, tid)
            merged = [*tkids, *kids] if target is left else [*kids, *tkids]
            if kids:
                await _reparent(conn, tenant_id, [int(k["node_id"]) for k in kids], tid)
            await _delete_node(conn, tenant_id, current, stats)
            await _refit(conn, tenant_id, tid, merged, stats)
            stats.merges += 1
        elif kids:  # an only child cannot be under-full unless empty (k = 2); keep it, refit it
            await _refit(conn, tenant_id, current, kids, stats)
        else:
            await _delete_node(conn, tenant_id, current, stats)
        current = parent


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
        await _rebalance(conn, tenant_id, tree, int(deleted["parent_id"]), stats)
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
