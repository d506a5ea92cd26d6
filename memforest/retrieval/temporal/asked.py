"""What a temporal question asks about, read from its grammar: whose state (the asker's own "my",
a relative's "my sister's", a named person's), which kind of state (the noun phrase "my dentist",
"which coffee place"), and the time it names ("in March 2023", "two years ago", "back when I lived
in Oslo"). Pure functions over the question text.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from memforest.attributes import named_attribute
from memforest.text.changes import slot_key
from memforest.text.lexicon import COMMON_VERBS, IRREGULAR_PAST, NUMBER_WORDS
from memforest.text.persons import rewrite_persons
from memforest.text.state_words import KIN

__all__ = ["ASKER", "ago_point", "asked_noun", "during_anchor", "first_person", "part_point", "relations", "slot_of"]

# whom "I" and "my" name when the query names no speaker: the read path puts the forest's
# user-role speaker in its place (``resolve.temporal_plan``)
ASKER = "Iself"
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself|we|us|our|ours)\b|\bI'(?:m|ve|d|ll)\b", re.IGNORECASE)
# "tell me when ...": the asker as the one addressed is no subject of the question
_ADDRESSED = re.compile(r"\b((?:tell|remind|show|give|let|help|ask)\s+)me\b", re.IGNORECASE)
_KEPT = "\u2063"
_NOUN = r"(?P<noun>[a-z][a-z-]*(?:\s+(?!of\b)[a-z][a-z-]*)?)"
_ADJ = r"(?:(?:new|current|usual|regular|go-to|favou?rite|latest|main|own|local|old|previous|former|first|last)\s+)*"
_POSSESSED = re.compile(
    rf"(?:\b[A-Za-z][\w-]*'s|\b(?i:his|her|their))\s+{_ADJ}{_NOUN}(?:\s+of\s+(?P<of>[a-z][a-z-]*))?"
)
_WH_NOUN = re.compile(rf"^\s*(?i:which|what)\s+{_ADJ}{_NOUN}")
_KIN_RE = re.compile(rf"^(?:{KIN})$", re.IGNORECASE)
_PARTNERS = frozenset(str.split("wife husband partner girlfriend boyfriend fiance fiancee spouse"))
# words that end a noun phrase of a question: verbs, prepositions, time words
_NOT_NOUN = frozenset(
    str.split(
        """is was are were be been being has have had do does did now then these those this that the a an and or
        but to of in on at for with from by as so than when while before after during since until till prior
        following back two three four five six seven eight nine ten last next ago years year months month
        weeks week days day spring summer autumn fall winter currently still today lately recently anymore
        become became start started get got name time date point age"""
    )
)
_RELATION = re.compile(rf"\b(?P<owner>[A-Z][\w-]*)'s\s+(?P<kin>(?i:{KIN}))\b(?!\s+[A-Z])")
_AGO = re.compile(
    r"\b(?P<n>\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+couple\s+of|a\s+few)\s+"
    r"(?P<unit>day|week|month|year)s?\s+ago\b",
    re.IGNORECASE,
)
_UNIT_DAYS = {"day": 1.0, "week": 7.0, "month": 30.44, "year": 365.25}
# "back when I lived in Oslo", "during my time at Acme", "while she was with Acme"
_DURING = re.compile(
    r"\b(?:back\s+when|during|while|at\s+the\s+time|in\s+the\s+days\s+when|when)\s+(?P<clause>[^?!;]{1,200})",
    re.IGNORECASE,
)
_WORD = r"(?:[A-Z][\w.&-]*|\d[\w.-]*)"
_VALUE = re.compile(rf"(?<![\w']){_WORD}(?:\s+(?:(?:of|and|on|&|de|the|up)\s+)?{_WORD}){{0,4}}")


def first_person(question: str, speaker: str | None) -> str:
    """The question with its first person ("I", "my", "me") rewritten to ``speaker`` as the write
    path rewrites statements ("What was my dentist?" -> "What was Ana's dentist?"); to
    :data:`ASKER` when no speaker is known."""
    kept = _ADDRESSED.sub(lambda m: m[1] + _KEPT, question)
    if _FIRST_PERSON.search(kept) is None:
        return question
    return rewrite_persons(kept, speaker or ASKER, None).replace(_KEPT, "me")


def _verbish(word: str) -> bool:
    """A verb form ("lives", "preceded", "came") ends a question's noun phrase."""
    stems = (word, word[:-1], word[:-2], word[:-3]) if word.endswith(("s", "ed", "d")) else (word,)
    return word in IRREGULAR_PAST or any(s in COMMON_VERBS for s in stems) or word.endswith("ed")


