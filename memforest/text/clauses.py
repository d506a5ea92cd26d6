"""Where a sentence joins clauses that each have a subject of their own ("My sister moved to Cork,
so I've started seeing a new GP"; "We moved in March; the kids go to X now"): the places a
sentence that states two people's states, or two states of one person, can be cut so that each
part is read for a state by itself."""

from __future__ import annotations

import re

from memforest.text.change_subjects import names_someone
from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import INSTRUMENTS, KIN, PARTNER_NOUNS

__all__ = ["asides", "clause_spans", "mood_tail", "partner_apposed", "shared_subject_clauses"]

# what opens a clause with its own subject: a first- or third-person pronoun, a possessive ("my
# friend Teo"), or, after a conjunction or a semicolon, a name or "the" ("and Kemal got ...", "; the
# kids go to ...")
_PRONOUN = r"(?:I|I'm|I've|I'd|I'll|(?i:we|we're|we've|he|he's|she|she's|they|they're|my|our|his|her|their))\b"
_NAMED = rf"(?:[{CAPITALS}][\w-]*|the)\b"
# a word between the joint and the subject that belongs to no one ("so now I ...", "and then she ...")
_LEAD = r"(?:(?:now|then|also|just|recently|finally|meanwhile|since\s++then)\s++)?"
# (each whitespace run is tried from its start only, and read whole: linear on long runs)
_JOINT = re.compile(
    rf";\s++{_LEAD}(?=(?:{_PRONOUN}|{_NAMED}))"
    rf"|(?<![\s,]),?\s++(?:and|but|so|whereas)\s++{_LEAD}(?=(?:{_PRONOUN}|{_NAMED}))"
    rf"|,\s++{_LEAD}(?={_PRONOUN})"
    # a comma before a short subject of its own and its verb of being ("joined X, first training is
    # on Friday": the training's time is not the joining's)
    r"|,\s++(?=(?:[a-z]++\s++){1,2}(?:is|are|was|were)\s)"
)
# a clause of fewer words than this is no clause of its own ("and I", "so she did")
_CLAUSE_WORDS = 3
# (as many words as that follow; from a word's start only, so a scan is linear on a long word)
_CLAUSE_AFTER = re.compile(r"(?<!\S)\S++(?:\s++\S++){2}")


def clause_spans(sentence: str) -> list[tuple[int, int]]:
    """Where ``sentence`` is cut where one clause ends and another with its own subject begins: the
    start and end of each piece, without the joint ("…, so now I train with X": "I train with X");
    a piece too short to be a clause stays with the one before it. One span (the sentence) when
    nothing joins clauses."""
    spans: list[tuple[int, int]] = []
    at = 0
    for joint in _JOINT.finditer(sentence):
        # (a head skipped is of fewer words than a clause's, and grows only by a joint's few words)
        if len(sentence[at : joint.start()].split()) < _CLAUSE_WORDS or not _CLAUSE_AFTER.match(sentence, joint.end()):
            continue
        spans.append((at, joint.start()))
        at = joint.end()
    spans.append((at, len(sentence)))
    return spans


# "and" (adverbs between) before a verb of a state's change or holding, with no subject of its own:
# "I moved to Leeds and started at X", "My sister is a nurse at X and just joined Y"
# (a whitespace run is tried from its start only, and read whole: linear on long runs)
_SHARED_VERB = re.compile(
    r"(?:,|(?<![\s,]))\s++and\s++(?:(?:then|also|just|now|recently|finally|since)\s++)*+"
    r"(?=(?:moved|started|joined|switched|signed|registered|got|bought|adopted|enrolled|began|took\s+up|"
    r"picked\s+up|works|lives|is|has|now)\b)"
)
# "and" or "but" (adverbs between) before a verb of wanting, needing, planning or weighing with no
# subject of its own: "I just started at X and want to ask ...", "I'm on X but thinking of moving"
_MOOD_TAIL = re.compile(
    r"(?:,|(?<![\s,]))\s++(?:and|but)\s++(?:(?:really|also|now|just|still)\s++)*+"
    r"(?=(?:want|wants|need|needs|hope|hopes|plan|plans|would\s+like|am\s+going\s+to|am\s+thinking|"
    r"thinking|considering|wondering|weighing)\b)"
)


def mood_tail(sentence: str) -> int | None:
    """Where ``sentence`` goes on, with no subject of its own, from what it states to what its subject
    wants, needs, plans or weighs ("I started at X on Monday and want to ask ..."); None if it does not."""
    m = _MOOD_TAIL.search(sentence)
    return m.start() if m is not None and len(sentence[: m.start()].split()) >= _CLAUSE_WORDS else None


