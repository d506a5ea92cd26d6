"""Whether the readings of a sentence's clauses stand apart (``extractor``): they state states of two
slots, or one clause leaves a value and the next holds what came instead."""

from __future__ import annotations

from memforest.attributes import VERB_CLASSES
from memforest.domain import Candidate, FactKind
from memforest.text.mood import leaves

__all__ = ["came_instead", "several_slots"]


def came_instead(candidates: list[Candidate]) -> bool:
    """Two clauses' readings of one slot, the first leaving its value and the second holding another
    ("Ofa quit the ticket office at A and just finished her first week at B")."""
    if len(candidates) != 2:
        return False
    left, held = candidates
    if not (left.attribute and left.attribute == held.attribute and left.value and held.value):
        return False
    if left.value.casefold() == held.value.casefold() or held.kind is FactKind.PLAN:
        return False
    return leaves(left.text, max(left.text.find(left.value), 0)) and not leaves(
        held.text, max(held.text.find(held.value), 0)
    )


def several_slots(candidates: list[Candidate]) -> bool:
    """The candidates state states of at least two slots (holder and attribute; a verb class's, such
    as going to a place, is one slot per value: "I bank with A and my energy comes from B")."""
    slots = {
        (c.subject.casefold(), c.attribute, c.value if c.attribute in VERB_CLASSES else None)
        for c in candidates
        if c.subject is not None and c.attribute
    }
    return len(slots) >= 2
