"""A person phrase's key, the name its states are filed under: "Ana's sister Mia" is Mia, "Ana's
sister" the sister (a relation with no name), "Uncle Bo" Bo."""

from __future__ import annotations

import re

from memforest.text.lexicon import ADVERBS, CAPITALS, COMMON_VERBS, ENTITY_EXCLUDE, IRREGULAR_PAST, words
from memforest.text.state_words import KIN, KIN_ADJ

__all__ = ["KIN_TITLE", "NAME", "PERSON", "TITLE_AT", "names_someone", "subject_key", "untitled"]

# a name starts at a word's first character (never inside a word: linear on long capitalised runs);
# the capital comes first and the boundary is checked behind it, so `re` skips to capitals instead
# of trying the pattern at every position (the same matches as the boundary first, ADR 0094)
NAME = rf"[{CAPITALS}](?<![\w'-][{CAPITALS}])[\w-]*"
# a relation's title before a name ("Uncle Bertil", "Aunt Rosalind")
KIN_TITLE = r"(?:Uncle|Aunt|Auntie|Aunty|Grandma|Grandpa|Cousin|Grandad|Granddad)"
_RELATION = re.compile(rf"^(?P<owner>{NAME})'s\s+{KIN_ADJ}(?P<kin>(?i:{KIN}))(?:\s+(?P<name>{NAME}))?$")
TITLE_AT = re.compile(rf"{KIN_TITLE}\s+(?=[{CAPITALS}])")
# a person: "Ana", "Ana's sister", "Ana's sister Mia" (optionally "and others": the speaker's "we")
# (a family holds states as a person does, "Ana's family moved to X"; it is no kin word of questions:
# "the family doctor" asks about a doctor)
PERSON = rf"{NAME}(?:'s\s+{KIN_ADJ}(?i:{KIN}|family)s?(?:\s+{NAME})?)?(?:\s+and\s+others)?"


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


# adjectives and chat words that open a sentence before a noun ("New physio: X", "Big news")
_ORDINARY_OPENERS = words(
    """new old big little quick huge small latest another update fyi ok okay lol plot home work life everything
    nothing first second"""
)
_ADVERB = re.compile(rf"(?:{ADVERBS}|just|finally|so|then|anyway|today|yesterday)")


def names_someone(person: str) -> bool:
    """A capitalised word that is an ordinary word (an adverb, a verb, a gerund) names no one."""
    first = person.split()[0].split("'")[0].lower()
    if (
        first in _ORDINARY_OPENERS
        or first in ENTITY_EXCLUDE
        or first in IRREGULAR_PAST
        or first in COMMON_VERBS
        or _ADVERB.fullmatch(first)
    ):
        return False
    return not first.endswith(("ly", "ing", "ed"))
