"""The kind a question asks after when it names a service by what is done, not by who does it:
"who does Ana have cello lessons with?" asks for her cello teacher, "who did Ana see for physio?" for
her physio, "who coaches Ana's son's team?" for a coach, "who does Ana's accounts?" for her
accountant, "where was Ana getting her hair cut?" for her hairdresser, "when did Ana's son switch
schools?" for his school. Each reading is a noun phrase the read path takes as the asked noun
(``asked.asked_noun``); the words that give it ("with", "from") then name no partner and no
origin (``asked_attribute``).
"""

from __future__ import annotations

import re

from memforest.text.topics import singular

__all__ = ["LESSON_WITH", "SWITCHED_KIND_SOURCE", "doer_noun", "main_clause_start", "service_noun", "worker_on"]

# lessons, classes or sessions had with or from someone: "cello lessons with X", "took classes from X"
_LESSON = r"(?:lessons?|classes|tuition|coaching|sessions?|appointments?|treatments?|therapy)"
LESSON_WITH = re.compile(rf"\b{_LESSON}\s+(?:with|from)\b", re.IGNORECASE)
# ... with the subject taught before it ("cello lessons with", "swimming classes from")
_TAUGHT = re.compile(rf"\b(?P<what>[a-z]+)\s+{_LESSON}\s+(?:with|from)\b")
# whose a thing is: a possessive pronoun or a name's "'s"
_OWNER = r"(?:(?i:my|his|her|their|our|your)|(?<![\w-])[^\W\d_][\w-]*+'s)"
# one seen or gone to for a kind of care ("see for physio", "went to for massages")
_SEEN_FOR = re.compile(
    r"\b(?:see|sees|saw|seeing|seen|visit|visits|visited|visiting|go\s+to|goes\s+to|went\s+to|going\s+to)\s+for\s+"
    rf"(?:{_OWNER}\s+)?(?P<noun>[a-z]+)\b"
)
# a word that opens a clause that asks: a question word or an auxiliary
_ASKING = (
    r"(?i:who|whom|whose|what|which|where|when|how|do|does|did|is|was|are|were|has|have|had|can|could|will|would)\b"
)
# a clause or a time that leads a question, up to the comma its main clause follows ("When Ana was
# at X, ...", "In 2020, ..."); a relative clause inside it is stepped over when the leading clause
# goes on after it ("When my dentist, who was near the office, retired, who ...?"); an opening that
# asks ("When did ...", "When exactly did ...", "In which ...", "By how much ...") leads nothing
_LEADING_CLAUSE = (
    r"(?:(?i:when|while|after|before|once|since|during|back\s++when|back|in|by|around|as\s+of|at\s+the\s+time)\b"
    r"(?!\s++(?:[a-z]+ly\s++|again\s++)?(?i:do|does|did|is|are|was|were|has|have|had|will|would|can|could|should|"
    r"what|which|when|where|who|whom|whose|how|much|many|long|often)\b)[^?;,]*+"
    rf"(?:,\s*+(?i:who|which|whose)\b[^?;,]*+,\s*+(?!{_ASKING})[^?;,]*+)*,\s*+)"
)
# where a question's main clause starts: after "and / so / then / but" and after a leading clause
# whose main clause asks ("When I lived in X, who was my dentist?")
_MAIN_CLAUSE = re.compile(rf"^\s*+(?:(?i:and|so|then|but)\s++)?(?:{_LEADING_CLAUSE}(?={_ASKING}))?")
# the opening of a main clause asked by "who" (a "who" after a noun, "Ana's brother, who coaches",
# opens a relative clause, no main clause)
_WHO = r"(?i:who)(?:'s\s+|'d\s+|\s+(?:(?i:is|was|has\s+been|had\s+been)\s+)?)"
# a question that asks who did a teacher's or a coach's work ("who coached ...", "who teaches ...")
_AGENT = re.compile(rf"{_WHO}(?P<verb>(?i:coach|teach|tutor|train))(?i:e[sd]|es|ed|ing|s)?\b")
_AGENTS = {"coach": "coach", "teach": "teacher", "tutor": "tutor", "train": "trainer"}
# ... who provides a thing ("who provides the broadband at Ana's flat?": its provider), words that
# tell which one aside ("who supplies my current broadband?")
_PROVIDES = re.compile(
    rf"{_WHO}(?i:provid(?:es|ed|ing|e)|suppl(?:ies|ied|ying|y))\s+(?:(?i:the)\s+|{_OWNER}\s+)?"
    r"(?:(?:current|present|new|old|usual|regular|main|best|local|cheapest)\s+)*+"
    r"(?P<what>[a-z]+(?:\s+(?!(?:at|for|in|on|with|from|to|now|then|these|those|this|that|back|since|before|after|"
    r"during|when|while|last|until)\b)[a-z]+){0,2})\b"
)
# nouns that make a car a compound of another thing ("my car insurance", "my car windows")
_CAR_COMPOUND = r"insurance|loan|payments?|tax|lease|finance|registration|parking|park|wash|keys?|windows?|seats?"
# ... who does work on a thing of one's own ("who does Ana's accounts", "who was doing my taxes")
_DOES_WORK = re.compile(
    rf"{_WHO}(?:(?i:do|does|did|doing|cut|cuts|cutting|trims?|trimmed|styles?|styled|colou?red|cleans?|cleaned)\s+"
    rf"{_OWNER}\s+(?P<done>(?i:accounts|taxes|books|hair|teeth))\b|(?i:fix(?:es|ed)?|repair(?:s|ed)?|services?|serviced)"
    rf"\s+{_OWNER}\s+(?P<car>(?i:car))(?![\w-]|\s++(?i:{_CAR_COMPOUND})\b))"
)  # ("who cut my hair?", "who serviced Ana's car last year?"; not "who fixed my car insurance?")
# a thing of one's own named with the work done on it ("Ana's hair cut", "her teeth cleaned", "his car
# serviced"), read from the possessed noun phrase
_WORKED_ON = re.compile(
    r"(?P<object>hair|teeth|car|accounts|taxes)\s+"
    r"(?:cut|trimmed|styled|coloured|colored|dyed|done|cleaned|checked|serviced|fixed|repaired|filed)\b",
    re.IGNORECASE,
)
_WHO_OR_WHERE = re.compile(r"(?i:who|where)\b")
# whose work it is, by what they work on
_WORKER_ON = {
    "hair": "hairdresser", "teeth": "dentist", "car": "mechanic",
    "accounts": "accountant", "taxes": "accountant", "books": "accountant",
}  # fmt: skip
# a change of one thing of a kind for another, the kind in the plural ("switch schools", "changed banks")
SWITCHED_KIND_SOURCE = r"(?:switch(?:ed|es|ing)?|chang(?:e|ed|es|ing)|swap(?:ped|s|ping)?)\s+(?P<noun>[a-z]{3,}s)"
_SWITCHED = re.compile(rf"\b{SWITCHED_KIND_SOURCE}\b(?!\s+(?:to|from)\b)")
# words after "see for" or before "lessons" that name no kind ("see for myself", "extra lessons")
_NO_KIND = frozenset({
    "a", "an", "the", "myself", "himself", "herself", "themselves", "ourselves", "yourself", "years", "months",
    "weeks", "ages", "extra", "more", "private", "group", "free", "first", "last", "some", "any", "it", "them",
    "this", "that", "these", "those", "for", "with", "us", "me", "him", "you",
})  # fmt: skip


