"""A person phrase's key, the name its states are filed under: "Ana's sister Mia" is Mia, "Ana's
sister" the sister (a relation with no name), "Uncle Bo" Bo."""

from __future__ import annotations

import re

from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import KIN, KIN_ADJ

__all__ = ["KIN_TITLE", "NAME", "TITLE_AT", "subject_key", "untitled"]

# a name starts at a word's first character (never inside a word: linear on long capitalised runs);
# the capital comes first and the boundary is checked behind it, so `re` skips to capitals instead
# of trying the pattern at every position (the same matches as the boundary first, ADR 0094)
NAME = rf"[{CAPITALS}](?<![\w'-][{CAPITALS}])[\w-]*"
# a relation's title before a name ("Uncle Bertil", "Aunt Rosalind")
KIN_TITLE = r"(?:Uncle|Aunt|Auntie|Aunty|Grandma|Grandpa|Cousin|Grandad|Granddad)"
_RELATION = re.compile(rf"^(?P<owner>{NAME})'s\s+{KIN_ADJ}(?P<kin>(?i:{KIN}))(?:\s+(?P<name>{NAME}))?$")
TITLE_AT = re.compile(rf"{KIN_TITLE}\s+(?=[{CAPITALS}])")


def untitled(person: str) -> str:
    """A person's name without a relation's title before it ("Uncle Bo" -> "Bo")."""
    titled = TITLE_AT.match(person)
    return person[titled.end() :] if titled is not None else person


def subject_key(person: str) -> str:
    """Whose state a person phrase names: "Ana's sister Mia" -> "Mia"; "Ana's sister" ->
    "Ana's sister" (a relation with no name); "Ana and others" -> "Ana"; "Uncle Bo" -> "Bo"."""
    person = untitled(person.removesuffix(" and others"))
    m = _RELATION.match(person)
    if m is None:
        return person
    return m["name"] or f"{m['owner']}'s {m['kin'].lower()}"
