"""The attribute a temporal question asks about, read from its words: its head noun ("which city",
"Bob's pet"), else the attribute most of its words name; a relative who does the question's verb
("where does my husband work") names whose state it asks, not the state."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memforest.attributes import ATTRIBUTE_WORDS
from memforest.retrieval.temporal.asked_service import LESSON_WITH
from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import ANIMALS, CAR_MAKES, CAR_MODELS, KIN

_HEAD_RE = re.compile(r"^\s*(?:which|what)\s+(?P<head>[a-z]+)|'s\s+(?:\w+\s+)?(?P<head2>[a-z]+)\b", re.IGNORECASE)
# kinds of thing whose mention names the attribute ("after the parrot", "before the Kia Niro")
_KIND_RES = {
    "pet": re.compile(rf"\b(?:{ANIMALS})\b", re.IGNORECASE),
    "vehicle": re.compile(rf"\b(?:{CAR_MAKES}|{CAR_MODELS})\b"),
}
# verb phrases of a question that name an attribute only as a whole ("start at", "took in"): their
# single words name nothing, so they stay out of the shared vocabulary's word lists
_PHRASES = {
    "residence": r"end(?:ed|s)?\s+up\s+(?:in|living\s+in)|arriv(?:e|ed|es)\s+in|(?:get|got|find|found|buy|bought)\s+"
    r"(?:a|an|the|his|her|their)\s+(?:\w+\s+)?(?:place|flat|apartment|house|home)\s+in|set(?:tle)?\s+up\s+home",
    "employer": r"start(?:ed|s|ing)?\s+(?:at|with|working)|sign(?:ed|s|ing)?\s+(?:on\s+)?with|offer|employee|"
    r"go(?:es)?\s+to\s+work|went\s+to\s+work|for\s+a\s+living|(?:take|took|land|landed|get|got)\s+(?:the|a|his|her|their)\s+job",
    "pet": rf"fost(?:er|ers|ered|ering)|t(?:ake|akes|ook|aking)\s+in\s+(?=(?-i:[{CAPITALS}]))|rescued|adopting|"
    rf"br(?:ing|ings|ought|inging)\s+(?-i:[{CAPITALS}])\w*\s+home",
}
_PHRASE_RES = {a: re.compile(rf"\b(?:{p})\b", re.IGNORECASE) for a, p in _PHRASES.items()}
# each attribute word's own pattern, compiled once (not per question); a word counts every place
# it occurs, as one pattern per word does
_WORD_RES = {a: tuple((w, re.compile(rf"\b{re.escape(w)}\b")) for w in words) for a, words in ATTRIBUTE_WORDS.items()}


# a relative who is the subject of the question's verb ("where does my husband work", "did Ana's
# sister move"): their kin word names whose state is asked, not the state ("who is my husband" has
# no verb of its own after it, and no other word naming an attribute)
_SUBJECT_KIN = re.compile(
    rf"\b(?:does|did|do|is|was|were|has|had|have|will|would|can|could)\s+(?:my|his|her|their|our|[\w-]+['\u2019]s)"
    rf"\s+(?:(?:new|old|current|late)\s+)?((?:{KIN})s?)\b"
)


# a "with" a verb's participle takes ("insured with", "banking with", "signed with"), "bank with",
# or the "with" of a verb asked about by "did I" ("how long did I sing with X", "who do I train
# with"): who provides a service or whom one does something with, not whom one is with; living,
# staying or ending up with someone is being with them
_PARTICIPLE_BEFORE = re.compile(
    r"\b(?:[a-z]{2,}(?:ed|ing)|banks?|(?:do|does|did|will|would)\s+[\w']+\s+"
    r"(?!(?:live|stay|be|end|settle|get|go|move|hook|shack)\b)[a-z]+)\s+\Z"
)


def _participle_with(lowered: str, at: int) -> bool:
    """The word at ``at`` is a "with" right after a participle (read in the 24 characters before it)."""
    return lowered.startswith("with", at) and _PARTICIPLE_BEFORE.search(lowered[max(0, at - 24) : at]) is not None


def _lesson_before(lowered: str, at: int) -> bool:
    """The word at ``at`` is the "with" or "from" of lessons or sessions ("piano lessons with X")."""
    return LESSON_WITH.match(lowered, max(0, lowered.rfind(" ", 0, max(at - 1, 0)) + 1)) is not None


def attribute_of(question: str) -> str | None:
    """The attribute the question asks about: the one its head noun ("which city", "Bob's pet")
    names, else the one most of its words name (ties: the earliest mention). A relative who is the
    subject of the verb ("where does my husband work") names no attribute when another word does."""
    lowered = question.lower()
    subjects = [m.span(1) for m in _SUBJECT_KIN.finditer(lowered)]
    if subjects:
        other = _attribute_of(question, lowered, subjects)
        if other is not None:
            return other
    return _attribute_of(question, lowered, [])


def _attribute_of(question: str, lowered: str, skipped: Sequence[tuple[int, int]]) -> str | None:
    """:func:`attribute_of` with the words inside the ``skipped`` spans of ``lowered`` left out."""

    def kept(at: int) -> bool:
        return not any(start <= at < end for start, end in skipped)

    head = _HEAD_RE.search(question)
    heads = [(head.start(g), head.group(g).lower()) for g in ("head", "head2") if head and head.group(g)]
    for at, h in heads:
        for attribute, words in ATTRIBUTE_WORDS.items():
            if h in words and kept(at):
                return attribute
    best: tuple[int, int, str] | None = None
    for attribute, patterns in _WORD_RES.items():
        # (a word's pattern runs only where the word occurs at all: most never do)
        hits = [m.start() for w, rx in patterns if w in lowered for m in rx.finditer(lowered)]
        if attribute in _KIND_RES:
            hits += [m.start() for m in _KIND_RES[attribute].finditer(question)]
        if attribute in _PHRASE_RES:
            hits += [m.start() for m in _PHRASE_RES[attribute].finditer(question)]
        hits = [at for at in hits if kept(at)]
        if attribute == "partner":  # ("who is Ana insured with": the verb's "with", no partner's)
            hits = [at for at in hits if not _participle_with(lowered, at)]
        if attribute in ("partner", "origin"):  # ("cello lessons with / from X": a teacher)
            hits = [at for at in hits if not _lesson_before(lowered, at)]
        if hits:
            key = (-len(hits), min(hits), attribute)
            if best is None or key < best:
                best = key
    return best[2] if best else None