def main_clause_start(question: str) -> int:
    """Where the main clause of ``question`` starts: past a leading "and" and a leading clause ("When
    I lived in X, who ...": at "who"), else past its leading spaces."""
    m = _MAIN_CLAUSE.match(question)
    return m.end() if m is not None else 0


def doer_noun(question: str, main: int) -> str | None:
    """The kind of one who coaches, teaches, tutors or trains, asked after by "who" ("who coaches
    Ana's son's team?": a coach; the team is what is coached), of one who provides a thing ("who
    provides the broadband?": a broadband provider), or of one who works on a thing of one's own
    ("who does Ana's accounts?": an accountant), or None. Only the "who" opening the main clause
    (at ``main``, :func:`main_clause_start`) asks."""
    m = _AGENT.match(question, main)
    if m is not None:
        return _AGENTS[m["verb"].lower()]
    m = _PROVIDES.match(question, main)
    if m is not None and m["what"].split()[0] not in _NO_KIND:
        return f"{m['what']} provider"
    m = _DOES_WORK.match(question, main)
    return _WORKER_ON[(m["done"] or m["car"]).lower()] if m is not None else None


def worker_on(question: str, main: int, possessed: str) -> str | None:
    """The kind of one who does the work a possessed noun phrase names with its thing ("hair cut":
    a hairdresser, "teeth cleaned": a dentist, "car serviced": a mechanic), asked after by a question
    whose main clause (at ``main``) opens with "who" or "where" ("when did I last get my car
    checked?" asks the event's time); else None."""
    m = _WORKED_ON.match(possessed) if _WHO_OR_WHERE.match(question, main) else None
    return _WORKER_ON[m["object"].lower()] if m is not None else None


def service_noun(question: str) -> str | None:
    """The kind of service ``question`` names by lessons had, care sought or a change of one thing
    of a kind for another (see the module doc), or None."""
    m = _TAUGHT.search(question)
    if m is not None and m["what"] not in _NO_KIND:
        return f"{m['what']} teacher"
    m = _SEEN_FOR.search(question)
    if m is not None and m["noun"] not in _NO_KIND:
        return m["noun"]
    m = _SWITCHED.search(question)
    if m is not None:
        return singular(m["noun"])
    return None
