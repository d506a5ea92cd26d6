"""Follow-on: the conversation said right after the best evidence item.

A question about a conversation is often answered by the turns that follow the statement it
matches best: the reply to "what did you take away from the book?" or "who played at the party?"
shares few words with the question, the turn that raised it many. When the question names no
time, no temporal plan pins states, no filter narrows the evidence and (a question asking for
several things, with a real model) the first item's score leads the second's by
``preset.several_follow_lead`` (ADR 0076: where the first places are close, they hold several
members of the set and the place goes to the next one), the cell said right after
the turn the first item cites (its session's next cell) joins the evidence at rank
``preset.follow_on_rank`` (from 1), with the score of the item it goes before; the items from
there on move down one and the list keeps its length (the last item leaves a full one). An item
already kept moves up to that rank, unless it ranks above it. The provenance statement of the kept
items reads the cell too (no statement of its own); a rank of 0 asks for none. Measurements: ADR 0052.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from memforest.retrieval.corroborate import about_time
from memforest.retrieval.timecues import TimeCues

__all__ = ["place", "seed"]


class Kept(Protocol):
    """What the follow-on reads and writes of a kept evidence item."""

    kind: str
    source_id: int
    score: float


K = TypeVar("K", bound=Kept)


def place(kept: list[K], item: K, rank: int, top_k: int) -> list[K]:
    """``kept`` with ``item`` at ``rank`` (from 1; past the end: last), scored as the item it goes
    before (the last one's score at the end), cut to ``top_k``; an item of the same kind and id
    already kept moves there instead, unless it ranks above it."""
    at = min(rank - 1, len(kept))
    keys = [(k.kind, k.source_id) for k in kept]
    key = (item.kind, item.source_id)
    rest = kept
    if key in keys:
        i = keys.index(key)
        if i <= at:
            return kept
        item, rest = kept[i], kept[:i] + kept[i + 1 :]
    if rest:
        item.score = rest[at].score if at < len(rest) else rest[-1].score
    return [*rest[:at], item, *rest[at:]][:top_k]


def seed(kept: Sequence[Kept], cues: TimeCues, rank: int, lead: float = 0.0) -> tuple[str, int] | None:
    """The ``(kind, id)`` of the item whose follow-on is read: the first kept one; None when ``rank``
    is 0, nothing is kept, the question's ``cues`` name a time or the first item's score leads the
    second's by less than ``lead`` (0: no lead asked)."""
    if rank <= 0 or not kept or about_time(cues):
        return None
    if lead > 0.0 and len(kept) > 1 and kept[0].score - kept[1].score < lead:
        return None
    return kept[0].kind, kept[0].source_id
