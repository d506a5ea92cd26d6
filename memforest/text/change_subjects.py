"""The persons of a sentence of change (``memforest.text.changes``): the pattern of a person
("Ana", "Ana's sister Mia"), the words that may stand between a subject and its verb, and whose
state a match is: the owner of the noun, else the first person the sentence names before the
value, else the speaker."""

from __future__ import annotations

import re
from collections.abc import Iterator

from memforest.text.clause_fragments import ADV, ADVERBS_RUN, VERB_S, has_verb, main_clause_start, verbless
from memforest.text.held_now import held_now
from memforest.text.lexicon import ADVERBS, CAPITALS, IRREGULAR_PAST
from memforest.text.person_keys import KIN_TITLE, NAME, PERSON, TITLE_AT, names_someone, subject_key, untitled
from memforest.text.state_words import (
    ANIMALS,
    COMPANION_BEFORE,
    HOLDING_VERBS,
    HOLDING_WITH,
    INTRODUCING,
    KIN,
    KIN_ADJ,
    KIN_PLURALS,
    POINTING,
)
from memforest.text.subject_pairs import RELATIVE_SECOND, TIME_LEAD_AT, aside_blanked, first_of_two, lone_person

__all__ = [
    "ADV",
    "ADVERBS_RUN",
    "KIN_TITLE",
    "NAME",
    "PERSON",
    "SUBJ",
    "clause_subject",
    "leading_subject",
    "match_subject",
    "names_someone",
    "names_subject_before",
    "pronoun_subject",
    "subject_key",
    "subjects_named",
    "third_person_clause",
    "untitled",
]

SUBJ = rf"(?P<subj>{PERSON})"

# a sentence that opens with a person and a finite verb ("Mia moved", "Ana's sister Mia just joined")
_LEAD_RE = re.compile(rf"{SUBJ}\s+{ADV}(?:is|was|has|had|got|left|quit|bought|took|found|went|sold|[a-z]+ed|[a-z]+s)\b")
# ... or with relatives and the verb of many ("Ana's kids go to X", "Tom's parents are in Y now")
_PLURAL_LEAD_RE = re.compile(
    rf"(?P<subj>{NAME}'s\s+{KIN_ADJ}(?i:(?:{KIN})s|{KIN_PLURALS}))\s+{ADV}"
    r"(?!(?:and|or|but|who|that|which|to|in|at|of|for|with|from|on|by|as)\b)[a-z]+\b"
)
# a verb of telling or writing to someone ("Ana texted me that she moved")
_MESSAGED = "told|tells|texted|texts|messaged|emailed|wrote|writes"
# one told by two names, before "that" or a pronoun ("Omar texted Ruth Lee that he moved"; "told Mia
# Tariq Khan started at X" tells Mia)
_TOLD_TWO = rf"[{CAPITALS}][\w-]*\s+[{CAPITALS}][\w-]*(?=\s+(?:that|he|she|they|his|her|their)\b)"
# a verb of saying before a reported clause, which has a subject of its own ("Ana said he joined X",
# "Bo told Wren that she had moved")
_SAYING = (
    rf"(?<![\w'])(?:said|says|(?:{_MESSAGED})\s+(?:me|us|him|her|them|{_TOLD_TWO}|[{CAPITALS}][\w-]*)|"
    rf"(?:{_MESSAGED})(?=\s+that\b)|(?:called|rang|phoned|{_MESSAGED})(?:\s+(?:me|us|him|her|them|[{CAPITALS}][\w-]*))?"
    r"\s+to\s+say|thinks|thought|reckons|mentioned|heard|hears)\s+(?:that\s+)?"
)
_REPORTED = re.compile(_SAYING + "$")
# where a clause starts: after a comma, a conjunction (not one after a subject pronoun: "he and his
# wife moved"), or a verb of saying before a subject ("said goodbye to X" reports nothing; a run of
# whitespace is tried from its first character only)
_CLAUSE_START = re.compile(
    r"[,;:]\s+|(?<!\s)(?<!\b(?i:he))(?<!\b(?i:she))(?<!\b(?i:they))\s+(?:but|and|so|then)\s+|"
    + _SAYING
    + rf"(?=(?:he|she|they|his|her|their|the)\b|[{CAPITALS}])"
)
# a clause that opens with its verb shares the subject of the clause before it
_SHARED_SUBJECT = re.compile(
    r"(?<![\w'])(?:(?:just|finally|recently|now|officially|also|already|actually|eventually|[a-z]+ly)\s+){0,3}"
    r"(?:(?:has|have|had)\s+)?(?:[a-z]{2,}(?<!ne)ed|is|was|been|" + VERB_S + r")\b"
)
# a person as the subject of a verb, or named before an appositive ("Priya, my flatmate, switched")
_SUBJECT_RE = re.compile(
    rf"(?<![\w'])(?P<subj>{PERSON})(?=\s+[a-z]|,\s+(?:{NAME}'s|the|an?|his|her|their)\s[^,]{{1,40}},\s+[a-z])"
)
# a name right after an owner or an article names a thing, not a person ("sold Ana's Pelham saloon")
_POSSESSED = re.compile(r"(?:'s|\b(?i:the|an?|his|her|their|its))\s+$")
# a name right after a verb of leaving or ending is its object ("Left Leeds for York"), and after a
# verb of telling whom one tells ("Omar texted Ruth to say he moved": Omar's)
_OBJECT = re.compile(
    rf"\b(?i:left|quit|ditched|leaving|cancell?ed|dropped|dumped|closed|sold|{_MESSAGED}|called|rang|phoned)\s+$"
)
# a name right after a preposition does nothing in its clause ("ported my number from Vodo to
# Telia"), though a pronoun after it may stand for it ("bumped into Oswyn, he's ...")
_PREPOSITION_BEFORE = re.compile(r"\b(?i:from|to|with|at|in|on|into|onto|by|of|about|near|for|than|like)\s+$")


