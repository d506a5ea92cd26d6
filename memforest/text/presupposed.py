"""What a question or a request to the listener presupposes of the speaker's life: a practitioner or
workmate at a provider ("Could you email my manager at X?"), someone named by role ("can you check
this email to my boss Rangi?"), a thing by make and kind ("does my Kamado rice cooker use much
power?"). A question states nothing else (``extractor``)."""

from __future__ import annotations

from memforest.text.owned_thing import ASKED_OWN, owned_in_question
from memforest.text.role_named import ASKED_ROLE_NAMED, find_role_named
from memforest.text.slots import asks_with_provider, find_role_at

__all__ = ["asks_presupposing", "find_presupposed"]


def asks_presupposing(sentence: str) -> bool:
    """A question or request, as written, names something of the speaker's that it presupposes."""
    return asks_with_provider(sentence) or any(p.search(sentence) for p in (ASKED_OWN, ASKED_ROLE_NAMED))


def find_presupposed(text: str) -> tuple[str, str, str] | None:
    """(holder, slot, value) that a person-rewritten question or request presupposes, else None."""
    return find_role_at(text, presupposed=True) or owned_in_question(text) or find_role_named(text)
