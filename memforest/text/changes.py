"""Open-ended states from a general grammar of change: (subject, slot, value) for sentences that
say a person's current X is now V, whatever X is (a dentist, a choir, a phone, a coffee place).

Two layers, both on the person-rewritten sentence ("I" already replaced by the speaker's name):

* ``find_named_change``: the sentence names the kind of thing, and the slot is that noun phrase,
  normalised (:func:`slot_key`): "Ana's new dentist is Dr. Ruiz", "Dr. Ruiz is Ana's dentist now",
  "Ana started going to Dr. Ruiz, her new dentist", "Ana switched dentists, from A to B", "found a
  new bakery: Crumbs", "swapped A for B as Ana's bakery".
* ``find_change``: the sentence names no kind; the slot is the class of the change verb: joining
  or being a member (``membership``), acquiring (``possession``), starting to go to or see
  (``patronage``), or a switch from one value to another (``change``, whose kind the read path
  takes from the value it replaced).

The subject is the person the sentence is about: the possessor of the noun ("Ana's"), else the
grammatical subject ("Ana's sister Mia joined X": Mia; "Ana's sister joined X": "Ana's sister").
Sentences in a mood other than the plain statement (plans, wishes, hypotheticals, things
considered or turned down, suggestions, negations, nostalgia: ``memforest.text.mood``) and
leavings without a successor give no slot.
"""

from __future__ import annotations

import re

from memforest.text.lexicon import ADVERBS, COMMON_VERBS, ENTITY_EXCLUDE, IRREGULAR_PAST
from memforest.text.mood import mood_near
from memforest.text.state_words import KIN
from memforest.text.topics import singular

__all__ = ["find_change", "find_named_change", "leading_subject", "slot_key", "subject_key"]

_NAME = r"[A-Z][\w-]*"
# a person: "Ana", "Ana's sister", "Ana's sister Mia" (optionally "and others": the speaker's "we")
_PERSON = rf"{_NAME}(?:'s\s+(?i:{KIN})(?:\s+{_NAME})?)?(?:\s+and\s+others)?"
_SUBJ = rf"(?P<subj>{_PERSON})"
_OWNER = rf"(?:(?P<owner>{_PERSON})'s|(?P<pron>his|her|their|its))"
# possessive: a word is read whole or not at all (no backtracking into it: linear on long runs)
_WORD = r"(?:[A-Z][\w.'&-]*+|\d[\w.-]*+)"
# a value that begins a pattern starts at a word's first character, never inside a word
_AT_WORD = r"(?<![\w.'&-])"
_JOIN = r"(?:of|and|on|&|de|du|la|le|the|up)"
_VALUE = rf"(?P<v>{_WORD}(?:\s+(?:{_JOIN}\s+)?{_WORD}){{0,4}})"
_PREV = rf"(?P<prev>{_WORD}(?:\s+(?:{_JOIN}\s+)?{_WORD}){{0,4}})"
_ART = r"(?:(?:a|an|the|some)\s+)?"
_ADJ = r"(?:(?:new|current|usual|regular|go-to|favou?rite|latest|main|own|local|first)\s+)*"
_NOUN = r"(?P<noun>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)"
_ADV = r"(?:(?:just|finally|recently|now|officially|also|already|actually)\s+)*"
_NOW = r"(?:\s+(?:now|these\s+days|nowadays|at\s+the\s+moment|for\s+now))?"

# words a noun phrase of a state never is (or ends with)
_NOT_NOUN = frozenset(
    str.split(
        """is was are were be been being has have had do does did now these those this that the a an and or but
        to of in on at for with from by as so then than when while days day week weeks month months year years
        time name one thing things way lot bit life turn job"""
    )
)
_PARTNERS = frozenset({"wife", "husband", "partner", "girlfriend", "boyfriend", "fiance", "fiancee"})
_KIN_RE = re.compile(rf"^(?:{KIN})$", re.IGNORECASE)