# the second person of a subject of two ("Ana and Bo moved", "Ana and her sister joined"): the
# clause's states are filed under the first person it names
_AND_OTHER = rf"\s+and\s+(?:{PERSON}|{RELATIVE_SECOND}(?:\s+{NAME})?)"
_COORDINATED_LEAD = re.compile(
    rf"{SUBJ}{_AND_OTHER}\s+{ADV}(?!(?:and|or|but|who|that|which|to|in|at|of|for|with|from|on|by|as)\b)[a-z]+\b"
)


def _clause_starts(text: str, at: int) -> list[int]:
    """Where the clauses before position ``at`` start: the text's start and the end of each clause
    mark (``_CLAUSE_START``), but for the "and" of a subject of two ("Ana and Bo moved": one clause)."""
    starts = [0]
    for clause in _CLAUSE_START.finditer(text, 0, at):
        if clause.group().strip() == "and" and lone_person(text, starts[-1], clause.start()):
            continue
        starts.append(clause.end())
    return starts


# a clause opened by a person's thing as its subject (no relation: "Ana's sister" is a person)
_OWNER_LEAD = re.compile(
    rf"(?P<owner>{NAME})'s\s+(?!(?i:{KIN}|family|{KIN_PLURALS})s?\b)(?:[a-z][\w-]*\s+){{1,2}}?"
    r"(?:is|was|has|had|got|[a-z]+ed|[a-z]+s)\b"
)


# a word linking the sentence to what was said before it, or an adverb of comment ("Luckily"), which
# opens it before its subject
_CONNECTIVE_AT = re.compile(rf"(?:And|So|Also|Plus|Oh|Well|Anyway|Then|But|(?i:{ADVERBS}))\b,?\s+(?=[{CAPITALS}])")


