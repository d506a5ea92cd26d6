"""What a temporal question asks about, read from its grammar: whose state (the asker's own "my",
a relative's "my sister's", a named person's), which kind of state (the noun phrase "my dentist",
"which coffee place"), and the time it names ("in March 2023", "two years ago", "back when I lived
in Oslo"). Pure functions over the question text.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import NamedTuple

from memforest.attributes import named_attribute
from memforest.retrieval.temporal.asked_service import doer_noun, main_clause_start, service_noun, worker_on
from memforest.retrieval.temporal.chains import served_or_joined
from memforest.retrieval.temporal.counted import steps_back as steps_back  # re-exported
from memforest.retrieval.temporal.owners import QUESTION_WORDS
from memforest.retrieval.temporal.points import ago_point as ago_point  # re-exported
from memforest.retrieval.temporal.points import part_point as part_point  # re-exported
from memforest.text.changes import slot_key
from memforest.text.dates import resolve_time_expressions
from memforest.text.lexicon import (
    CAPITALS,
    COMMON_VERBS,
    CONTRACTED_S,
    IRREGULAR_PAST,
    MONTH_NAMES,
    WEEKDAY_NAMES,
)
from memforest.text.persons import rewrite_persons
from memforest.text.state_words import KIN, KIN_PLURALS, same_kin

__all__ = [
    "ASKER",
    "DuringClause",
    "ago_point",
    "anchor_value",
    "asked_noun",
    "asks_change",
    "during_anchor",
    "during_clause",
    "first_person",
    "is_time_name",
    "part_point",
    "persons",
    "relations",
    "slot_of",
    "steps_back",
]

# whom "I" and "my" name when the query names no speaker: the read path puts the forest's
# user-role speaker in its place (``resolve.temporal_plan``)
ASKER = "Iself"
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself|we|us|our|ours)\b|\bI'(?:m|ve|d|ll)\b", re.IGNORECASE)
# "tell me when ...": the asker as the one addressed is no subject of the question
_ADDRESSED = re.compile(r"\b((?:tell|remind|show|give|let|help|ask)\s+)me\b", re.IGNORECASE)
_KEPT = "\u2063"
# (the first word may be an acronym: "my GP", "which ISP")
_LOWER = r"[a-z\u00e0-\u00ff][a-z\u00e0-\u00ff-]*"  # (a lower-case word, accents kept: "café")
_NOUN = rf"(?P<noun>(?:{_LOWER}|[{CAPITALS}]{{2,4}}(?![\w'-]))(?:\s+(?!of\b){_LOWER})?)"
# (and a language or nationality: "my Korean tutor", "her Spanish teacher")
_ADJ = (
    r"(?:(?:new|current|usual|regular|go-to|favou?rite|latest|most\s+recent|main|own|local|old|previous|former|"
    r"(?:very\s+)?first|(?:very\s+)?last|ever|(?-i:[A-Z][a-z]+(?:an|ese|ish|ic)))\s+)*"
)
_POSSESSED = re.compile(
    rf"(?:\b(?!(?i:{CONTRACTED_S})'s)[^\W\d_][\w-]*'s|\b(?i:his|her|their))"
    rf"\s+{_ADJ}{_NOUN}(?:\s+of\s+(?P<of>[a-z][a-z-]*))?"
)
# (at the start, or after a leading clause: "When I lived in Oslo, which gym ...")
_WH_NOUN = re.compile(rf"(?:^|[,;:]\s*)(?i:which|what)\s+{_ADJ}{_NOUN}")
# the noun after the copula and "the", when nothing else names one ("what was the vet I used before
# ..."); words that name no kind of thing end the reading ("what is the best way ...")
_WH_THE = re.compile(rf"\s*(?i:what|who|which)(?:'s|\s+(?:is|was|are|were))\s+the\s+{_ADJ}{_NOUN}")
_NO_KIND = frozenset(
    str.split(
        """way number name reason thing one total difference deal oldest youngest best worst most least first
        last same problem point issue story plan idea time date kind sort type amount price cost rest end"""
    )
)
_KIN_RE = re.compile(rf"^(?:(?:{KIN})s?|{KIN_PLURALS})$", re.IGNORECASE)  # (one relative or many)
_WHO_IS = re.compile(r"\s*(?:who|what)(?:'s|\s+(?:is|was|are|were))\b", re.IGNORECASE)
_PARTNERS = frozenset(str.split("wife husband partner girlfriend boyfriend fiance fiancee spouse"))
# words that end a noun phrase of a question: verbs, prepositions, time words, pronouns
_NOT_NOUN = frozenset(
    str.split(
        """is was are were am be been being has have had do does did now then these those this that the a an and or
        but to of in on at for with from by as so than when while before after during since until till prior
        following back two three four five six seven eight nine ten last next ago years year months month
        weeks week days day spring summer autumn fall winter currently nowadays still today lately recently anymore
        earlier later previously formerly originally initially right just
        become became start started get got name time date point age you he she we they him them"""
    )
)
_RELATION = re.compile(
    rf"(?<![\w'-])(?P<owner>[{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*){{0,3}}+)'s\s+(?P<kin>(?i:(?:{KIN})s?|{KIN_PLURALS}))\b"
    rf"(?!\s+[{CAPITALS}])"
)
# a subordinate clause naming a state: "back when I lived in Oslo", "during my time at Acme",
# "while she was with Acme", "in the days when ...", "at the time of ..."; it ends where the main
# clause starts (a comma) or the question ends
_DURING = re.compile(
    r"\b(?:back\s+(?:when|in\s+the\s+days\s+(?:when|of))|during|while|whilst|at\s+the\s+time(?:\s+(?:when|of))?|"
    r"in\s+the\s+days\s+(?:when|of)|when)\s+(?P<clause>[^?!;,]{1,200})",
    re.IGNORECASE,
)
# "in my Leeds days", "during Ana's Acme years": a state named as a period of someone's life
_DAYS = re.compile(
    rf"\b(?:in|during|from|over)\s+(?:his|her|their|[{CAPITALS}][\w-]*'s)\s+(?P<clause>[^?!;,]{{1,80}}?)\s+"
    r"(?:days|years|months|era|period|phase)\b"
)
# a capitalised word that names no value: the first person, a title's dot aside
_NO_VALUE = frozenset({"i", "i'm", "i've", "i'd", "i'll"})
_WORD = rf"(?:[{CAPITALS}][\w.&-]*|\d[\w.-]*)"
# a capitalised phrase that is a time, not a value
_TIME_NAME = re.compile(
    rf"(?:(?:{'|'.join(MONTH_NAMES + WEEKDAY_NAMES)}|Christmas|Easter|New\s+Year'?s?)\b\s*)+(?:\d{{1,4}})?|"
    r"\d{1,4}(?:s|th|st|nd|rd)?",
    re.IGNORECASE,
)
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
    return word in IRREGULAR_PAST or word in _LIGHT_ING or any(s in COMMON_VERBS for s in stems) or word.endswith("ed")


# the -ing forms of light verbs, which head no noun phrase ("my sister doing for work"), unlike
# those of others ("my running club")
_LIGHT_ING = frozenset({"doing", "going", "being", "getting", "having", "making"})


def _clean(raw: str, compound: bool = False) -> str | None:
    """The noun phrase of ``raw``: cut at its first verb-like word unless it is a ``compound``
    (the question's verb or its end follows it) whose later word is an uninflected form ("phone
    plan", "hair cut"; "cat died" is a clause), without trailing function and time words."""
    words = raw.lower().split()
    for i, w in enumerate(words):
        if _verbish(w) and not (compound and i > 0 and _bare(w)):
            words = words[:i]
            break
    while words and words[-1] in _NOT_NOUN:
        words.pop()
    if not words or words[0] in _NOT_NOUN:
        return None
    return " ".join(words)


def _bare(word: str) -> bool:
    """``word`` has no verb inflection: it may be a noun ("plan", "cut")."""
    return word not in IRREGULAR_PAST and not word.endswith(("ed", "s", "ing"))


def _possessed_noun(question: str, start: int, main: int) -> tuple[str | None, str | None]:
    """The first thing a person possesses from ``start`` on that is no relative and no bare "current
    one", and else the first relative named with no verb after it (the relation may be the state
    asked after); ``main`` is where the question's main clause starts."""
    pos = start
    kin = None
    while (m := _POSSESSED.search(question, pos)) is not None:
        ends = _PHRASE_END.match(question, m.end()) is not None  # ("Ana's phone plan?": a compound)
        # ("Ana's collection of guitars": guitars; "Ana's insurer as of today": insurer)
        # ("Ana's hair cut": whose work it is, a hairdresser)
        of = _clean(m["of"], ends) if m["of"] else None
        noun = of or worker_on(question, main, m["noun"]) or _clean(m["noun"], ends)
        if noun and not _KIN_RE.match(noun.split()[0]) and not _stand_in(noun):
            return noun, kin
        # ("Ana's sister doing for work": a verb follows, no relation is asked after)
        verb_after = any(_verbish(w) for w in m["noun"].lower().split()[1:])
        kin = kin or (noun if ends or not verb_after else None)
        pos = m.start("noun")  # (the possessed may own the next: "Ana's sister's bank")
    return None, kin


def asked_noun(question: str) -> str | None:
    """The noun phrase of the state asked about: the noun after "which" / "what" ("which dentist
    does Ana see?"); else a provider asked by its verb ("insured with": insurer) or one asked by
    what they do ("who coaches ...": coach; "who provides the broadband": broadband provider; "who
    does Ana's taxes": accountant); else the thing a person possesses ("Ana's dentist", "her running
    club"; relatives and a bare "current one" skipped: "Ana's sister's bank" -> "bank"; the work done
    on it names its doer: "Ana's hair cut" -> hairdresser); else the noun after "what is the"; else a
    service named by what is done ("cello lessons with": cello teacher)."""
    m = _WH_NOUN.search(question)
    # (an auxiliary right after the phrase is the question's verb: "which phone plan did ...")
    compound = m is not None and _AUX_NEXT.match(question, m.end()) is not None
    noun = _clean(_verb_dropped(m["noun"], question[m.end() :]), compound) if m is not None else None
    if noun is not None:
        return noun
    provider = _PROVIDED_WITH.search(question)  # "who is Ana insured with?", "Ana's car insured with": her insurer
    if provider is not None:
        return _PROVIDERS[provider[1].lower()[:4]]
    main = main_clause_start(question)
    doer = doer_noun(question, main)  # "who coaches Ana's son's team?": a coach, not the team
    if doer is not None:
        return doer
    # the main clause first: "When Ana got her hair cut, who was her dentist?" asks for a dentist
    noun, kin = _possessed_noun(question, main, main)
    if noun is not None:
        return noun
    # "who was Ana's landlord?": a relation asked after is the state itself
    if kin is not None and _WHO_IS.match(question, main):
        return kin
    m = _WH_THE.match(question, main)
    noun = _clean(m["noun"]) if m is not None else None
    if noun is not None and noun.split()[0] not in _NO_KIND:
        return noun
    noun = service_noun(question[main:])  # "cello lessons with X", "see for physio", "who coaches", "switch schools"
    if noun is not None or not main:
        return noun
    # the leading clause's own thing where the main clause names none ("When I sold my van, what ...?")
    return _possessed_noun(question, 0, main)[0] or service_noun(question)


def _stand_in(noun: str) -> bool:
    """``noun`` is "one" with no word before it that names a kind ("my current one": the kind is
    named elsewhere in the question; "her furry one" is a pet)."""
    return noun.split()[-1] in ("one", "ones") and named_attribute(noun) is None


# a service named by the verb of the one who provides it, "with" it ("insured with", "banks with")
_PROVIDERS = {"insu": "insurer", "bank": "bank"}
_PROVIDED_WITH = re.compile(r"\b(insured|bank(?:s|ed|ing)?)\s+with\b", re.IGNORECASE)


_PHRASE_END = re.compile(r"\s*(?:[?.!,;:]|$)|\s+(?i:do|does|did|am|is|are|was|were|has|have|had|now|then)\b")
_AUX_NEXT = re.compile(r"\s+(?i:do|does|did|am|is|are|was|were|has|have|had|will|would|can|could)\b")
# what opens a noun phrase: after "which garage services", "my dad's van" is an object, so
# "services" was the verb
_OBJECT_START = re.compile(rf"\s+(?:(?i:my|his|her|their|our|your|its|the|a|an|this|that)\b|[{CAPITALS}][\w-]*'s\b)")


# "the Thursday choir", "my old Harbour Street gym": a kind noun after a determiner and names
_KIND_AFTER_NAMES = re.compile(
    rf"\b(?i:the|my|our|his|her|their)\s+(?:(?i:old|new|first)\s+)?(?:[{CAPITALS}][\w'-]*\s+)*"
    r"(?P<first>[a-z]+)(?:\s+(?P<second>[a-z]+))?\b"
)


# a clause of time after the question's own ("... after I left the choir", "... while at the gym")
_SUBCLAUSE = re.compile(r"\b(?i:before|after|since|while|until|till|when)\b(?!\s+did\b)")


def kind_named(question: str) -> str | None:
    """A kind one joins or goes to that the question names after a determiner and any names ("how
    long did I stick with the Thursday choir?": choir): the kind a how-long or when question
    asks after when it names no noun of its own."""
    main = _SUBCLAUSE.split(question, maxsplit=1)[0]  # ("... after leaving the choir": no kind asked)
    for m in _KIND_AFTER_NAMES.finditer(main):
        if m["second"] and served_or_joined(m["second"]):
            return f"{m['first']} {m['second']}"  # ("the Saltmarsh rowing club")
        if served_or_joined(m["first"]):
            return m["first"]
    return None


def _verb_dropped(noun: str, rest: str) -> str:
    """A two-word noun phrase after "which" that is no named kind, whose second word is verb-like
    (``_verb_like``) and followed by an object, is a noun and its verb ("which garage services my
    van": garage); else the phrase as it is ("which running club my brother joined": a compound)."""
    words = noun.split()
    if len(words) != 2 or named_attribute(noun) is not None or not _OBJECT_START.match(rest):
        return noun
    return words[0] if _verb_like(words[1].lower(), rest) else noun


def _verb_like(word: str, rest: str) -> bool:
    """``word`` is a verb form, or a present form in -s when the object after it (``rest``) is
    followed by no verb: "services my van?"; a plural noun has its verb there ("which running
    shoes my brother wears")."""
    if _verbish(word):
        return True
    words = re.split(r"[,.;:!?]", rest, maxsplit=1)[0].lower().split()
    i = 1  # the determiner or possessor opens the object; possessors up to its noun
    while i < len(words) and words[i].endswith("'s"):
        i += 1
    after = words[i + 1] if i + 1 < len(words) else ""
    return _present_s(word) and not (_verbish(after) or _present_s(after))


def _present_s(word: str) -> bool:
    """``word`` may be a present verb form in -s ("services", "wears"), not a possessive."""
    return word.endswith("s") and not word.endswith(("ss", "us", "is", "'s"))


def slot_of(noun: str) -> str:
    """The slot an asked noun phrase names: its named attribute, else the phrase as a slot key."""
    return named_attribute(noun) or slot_key(noun)


def relations(question: str, asked: str | None = None, speaker: str | None = None) -> tuple[str, ...]:
    """Relatives the question names without a name ("Ana's sister"), as subject phrases; not the
    relation that is the ``asked`` noun ("who was Ana's landlord?"), nor a partner unless the
    question makes them a person who does or owns something ("where was Ana's husband working?",
    "Ana's wife's car") or asks for a kind of thing that is no partner ("which gym is Ana's wife
    in?"): "When did Mia become Ana's girlfriend?" asks about the state. ``speaker``: the asker,
    whose whole name an owner may be (:func:`_whole_name`). A relative with other words for them
    ("mother") is followed by them ("Ana's mum", "Ana's mom")."""
    out: list[str] = []
    other_kind = asked is not None and asked.split()[-1].lower() not in _PARTNERS
    for m in _RELATION.finditer(question):
        kin = m["kin"].lower()
        if kin == (asked or "").lower():
            continue
        acts = _ACTS.match(question, m.end()) or _DO_SUPPORT.search(question, 0, m.start())
        if kin in _PARTNERS and not acts and not other_kind:
            continue
        owner = _whole_name(m["owner"], speaker)
        out += [f"{owner}'s {word}" for word in same_kin(kin)]  # ("my mother": a forest's "mum" too)
    return tuple(dict.fromkeys(out))


_ACTS = re.compile(r"'s\b|\s+(?:[a-z]+ing|[a-z]+ed|has|had|was|is|does|did|works?|lives?|drives?|goes)\b")
# "does Ana's wife ..." (ending where the relation starts): the verb after the relative is theirs
_DO_SUPPORT = re.compile(r"\b(?i:do|does|did)\s+$")


# people by their place in the question: a possessor ("Ana's"), the subject after an auxiliary
# ("did Ana", "was Ana"), a relative's name ("Ana's cousin Mia")
_PERSON_RES = {
    "possessor": re.compile(
        rf"(?<![\w'-])(?!(?i:{CONTRACTED_S})'s)([{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*){{0,3}}+)'s\b"
    ),
    "subject": re.compile(
        rf"\b(?i:did|does|do|was|were|is|are|has|have|had|will|would|can|could)\s+"
        rf"([{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*){{0,3}}+)\b(?!')"  # (no part of "Ana Silva's")
    ),
    "relative": re.compile(rf"'s\s+(?i:{KIN})\s+([{CAPITALS}][\w-]*)\b"),
}


def persons(question: str, speaker: str | None = None) -> dict[str, str]:
    """The names the question uses as people, each with its role (``possessor``, ``subject``,
    ``relative``; the first role found in the question), in order; ``speaker``: the asker, whose
    whole name a possessor may be (:func:`_whole_name`)."""
    found = sorted(
        (m.start(1), m[1], role)
        for role, rx in _PERSON_RES.items()
        for m in rx.finditer(question)
        if role != "subject" or not _named_before(question, m.start(), m.end())
    )
    out: dict[str, str] = {}
    for _, name, role in found:
        whole = name if role == "subject" else _whole_name(name, speaker)
        if whole.split()[0].casefold() not in _NO_VALUE:
            out.setdefault(whole, role)
    return out


# a capitalised word right before an auxiliary
_NAME_BEFORE = re.compile(rf"([{CAPITALS}][\w-]*)\s+$")


def _named_before(question: str, at: int, end: int) -> bool:
    """The lower-case "do" at ``at`` stands between names (``end``: where the name after it ends):
    it is part of a name ("Faculdade Egide do Norte"), not the question's verb ("When do Ana ...",
    "Where in Leeds did Ana ..."). A question word before it is no name."""
    m = _NAME_BEFORE.search(question, 0, at)
    return question.startswith("do ", at) and m is not None and m[1].lower() not in QUESTION_WORDS


def _whole_name(run: str, speaker: str | None) -> str:
    """A run of capitalised words before "'s" as a name: the asker's whole name where it ends the
    run ("Tường Vi" of "my" read as "Tường Vi's"; "Wren" of "was Corbel Bank Wren's bank"), else
    its last word ("Ana" of "When Ana's sister moved")."""
    if speaker and (run == speaker or run.endswith(" " + speaker)):
        return speaker
    return run.split()[-1]


def _values(clause: str, now: datetime | None) -> list[re.Match[str]]:
    """The capitalised phrases of ``clause`` that may name a value: no possessor ("Ana's"), no
    first person, nothing inside a time expression ("March 2023", "Christmas")."""
    spans = [(t.span_start, t.span_end) for t in resolve_time_expressions(clause, now)] if now is not None else []
    return [
        v
        for v in _VALUE.finditer(clause)
        if not v.group(0).endswith("'s")
        and v.group(0).casefold() not in _NO_VALUE
        and not any(a <= v.start() < b for a, b in spans)
        and not _TIME_NAME.fullmatch(v.group(0))
    ]


def is_time_name(text: str) -> bool:
    """``text`` is a capitalised time, not a value: a month, a weekday, a holiday, a year."""
    return _TIME_NAME.fullmatch(text) is not None


class DuringClause(NamedTuple):
    """A "back when ..." / "while ..." clause of a question: the value of the state it names, where
    it lies (its opening words included), and the person it opens with as its subject before that
    value ("while Ana was at Acme": Ana; "while Tom was away" names a value only)."""

    value: str
    start: int
    end: int
    holder: str | None


def during_anchor(question: str, names: tuple[str, ...], now: datetime | None = None) -> str | None:
    """The value of the state a "back when ..." / "during ..." clause names (the last capitalised
    phrase in it that is neither the clause's subject, one of the question's people ``names``,
    nor a time), or None."""
    found = during_clause(question, names, now)
    return found.value if found is not None else None


def during_clause(question: str, names: tuple[str, ...], now: datetime | None = None) -> DuringClause | None:
    """The clause ``during_anchor`` reads, or None."""
    people = {n.casefold() for n in names}
    for m in (*_DAYS.finditer(question), *_DURING.finditer(question)):
        found = _values(m["clause"], now)
        opening = found[0].group(0) if len(found) > 1 and found[0].start() == 0 else None
        owned = _OWNED.match(m["clause"], found[0].end()) if opening is not None else None
        if opening is not None and owned is not None:  # ("while Ana's sister lived in X": the sister)
            opening = f"{opening}'s {owned[1]}"
        holder = opening if opening is not None and opening.casefold() in people else None
        place = _place_said(m["clause"], found, people)
        if place is not None:  # ("while I was at the cannery": the cannery, the speaker's)
            return DuringClause(place, m.start(), m.end(), found[0].group(0))
        if holder is not None:
            found = found[1:]  # the clause's subject ("back when Ana lived in Oslo")
        if found:
            return DuringClause(found[-1].group(0).rstrip("."), m.start(), m.end(), holder)
    return None


def _place_said(clause: str, found: list[re.Match[str]], people: set[str]) -> str | None:
    """The common noun of the place a clause's person was at ("Ana was at the cannery": cannery)
    when the clause opens with that person and names no value but people; else None."""
    if not found or found[0].start() != 0 or any(v.group(0).casefold() not in people for v in found):
        return None
    place = _PLACE_NOUN.match(clause, found[0].end())
    if place is None or place["noun"] in _NO_KIND or _KIN_RE.fullmatch(place["noun"]):
        return None  # ("while I was with my sister" names no place)
    return place["noun"]


# the place a clause's subject was at, named by a common noun ("at the cannery", "with the old firm")
_PLACE_NOUN = re.compile(
    r"\s+(?:was|were|is|am|worked|lived|stayed|studied)\s+(?:still\s+)?(?:at|in|with|for)\s+"
    rf"(?:the|my|our|his|her|their|that|[{CAPITALS}][\w-]*'s)\s+(?:[a-z][\w-]*\s+){{0,2}}?(?P<noun>[a-z][\w-]*)\s*$"
)


_OWNED = re.compile(r"'s\s+([a-z][\w-]*)")
# a main clause asking for a change rather than a state: "which club did I join", "what phone had
# she bought", "who did Ana start seeing" (a verb of getting, joining, starting or switching; "get
# my hair cut" is a habit, "got used to" no change)
_CHANGE_ASKED = re.compile(
    r"(?<![\w'])(?:did|had|has|have)\s+(?:[\w'-]+\s+){1,3}?(?:switch(?:es|ed)?|change[sd]?|move[sd]?|join(?:s|ed)?|"
    rf"buys?|bought|(?:gets?|got|gotten)(?!\s+(?:my|his|her|their|our|its|[{CAPITALS}][\w-]*'s|used)\b)|adopt(?:s|ed)?|start(?:s|ed)?|begins?|begun|sign(?:s|ed)?\s+up|"
    r"(?:takes?|taken)\s+up|pick(?:s|ed)?\s+up|enrol(?:s|led)?|enroll(?:s|ed)?|register(?:s|ed)?|"
    r"transfer(?:s|red)?|trade[sd]?|purchase[sd]?|rescue[sd]?|lease[sd]?|hire[sd]?|swap(?:s|ped)?|upgrade[sd]?)\b|"
    r"(?<![\w'])(?:switched|joined|bought|adopted|started|began|signed\s+up|took\s+up|picked\s+up|enrolled|"
    r"registered|transferred|traded|purchased|rescued|swapped|upgraded)\b",
    re.IGNORECASE,
)


def asks_change(main_clause: str) -> bool:
    """``main_clause`` (a question without its "while ..." clause) asks what changed, not what
    held: "which running club did I join", not "which running club was I in"."""
    return _CHANGE_ASKED.search(main_clause) is not None


def anchor_value(anchor: str, names: tuple[str, ...], now: datetime | None = None) -> str | None:
    """The value an anchor clause of before / after names: the capitalised phrase that is the
    object of its verb or preposition ("he joined Fennick Labs", "the switch to Android"), else
    the one it starts with ("Lotus Loft closed", "Dr. Okafor"); a person of the question that is
    the clause's subject is skipped ("Ana moved to Oslo"). None when it names no such phrase
    ("the wedding")."""
    found = _values(anchor, now)
    people = {n.casefold() for n in names}
    if len(found) > 1 and found[0].start() == 0 and found[0].group(0).casefold() in people:
        found = found[1:]
    objects = [v for v in found if v.start() > 0]
    pick = objects[0] if objects and found[0].start() == 0 and _verb_between(anchor, found[0], objects[0]) else None
    chosen = pick or (found[0] if found else None)
    return chosen.group(0).rstrip(".") if chosen is not None else None


def _verb_between(text: str, first: re.Match[str], later: re.Match[str]) -> bool:
    """Words between two phrases make the first the subject of a clause ("Ana moved to Oslo"),
    not a value with a complement ("Rex in Elena's home" has only a preposition between)."""
    between = text[first.end() : later.start()].split()
    return any(_verbish(w.lower()) for w in between)