# the subject that opens a first-person or third-person sentence, as written
_LEAD_SUBJECT = re.compile(
    rf"^(?:I|We|(?:(?:My|Our)\s++(?:[a-z][\w-]*+\s++){{0,2}}?(?:{KIN})(?:\s++[{CAPITALS}][\w'-]*+)?)|"
    rf"[{CAPITALS}][\w'-]*+(?:\s++[{CAPITALS}][\w'-]*+)?)(?=\s)"
)


# ... or, after a clause that leaves something ("Ofa quit the ticket office at A"), "and" before any
# verb in the past ("... and just finished her first week at B"): what came instead, told by its
# consequence
_LEFT = re.compile(r"\b(?:quit|left|dropped|ditched|cancell?ed|gave\s+up|walked\s+out\s+of)\b", re.IGNORECASE)
_AND_PAST = re.compile(
    r"(?:,|(?<![\s,]))\s++and\s++(?:(?:then|also|just|now|recently|finally|since)\s++)*+(?=[a-z]{3,}ed\b)"
)


def shared_subject_clauses(sentence: str) -> tuple[str, str] | None:
    """The two clauses of a sentence whose second verb phrase shares the first's subject, the second
    with that subject written out ("I moved to Leeds and started at X": "I moved to Leeds", "I
    started at X"); None when the sentence opens with no subject, or no such "and" joins two
    phrases of three words or more."""
    lead = _LEAD_SUBJECT.match(sentence)
    if lead is None:
        return None
    by_name = lead.group(0).split()[0] not in ("I", "We", "My", "Our")
    if by_name and not names_someone(lead.group(0)):  # ("Moved to X and ...": an ordinary word)
        return None
    joints = [*_SHARED_VERB.finditer(sentence, lead.end())]
    if not joints and _LEFT.search(sentence, lead.end()) is not None:
        joints = [j for j in _AND_PAST.finditer(sentence, lead.end()) if _LEFT.search(sentence, lead.end(), j.start())]
    for joint in joints:
        first, rest = sentence[: joint.start()], sentence[joint.end() :]
        if len(first.split()) >= _CLAUSE_WORDS and _CLAUSE_AFTER.match(rest):
            return first, f"{lead.group(0)} {rest}"
    return None


# the speaker's partner named in apposition ("my girlfriend Temitope is a junior doctor at X"): "my"
# right before the word (no "late", "ex-", "friend's" between), a name after it that owns nothing
_PARTNER_APPOSED = re.compile(
    rf"(?<![\w'-])(?i:my|our)\s++(?:(?i:new)\s++)?(?i:{PARTNER_NOUNS})\s++[{CAPITALS}][\w-]*+(?!['\u2019\w-])"
)


# ... or after the name that opens the sentence, in brackets or between commas ("Tunde (my fiancé)
# got a job at X"; "On Sunday, my wife, ..." names no partner)
_PARTNER_AFTER = re.compile(
    rf"\A\W*+(?:(?i:and|so|but|also)\s++)?(?P<name>[{CAPITALS}][\w-]*+)\s*+(?:\(\s*+|,\s++)(?i:my|our)\s++"
    rf"(?P<noun>(?i:{PARTNER_NOUNS}))\s*+[),]"
)


def partner_apposed(sentence: str) -> str | None:
    """The words of ``sentence`` that name the speaker's partner by apposition ("my wife Emiko"; for
    "Emiko (my wife)", those words), read alone as a state of the speaker's besides what the
    sentence states of the partner; None."""
    m = _PARTNER_APPOSED.search(sentence)
    if m is not None:
        return m.group(0)
    after = _PARTNER_AFTER.match(sentence)
    return f"my {after['noun']} {after['name']}" if after is not None else None


# an instrument played now, its sentence read up to it ("I play trumpet in X and ...": "I play trumpet"),
# none fetched ("picked up the guitar from the shop")
_PLAYED = re.compile(
    rf"\b(?i:plays|play|playing|learning|learns|practi[sc]ing|practi[sc]es|picked\s+up)\s++"
    rf"(?:(?i:the|a)\s++)?(?i:{INSTRUMENTS})(?:\s++(?i:guitar))?\b(?!\s++(?:from|off|back)\b)"
)


def asides(sentence: str) -> list[str]:
    """The parts of ``sentence`` read alone for a state besides what the whole states: the
    speaker's partner named in apposition (``partner_apposed``) and the sentence up to an instrument
    it says someone plays ("My brother Chidi plays bass in a band called X")."""
    out = [part for part in (partner_apposed(sentence),) if part is not None]
    played = _PLAYED.search(sentence)
    if played is not None:
        out.append(sentence[: played.end()])
    return out