def leading_subject(text: str, at: int = 0) -> str | None:
    """The person the clause holding position ``at`` opens with as the subject of its verb (see
    :func:`subject_key`), or None: "After Rex died, Tom got a pup named Pip" is Tom's, at Pip. An
    opening word that is an ordinary word (an adverb, a verb, a gerund) names no one."""
    text = aside_blanked(text)  # ("Rosa, who lives next door, adopted X": Rosa)
    starts = _clause_starts(text, at)
    while len(starts) > 1 and (_SHARED_SUBJECT.match(text, starts[-1]) or verbless(text[starts[-1] : at])):
        # "Bo quit A and enrolled at B": the clause's verb has the first clause's subject; so has a
        # fragment with no verb before the value ("Bo has moved again, this time down to X")
        starts.pop()
    linked = _CONNECTIVE_AT.match(text, starts[-1])  # "And Rosa has taken up X": Rosa
    start = linked.end() if linked is not None else starts[-1]
    timed = TIME_LEAD_AT.match(text, start)  # "In 2022 Rosa and her wife moved to X": Rosa
    start = timed.end() if timed is not None else start
    titled = TITLE_AT.match(text, start)  # "Aunt Rosa has taken up X": Rosa
    at_name = titled.end() if titled is not None else start
    m = _LEAD_RE.match(text, at_name) or _PLURAL_LEAD_RE.match(text, at_name) or _COORDINATED_LEAD.match(text, at_name)
    owned = _OWNER_LEAD.match(text, starts[-1]) if m is None else None
    if owned is not None and names_someone(owned["owner"]):
        return owned["owner"]  # "Kwabena's husky is called X", "Ika's place is in X": the owner's
    if m is None and len(starts) > 1 and _PRONOUN_LEAD.match(text, starts[-1]):
        # "Ana left X, she is at Y now": a subject pronoun opening a later clause is the one person
        # the sentence named as a subject before it (none when it named several or no one; a
        # preposition's object is none: "his last day at Pemberton was Friday and he ...")
        named = subjects_named(text[: starts[-1]], "")
        return named.pop() if len(named) == 1 else None
    return subject_key(m["subj"]) if m is not None and names_someone(m["subj"]) else None


def pronoun_subject(
    text: str, at: int, speaker: str, antecedent: str | None = None, *, relatives_only: bool = False
) -> tuple[bool, str | None]:
    """Whether the value at position ``at`` is someone else's by a third-person pronoun: its clause
    has "she", "he" or "they" as its subject ("she started at X", "He closed his account and moved
    to X", "they've joined X"), or "his" or "her" owns the noun the value follows ("helping Bo
    unpack at his new flat in X": the one person the clause names). Such a value is never the
    speaker's (whose "I" the extractor has written as their name), unless the speaker is named
    between the pronoun and the value ("They hired Wren at X", "She's the reason Wren joined X",
    "Wren moved closer to his parents in X"), the owned thing is a former one ("her old job at X"),
    or the pronoun follows an animal ("got a kitten, she's called Miso"). With it, the one person
    other than ``speaker`` the sentence named before "she" or "he" (or in the clause of "his" or
    "her"), else ``antecedent`` (the one person an earlier sentence named), else None (whom it
    means, the words do not say; "they" names no one person). ``relatives_only``: only a clause
    opened by "his / her / their" relative ("Mia's sister retired and her son joined X": the son's)."""
    # (for relatives, "Ana and her son moved" is one clause)
    marks = _CLAUSE_START.finditer(text, 0, at)
    starts = _clause_starts(text, at) if relatives_only else [0, *(m.end() for m in marks)]
    while (
        len(starts) > 1
        and not _THIRD_PERSON_LEAD.match(text, starts[-1])
        and (_SHARED_SUBJECT.match(text, starts[-1]) or _NO_SUBJECT.match(text, starts[-1]))
    ):
        starts.pop()  # a clause opened by its verb or a preposition ("switched dentists, to X"): the one before's
    start = starts[-1]
    lead = None if relatives_only else _THIRD_PERSON_LEAD.match(text, start)
    if lead is not None:
        if _names(text, speaker, lead.end(), at, companions=False) or _ANIMAL_BEFORE.search(text, start - 40, start):
            return False, None
        if lead["pron"].lower() == "they":
            return True, None
        named = subjects_named(text[:start], speaker)
        return True, named.pop() if len(named) == 1 else antecedent
    relative = _THEIR_RELATIVE_LEAD.match(text, start) if start > 0 else None
    if relatives_only and not has_verb(text[starts[-2] if len(starts) > 1 else 0 : start]):
        relative = None  # "Mia's sister's son and her daughter moved", "said her son and his wife moved": one subject
    if relative is not None and not _names(text, speaker, start, at):
        # "Ingrid retired and her son joined X": the relative of the one person named before the clause
        named = subjects_named(text[:start], speaker)
        holder = named.pop() if len(named) == 1 else antecedent
        return True, f"{holder}'s {relative['kin'].lower()}" if holder is not None else None
    if relatives_only:
        return False, None
    if start > 0 and _REPORTED.search(text, max(0, start - 40), start) and not _names(text, speaker, start, len(text)):
        return True, None  # "Lena says her brother moved to X": the reported clause is not the speaker's
    owner = _THEIR_NOUN.search(text, max(start, at - _THEIR_NOUN_SPAN), at)
    if owner is None or _names(text, speaker, start, at) or _FORMER_OWNED.match(owner[0]):
        return False, None  # "Wren moved closer to his parents in X", "took over her old job at X"
    segment = text[start : owner.start()]
    named = {
        subject_key(m["subj"]) for m in _SUBJECT_RE.finditer(segment) if _subject_at(m["subj"], segment[: m.start()])
    }
    named.discard(speaker)  # (an object too: "helping Bo unpack at his new flat")
    return True, named.pop() if len(named) == 1 else antecedent


