"""What the MemTree writers pass around: a tree row, a leaf to hang, and counters of the work done."""

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