_NAMED: tuple[re.Pattern[str], ...] = (
    # "Ana switched dentists, from Dr. A to Dr. B"
    re.compile(
        rf"\b(?i:switched|changed|swapped)\s+(?:{_OWNER}\s+)?{_NOUN}s?,?\s+(?:from\s+{_PREV}\s+)?to\s+(?:the\s+)?{_VALUE}"
    ),
    # "Ana's new dentist is Dr. Ruiz", "Ana's go-to bakery these days is Crumbs"
    re.compile(rf"{_OWNER}\s+{_ADJ}{_NOUN}{_NOW}\s+(?:is|has\s+become|became|will\s+be|:)\s+(?:now\s+)?{_VALUE}"),
    # "Dr. Ruiz is Ana's dentist now", "Crumbs has become her bakery"
    re.compile(rf"{_AT_WORD}{_VALUE}\s+(?:is|has\s+become|became)\s+(?:now\s+)?{_OWNER}\s+{_ADJ}{_NOUN}(?!'s|\w)"),
    # "started going to Dr. Ruiz, her new dentist"
    re.compile(rf"{_AT_WORD}{_VALUE},\s+{_OWNER}\s+(?:new|current|usual|regular|go-to|latest)\s+{_NOUN}(?!'s|\w)"),
    # "found a new bakery: Crumbs", "got a new phone, a Fairphone 5", "a great bakery called Crumbs"
    re.compile(rf"\b(?i:new)\s+{_NOUN}\s*(?::|,|-|called|named)\s+{_ART}{_VALUE}"),
    re.compile(rf"\b(?:great|good|nice|lovely|local|decent|brilliant|little)\s+{_NOUN}\s+(?:called|named)\s+{_VALUE}"),
    # "joined a book club, the Thursday Readers", "sings in a choir called Vox"
    re.compile(
        rf"\b(?i:joined|joins|found|chose|picked|plays?\s+in|sings?\s+in|member\s+of)\s+(?:a|an)\s+(?:new\s+)?{_NOUN}"
        rf"(?:,\s+|\s+(?:called|named)\s+)(?:the\s+)?{_VALUE}"
    ),
    # "swapped A for B as Ana's bakery"
    re.compile(rf"\bfor\s+{_ART}{_VALUE}\s+as\s+{_OWNER}\s+{_ADJ}{_NOUN}(?!'s|\w)"),
)
_GENERIC: tuple[tuple[re.Pattern[str], str], ...] = (
    # switches name the value replaced: the read path gives them the kind of that value
    (re.compile(rf"\b(?i:from)\s+{_ART}{_PREV}\s+to\s+{_ART}{_VALUE}"), "change"),
    (
        re.compile(
            rf"\b(?i:quit|quits|left|leaves|ditched|dropped|gave\s+up\s+on|done\s+with)\s+{_ART}{_PREV}[,;]?\s+"
            rf"(?:and\s+|then\s+)?(?:\w+\s+)?(?:joined|joins|switched\s+to|went\s+to|started\s+(?:at|with|"
            rf"going\s+to|seeing)|signed\s+up\s+(?:with|for|at))\s+{_ART}{_VALUE}"
        ),
        "change",
    ),
    (
        re.compile(
            rf"\b(?i:traded\s+in|traded|sold|swapped|replaced|exchanged)\s+(?:{_OWNER}\s+|the\s+|an?\s+)?(?:old\s+)?{_PREV}"
            rf"\s+(?:for|with|and\s+(?:got|bought|picked\s+up))\s+{_ART}(?:new\s+)?{_VALUE}"
        ),
        "change",
    ),
    (
        re.compile(
            rf"{_SUBJ}\s+{_ADV}(?:joined|joins|signed\s+up\s+(?:with|for|at)|enrolled\s+(?:in|at|with)|"
            rf"became\s+a\s+member\s+of)\s+(?:the\s+)?{_VALUE}"
        ),
        "membership",
    ),
    (
        re.compile(rf"{_SUBJ}\s+(?:is|are|am|has\s+been)\s+{_ADV}(?:a\s+)?(?:member|part)\s+of\s+(?:the\s+)?{_VALUE}"),
        "membership",
    ),
    (
        re.compile(
            rf"{_SUBJ}\s+{_ADV}(?:bought|buys|got|gets|picked\s+up|purchased|ordered)\s+(?:{_OWNER}\s+|themself\s+)?"
            rf"{_ART}(?:(?:new|used|second-hand|secondhand|refurbished|brand\s+new)\s+)?{_VALUE}"
        ),
        "possession",
    ),
    (
        re.compile(
            rf"{_SUBJ}\s+{_ADV}(?:started|began|has\s+started|has\s+been|is|am|are)\s+(?:going\s+to|seeing|using|"
            rf"attending|visiting|with|at)\s+(?:the\s+)?{_VALUE}"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{_SUBJ}\s+{_ADV}(?:signed\s+(?:up\s+)?with|registered\s+(?:with|at)|goes\s+to|go\s+to|sees|uses|"
            rf"banks\s+with|shops\s+at)\s+(?:the\s+)?{_VALUE}(?=\s+(?:now|these\s+days|nowadays|instead))"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{_SUBJ}\s+{_ADV}(?:went|ended\s+up\s+going|is\s+going|decided\s+to\s+go|chose|settled\s+on)\s+"
            rf"(?:with\s+)?(?:the\s+)?{_VALUE}"
        ),
        "patronage",
    ),
    (
        # a present-state marker and a name after a preposition: "I take my car to X these days"
        re.compile(
            rf"{_SUBJ}\s+(?:(?!(?:and|but|because|when|if|or)\b)[\w'-]+\s+){{1,6}}?(?:at|with|to|for)\s+(?:the\s+)?"
            rf"{_VALUE}(?=[^.;!?]{{0,80}}\b(?:now|these\s+days|nowadays|currently|at\s+the\s+moment|since)\b)"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{_SUBJ}\s+{_ADV}(?:switched|changed|moved|transferred|upgraded|went\s+over)\s+(?:over\s+)?to\s+"
            rf"(?:the\s+|an?\s+)?{_VALUE}"
        ),
        "change",
    ),
)
# a sentence that opens with a person and a finite verb ("Mia moved", "Ana's sister Mia just joined")
_LEAD_RE = re.compile(
    rf"^{_SUBJ}\s+{_ADV}(?:is|was|has|had|got|left|quit|bought|took|found|went|sold|[a-z]+ed|[a-z]+s)\b"
)
_ADVERB = re.compile(rf"(?:{ADVERBS}|just|finally|so|then|anyway|today|yesterday)")
_SUBJECT_RE = re.compile(rf"(?<![\w'])(?P<subj>{_PERSON})(?=\s+[a-z])")
_RELATION = re.compile(rf"^(?P<owner>{_NAME})'s\s+(?P<kin>(?i:{KIN}))(?:\s+(?P<name>{_NAME}))?$")


def slot_key(noun: str) -> str:
    """A noun phrase as a slot name: lower case, the last word singular, words joined by ``_``
    ("coffee places" -> "coffee_place")."""
    words = noun.lower().split()
    if not words:
        return ""
    words[-1] = singular(words[-1])
    return "_".join(words)


def subject_key(person: str) -> str:
    """Whose state a person phrase names: "Ana's sister Mia" -> "Mia"; "Ana's sister" ->
    "Ana's sister" (a relation with no name); "Ana and others" -> "Ana"."""
    person = person.removesuffix(" and others")
    m = _RELATION.match(person)
    if m is None:
        return person
    return m["name"] or f"{m['owner']}'s {m['kin'].lower()}"


def leading_subject(text: str) -> str | None:
    """The person a sentence opens with as the subject of its verb (see :func:`subject_key`), or
    None; an opening word that is an ordinary word (an adverb, a verb, a gerund) names no one."""
    m = _LEAD_RE.match(text)
    return subject_key(m["subj"]) if m is not None and _names_someone(m["subj"]) else None


def _names_someone(person: str) -> bool:
    """A capitalised word that is an ordinary word (an adverb, a verb, a gerund) names no one."""
    first = person.split()[0].split("'")[0].lower()
    if first in ENTITY_EXCLUDE or first in IRREGULAR_PAST or first in COMMON_VERBS or _ADVERB.fullmatch(first):
        return False
    return not first.endswith(("ly", "ing", "ed"))


def _noun(raw: str) -> str | None:
    words = raw.lower().split()
    while words and words[-1] in _NOT_NOUN:
        words.pop()
    if not words or words[0] in _NOT_NOUN:
        return None
    if len(words) == 1 and _KIN_RE.match(words[0]) and words[0] not in _PARTNERS:
        return None
    return slot_key(" ".join(words))


def _value(raw: str) -> str | None:
    value = raw.strip().rstrip(".'")
    value = re.sub(r"\s+(?:and|of|on|&|de|du|la|le|the|up|in|for|at|by)$", "", value)
    words = value.split()
    if not words or words[0].lower() in {"i", "a", "an", "my", "it", "this", "that"}:
        return None
    return None if words[0].lower() == "the" and len(words) == 1 else value


def _subject(text: str, m: re.Match[str], speaker: str) -> str:
    """The owner of the noun when the match has one, else the first person the sentence names
    before the value, else the speaker."""
    found = m.groupdict()
    if found.get("owner"):
        return subject_key(found["owner"])
    if found.get("subj"):
        return subject_key(found["subj"])
    for first in _SUBJECT_RE.finditer(text, 0, m.start("v")):
        if _names_someone(first["subj"]):
            return subject_key(first["subj"])
    return speaker


def _stated(text: str, m: re.Match[str]) -> bool:
    """The match is stated as holding: no question, no mood in its clause (``mood.mood_near``)."""
    return not text.rstrip().endswith("?") and mood_near(text, m.start("v")) is None


def find_named_change(text: str, speaker: str) -> tuple[str, str, str] | None:
    """(subject, slot, value) when ``text`` states that a person's current <noun> is a value and
    names the noun; None otherwise (see the module doc)."""
    for regex in _NAMED:
        for m in regex.finditer(text):
            noun, value = _noun(m["noun"]), _value(m["v"])
            if noun and value and _stated(text, m):
                return _subject(text, m, speaker), noun, value
    return None


def find_change(text: str, speaker: str) -> tuple[str, str, str] | None:
    """(subject, class, value) when ``text`` states a change of state by a general verb of joining,
    acquiring, starting to go to, or switching from one value to another; None otherwise."""
    for regex, kind in _GENERIC:
        m = regex.search(text)
        if m is None:
            continue
        value = _value(m["v"])
        if value and _stated(text, m):
            return _subject(text, m, speaker), kind, value
    return None
