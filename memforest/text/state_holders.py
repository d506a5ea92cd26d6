"""Who holds a state a sentence would give the speaker: a name told only as an object acts in no
clause of it ("caught the bug from Ana"); one the speaker takes to or fetches from a
school, a nursery or a club goes there ("dropped Ivo off at X"), and the speaker's own thing stays
the speaker's whoever opens the clause ("Ana's kids love my new job at X")."""

from __future__ import annotations

import re
from functools import lru_cache

from memforest.text.change_subjects import PERSON, names_someone, subject_key
from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import KIN

__all__ = ["acts_before", "escorted_to", "owned_before"]

# a preposition that makes the name after it its object, not the one who acts ("caught it from Ana")
_OBJECT_BEFORE = re.compile(r"\b(?i:from|to|with|for|at|by|about|of)\s+$")
# a verb of telling whose object a reported clause follows ("Bo told Ana Tariq started at X"; not
# "Bo texted Ana about Ana's move to X")
_TOLD_BEFORE = re.compile(r"\b(?i:told|tells|texted|messaged|emailed|reminded)\s+$")
_CLAUSE_AFTER = re.compile(rf"(?<!\s)\s++(?:that\s++)?(?:[{CAPITALS}]|(?i:he|she|they)\b)")


def acts_before(text: str, name: str, end: int) -> bool:
    """``text`` names ``name`` before position ``end`` other than as an object ("caught the bug
    from Ana" names Ana as none who acts, nor does "Bo told Ana Tariq ..."); after ``end`` ("...,
    so that's no longer Ana's problem") it names no one who holds the state told before it."""
    return any(
        _OBJECT_BEFORE.search(text, max(0, m.start() - 12), m.start()) is None
        and not (_TOLD_BEFORE.search(text, max(0, m.start() - 12), m.start()) and _CLAUSE_AFTER.match(text, m.end()))
        for m in re.finditer(rf"(?<![\w']){re.escape(name)}(?![\w-])", text[:end])
    )


# one taken to or fetched from a school, a nursery or a club ("dropped Ivo off at X", "picked Ana's
# son up from X"); not a place the sentence calls the speaker's own (", our ...", "where I work")
_ESCORTED = re.compile(
    rf"\b(?i:drop(?:s|ped|ping)?|pick(?:s|ed|ing)?|t(?:ook|akes?|aking)|walk(?:s|ed|ing)?)\s++(?:(?i:off|up)\s++)?"
    rf"(?P<who>{PERSON})\s++(?:(?i:off|up|over|back)\s++)?(?i:at|to|from)\s++(?:the\s++)?"
)
_ATTENDED = re.compile(
    r"school|nursery|daycare|creche|crèche|preschool|kindergarten|primary|academy|club|class|lessons|practice|training",
    re.IGNORECASE,
)


def escorted_to(text: str, value: str, attribute: str, speaker: str) -> str | None:
    """The person the sentence says is dropped off at, taken to or picked up from ``value`` (a place
    attended: a school, a nursery, a club, by its slot or its name), or None."""
    if _ATTENDED.search(attribute) is None and _ATTENDED.search(value) is None:
        return None
    own = _own_place(speaker)
    for m in _ESCORTED.finditer(text):
        if (
            text.startswith(value, m.end())
            and own.match(text, m.end() + len(value)) is None
            and names_someone(m["who"])
        ):
            return subject_key(m["who"])
    return None


def owned_before(text: str, speaker: str, lead: str, end: int) -> bool:
    """The value at position ``end`` is told as where the speaker's own thing is, outside the
    clause's subject ``lead``: "Ana's kids love Mia's new job at X" tells of the speaker's job, "...
    stay at Mia's place in X" of the speaker's home (a relative of the speaker's is a person: "Rui
    moved in with Mia's sister in X")."""
    return not lead.startswith(f"{speaker}'s") and _owned_at(speaker).search(text, max(0, end - 80), end) is not None


@lru_cache(maxsize=256)
def _own_place(speaker: str) -> re.Pattern[str]:
    """Right after a place, words calling it the speaker's own (", our", ", Ana's", "where I")."""
    s = re.escape(speaker)
    return re.compile(rf"(?<!\s)\s*+(?:,\s*+(?:(?i:our)|{s}'s)\b|,?\s*+(?i:where)\s++(?:I|we|{s})\b)")


@lru_cache(maxsize=256)
def _owned_at(speaker: str) -> re.Pattern[str]:
    """The speaker's own thing (no relative) and a preposition, ending where a value would follow."""
    s = re.escape(speaker)
    return re.compile(
        rf"(?<![\w']){s}'s\s++(?!(?i:(?:{KIN})s?)\b)(?:[a-z][\w-]*+\s++){{1,3}}(?:at|in|with|for|from|on)\s++(?:the\s++)?$"
    )
