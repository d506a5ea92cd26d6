"""Batched B+-tree insertion simulated in memory (ADR 0012): a batch of leaf inserts, their ancestor
marks and their splits are applied to the loaded part of the trees; :mod:`memforest.store.tree_insert`
loads that part and writes the result back with a fixed number of statements. Trees that start
empty need no loading at all.

The algorithm, per leaf: the parent is the level-1 node with the largest key ``(t_start, seq)`` not
above the leaf's key (else the first level-1 node); the leaf is attached, the parent and its
ancestors are marked (dirty, version + 1, key widened down to the leaf's, ``t_end`` widened up);
a node with more than ``fanout`` children splits into its first ``n // 2`` children and a new right
sibling holding the rest, which is pushed into the parent (a new root when the node was the root),
recursively.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memforest.memtree.model import InsertStats, LeafSpec, TreeRef


@dataclass(slots=True)
class BatchNode:
    """A node as the batched insert simulates it (``node_id`` < 0: created by this batch)."""

    node_id: int
    tree_id: int
    level: int
    parent_id: int | None
    t_start: datetime
    seq: int
    t_end: datetime
    n_children: int
    children: list[int] | None = None  # known for loaded ancestor chains and for new internal nodes
    new: bool = False
    bumps: int = 0  # version increments; every one also sets the dirty flag
    moved: bool = False  # parent changed by a split
    leaf: LeafSpec | None = None

    @property
    def key(self) -> tuple[datetime, int]:
        return (self.t_start, self.seq)


class Batch:
    """One batch of leaf inserts simulated in memory (the caller of the writer holds the forest lock)."""

    def __init__(self, stats: InsertStats) -> None:
        self.stats = stats
        self.nodes: dict[int, BatchNode] = {}
        self.level1: dict[int, list[int]] = {}  # tree_id -> level-1 node ids known in memory
        self.created: list[int] = []  # temporary ids of new nodes, in creation order
        self.trees: dict[int, TreeRef] = {}
        self.new_roots: set[int] = set()  # trees whose root this batch replaced or created
        self.tree_leaves: dict[int, int] = {}
        self.placements: list[tuple[int, str, int, int, int]] = []  # tree, kind, source, forest, temp leaf id

    def load(self, rows: list[dict[str, Any]]) -> None:
        chain_ids = {int(r["node_id"]) for r in rows if r["on_chain"]}
        for r in rows:
            nid = int(r["node_id"])
            if nid not in self.nodes:
                node = BatchNode(
                    nid, int(r["tree_id"]), int(r["level"]), r["parent_id"], r["t_start"], int(r["seq"]),
                    r["t_end"], int(r["n_children"]),
                )  # fmt: skip
                self.nodes[nid] = node
                if node.level == 1:
                    self.level1.setdefault(node.tree_id, []).append(nid)
        for nid in chain_ids:
            self.nodes[nid].children = []
        for r in rows:
            parent = r["parent_id"]
            if not r["on_chain"] and parent is not None and int(parent) in chain_ids:
                kids = self.nodes[int(parent)].children
                assert kids is not None
                kids.append(int(r["node_id"]))

    def _new(self, tree: TreeRef, level: int, parent: int | None, t_start: datetime, seq: int, t_end: datetime,
             n_children: int, leaf: LeafSpec | None = None) -> BatchNode:  # fmt: skip
        node = BatchNode(-(len(self.created) + 1), tree.tree_id, level, parent, t_start, seq, t_end, n_children,
                         new=True, children=None if level == 0 else [], leaf=leaf)  # fmt: skip
        self.nodes[node.node_id] = node
        self.created.append(node.node_id)
        if level == 1:
            self.level1.setdefault(tree.tree_id, []).append(node.node_id)
        return node

    def _seek(self, tree: TreeRef, key: tuple[datetime, int]) -> int:
        # each node's key built once per visit (a tree's level-1 nodes are visited for every leaf)
        best: BatchNode | None = None
        first: BatchNode | None = None
        best_key = first_key = key
        for nid in self.level1.get(tree.tree_id, []):
            n = self.nodes[nid]
            k = (n.t_start, n.seq)
            if k <= key and (best is None or k > best_key):
                best, best_key = n, k
            if first is None or k < first_key:
                first, first_key = n, k
        found = best or first
        assert found is not None, f"tree {tree.tree_id} has no level-1 node in memory"
        return found.node_id

    def insert(self, tree: TreeRef, leaf: LeafSpec) -> int:
        """Hang one leaf (its placement is known to be new) as described above; returns the temp leaf id."""
        self.trees[tree.tree_id] = tree
        if tree.root_node_id is None:
            root = self._new(tree, 1, None, leaf.t_start, leaf.seq, leaf.t_end, 0)
            tree.root_node_id, tree.height = root.node_id, 1
            self.new_roots.add(tree.tree_id)
            self.stats.nodes_created += 1
            parent_id = root.node_id
        else:
            parent_id = self._seek(tree, (leaf.t_start, leaf.seq))
        node = self._new(tree, 0, parent_id, leaf.t_start, leaf.seq, leaf.t_end, 0, leaf)
        self.placements.append((tree.tree_id, leaf.source_kind, leaf.source_id, tree.forest_id, node.node_id))
        parent = self.nodes[parent_id]
        assert parent.children is not None
        parent.children.append(node.node_id)
        marked = 0
        cur: BatchNode | None = parent
        while cur is not None:  # mark_path: widen key and interval, bump version, set dirty
            cur.bumps += 1
            if cur.key > (leaf.t_start, leaf.seq):
                cur.t_start, cur.seq = leaf.t_start, leaf.seq
            cur.t_end = max(cur.t_end, leaf.t_end)
            marked += 1
            cur = self.nodes[cur.parent_id] if cur.parent_id is not None else None
        parent.n_children += 1
        self.tree_leaves[tree.tree_id] = self.tree_leaves.get(tree.tree_id, 0) + 1
        self.stats.leaves += 1
        self.stats.nodes_created += 1
        self.stats.marks += marked
        self.stats.touched_trees.add(tree.tree_id)
        if parent.n_children > tree.fanout:
            self._split(tree, parent)
        return node.node_id

    def _split(self, tree: TreeRef, node: BatchNode) -> None:
        """Split an over-full node in two halves; push the new sibling into the parent (recursively)."""
        assert node.children is not None, f"node {node.node_id} splits but its children were not loaded"
        children = sorted((self.nodes[c] for c in node.children), key=lambda c: (c.t_start, c.seq, c.node_id))
        keep = len(children) // 2
        kept, moved = children[:keep], children[keep:]
        sibling = self._new(tree, node.level, node.parent_id, moved[0].t_start, moved[0].seq,
                            max(c.t_end for c in moved), len(moved))  # fmt: skip
        sibling.children = [c.node_id for c in moved]
        for c in moved:
            c.parent_id, c.moved = sibling.node_id, True
        node.children = [c.node_id for c in kept]
        node.n_children = len(kept)
        node.t_end = max(c.t_end for c in kept)
        node.bumps += 1
        self.stats.splits += 1
        self.stats.nodes_created += 1
        if node.parent_id is None:
            root = self._new(tree, node.level + 1, None, node.t_start, node.seq,
                             max(c.t_end for c in children), 2)  # fmt: skip
            root.children = [node.node_id, sibling.node_id]
            node.parent_id, node.moved = root.node_id, True
            sibling.parent_id = root.node_id
            tree.root_node_id, tree.height = root.node_id, root.level
            self.new_roots.add(tree.tree_id)
            self.stats.nodes_created += 1
            return
        parent = self.nodes[node.parent_id]
        assert parent.children is not None
        parent.children.append(sibling.node_id)
        parent.n_children += 1
        parent.bumps += 1
        if parent.n_children > tree.fanout:
            self._split(tree, parent)
