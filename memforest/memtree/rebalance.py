"""MemTree rebalancing after a leaf is removed, B+-tree style along the one affected path.

A node left under-full (fewer than ``ceil(k/2)`` children, the root excepted) first borrows one
child from an adjacent sibling in time order that has children to spare, else merges with that
sibling (the merged node has at most ``k`` children); a merge removes a child of the parent, which
may then be under-full in turn. Every node on the path gets its key ``(t_start, seq)``, ``t_end``
and ``n_children`` recomputed from its (at most k) children and is marked dirty with a version
bump, the same convention as the insert path (:meth:`memforest.memtree.batch.Batch.insert` marks
the new leaf's ancestors that way), so refresh regenerates exactly the touched paths. Once a node's
key and interval come out unchanged, its ancestors are only marked. An internal root left with one
child is replaced by that child (the height shrinks); a root left with no child is deleted and the
tree is left empty (``root_node_id`` None).

The algorithm reads and writes nodes through a :class:`NodeEditor`; ``memforest.store.tree_delete``
implements it with one statement per call over at most ``k`` rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from memforest.memtree.model import DeleteStats, TreeRef

__all__ = ["NodeEditor", "fit", "rebalance"]

NodeRow = Mapping[str, Any]


class NodeEditor(Protocol):
    """The reads and writes of rebalancing, over the nodes of one tree."""

    async def node(self, node_id: int) -> NodeRow | None:
        """``level``, ``parent_id``, ``t_start``, ``seq``, ``t_end`` of a node; None when it is gone."""
        ...

    async def children(self, node_id: int) -> Sequence[NodeRow]:
        """``node_id``, ``t_start``, ``seq``, ``t_end``, ``n_children`` of each child, ordered by
        ``(t_start, seq, node_id)``."""
        ...

    async def refit(self, node_id: int, n_children: int, t_start: Any, seq: int, t_end: Any) -> None:
        """Set a node's child count, key and end; mark it dirty and bump its version."""
        ...

    async def reparent(self, node_ids: list[int], parent_id: int) -> None:
        """Hang the given nodes under ``parent_id``."""
        ...

    async def detach(self, node_id: int) -> None:
        """Make a node parentless (it is about to become the root)."""
        ...

    async def delete(self, node_id: int) -> None:
        """Delete one internal node that has no children left."""
        ...

    async def set_root(self, tree_id: int, root: int | None, height: int) -> None:
        """Record a tree's new root and height."""
        ...

    async def mark_up(self, start: int) -> int:
        """Mark ``start`` and its ancestors dirty with a version bump (keys untouched); returns how many."""
        ...


def fit(kids: Sequence[NodeRow]) -> tuple[Any, int, Any]:
    """The key ``(t_start, seq)`` and the ``t_end`` of a node with these children (in key order)."""
    return kids[0]["t_start"], int(kids[0]["seq"]), max(k["t_end"] for k in kids)


async def _refit(editor: NodeEditor, node_id: int, kids: Sequence[NodeRow], stats: DeleteStats) -> None:
    """Recompute key, interval and child count of ``node_id`` from ``kids`` (in order); mark it dirty."""
    t_start, seq, t_end = fit(kids)
    await editor.refit(node_id, len(kids), t_start, seq, t_end)
    stats.marks += 1


async def _delete(editor: NodeEditor, node_id: int, stats: DeleteStats) -> None:
    await editor.delete(node_id)
    stats.nodes_removed += 1


async def _set_root(editor: NodeEditor, tree: TreeRef, root: int | None, height: int) -> None:
    await editor.set_root(tree.tree_id, root, height)
    tree.root_node_id, tree.height = root, height


async def _fix_root(
    editor: NodeEditor, tree: TreeRef, root: int, level: int, kids: Sequence[NodeRow], stats: DeleteStats
) -> int | None:
    """Delete an emptied root, collapse an internal root with one child, else refit it. Returns the
    node to go on with (the child that became the root), or None when done."""
    if not kids:
        await _delete(editor, root, stats)
        await _set_root(editor, tree, None, 1)
        stats.trees_emptied += 1
        return None
    if level > 1 and len(kids) == 1:
        child = int(kids[0]["node_id"])
        await editor.detach(child)
        await _delete(editor, root, stats)
        await _set_root(editor, tree, child, level - 1)
        stats.collapses += 1
        return child
    await _refit(editor, root, kids, stats)
    return None


async def _fix_underfull(
    editor: NodeEditor, current: int, parent: int, kids: Sequence[NodeRow], min_k: int, stats: DeleteStats
) -> None:
    """Borrow a child from or merge with an adjacent sibling in time order (left first)."""
    siblings = await editor.children(parent)
    pos = next(i for i, s in enumerate(siblings) if int(s["node_id"]) == current)
    left = siblings[pos - 1] if pos > 0 else None
    right = siblings[pos + 1] if pos + 1 < len(siblings) else None
    if left is not None and int(left["n_children"]) > min_k:
        lkids = await editor.children(int(left["node_id"]))
        moved = lkids[-1]
        await editor.reparent([int(moved["node_id"])], current)
        await _refit(editor, int(left["node_id"]), lkids[:-1], stats)
        await _refit(editor, current, [moved, *kids], stats)
        stats.borrows += 1
    elif right is not None and int(right["n_children"]) > min_k:
        rkids = await editor.children(int(right["node_id"]))
        moved = rkids[0]
        await editor.reparent([int(moved["node_id"])], current)
        await _refit(editor, int(right["node_id"]), rkids[1:], stats)
        await _refit(editor, current, [*kids, moved], stats)
        stats.borrows += 1
    elif left is not None or right is not None:
        target = left if left is not None else right
        assert target is not None
        tid = int(target["node_id"])
        tkids = await editor.children(tid)
        merged = [*tkids, *kids] if target is left else [*kids, *tkids]
        if kids:
            await editor.reparent([int(k["node_id"]) for k in kids], tid)
        await _delete(editor, current, stats)
        await _refit(editor, tid, merged, stats)
        stats.merges += 1
    elif kids:  # an only child cannot be under-full unless empty (k = 2); keep it, refit it
        await _refit(editor, current, kids, stats)
    else:
        await _delete(editor, current, stats)


async def rebalance(editor: NodeEditor, tree: TreeRef, start: int, stats: DeleteStats) -> None:
    """Walk up from ``start`` (a node that just lost a child): borrow, merge or collapse as needed and
    refit every node on the way to the root."""
    min_k = (tree.fanout + 1) // 2
    current: int | None = start
    while current is not None:
        node = await editor.node(current)
        assert node is not None, f"node {current} vanished"
        kids = await editor.children(current)
        if node["parent_id"] is None:
            current = await _fix_root(editor, tree, current, int(node["level"]), kids, stats)
            continue
        parent = int(node["parent_id"])
        if len(kids) >= min_k:
            await _refit(editor, current, kids, stats)
            if fit(kids) == (node["t_start"], int(node["seq"]), node["t_end"]):
                # Key and interval unchanged, so no ancestor's changes either: mark them, done.
                stats.marks += await editor.mark_up(parent)
                return
            current = parent
            continue
        await _fix_underfull(editor, current, parent, kids, min_k, stats)
        current = parent
