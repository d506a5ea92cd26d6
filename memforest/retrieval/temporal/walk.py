"""One side of a temporal walk: bottom nodes read one after another away from the anchor time until
the facts read hold enough runs of the asked chain (or the tree's edge, or the read limit).

Telling the runs means telling the states among every fact read so far (``plan.states_of``), which
costs in proportion to those facts; told after every node read, a walk over a subject with few
states of the asked kind (it walks to the edge) cost the square of its length, most of a second of
the server's CPU for a subject of a thousand facts. So the runs are told after each of the first
``TOLD_EACH`` reads that add facts (where nearly every walk stops), then after 2, 4, 8, ... more;
when such a telling finds enough, a bisection over the reads since the last telling finds the first
of them after which there were enough. A long walk is told O(log n) times. It can stop later than
a telling after every read would have: the runs can fall as facts are added (a fact read later can
join two chains into one), so a crossing between two tellings can be passed by. The nodes read past
the stopping point (at most as many as before it, never past the limit) are left out of the facts
and counted in the reads: the question's read budget bounds what it cost.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from memforest.store.sql import Row

# the facts of some leaves (and of the leaves read ahead), oldest first
FactsOf = Callable[[list[Row], Sequence[Row]], Awaitable[list[Row]]]
RunsAmong = Callable[[list[Row]], int]  # the runs of the asked chain among some facts
TOLD_EACH = 24  # reads adding facts after each of which the runs are told, before the intervals double


class Walk(Protocol):
    """A cursor over a tree's bottom nodes in time order (``descent.TimeCursor``)."""

    reads: int  # node reads so far

    async def step(self, side: int) -> list[Row] | None:
        """The leaves of the next bottom node on ``side``, or None at the tree's edge."""

    def pending(self) -> list[Row]:
        """The leaves read ahead of the walk."""


async def walk_side(
    walk: Walk,
    side: int,
    rows: list[Row],
    facts: FactsOf,
    runs: RunsAmong,
    enough: int,
    limit: int,
) -> tuple[list[Row], int]:
    """``rows`` with the facts read walking ``side`` until there were ``enough`` runs among them
    (all of them when the walk met the tree's edge or ``limit`` reads first), and the node reads
    the walk made."""
    rows = list(rows)
    marks = [len(rows)]  # the facts read after each node read that added facts
    if runs(rows) >= enough:
        return rows, walk.reads
    told, gap = 0, 1  # the mark last told short of enough; reads that add facts until the next telling
    while walk.reads < limit:
        leaves = await walk.step(side)
        if leaves is None:
            break
        new = await facts(leaves, walk.pending())
        if not new:  # (a node with none of the subject's facts leaves the runs as they were)
            continue
        rows.extend(new)
        marks.append(len(rows))
        if len(marks) - 1 - told >= gap:
            if runs(rows) >= enough:
                return _first_enough(rows, marks, told, runs, enough), walk.reads
            told = len(marks) - 1
            gap = gap * 2 if told > TOLD_EACH else 1
    if len(marks) - 1 > told and runs(rows) >= enough:
        return _first_enough(rows, marks, told, runs, enough), walk.reads
    return rows, walk.reads


def _first_enough(rows: list[Row], marks: list[int], short: int, runs: RunsAmong, enough: int) -> list[Row]:
    """The facts at the first mark after ``short`` (told short of enough) whose facts hold
    ``enough`` runs; the last mark's facts do."""
    lo, hi = short, len(marks) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if runs(rows[: marks[mid]]) >= enough:
            hi = mid
        else:
            lo = mid
    return rows[: marks[hi]]