def _names(text: str, person: str, start: int, end: int, *, companions: bool = True) -> bool:
    """``text`` names ``person`` between ``start`` and ``end``; without ``companions``, not as
    whom one is with ("he moved back in with Mia's parents" tells nothing of Mia's)."""
    named = re.finditer(rf"(?<![\w-]){re.escape(person)}(?![\w-])", text[:end])
    found = (m.start() for m in named if m.start() >= start)
    return any(companions or not COMPANION_BEFORE.search(text, max(0, at - 12), at) for at in found)


# "his / her" and the noun (one to three words, the last no preposition) whose complement the value
# is, right before it: "his new apartment in ", "her old job at "
_THEIR_NOUN = re.compile(
    r"(?<![\w'])(?i:his|her)\s+(?:[a-z]+\s+){0,2}?(?!(?:to|at|in|on|for|from|with|into)\b)[a-z]{3,}\s+"
    r"(?:in|at|with|from)\s+(?:the\s+)?$"
)
_THEIR_NOUN_SPAN = 60
# a later clause whose subject is "his / her / their" relative, before its verb ("her son joined X"; the
# one who names a pet holds none: "and her son named it X")
_THEIR_RELATIVE_LEAD = re.compile(
    rf"(?:(?i:and|but|so|then|also)\s+)?(?i:his|her|their)\s+{KIN_ADJ}(?P<kin>(?i:{KIN})s?|{KIN_PLURALS})\s+"
    r"(?:(?:just|finally|recently|now|also|already|[a-z]+ly|has|have|had)\s+){0,2}"
    r"(?!(?:named|called|names|calls)\b)(?:[a-z]+ed|[a-z]+s|got|took|went|left)\b"
)
_FORMER_OWNED = re.compile(r"(?i:his|her)\s+(?i:old|former|ex|previous|late)\b")
# an animal right before a clause: its "she" or "he" is the animal ("a kitten, she's called Miso")
_ANIMAL_BEFORE = re.compile(rf"(?i:{ANIMALS}|kitten|puppy|pup|dog|cat|rescue)\W*$")


def third_person_clause(text: str) -> bool:
    """The statement's first clause, or one after a colon, has "she", "he" or "they" for its subject
    ("She switched gyms", "Family news: she switched dentists"): what it states is someone else's,
    whoever says it. A later clause's pronoun is what the statement says about its own subject
    ("Had a cleaning with Dr. Quill, she was lovely")."""
    return any(_THIRD_PERSON_LEAD.match(text, at) for at in (0, *(c.end() for c in _AFTER_COLON.finditer(text))))


_AFTER_COLON = re.compile(r":\s+")


