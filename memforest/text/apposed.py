"""The parts of a sentence read alone for a state besides what the whole sentence states: the
speaker's partner or an instrument played (``clauses.asides``), and someone the speaker names by
their role ("my barber Tomi", ``role_named.role_apposed``)."""

from __future__ import annotations

from memforest.text import clauses
from memforest.text.role_named import role_apposed

__all__ = ["asides"]


def asides(sentence: str) -> list[str]:
    """The parts of ``sentence`` to read alone, in order, none repeated."""
    out = clauses.asides(sentence)
    role = role_apposed(sentence)
    return out if role is None or role in out else [*out, role]