def _clean(raw: str) -> str | None:
    words = raw.lower().split()
    for i, w in enumerate(words):
        if _verbish(w):
            words = words[:i]
            break
    while words and words[-1] in _NOT_NOUN:
        words.pop()
    if not words or words[0] in _NOT_NOUN:
        return None
    return " ".join(words)


def asked_noun(question: str) -> str | None:
    """The noun phrase of the state asked about: the noun after "which" / "what" ("which dentist
    does Ana see?"), else the thing a person possesses ("Ana's dentist", "her running club";
    relatives skipped: "Ana's sister's bank" -> "bank")."""
    m = _WH_NOUN.match(question)
    noun = _clean(m["noun"]) if m is not None else None
    if noun is not None:
        return noun
    pos = 0
    while (m := _POSSESSED.search(question, pos)) is not None:
        noun = _clean(m["of"] or m["noun"])  # ("Ana's collection of guitars": guitars)
        if noun and not _KIN_RE.match(noun.split()[0]):
            return noun
        pos = m.start("noun")  # (the possessed may own the next: "Ana's sister's bank")
    return None


def slot_of(noun: str) -> str:
    """The slot an asked noun phrase names: its named attribute, else the phrase as a slot key."""
    return named_attribute(noun) or slot_key(noun)


def relations(question: str) -> tuple[str, ...]:
    """Relatives the question names without a name ("Ana's sister"), as subject phrases; a
    partner is left out: "Ana's girlfriend" in a question is mostly the state asked about."""
    found = (f"{m['owner']}'s {m['kin'].lower()}" for m in _RELATION.finditer(question))
    return tuple(dict.fromkeys(r for r in found if r.split()[-1] not in _PARTNERS))


def ago_point(question: str, now: datetime) -> datetime | None:
    """The time "<n> <units> ago" names, counted back from ``now``; None when the question names none."""
    m = _AGO.search(question)
    if m is None:
        return None
    n_text = m["n"].lower()
    n = int(n_text) if n_text.isdigit() else NUMBER_WORDS.get(n_text, 2 if "couple" in n_text or "few" in n_text else 1)
    return now - timedelta(days=n * _UNIT_DAYS[m["unit"].lower()])


_PART = re.compile(
    r"\b(?P<part>early|mid|late|(?:the\s+)?(?:start|beginning|end|middle|first\s+half|second\s+half)\s+of)"
    r"[\s-]*(?:the\s+year\s+)?(?P<year>(?:19|20)\d{2})\b|\b(?P<xmas>christmas|new\s+year'?s?)\s+(?P<y2>(?:19|20)\d{2})\b|"
    r"\bthis\s+time\s+last\s+year\b",
    re.IGNORECASE,
)
# the month and day a part of a year names
_PART_DAY = {"early": (2, 15), "start": (1, 15), "beginning": (1, 15), "mid": (7, 1), "middle": (7, 1),
             "late": (11, 1), "end": (12, 1), "first": (4, 1), "second": (10, 1)}  # fmt: skip


def part_point(question: str, now: datetime) -> datetime | None:
    """The time a part of a year names ("early 2023", "the end of 2022", "Christmas 2021", "this
    time last year"), or None."""
    m = _PART.search(question)
    if m is None:
        return None
    if m["xmas"]:
        return (
            datetime(int(m["y2"]), 12, 25, tzinfo=now.tzinfo)
            if m["xmas"].lower() == "christmas"
            else datetime(int(m["y2"]), 1, 1, tzinfo=now.tzinfo)
        )
    if m["part"] is None:
        return now - timedelta(days=365.25)
    word = m["part"].lower().replace("the ", "").split()[0]
    month, day = _PART_DAY[word]
    return datetime(int(m["year"]), month, day, tzinfo=now.tzinfo)


def during_anchor(question: str, names: tuple[str, ...]) -> str | None:
    """The value of the state a "back when ..." / "during ..." clause names (the last capitalised
    phrase in it that is not one of the question's people ``names``), or None."""
    people = {n.casefold() for n in names}
    for m in _DURING.finditer(question):
        clause = m["clause"]
        found = [v for v in _VALUE.finditer(clause) if not v.group(0).endswith("'s")]
        if found and found[0].start() == 0 and found[0].group(0).casefold() in people:
            found = found[1:]  # the clause's subject ("back when Ana lived in Oslo")
        if found:
            return found[-1].group(0).rstrip(".")
    return None