def subjects_named(text: str, speaker: str) -> set[str]:
    """The persons other than ``speaker`` that ``text`` names before a verb or a verb's complement,
    not after a preposition: the antecedents a "she" or "he" of a later sentence may have ("Ana met
    Bo at the gym": both, so neither alone)."""
    named: set[str] = set()
    for m in _SUBJECT_RE.finditer(text):
        before = text[max(0, m.start() - 40) : m.start()]
        if not _subject_at(m["subj"], before) or _AFTER_PREPOSITION.search(before):
            continue  # a thing's name, a preposition's object ("lunch with Ana and Bo")
        named.add(subject_key(m["subj"]))
        joined = _JOINED.match(text, m.end())
        if joined is not None:
            named.add(joined["other"])  # "Ana and Bo joined": two people, no one antecedent
    named.update(m["subj"] for m in _NAME_IS.finditer(text) if names_someone(m["subj"]))
    return {person for person in named if person != speaker}


# a name whose "'s" is "is" or "has been" ("Viktor's jealous, he ...", "Bo's in Leeds", "Ana's a
# nurse now") or who owns a thing ("Viktor's last day was Friday and he ..."): a person a later
# "he" or "she" may mean; a business's prices, sale or menu make it none ("Netflix's prices went
# up", "Sainsbury's had a sale")
_NAME_IS = re.compile(
    rf"(?<![\w'])(?P<subj>{NAME})'s\s+(?!(?:(?:new|old|little|big|older|younger|best|close)\s+)?(?i:{KIN})s?\b)"
    r"(?!(?:prices?|sales?|had|menu|stock|stores?|shops?|app|website|service|plans?|offers?|deals?|breakfast|lunch|"
    r"dinner|coffee|food|products?|customers?|staff|delivery|fees?|new\s+(?:plan|menu|store|app))\b)[a-z]"
)


_NO_SUBJECT = re.compile(r"(?i:to|from|for|at|with|in|into|after|before)\s")
_AFTER_PREPOSITION = re.compile(r"\b(?i:with|to|at|in|on|into|near|for|from|by|of|about|and|or|than|like|as)\s+$")
_JOINED = re.compile(rf"(?<!\s)\s+and\s+(?P<other>{NAME})")  # (matched right after a name)


# a clause led by a third-person subject pronoun (a conjunction, adverbs, a phrase of time or a short
# clause of time may come first: "in the week of 30 May he switched", "when Acme closed she joined";
# a contracted auxiliary or adverbs between it and its verb); a verb of naming says what a thing is
# called, not whose it is ("got the kids a guinea pig, they named it Bandit")
_THIRD_PERSON_LEAD = re.compile(
    r"(?<![\w'])(?:(?i:and|but|so|then|also|now|[a-z]+ly)\s+){0,2}(?:(?i:in|on|at|last|this|since|over|around|by|early|late|"
    r"after|before|once|when|while|until|till|because|yesterday|today)\s+(?:[\w-]+\s+){0,6}?)?(?:(?i:[a-z]+ly)\s+){0,2}"
    r"(?P<pron>(?i:he|she|they))(?:'(?:s|ve|d|re))?\s+"
    r"(?:(?:just|finally|recently|now|also|already|officially|actually|eventually|[a-z]+ly|has|have|had)\s+){0,3}"
    r"(?!(?:(?:is|was|are|were)\s+)?(?:named|called|call|name|nicknamed|dubbed|christened)\b)[a-z]{2,}\b"
)


# a clause that opens with a subject pronoun of one person and its verb ("now she volunteers")
_PRONOUN_LEAD = re.compile(
    r"(?<![\w'])(?:(?:and|but|so|then)\s+)?(?:(?:just|finally|recently|now|also|already|[a-z]+ly)\s+){0,2}"
    r"(?i:he|she)\s+(?:(?:just|finally|recently|now|also|already|[a-z]+ly|has|have|had)\s+){0,2}"
    r"(?:is|was|has|had|[a-z]+ed|[a-z]+s)\b"
)


