"""In-memory MemTrees for the memtree unit tests: trees grown by :mod:`memforest.memtree.batch`,
their rows as :func:`memforest.memtree.invariants.check_tree` reads them, and a
:class:`memforest.memtree.rebalance.NodeEditor` over those rows (what ``store.tree_delete`` runs as SQL)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from memforest.domain import TreeKind
from memforest.memtree.batch import Batch
from memforest.memtree.invariants import check_tree
from memforest.memtree.model import InsertStats, LeafSpec, TreeRef
from memforest.memtree.rebalance import NodeRow

BASE = datetime(2024, 1, 1, tzinfo=UTC)


def cell_leaf(source: int, minutes: int, span_hours: int = 0) -> LeafSpec:
    """A cell leaf starting ``minutes`` after BASE, lasting ``span_hours``, keyed ``(start, source)``."""
    ts = BASE + timedelta(minutes=minutes)
    return LeafSpec("cell", source, ts, ts + timedelta(hours=span_hours), source, f"cell {source}")


def new_tree(fanout: int, tree_id: int = 1) -> TreeRef:
    return TreeRef(tree_id, 1, TreeKind.SESSION, f"s{tree_id}", f"s{tree_id}", fanout, None, 0)


def grow(times: Sequence[int], fanout: int, stats: InsertStats | None = None) -> tuple[TreeRef, Batch]:
    """An empty tree and one batch hanging a cell leaf per time (sources 1, 2, ...; leaf i lasts i hours)."""
    tree = new_tree(fanout)
    batch = Batch(stats if stats is not None else InsertStats())
    for i, minutes in enumerate(times):
        batch.insert(tree, cell_leaf(i + 1, minutes, i))
    return tree, batch


class MemoryTree:
    """One tree's rows in memory, editable as rebalancing edits them."""

    def __init__(self, tree: TreeRef, nodes: dict[int, dict[str, Any]], n_leaves: int) -> None:
        self.tree = tree
        self.nodes = nodes
        self.n_leaves = n_leaves

    @classmethod
    def from_batch(cls, tree: TreeRef, batch: Batch) -> MemoryTree:
        """The rows a batch over an initially empty tree leaves, every node clean at version 0."""
        nodes = {
            n.node_id: {
                "node_id": n.node_id, "tree_id": n.tree_id, "level": n.level, "parent_id": n.parent_id,
                "t_start": n.t_start, "seq": n.seq, "t_end": n.t_end, "n_children": n.n_children,
                "dirty": False, "version": 0,
                "leaf_fact_id": n.leaf.source_id if n.leaf is not None and n.leaf.source_kind == "fact" else None,
                "leaf_cell_id": n.leaf.source_id if n.leaf is not None and n.leaf.source_kind == "cell" else None,
            }
            for n in batch.nodes.values()
            if n.tree_id == tree.tree_id
        }  # fmt: skip
        return cls(tree, nodes, batch.tree_leaves.get(tree.tree_id, 0))

    def row(self) -> dict[str, Any]:
        t = self.tree
        return {
            "tree_id": t.tree_id, "kind": t.kind.value, "label": t.label, "fanout": t.fanout,
            "root_node_id": t.root_node_id, "height": t.height, "n_leaves": self.n_leaves,
        }  # fmt: skip

    def violations(self, *, allow_dirty: bool = True) -> list[str]:
        return check_tree(self.row(), list(self.nodes.values()), allow_dirty=allow_dirty)

    def leaves(self) -> list[dict[str, Any]]:
        """The leaf rows in key order."""
        return sorted((n for n in self.nodes.values() if n["level"] == 0), key=lambda n: (n["t_start"], n["seq"]))

    def leaf_of(self, source: int) -> int:
        return next(n["node_id"] for n in self.nodes.values() if n["leaf_cell_id"] == source)

    def dirty(self) -> set[int]:
        return {nid for nid, n in self.nodes.items() if n["dirty"]}

    def drop_leaf(self, node_id: int) -> int | None:
        """Delete one leaf row (as ``store.tree_delete.remove_leaf`` does); returns its parent."""
        leaf = self.nodes.pop(node_id)
        assert leaf["level"] == 0
        self.n_leaves -= 1
        parent: int | None = leaf["parent_id"]
        return parent

    # NodeEditor

    async def node(self, node_id: int) -> NodeRow | None:
        n = self.nodes.get(node_id)
        return None if n is None else dict(n)

    async def children(self, node_id: int) -> list[NodeRow]:
        kids = [dict(n) for n in self.nodes.values() if n["parent_id"] == node_id]
        return sorted(kids, key=lambda n: (n["t_start"], n["seq"], n["node_id"]))

    async def refit(self, node_id: int, n_children: int, t_start: Any, seq: int, t_end: Any) -> None:
        n = self.nodes[node_id]
        n.update(n_children=n_children, t_start=t_start, seq=seq, t_end=t_end, dirty=True)
        n["version"] += 1

    async def reparent(self, node_ids: list[int], parent_id: int) -> None:
        for nid in node_ids:
            self.nodes[nid]["parent_id"] = parent_id

    async def detach(self, node_id: int) -> None:
        self.nodes[node_id]["parent_id"] = None

    async def delete(self, node_id: int) -> None:
        del self.nodes[node_id]

    async def set_root(self, tree_id: int, root: int | None, height: int) -> None:
        assert tree_id == self.tree.tree_id  # rebalance updates the TreeRef itself

    async def mark_up(self, start: int) -> int:
        marked = 0
        current: int | None = start
        while current is not None:
            n = self.nodes[current]
            n["dirty"] = True
            n["version"] += 1
            marked += 1
            current = n["parent_id"]
        return marked
