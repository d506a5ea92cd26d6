"""Cells that only echo the facts ranked above them.

A fact cites the turns it was read from; the cell holding such a turn shows the same words again,
with the assistant's reply beside them ("Maren: I'm a member of Red Kite Harriers now. /
assistant: Got it."). Kept below its fact, such a cell takes a place in the evidence and tells
nothing new, so it is left out when every turn of it is either cited by a fact ranked above it or
an assistant's. A cell with a turn of another speaker that no fact above cites (LoCoMo's two
friends, a user's second message) tells something new and stays, and so does a cell a temporal
plan pinned. Pure functions."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol, TypeVar

__all__ = ["ASSISTANT_ROLE", "without_echoes"]

ASSISTANT_ROLE = "assistant"


class Cited(Protocol):
    """What the rule reads of an evidence item: its kind, key, turns and (a cell's) turns' roles."""

    @property
    def kind(self) -> str: ...
    @property
    def source_id(self) -> int: ...
    @property
    def turn_ids(self) -> tuple[str, ...]: ...
    @property
    def roles(self) -> tuple[str, ...]: ...


ItemT = TypeVar("ItemT", bound=Cited)


def without_echoes(ranked: Sequence[ItemT], pinned: Collection[tuple[str, int]] = ()) -> list[ItemT]:
    """``ranked`` (best first) less each cell that echoes the facts above it (module doc);
    ``pinned``: the (kind, id) keys that stay whatever they are."""
    cited: set[str] = set()
    out: list[ItemT] = []
    for item in ranked:
        if item.kind == "fact":
            cited.update(item.turn_ids)
        elif (item.kind, item.source_id) not in pinned and _echoes(item, cited):
            continue
        out.append(item)
    return out


def _echoes(cell: Cited, cited: Collection[str]) -> bool:
    """Some turn of ``cell`` is ``cited`` and every other one is an assistant's."""
    said = [turn in cited for turn in cell.turn_ids]
    if not any(said) or len(cell.roles) != len(said):
        return False
    return all(s or role == ASSISTANT_ROLE for s, role in zip(said, cell.roles, strict=True))
