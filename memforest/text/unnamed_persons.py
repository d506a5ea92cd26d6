"""A sentence whose subject is a person it does not name ("the guy next door bought X", "the old
couple upstairs moved to X", "the kids started at X", "a friend of mine joined X") tells that
person's state, never the speaker's (issue 48, item 2). A relation word makes the person the
speaker's relative ("the kids", "the boss", "a friend of mine": the speaker's kids, boss, friend);
any other word for a person names no one the memory can file it under, so the sentence files no
state; "the (whole) family" is the speaker's own, as "my family" is."""

from __future__ import annotations

import re
from functools import lru_cache

from memforest.text.clauses import clause_spans
from memforest.text.person_keys import NAME
from memforest.text.state_words import KIN, KIN_PLURALS, PERSON_NOUNS
from memforest.text.subject_pairs import TIME_LEAD_AT

__all__ = ["unnamed_holder"]

# a person named by a word for one (a relation or not), with an owner or a place after it, followed
# by a lower-case word that is no preposition: the subject's verb ("the people at X were lovely" is
# about X; the verb is not theirs)
_UNNAMED_LEAD = re.compile(
    rf"(?i:the|a|an|some|this|that|these|those)\s+(?:(?i:old|new|young|elderly|nice|lovely|whole|other|same)\s+){{0,2}}"
    rf"(?P<noun>(?i:(?:{KIN})s?|{KIN_PLURALS}|{PERSON_NOUNS}|family))"
    rf"(?:\s+of\s+(?P<owner>{NAME})(?:'s)?|\s+(?P<place>next\s+door|upstairs|downstairs|"
    rf"(?:across|over|down)\s+the\s+(?:road|street|hall)|at\s+(?:work|school|the\s+gym)|from\s+(?:work|school)))?"
    rf"\s+(?=[a-z])(?!(?:at|from|of|in|on|with|for|by|near|round|around)\b)"
)
_CONNECTIVE = re.compile(r"\W*(?:(?:And|So|Also|Oh|Well|Then|But|Anyway)\b,?\s+)?")
_RELATIVE = re.compile(rf"(?:{KIN})s?|{KIN_PLURALS}")


def unnamed_holder(text: str, value: str, speaker: str) -> tuple[bool, str | None]:
    """(True, holder) when ``text`` opens with a person it does not name as the subject of the
    clause holding ``value``: the speaker's relative it names (``"Mia's kids"``; "a friend of
    Ana's" is Ana's), the speaker for
    "the (whole) family", None for anyone else; (False, None) otherwise, and when the speaker is
    named in that clause after that person."""
    opening = _CONNECTIVE.match(text)
    start = opening.end() if opening is not None else 0
    timed = TIME_LEAD_AT.match(text, start)
    m = _UNNAMED_LEAD.match(text, timed.end() if timed is not None else start)
    at = text.find(value)
    clause_end = clause_spans(text)[0][1]
    if m is None or at < 0 or at >= clause_end or _word(speaker).search(text, m.end(), clause_end):
        return False, None  # ("A friend made it for Mia's birthday", "The guy next door sold Mia X": the speaker's)
    noun = m["noun"].lower()
    if noun == "family":
        return True, None if m["place"] else speaker  # ("the family next door": someone else's)
    if _RELATIVE.fullmatch(noun):
        return True, f"{m['owner'] or speaker}'s {noun}"  # ("a friend of Ana's": Ana's friend)
    return True, None


@lru_cache(maxsize=256)
def _word(name: str) -> re.Pattern[str]:
    """``name`` as a word of its own."""
    return re.compile(rf"(?<![\w'-]){re.escape(name)}(?![\w-])")
