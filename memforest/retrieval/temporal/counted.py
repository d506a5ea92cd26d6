"""A state counted back from the latest by a question's grammar ("my previous dentist", "two jobs
ago", "where did I use to work?"): how many states before the latest it asks for."""

from __future__ import annotations

import re

from memforest.attributes import named_attribute
from memforest.retrieval.temporal.points import COUNT_WORDS as _COUNT
from memforest.text.lexicon import CAPITALS, NUMBER_WORDS, WORD_START

# a state counted back from the latest by the question's grammar: an adjective of earlier-ness on
# a possessed or asked noun ("my previous dentist", "her old school", "which former employer"),
# "<noun> before last" / "the one before last" / "last but one", "<n> <nouns> ago" where the noun
# is no unit of time ("two jobs ago", "three phones ago")
_EARLIER_ADJ = re.compile(
    rf"(?:(?:\b(?i:my|his|her|their|our|your)|{WORD_START}[{CAPITALS}][\w-]*'s)\s+(?i:old|ex-?)\s*|"
    rf"(?:\b(?i:my|his|her|their|our|your|the|which|what)|{WORD_START}[{CAPITALS}][\w-]*'s)\s+(?i:previous|former|prior)\s+)"
    r"(?P<noun>[a-z][a-z-]*)\b(?!\s+(?:to|than)\b)"
)
# the words of a time counted back ("two decades ago", "3 hours back", "two Christmases ago"), each
# with its plural
_TIME_UNITS = r"(?:(?:time|day|week|weekend|fortnight|month|year|decade|centur(?:y|ie)|season|quarter|semester|"
_TIME_UNITS += r"term|spring|summer|autumn|fall|winter|night|morning|evening|hour|minute|second|moment|"
_TIME_UNITS += r"christmas(?:e)?|easter|birthday|holiday|anniversar(?:y|ie)|vacation|trip)s?)"
_BEFORE_LAST = re.compile(
    rf"{WORD_START}(?!{_TIME_UNITS}\b)[a-z][a-z-]*\s+before\s+(?:the\s+)?last(?:\s+one)?\b|\blast\s+but\s+one\b"
)
_THINGS_AGO = re.compile(
    rf"\b(?P<n>\d{{1,2}}|{_COUNT})\s+(?!{_TIME_UNITS}\b)(?P<noun>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s+(?:ago|back)\b",
    re.IGNORECASE,
)
# "used to <verb>" as a habit that no longer holds ("where did I use to work?", "which gym did Ana
# use to go to?"), not a passive or "be used to" ("the car was used to ..."); the verb ends the
# clause, or an adverbial follows it, or the clause ends in a stranded preposition whose object the
# wh-word is ("who did I use to play squash with?"); never an object the wh-word stands beside:
# "which car did I use to get to Paris?" asks for an instrument
_USED_TO = re.compile(r"\b(?i:used\s+to|did\s+[\w-]+\s+uses?\s+to)\s+(?P<verb>[a-z]+)(?P<rest>[^?!.;,]*)")
_BE_BEFORE = re.compile(r"(?:\b(?:is|am|are|was|were|be|been|being|get|got|gets|getting)|'[sm]|'re)\s+$", re.IGNORECASE)
_WHERE_USED = re.compile(r"\b(?i:where|when|how\s+often)\s+(?i:did|do)\s+[\w-]+\s+uses?\s+to\b")
_PARTICLE = r"(?:with|to|in|at|for|on|from|by|about|into|out|up|off|over|around)"
_ADVERBIAL = (
    r"(?:before|back|then|when|while|after|during|until|till|as|every|each|most|often|always|usually|regularly|"
    r"a\s+lot|anymore|any\s+more|in\s+(?:\d{4}|the\s+past)|there|here|together)"
)
_HABIT_REST = re.compile(
    rf"^(?:(?:\s+[a-z'-]+){{0,3}}\s+{_PARTICLE}\s*$|(?:\s+{_PARTICLE})?\s*(?:$|\s+{_ADVERBIAL}\b))", re.IGNORECASE
)


# an adverb of earlier-ness closing the question ("which vet did we use previously?")
_PREVIOUSLY = re.compile(r"\b(?i:previously|formerly|beforehand)[\s?.!]*$")


def _habitual(question: str) -> bool:
    """``question`` asks with "used to" for a habit that no longer holds: a place or time asked for
    ("where did I use to buy bread?"), or a verb with no object after it (see ``_USED_TO``)."""
    m = _USED_TO.search(question)
    if m is None or _BE_BEFORE.search(question, 0, m.start()):
        return False
    return _WHERE_USED.search(question) is not None or _HABIT_REST.match(m["rest"]) is not None


def _counted_noun(word: str, asked: str | None) -> bool:
    """The noun counted in "<n> <nouns> ago" is the asked noun (its head, first word or plural;
    "two phones ago" asking about a phone), or a word for the same named kind; with no asked noun,
    any noun that is no time (see ``_TIME_UNITS``)."""
    if asked is None:
        return True
    counted = word.lower().split()[-1]
    forms = {counted, counted.removesuffix("s"), counted.removesuffix("es"), re.sub(r"ies$", "y", counted)}
    words = asked.lower().split()
    if forms & {words[0], words[-1]}:
        return True
    kind = named_attribute(asked)
    return kind is not None and any(named_attribute(f) == kind for f in forms)


_TIME_WORD = re.compile(rf"\b{_TIME_UNITS}$", re.IGNORECASE)


def steps_back(question: str, noun: str | None = None) -> int:
    """How many states before the latest the question asks for: 1 for "my previous / former / old
    dentist" (when the adjective is on the asked ``noun``: "my old flatmate's choir" asks for the
    current choir) and "where did I use to work?", 2 for "the dentist before last", n for "<n>
    dentists ago" (when the dentists are the asked ``noun``); 0 when it counts none. A time counted
    back ("the year before last", "two decades ago", "two Christmases ago") is no step."""
    m = _THINGS_AGO.search(question)
    if m is not None and not _TIME_WORD.search(m["noun"]) and _counted_noun(m["noun"], noun):
        n = m["n"].lower()
        return int(n) if n.isdigit() else NUMBER_WORDS.get(n, 0)
    if _BEFORE_LAST.search(question):
        return 2
    if _habitual(question) or _PREVIOUSLY.search(question):  # "where did I use to work?", "... previously?"
        return 1
    asked = noun.split()[0] if noun else None
    return 1 if any(m["noun"].lower() == asked for m in _EARLIER_ADJ.finditer(question)) else 0
