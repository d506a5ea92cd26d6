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
from memforest.text.subject_pairs import TIME_LEAD_AT, lone_person

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
    """(True, holder) when the clause of ``text`` holding ``value`` opens with a person it does not
    name as its subject ("Mia quit and the kids started at X"): the speaker's relative it names
    (``"Mia's kids"``; "a friend of Ana's" is Ana's), the speaker for "the (whole) family", None
    for anyone else; (False, None) otherwise, and when the speaker is named in that clause after
    that person."""
    at = text.find(value)
    spans = clause_spans(text)
    held = next((i for i, (a, b) in enumerate(spans) if a <= at < b), None)
    if held is None or (held > 0 and lone_person(text, *spans[held - 1])):
        return False, None  # ("In 2023 Mia and the kids moved to X": a subject of two, the speaker's)
    span = spans[held]
    m = _unnamed_lead(text, span[0], at)
    if m is None or _word(speaker).search(text, m.end(), span[1]):
        return False, None  # ("A friend made it for Mia's birthday", "The guy next door sold Mia X": the speaker's)
    noun = m["noun"].lower()
    if noun == "family":
        return True, None if m["place"] else speaker  # ("the family next door": someone else's)
    if _RELATIVE.fullmatch(noun):
        return True, f"{m['owner'] or speaker}'s {noun}"  # ("a friend of Ana's": Ana's friend)
    return True, None


# a conjunction inside a clause too short to be cut off ("Mia quit and the kids started at X")
_JOINED_CLAUSE = re.compile(r"(?<![\w'])(?:and|but|so|while|when|because|once|then)\s++")


def _unnamed_lead(text: str, start: int, at: int) -> re.Match[str] | None:
    """The unnamed person opening the clause from ``start`` (a connective and a time may come first),
    else the one right after the last conjunction before ``at`` whose words before it are more than
    one person ("Mia and the kids moved to X" is a subject of two: the speaker's)."""
    joints = [(j.start(), j.end()) for j in _JOINED_CLAUSE.finditer(text, start, at)]
    for joint, opening in ((start, start), *reversed(joints)):
        head = text[start:joint].rstrip()
        if opening > start and (not head or lone_person(text, start, start + len(head))):
            continue
        linked = _CONNECTIVE.match(text, opening)
        begin = linked.end() if linked is not None else opening
        timed = TIME_LEAD_AT.match(text, begin)
        m = _UNNAMED_LEAD.match(text, timed.end() if timed is not None else begin)
        if m is not None:
            return m
    return None


@lru_cache(maxsize=256)
def _word(name: str) -> re.Pattern[str]:
    """``name`` as a word of its own."""
    return re.compile(rf"(?<![\w'-]){re.escape(name)}(?![\w-])")
