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

import functools
import re
from collections.abc import Sequence
from itertools import islice

from memforest.attributes import VERB_CLASSES, named_attribute
from memforest.text.change_announced import ANNOUNCED, ANNOUNCED_VALUE
from memforest.text.change_grammar import (
    ENDED,
    GENERIC,
    KIN_RE,
    NAMED,
    NOT_NOUN,
    PARTNERS,
    POINTED,
    SWITCHED_KIND,
    UNTIMED_VALUE,
)
from memforest.text.change_kinds import KIND_AFTER
from memforest.text.change_subjects import leading_subject, names_someone, subject_key
from memforest.text.change_subjects import match_subject as _subject
from memforest.text.change_words import PART_NEXT
from memforest.text.doers import plausible_doer
from memforest.text.kind_spellings import one_spelling
from memforest.text.lexicon import CAPITALS, folded, words
from memforest.text.literal_gate import Gates, gates, literals, probe
from memforest.text.mood import mood_near, mood_of
from memforest.text.sentences import split_sentences
from memforest.text.state_values import change_value
from memforest.text.state_words import KIN as KIN_WORDS
from memforest.text.state_words import KIN_ADJ, KIN_PLURALS
from memforest.text.topics import singular

__all__ = [
    "VERB_CLASSES",
    "announced_switch",
    "find_announced_kind",
    "find_change",
    "find_named_change",
    "find_pointed_kind",
    "generic_gates",
    "leading_subject",
    "named_gates",
    "slot_key",
    "stated",
    "subject_key",
]

# matches of one pattern read per text: each costs a scan of the text before it for its subject
_MAX_MATCHES = 8


def slot_key(noun: str) -> str:
    """A noun phrase as a slot name: lower case, the last word singular and in its one spelling
    (``kind_spellings``: "physiotherapists" -> "physio"), words joined by ``_`` ("coffee places" ->
    "coffee_place"), accents folded ("café" -> "cafe")."""
    words = folded(noun).split()
    if not words:
        return ""
    words[-1] = one_spelling(singular(words[-1]))
    return "_".join(words)


# a relative named by their relation, one or many, maybe after a word of age or closeness ("best
# friend", "older sisters", "folks"): a person, no kind of thing
_RELATIVE_NOUN = re.compile(rf"{KIN_ADJ}(?:(?:{KIN_WORDS})s?|{KIN_PLURALS})", re.IGNORECASE)


def _noun(raw: str) -> str | None:
    words = raw.lower().split()
    while words and words[-1] in NOT_NOUN:
        words.pop()
    if not words or words[0] in NOT_NOUN:
        return None
    if words[-1] not in PARTNERS and _RELATIVE_NOUN.fullmatch(" ".join(words)):
        return None  # ("Ana's best friend moved to X", "Ana's folks moved to X": where they live)
    return slot_key(" ".join(words))


def stated(text: str, m: re.Match[str]) -> bool:
    """The match is stated as holding: no question, no mood in its clause (``mood.mood_near``)."""
    return not text.rstrip().endswith("?") and mood_near(text, m.start("v")) is None


def _kind_noun(raw: str) -> str | None:
    """A noun phrase that may name a kind of thing: no verb or function word in it, no adverb,
    participle or gerund at its end."""
    noun = _noun(raw)
    if noun is None or noun.endswith(("ly", "ed", "ing")) or any(w in NOT_NOUN for w in noun.split("_")):
        return None  # a clause ("the first session was great"), not a noun phrase
    return noun


def _kind_after(text: str, end: int) -> str | None:
    """The kind of thing a value ending at ``end`` is named as, right after it or in an appositive."""
    for regex in KIND_AFTER:
        m = regex.match(text, end)
        if m is not None:
            return _kind_noun(m["noun"])
    return None


_NEW_OR_NOW = re.compile(r"\b(?i:new|now|these\s+days|nowadays|currently)\b")


def _role(text: str, m: re.Match[str]) -> str | None:
    """A relation one holds by turns is a state: one held by one person at a time (a landlord, a
    mentor) as said ("Ana's landlord is X"), one of several (a friend, a neighbour) when the sentence
    says it is new or current ("Ana's flatmate is X now"); "Ana's sister is Mia" is none."""
    noun = m["noun"].lower().strip()
    if " " in noun or not KIN_RE.match(noun) or noun in _BY_BIRTH:
        return None
    if noun not in _HELD_ALONE and _NEW_OR_NOW.search(text, m.start(), m.end() + 16) is None:
        return None
    return slot_key(noun)


