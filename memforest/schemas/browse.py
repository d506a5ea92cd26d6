"""Browse answers: facts (provenance, supersession chain, placements), trees and nodes."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import Field

from memforest.schemas.base import Record, Timestamp, WireModel


class Provenance(Record):
    """One source of a fact (one cell): the session, the client's turn ids, a snippet of the turns."""

    session_id: str
    session_time: Timestamp
    cell_id: str
    turn_ids: tuple[str, ...]
    time: Timestamp
    snippet: str
    linked_at: Timestamp


class ChainLink(Record):
    """A fact of a supersession chain (oldest first); ``is_requested`` marks the fact asked for."""

    id: str
    text: str
    valid_from: Timestamp
    valid_to: Timestamp | None
    recorded_at: Timestamp
    retracted_at: Timestamp | None
    is_requested: bool


class Placement(Record):
    """A tree holding a fact, and the fact's leaf in it."""

    tree_id: str
    tree_kind: str
    tree_label: str
    node_id: str


class Fact(WireModel):
    """A canonical fact. ``status`` is current, superseded or retracted.

    ``GET .../facts/{fact_id}`` also answers ``provenance`` (its sources), ``supersession_chain``
    (oldest first) and ``placements`` (the trees and leaves holding it); the listing does not.
    """

    id: str
    text: str
    kind: str
    status: str = "current"
    entities: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    speaker: str | None = None
    time_text: str | None = None
    valid_from: Timestamp | None
    valid_to: Timestamp | None = None
    recorded_at: Timestamp | None = None
    retracted_at: Timestamp | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    source_count: int = 1
    provenance: tuple[Provenance, ...] = Field(default=(), description="Only in GET .../facts/{fact_id}.")
    supersession_chain: tuple[ChainLink, ...] = Field(default=(), description="Only in GET .../facts/{fact_id}.")
    placements: tuple[Placement, ...] = Field(default=(), description="Only in GET .../facts/{fact_id}.")


class Tree(WireModel):
    """A MemTree of a forest: ``kind`` is session, entity or scene."""

    id: str
    kind: str
    label: str = ""
    key: str | None = None
    root_node_id: str | None = None
    height: int = 1
    n_leaves: int = 0
    fanout: int | None = None
    created_at: Timestamp | None = None


class Interval(WireModel):
    """The time span a node covers."""

    start: Timestamp | None
    end: Timestamp | None


class NodeTree(WireModel):
    """The tree a node belongs to."""

    id: str
    kind: str
    label: str


class LeafRef(WireModel):
    """What a leaf points at: a fact or a cell."""

    kind: str = Field(description="fact or cell")
    id: str


class Leaf(LeafRef):
    """A leaf's source with its text."""

    text: str | None


class _Spanned:
    """``start``/``end`` of ``interval`` and ``leaf_kind``/``leaf_id`` of ``leaf``, as the client had them."""

    if TYPE_CHECKING:
        interval: Interval
        leaf: LeafRef | None

    @property
    def start(self) -> datetime | None:
        """Start of the node's interval."""
        return self.interval.start

    @property
    def end(self) -> datetime | None:
        """End of the node's interval."""
        return self.interval.end

    @property
    def leaf_kind(self) -> str | None:
        """``fact`` or ``cell`` for a leaf, else None."""
        return self.leaf.kind if self.leaf else None

    @property
    def leaf_id(self) -> str | None:
        """The leaf's fact or cell id, else None."""
        return self.leaf.id if self.leaf else None


class NodeChild(_Spanned, WireModel):
    """A child as listed under its node: ``text`` is its summary or leaf text (shortened)."""

    id: str
    level: int
    interval: Interval
    n_children: int = 0
    dirty: bool = False
    text: str | None = None
    leaf: LeafRef | None = None


class Node(_Spanned, WireModel):
    """A MemTree node with a page of its children (time order).

    Level 0 is a leaf (``leaf``: fact or cell with its text); internal nodes have a ``summary`` (None
    until refreshed) over the interval ``start``..``end``.
    """

    id: str
    tree: NodeTree
    level: int
    interval: Interval
    parent_id: str | None = None
    dirty: bool = False
    n_children: int = 0
    summary: str | None = None
    leaf: Leaf | None = None
    children: tuple[NodeChild, ...] = ()
    children_next_cursor: str | None = None

    @property
    def tree_id(self) -> str:
        """The node's tree id."""
        return self.tree.id

    @property
    def tree_kind(self) -> str:
        """The node's tree kind (session, entity, scene)."""
        return self.tree.kind

    @property
    def tree_label(self) -> str:
        """The node's tree label."""
        return self.tree.label

    @property
    def leaf_text(self) -> str | None:
        """The leaf's fact or cell text, else None."""
        return self.leaf.text if isinstance(self.leaf, Leaf) else None
