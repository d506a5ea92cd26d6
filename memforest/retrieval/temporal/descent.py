"""Interval-guided browse of a subject's entity tree (design 3.1, step 4).

Internal nodes carry ``[t_start, t_end]``. ``TimeCursor.descend`` goes from the root to the
bottom node whose interval holds a time (or to the first / last one), one node read per level;
``step`` then moves to the bottom node just before or after the current one, like a B-tree cursor:
it climbs only as far as the nearest ancestor with a sibling on that side, so walking k bottom nodes
costs O(k + height) reads, never a read of the whole tree. ``reads`` counts the node reads.
A step reads the children of the node it moves to together with those of its siblings still
ahead on its side, in one statement per level (``store.children_of``), so a walk of k bottom nodes
takes about k / fanout + height statements (``statements``); the node reads it counts stay one
per node the walk moves to.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from memforest.store import temporal as store
from memforest.store.sql import Conn, Row

BACKWARD, FORWARD = -1, 1


def _holding(kids: list[Row], at: datetime | None, side: int) -> int:
    """The child whose interval holds ``at``: the last starting at or before it (the first child
    when none does); with no time, the first (``FORWARD``) or last (``BACKWARD``) child."""
    if at is None:
        return 0 if side == FORWARD else len(kids) - 1
    idx = 0
    for i, k in enumerate(kids):
        if k["t_start"] <= at:
            idx = i
    return idx


@dataclass(slots=True)
class TimeCursor:
    """A position at the bottom of one entity tree: the path of (siblings, chosen index) from the
    root's children down, and the leaves under the node reached."""

    conn: Conn
    tenant_id: uuid.UUID
    forest_id: int
    path: list[tuple[list[Row], int]] = field(default_factory=list)
    leaves: list[Row] = field(default_factory=list)
    reads: int = 0
    statements: int = 0  # database statements the node reads took
    ahead: dict[int, list[Row]] = field(default_factory=dict)  # children read before the walk reached them

    async def _children(self, node_id: int) -> list[Row]:
        self.reads += 1
        if node_id in self.ahead:
            return self.ahead.pop(node_id)
        self.statements += 1
        return await store.children(self.conn, self.tenant_id, self.forest_id, node_id)

    async def _read_ahead(self, kids: list[Row], i: int, side: int) -> None:
        """The children of ``kids[i]`` and of its siblings beyond it on ``side``, in one statement."""
        order = kids[i:] if side == FORWARD else kids[i::-1]
        ids = [int(k["node_id"]) for k in order]
        self.statements += 1
        read = await store.children_of(self.conn, self.tenant_id, self.forest_id, ids)
        self.ahead.update((n, read.get(n, [])) for n in ids)

    def pending(self) -> list[Row]:
        """The leaves among the children read ahead (``ahead``)."""
        return [r for kids in self.ahead.values() for r in kids if int(r["level"]) == 0]

    async def _down(self, node_id: int, at: datetime | None, side: int, *, wide: bool = False) -> None:
        """Down to the bottom node holding ``at``; ``wide``: reading at each level the children of
        the chosen node and of its siblings beyond it on ``side`` (where a walk goes next)."""
        while True:
            kids = await self._children(node_id)
            if not kids or int(kids[0]["level"]) == 0:
                self.leaves = kids
                return
            i = _holding(kids, at, side)
            self.path.append((kids, i))
            if wide:
                await self._read_ahead(kids, i, side)
            node_id = int(kids[i]["node_id"])

    async def descend(self, root: int, at: datetime | None, side: int) -> list[Row]:
        """From ``root`` down to the bottom node holding ``at`` (no time: the first node for
        ``FORWARD``, the last for ``BACKWARD``); returns its leaves."""
        self.path, self.leaves = [], []
        await self._down(root, at, side)
        return self.leaves

    def copy(self) -> TimeCursor:
        """An independent cursor at the same place (the two then walk apart)."""
        return TimeCursor(self.conn, self.tenant_id, self.forest_id, list(self.path), list(self.leaves))

    async def step(self, side: int) -> list[Row] | None:
        """Move to the neighbouring bottom node on ``side``; its leaves, or None at the tree's edge."""
        depth = len(self.path) - 1
        while depth >= 0:
            kids, i = self.path[depth]
            if 0 <= i + side < len(kids):
                break
            depth -= 1
        if depth < 0:
            return None
        kids, i = self.path[depth]
        self.path[depth + 1 :] = []
        self.path[depth] = (kids, i + side)
        target = int(kids[i + side]["node_id"])
        if target not in self.ahead:
            await self._read_ahead(kids, i + side, side)
        await self._down(target, None, side, wide=True)
        return self.leaves


def fact_ids(leaves: list[Row]) -> list[int]:
    """The fact ids of fact leaves (cell leaves left out)."""
    return [int(r["leaf_fact_id"]) for r in leaves if r["leaf_fact_id"] is not None]
