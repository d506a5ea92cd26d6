"""Two shapes of a sentence's subject that put a second person or a clause before its verb: a subject
of two persons ("Ana and Bo moved to X", "Ana and her sister joined X"), whose states are filed
under the first person named (the speaker's own "I" is written first: ``persons``), and an aside
between the opening person and their verb ("Rosa, who lives next door, adopted X", "Rosa, Ana's
neighbour, joined X"), after which the main clause is the opening person's."""

from __future__ import annotations

import re

from memforest.text.person_keys import KIN_TITLE, NAME, PERSON, names_someone, subject_key
from memforest.text.state_words import KIN, KIN_ADJ, KIN_PLURALS

__all__ = [
    "CLAUSE_OPENING",
    "RELATIVE_SECOND",
    "TIME_LEAD_AT",
    "aside_blanked",
    "first_of_two",
    "lone_person",
    "without_aside",
]

# a time that opens a clause before its subject, as the extractor writes a relative one ("In 2022",
# "On 9 May 2023", "In the week of 24 April 2023", "In the winter of 2022/23", "Earlier in 2023") or
# a person says it ("Over the summer", "Recently", "Back then", "At the time"); ends with its comma
# and space, if any
_TIME_LEAD = (
    r"(?:(?i:in|on|by|since|during|over|around|(?:back|early|late|earlier|later)\s+in)\s+(?:[\w]+\s+){0,5}?"
    r"\d{4}(?:/\d{2,4})?"
    r"|(?i:over|during|in)\s+the\s+(?i:spring|summer|autumn|fall|winter|holidays|weekend)"
    r"|(?i:recently|lately|finally|eventually|yesterday|today|later|afterwards|back\s+then|at\s+the\s+time|"
    r"by\s+then|since\s+then|after\s+that|before\s+that|soon\s+after|around\s+then|years\s+ago))(?:,?\s+)"
)
TIME_LEAD_AT = re.compile(_TIME_LEAD)
# a clause's opening that is one person and nothing else, before the "and" of a subject of two
_LONE_PERSON = re.compile(
    rf"(?:(?:And|So|Also|Plus|Oh|Well|Anyway|Then|But)\b,?\s+)?(?:{_TIME_LEAD})?(?:{KIN_TITLE}\s+)?(?P<lone>{PERSON})"
)
# a relative of the first person as the second of a subject of two ("his wife", "her kids", "the
# twins"), one or several
RELATIVE_SECOND = rf"(?i:his|her|their|the)\s+{KIN_ADJ}(?i:(?:{KIN})s?|family|{KIN_PLURALS})"
# where a clause opens: the text's start, a mark, or a conjunction; and a time that opens it
CLAUSE_OPENING = rf"(?:^|[,;:.!?]\s+|\b(?i:and|but|so|then|when|after|because|since|once|while)\s+)(?:{_TIME_LEAD})?"
# the first person of a subject of two that a match's subject is the second of ("Ana and Bo moved",
# "Ana and her girlfriend Lena joined", "Ana and Aunt Rosa joined")
_FIRST_OF_TWO = re.compile(
    rf"{CLAUSE_OPENING}(?:{KIN_TITLE}\s+)?(?P<first>{PERSON})\s+and\s+"
    rf"(?:(?:{RELATIVE_SECOND}|{NAME}'s\s+{KIN_ADJ}(?i:{KIN})|{KIN_TITLE})\s+)?$"
)
_FIRST_OF_TWO_SPAN = 80  # characters read back for it
# a sentence's opening person and the relative clause or relation in apposition between it and its verb
_INTERRUPTED_OPENING = re.compile(
    rf"^(?P<person>\W*+(?:(?:And|So|Also|But)\s+)?(?:{KIN_TITLE}\s+)?(?P<who>{PERSON}))"
    rf"(?P<aside>,\s+(?:(?:who|whose)\s|{NAME}'s\s+{KIN_ADJ}(?i:{KIN})s?\b)[^,.;:!?()]{{0,60}},)(?=\s+(?!(?:and|or)\b)[a-z])"
)


def lone_person(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is one person and nothing else (a linking word and a time may open it):
    the first of a subject of two when an "and" follows."""
    m = _LONE_PERSON.fullmatch(text, start, end)
    return m is not None and names_someone(m["lone"])


def first_of_two(text: str, at: int) -> str | None:
    """The first person of a subject of two whose second begins at ``at`` (its :func:`subject_key`), or None."""
    m = _FIRST_OF_TWO.search(text, max(0, at - _FIRST_OF_TWO_SPAN), at)
    return subject_key(m["first"]) if m is not None and names_someone(m["first"]) else None


def without_aside(text: str) -> str:
    """``text`` without the relative clause or apposition between the person it opens with and
    their verb ("Rosa, who lives next door, adopted X" -> "Rosa adopted X")."""
    return _aside_out(text, blank=False)


def aside_blanked(text: str) -> str:
    """:func:`without_aside` with the aside written as spaces: every position of ``text`` kept."""
    return _aside_out(text, blank=True)


def _aside_out(text: str, *, blank: bool) -> str:
    m = _INTERRUPTED_OPENING.match(text)
    if m is None or not names_someone(m["who"]):
        return text
    return m["person"] + (" " * len(m["aside"]) if blank else "") + text[m.end() :]