# a reduced relative clause on a noun in apposition to a value: "X, the dog Ana's sister brought
# home", "X, a bike that Mia picked up": its subject and its verb (a past tense or a present -s)
_RELATIVE = re.compile(
    rf",\s+(?:the|an?|this|that)\s+(?:[a-z][\w-]*\s+){{1,3}}?(?:(?:that|which|whom?)\s+)?{SUBJ}\s+{ADV}"
    rf"(?P<verb>[a-z]{{2,}}(?:ed|s)|{'|'.join(sorted(IRREGULAR_PAST))})\b(?P<after>\s+\S+)?"
)
# a possessive in apposition to the value says whose it is ("Here is X, Y's <animal>", "X, Y's dog,
# barked all night") when the value is what an opening of introducing, looking or pointing shows, or
# opens the sentence, unless the main clause says who holds it now (``held_now``); after a verb of
# the sentence's own ("Just moved to X, Y's hometown") the dropped subject is the speaker. A noun said
# to be past ("X, Y's old / former / late cat, barks") names a former owner: no holder
_SHOWN = re.compile(rf"(?i:{INTRODUCING}|{POINTING})\s+")
_POSSESSIVE_APPOSITION = re.compile(
    rf",\s+(?P<owner>[{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*)?(?:'s\s+[a-z]+)*)'s\s+(?!(?:old|former|ex|late|previous)\b)[a-z]"
)
# a person right after the clause's verb receives what the subject handed on ("the pup Ana's aunt
# gave Mia", "the bike Tom sold her"): the subject of the clause is no holder then
_OBJECT_PRONOUN = re.compile(r"(?i:him|her|them|us|me)")


def _holds_by(verb: str, after: str) -> bool:
    """``verb`` (with the word ``after`` it) says that its subject comes to hold its object or holds it."""
    return verb in HOLDING_VERBS or after.lower() in HOLDING_WITH.get(verb, ())


def clause_subject(text: str, value: str) -> str | None:
    """The subject of a relative clause that says whose ``value`` is (see :func:`subject_key`):
    "Meet Pip, the pup Ana's sister Mia brought home" is Mia's. Only a sentence whose own clause
    names no subject before the value (an imperative "Meet X, ...", a value that opens the sentence)
    lets the relative clause name the holder: "Ana moved to Oslo, the city her brother loves" is
    Ana's move. A possessive in apposition to a value an opening shows names the holder as well:
    "Here is X, Y's <animal>" is Y's. A main clause after the apposition that says who holds the
    value now names the holder instead (``held_now``): "X, Y's dog, lives with me now" is the
    speaker's. None also when the value has no such clause, its subject names no one, its verb is
    no verb of getting or holding, or the verb has a person after it (a giver's clause: "the pup
    Ana's aunt gave Mia" says whose the pup is not by its subject)."""
    at = text.find(value)
    if at < 0 or names_subject_before(text, at):
        return None
    shown = at == 0 or _SHOWN.fullmatch(text, 0, at) is not None
    owner = _POSSESSIVE_APPOSITION.match(text, at + len(value)) if shown else None
    if owner is not None and names_someone(owner["owner"]):
        return held_now(text, owner.end()) or subject_key(owner["owner"])
    m = _RELATIVE.match(text, at + len(value))
    if m is None or not names_someone(m["subj"]):
        return None
    after = (m["after"] or "").strip().rstrip(".,;:!?")
    if _OBJECT_PRONOUN.fullmatch(after) or (after[:1].isupper() and names_someone(after)):
        return None
    if not _holds_by(m["verb"], after):
        return None
    return held_now(text, m.end()) or subject_key(m["subj"])


def names_subject_before(text: str, at: int) -> bool:
    """The clause holding position ``at`` opens with a person as the subject of its verb, or the
    sentence names a person as a subject before ``at`` ("Yesterday Ana moved to X")."""
    return leading_subject(text, at) is not None or next(_persons_before(text, at), None) is not None


