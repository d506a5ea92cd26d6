"""What the MemTree writers pass around: a tree row, a leaf to hang, and counters of the work done by
inserts and by deletions."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memforest.domain import TreeKind


@dataclass(slots=True)
class TreeRef:
    """A tree row as the write path needs it (mutable: root and height change on root splits)."""

    tree_id: int
    forest_id: int
    kind: TreeKind
    key: str
    label: str
    fanout: int
    root_node_id: int | None
    height: int


@dataclass(frozen=True, slots=True)
class LeafSpec:
    """What to hang in a tree: payload (a fact or a cell), its time key and its text."""

    source_kind: str  # "fact" | "cell"
    source_id: int
    t_start: datetime
    t_end: datetime
    seq: int
    text: str
    embedding: Any = None  # a vector when already known (fact leaves copy the fact's embedding)


@dataclass(slots=True)
class InsertStats:
    """Counters of structural work."""

    leaves: int = 0
    skipped: int = 0
    splits: int = 0
    nodes_created: int = 0
    marks: int = 0
    trees_created: int = 0
    touched_trees: set[int] = field(default_factory=set)

    def add(self, other: InsertStats) -> None:
        self.leaves += other.leaves
        self.skipped += other.skipped
        self.splits += other.splits
        self.nodes_created += other.nodes_created
        self.marks += other.marks
        self.trees_created += other.trees_created
        self.touched_trees |= other.touched_trees


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
