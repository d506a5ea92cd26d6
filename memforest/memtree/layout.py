"""Bottom-up layout of MemTrees built from all their leaves at once (tree rebuilds, ADR 0009).

Leaves in key order; each level groups consecutive nodes of the level below into parents of between
``ceil(k/2)`` and ``k`` children (shared as evenly as possible), up to one root. The result satisfies
the same invariants as repeated inserts (:mod:`memforest.memtree.invariants`): keys are the smallest
key below, intervals the widest, every non-root node holds ``ceil(k/2)..k`` children, a tree has
height >= 1. :mod:`memforest.store.tree_bulk` gives the planned nodes their ids and writes them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memforest.memtree.model import LeafSpec, TreeRef

__all__ = ["Plan", "PlannedNode", "PlannedRoot", "group_sizes", "layout", "plan_trees", "trees_to_build"]


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
class PlannedNode:
    """A node to write: ``parent`` indexes :attr:`Plan.nodes` until ids exist."""

    tree: TreeRef
    level: int
    t_start: datetime
    seq: int
    t_end: datetime
    n_children: int = 0
    parent: int | None = None
    leaf: LeafSpec | None = None


@dataclass(frozen=True, slots=True)
class PlannedRoot:
    """A planned tree: its root's index in :attr:`Plan.nodes`, its height and its leaf count."""

    tree: TreeRef
    root: int
    height: int
    leaves: int


@dataclass(slots=True)
class Plan:
    """The nodes of every planned tree (each tree's leaves in key order, then each level up to its
    root) and one :class:`PlannedRoot` per tree."""

    nodes: list[PlannedNode]
    roots: list[PlannedRoot]


def _check_leaves(tree: TreeRef, leaves: Sequence[LeafSpec]) -> None:
    if tree.root_node_id is not None:
        raise ValueError(f"tree {tree.tree_id} is not empty: bulk building needs an empty tree")
    for a, b in itertools.pairwise(leaves):
        if (a.t_start, a.seq) >= (b.t_start, b.seq):
            raise ValueError(f"tree {tree.tree_id}: leaves must be sorted by (t_start, seq) without repeated keys")
    for leaf in leaves:
        if leaf.source_kind not in ("fact", "cell"):
            raise ValueError(f"unknown leaf source kind {leaf.source_kind!r}")


def trees_to_build(items: Sequence[tuple[TreeRef, Sequence[LeafSpec]]]) -> list[tuple[TreeRef, list[LeafSpec]]]:
    """The items that have leaves, checked: each tree empty (as far as its ``TreeRef`` knows), its
    leaves sorted by ``(t_start, seq)`` without repeated keys, each tree given once. Raises ValueError."""
    todo = [(tree, list(leaves)) for tree, leaves in items if leaves]
    for tree, leaves in todo:
        _check_leaves(tree, leaves)
    seen: set[int] = set()
    for tree, _ in todo:
        if tree.tree_id in seen:
            raise ValueError(f"tree {tree.tree_id} is given twice")
        seen.add(tree.tree_id)
    return todo


def _plan_tree(tree: TreeRef, leaves: Sequence[LeafSpec], nodes: list[PlannedNode]) -> PlannedRoot:
    """Append the tree's nodes to ``nodes`` (leaves first, then each level)."""
    below = list(range(len(nodes), len(nodes) + len(leaves)))
    nodes.extend(PlannedNode(tree, 0, leaf.t_start, leaf.seq, leaf.t_end, leaf=leaf) for leaf in leaves)
    levels = layout(len(leaves), tree.fanout)
    for level, sizes in enumerate(levels, start=1):
        above: list[int] = []
        start = 0
        for size in sizes:
            kids = below[start : start + size]
            start += size
            first = nodes[kids[0]]
            parent = len(nodes)
            nodes.append(PlannedNode(tree, level, first.t_start, first.seq, max(nodes[k].t_end for k in kids), size))
            for k in kids:
                nodes[k].parent = parent
            above.append(parent)
        below = above
    return PlannedRoot(tree, below[0], len(levels), len(leaves))


def plan_trees(todo: Sequence[tuple[TreeRef, Sequence[LeafSpec]]]) -> Plan:
    """Lay out every tree of ``todo`` (as :func:`trees_to_build` returns it) in one node list."""
    nodes: list[PlannedNode] = []
    roots = [_plan_tree(tree, leaves, nodes) for tree, leaves in todo]
    return Plan(nodes, roots)