def match_subject(text: str, m: re.Match[str], speaker: str) -> str | None:
    """The owner of the noun when the match has one or right before it, else the person the match
    names before its value (its own clause's: "A retired, so now B goes to X"), else the first
    person the sentence names before the value (no preposition's object: "from Vodo to Telia"),
    else the speaker; None when the owner is a pronoun and the sentence names no one before it
    ("She spilled tea on her X": whose, the sentence does not say). A subject pronoun ("she's at X
    now") is the one person named before it; None when the sentence names more than one ("Ana met
    Tom at the park, he's at X now": whose, the words do not say)."""
    found = m.groupdict()
    if found.get("lpron"):  # (``pronoun_subject`` tells whose, with the turn's antecedent; else no one's)
        return speaker if pronoun_subject(text, m.start("v"), speaker)[0] else None
    if found.get("owner"):
        return subject_key(found["owner"])
    if found.get("second"):  # ("Ana and her son joined X": Ana's; whose, when no one opens the pair, no one says)
        return first_of_two(text, m.start("second"))
    if found.get("subj") and names_someone(found["subj"]):
        return subject_key(first_of_two(text, m.start("subj")) or found["subj"])  # "Ana and Bo joined X": Ana's
    if (found.get("pron") or "").lower() in _SUBJECT_PRONOUNS:
        named = set(_persons_before(text, m.start("pron")))
        return named.pop() if len(named) == 1 else None
    possessor = _POSSESSOR.search(text, max(0, m.start() - _POSSESSOR_SPAN), m.start())
    if possessor is not None and names_someone(possessor["owner"]):
        return subject_key(possessor["owner"])  # "Ana's sister's new cat, Miso": the sister's
    # (its own clause's person: "A retired, so now B goes to X"; none of an opening "Because X meets ...,")
    inside = next(_persons_before(text, _first_part(m), doers_only=True, start=m.start()), None)
    main = next(_persons_before(text, m.start("v"), doers_only=True, start=main_clause_start(text)), None)
    first = inside or main or next(_persons_before(text, m.start("v"), doers_only=True), None)
    return first or (None if found.get("pron") else speaker)


_SUBJECT_PRONOUNS = frozenset({"she", "he", "they"})
# the possessor of the noun phrase a match begins with, right before it ("Ana's sister's new cat")
_POSSESSOR = re.compile(rf"(?<![\w'])(?P<owner>{PERSON})'s\s+$")
_POSSESSOR_SPAN = 80  # characters read back for it


def _first_part(m: re.Match[str]) -> int:
    """Where the first of a match's parts (its value, the value replaced, the kind) begins."""
    found = m.groupdict()
    return min(m.start(g) for g in ("v", "prev", "noun") if found.get(g) is not None)


def _persons_before(text: str, end: int, *, doers_only: bool = False, start: int = 0) -> Iterator[str]:
    """The persons ``text`` names before position ``end`` as the subject of a verb or before an
    appositive, in order (see :func:`subject_key`): no name of a thing ("Ana's Pelham"), no later
    word of a longer name; with ``doers_only``, no preposition's object either; from ``start`` on."""
    for first in _SUBJECT_RE.finditer(text, start, end):
        if not _subject_at(first["subj"], text[max(0, first.start() - 40) : first.start()]):
            continue
        if doers_only and _PREPOSITION_BEFORE.search(text, max(0, first.start() - 12), first.start()):
            continue
        yield subject_key(first["subj"])


def _subject_at(person: str, before: str) -> bool:
    """A person phrase, after the text ``before`` it, is a person and not the name of a thing."""
    return (
        names_someone(person)
        and not _POSSESSED.search(before[-8:])
        and not _OBJECT.search(before[-12:])
        and not _inside_name(before)
    )


# the capitalised word right before a phrase ("Larkfield " of "Larkfield Singers")
_NAME_BEFORE = re.compile(rf"{NAME}\s+$")


def _inside_name(before: str) -> bool:
    """The text ``before`` a capitalised word ends in a name, so the word is the later part of a
    longer name ("the Larkfield Singers", "Sentinel Mutual"), not a person of its own; so does a
    capitalised ordinary word that itself follows a name ("Quarrel Climbing" of "Quarrel Climbing
    Gym": "Gym" is no person)."""
    m = _NAME_BEFORE.search(before)
    if m is None or re.fullmatch(KIN_TITLE, m.group(0).strip()):
        return False  # "Uncle Bertil": a relation's title before a name
    if names_someone(m.group(0).strip()):
        return True
    earlier = _NAME_BEFORE.search(before, 0, m.start())
    return earlier is not None and names_someone(earlier.group(0).strip())