# relations one person holds at a time, by turns
_HELD_ALONE = words("landlord landlady mentor wife husband partner girlfriend boyfriend fiance fiancee")


# relations one is born or married into, never held by turns ("Ana's mum is an X member now" is the mum's state)
_BY_BIRTH = words(
    """sister brother mom mum mother dad father parent parents cousin son daughter kid kids aunt uncle grandma
    grandmother grandpa grandfather granddaughter grandson niece nephew sibling stepmother stepfather stepsister
    stepbrother stepson stepdaughter godson goddaughter grandad granddad granny stepdad stepmum stepmom
    mother-in-law father-in-law sister-in-law brother-in-law son-in-law daughter-in-law"""
)


def _replaced_kind(m: re.Match[str]) -> str | None:
    """The kind named after the value a switch replaced ("traded my Corvan sedan for a Mistral")."""
    raw = m.groupdict().get("prevkind")
    return _kind_noun(raw) if raw else None


@functools.cache
def named_gates() -> Gates:
    """The literal gates of ``NAMED``'s patterns, in order (``literal_gate``: a pattern none of whose
    strings the sentence contains is not searched)."""
    return gates([literals(regex) for regex in NAMED])


@functools.cache
def generic_gates() -> Gates:
    """The literal gates of ``GENERIC``'s patterns, in order."""
    return gates([literals(regex) for regex, _ in GENERIC])


def find_named_change(text: str, speaker: str) -> tuple[str, str, str] | None:
    """(subject, slot, value) when ``text`` states that a person's current <noun> is a value and
    names the noun, next to the value or as the kind the sentence says was switched ("switched
    dentists, I go to X now"); None otherwise (see the module doc)."""
    may = named_gates().open(probe(text))
    for i, regex in enumerate(NAMED):
        if not may >> i & 1:
            continue
        for m in islice(regex.finditer(text), _MAX_MATCHES):
            noun, value = _noun(m["noun"]) or _role(text, m) or _noun(m["noun"].split()[-1]), _value(m, speaker)
            if not (noun and value):
                continue
            subject = _subject(text, m, speaker)
            if subject and subject.casefold() == m["noun"].casefold():
                subject = speaker  # "Hairdresser update: ...": the kind opening the sentence holds nothing
            if subject and stated(text, m):
                return subject, noun, value
    switched = SWITCHED_KIND.search(text)
    noun = _kind_noun(switched["noun"] or switched["plural"]) if switched is not None else None
    change = find_change(text, speaker) if noun else None
    return (change[0], str(noun), change[2]) if change is not None else None


def find_change(text: str, speaker: str, participants: Sequence[str] = ()) -> tuple[str, str, str] | None:
    """(subject, slot, value) when ``text`` states a change of state by a general verb of joining,
    acquiring, starting to go to, or switching from one value to another, or by a consequence of
    a state (a habit, a thing named as one's own); the slot is the kind the value is named as
    ("bought a Solano e-bike": e-bike), else the verb's class. A consequence whose doer may be a
    person (``doers.plausible_doer``; ``participants`` are the others in the conversation) gives
    none. None otherwise."""
    may = generic_gates().open(probe(text))
    for i, (regex, kind) in enumerate(GENERIC):
        if not may >> i & 1:
            continue
        for m in islice(regex.finditer(text), _MAX_MATCHES):
            value = _value(m, speaker)
            if not value or KIN_RE.match(value.split()[0]) or not plausible_doer(m, value, (speaker, *participants)):
                continue
            subject = _subject(text, m, speaker)
            ended = ENDED.search(text, max(0, m.start("v") - 60), m.start("v")) is not None
            if subject and not ended and stated(text, m):
                named_kind = None if _part_follows(m) else _kind_after(text, m.end("v"))
                return subject, named_kind or _replaced_kind(m) or kind, value
    return None


def find_pointed_kind(text: str, before: str | None, people: Sequence[str]) -> tuple[str, str, str] | None:
    """(subject, slot, value) when ``text`` says that what was just named is a person's current
    <noun> ("..., so that's Ana's vet now"): the value is the last thing named before it in
    ``text``, else in ``before`` (the turn's previous sentence), that is no person of ``people``
    and no time; None otherwise."""
    m = POINTED.search(text)
    noun = _noun(m["noun"]) if m is not None else None
    if m is None or noun is None or not m["owner"] or mood_near(text, m.start()) is not None:
        return None
    persons = {p.casefold() for p in people}
    for source in (text[: m.start()], before or ""):
        values = [_unopened(v["v"], v.start()).rstrip(".") for v in UNTIMED_VALUE.finditer(source)]
        values = [v for v in values if len(v.split()) > 1 and v.casefold() not in persons]  # (a name of two words)
        if values:
            return subject_key(m["owner"]), noun, values[-1]
    return None


