"""Whether statements name an open-ended kind by its words, and whether a verb-class chain's
answer for such a kind is better left to the statements that name it (ADR 0115)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memforest.attributes import STATE_ATTRIBUTES
from memforest.retrieval.temporal.chains import GENERIC, names_kind
from memforest.retrieval.temporal.ended import mood_of
from memforest.retrieval.temporal.state import State
from memforest.store.sql import Row

__all__ = ["VAGUE_KIND", "names_whole_kind", "told_elsewhere"]

# words of a kind too vague to tell it by ("new place", "usual spot")
VAGUE_KIND = frozenset({"new", "old", "current", "usual", "regular", "local", "main", "favourite", "favorite"})


def names_whole_kind(text: str, asked: str) -> bool:
    """``text`` names every word of kind ``asked`` ("futsal" and "team" of a futsal team), a word
    counting when it begins one of the text."""
    words = [w for w in asked.split("_") if w not in VAGUE_KIND]
    return bool(words) and all(names_kind(text, w) for w in words)


def told_elsewhere(
    rows: Sequence[Row], asked: str | None, runs: Sequence[Sequence[State]], answer: State, own: Callable[[Row], bool]
) -> bool:
    """For an answer of a verb class's chain (which may hold any open-ended kind: the physio one
    started seeing, for "which futsal team"): none of the chain's states (``runs``) names kind
    ``asked``, while another statement about the subject (``own``) by the answer's speaker, with
    no mood, names all of it. The chain then answers for another kind, and the statements naming
    this one are the better read (the loose plan's). False for a named attribute."""
    if asked is None or asked in STATE_ATTRIBUTES or asked in GENERIC:
        return False
    if any(names_whole_kind(s.text, asked) for run in runs for s in run):
        return False
    in_chain = {s.fact_id for run in runs for s in run}
    said_by = {str(r.get("speaker") or "").casefold() for r in rows if int(r["fact_id"]) == answer.fact_id}
    return any(
        int(r["fact_id"]) not in in_chain
        and str(r.get("speaker") or "").casefold() in said_by
        and names_whole_kind(str(r["text"]), asked)
        and mood_of(str(r["text"])) is None
        and own(r)
        for r in rows
    )


# kinds of service a person goes to or is provided by, by the words that name each: a state of a
# verb class's chain whose words name only other such kinds is none of the asked one ("a check-up
# at Castle Green Dental" is no mobile network); a kind named by no word here tells nothing
_SERVICE_WORDS = {
    "dental": "dentist dentists dental orthodontist hygienist",
    "medical": "doctor doctors gp surgery physician medical clinic",
    "physio": "physio physiotherapist physiotherapy osteopath chiropractor",
    "hair": "hair hairdresser hairdressers barber barbers barbershop salon stylist haircut",
    "telecom": "mobile network carrier telecom wireless cellular sim",
    "internet": "broadband internet fibre fiber wifi isp",
    "energy": "energy electricity electric gas power utility",
    "bank": "bank banks banking credit union building society savings current account",
    "insurance": "insurance insurer insurers",
    "vet": "vet vets veterinary veterinarian",
}
_SERVICE_OF = {w: kind for kind, words in _SERVICE_WORDS.items() for w in words.split()}
_SERVICE_RE = re.compile(rf"\b(?:{'|'.join(sorted(_SERVICE_OF, key=len, reverse=True))})\b", re.IGNORECASE)


def service_kind(asked: str) -> str | None:
    """The kind of service slot ``asked`` names by one of its words, or None."""
    return next((_SERVICE_OF[w] for w in asked.split("_") if w in _SERVICE_OF), None)


def names_other_service(text: str, kind: str) -> bool:
    """``text`` names kinds of service by their words, and none of them is ``kind``."""
    named = {_SERVICE_OF[m.group(0).lower()] for m in _SERVICE_RE.finditer(text)}
    return bool(named) and kind not in named
