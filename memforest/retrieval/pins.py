"""Where a temporal plan's states go among the ranked evidence (ADR 0063): the answer first, the
ranking's own top right after it, its neighbours kept inside the list the query keeps."""

from __future__ import annotations

from collections.abc import Callable, Sequence

Key = tuple[str, int]  # an evidence item: (kind, source id)


def place_pins(ranked: Sequence[Key], pins: Sequence[Key], top_k: int) -> list[Key]:
    """The order of ``ranked`` (item keys) with a temporal plan's states (``pins``, in rank order)
    placed: the first pin (the answer, or the fact nearest the anchor time when no chain answers)
    first; the other pins (its neighbours) where the ranking put them, moved up to the last slots
    of the top ``top_k`` when it put them lower. So a plan displaces one slot of the ranking's top
    and otherwise only its tail: a wrong answer state leaves what recall ranked first in sight."""
    present = [p for p in pins if p in ranked]
    if not present:
        return list(ranked)
    first, others = present[0], set(present[1:])
    rest = [key for key in ranked if key != first]
    late = [key for key in rest[top_k - 1 :] if key in others]
    if late:
        head = [key for key in rest if key not in late]
        cut = max(0, top_k - 1 - len(late))
        rest = [*head[:cut], *late, *head[cut:]]
    return [first, *rest]


def placed_within(
    ranked: Sequence[Key], pins: Sequence[Key], top_k: int, kept: Callable[[list[Key]], int]
) -> list[Key]:
    """``ranked`` with ``pins`` placed (:func:`place_pins`) within the count of the list the query
    keeps: ``kept(order)`` is how many of ``order`` it keeps, at most ``top_k`` (a token budget may
    keep fewer). When it keeps fewer than the pins were placed for, they are placed again within
    that count, so the neighbours stay inside what is kept."""
    keep = top_k
    while True:
        order = place_pins(ranked, pins, keep)
        fits = kept(order)
        if fits >= keep:
            return order
        keep = fits  # (at least 1 when there are items, as the first is always kept: so this ends)