def _part_follows(m: re.Match[str]) -> bool:
    """A part of the value's thing follows its possessive ("my Orbis X1's screen"): no kind of it."""
    end = m.end("v") + (0 if m["v"].endswith("'s") else 2)
    return m.string.startswith("'s", end - 2) and PART_NEXT.match(m.string, end) is not None


def _value(m: re.Match[str], speaker: str) -> str | None:
    """The match's value, up to the speaker a clause joined by "and" names ("a Corvel 5 and Ana
    love it": the Corvel 5)."""
    raw = m["v"]
    if raw.endswith("'s") and _part_follows(m):
        raw = raw[:-2]  # "Ana's Orbis X1's screen": the Orbis X1
    return change_value(re.split(rf"\s+and\s+{re.escape(speaker)}(?![\w-])", raw, maxsplit=1)[0])


def _unopened(value: str, at: int) -> str:
    """``value`` without the verb or adverb that opens its sentence ("Tried Brisk Cuts", "Honestly
    Brisk Cuts": Brisk Cuts)."""
    first, _, rest = value.partition(" ")
    return rest if at == 0 and not names_someone(first) else value


# a change almost made or still to come ("Nearly changed banks.", "New phone soon.")
_HEDGED = re.compile(r"\b(?i:almost|nearly|soon|maybe|probably)\b")
# a value that a relation in apposition names as a person ("Sam, my flatmate, ...")
_PERSON_APPOSED = re.compile(
    rf",\s+(?:(?i:my|his|her|their)|[{CAPITALS}][\w-]*'s)\s+(?i:{KIN_WORDS}|mate|friend|partner)\b"
)


def find_announced_kind(text: str, before: str | None, people: Sequence[str]) -> tuple[str, str, str] | None:
    """(subject, slot, value) when a sentence announces a new state of a kind without its value
    ("Changed banks.", "Joined a choir!") and the next names the value ("Everything's with Harrow
    Mutual now", "The Vale Singers."): the first sentence of ``text`` and the rest of it (a short
    sentence is merged with its neighbour), else ``before`` (the turn's previous sentence, which
    stated no state) and ``text``. The subject is the one the announcement names, else the speaker
    (``people[0]``). None otherwise."""
    sentences = split_sentences(text)
    pairs = [(sentences[0], " ".join(sentences[1:]))] if len(sentences) > 1 else []
    for announcing, naming in [*pairs, (before or "", text)]:
        announced = _announcement(announcing)
        if announced is not None:
            return _announced_value(announced, naming, people)
    return None


def announced_switch(before: str | None, speaker: str) -> tuple[str, str] | None:
    """(subject, slot) when ``before`` announces a switch of a kind without its value ("Switched
    barbers.", "Ana changed banks."): the one it names, else ``speaker``; None when it announces
    no switch (a thing joined or got: "Joined a choir!") or hedges it."""
    announced = _announcement(before or "")
    noun = _announced_noun(announced) if announced is not None and announced["plural"] else None
    if announced is None or noun is None:
        return None
    subject = announced["subj"] if announced["subj"] and names_someone(announced["subj"]) else speaker
    return subject_key(subject), named_attribute(noun) or noun


def _announcement(text: str) -> re.Match[str] | None:
    """``text`` announcing a new state of a kind without its value, with no mood nor hedge."""
    announced = ANNOUNCED.match(text.strip())
    return announced if announced is not None and mood_of(text) is None and not _HEDGED.search(text) else None


def _announced_noun(announced: re.Match[str]) -> str | None:
    raw = announced["plural"] or announced["noun"] or announced["new"] or announced["update"]
    return _kind_noun(raw) if raw else None


def _announced_value(announced: re.Match[str], text: str, people: Sequence[str]) -> tuple[str, str, str] | None:
    noun = _announced_noun(announced)
    persons = {p.casefold() for p in people}
    for regex in ANNOUNCED_VALUE:
        m = regex.search(text)
        if noun is None or m is None or mood_near(text, m.start("v")) is not None:
            continue
        value = change_value(_unopened(m["v"], m.start("v")).rstrip("."))
        if _PERSON_APPOSED.match(text, m.end("v")):
            continue
        if value and value.casefold() not in persons:
            subject = announced["subj"] if announced["subj"] and names_someone(announced["subj"]) else people[0]
            return subject_key(subject), named_attribute(noun) or noun, value
    return None
