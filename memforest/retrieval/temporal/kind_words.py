"""Whether statements name an open-ended kind by its words, and whether a verb-class chain's
answer for such a kind is better left to the statements that name it, or of another kind (ADR 0115)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from memforest.attributes import STATE_ATTRIBUTES
from memforest.retrieval.temporal.chains import GENERIC, head, kind_words, names_kind, type_words
from memforest.retrieval.temporal.ended import mood_of
from memforest.retrieval.temporal.state import State
from memforest.store.sql import Row

__all__ = [
    "VAGUE_KIND",
    "names_other_service",
    "names_whole_kind",
    "of_told_kind",
    "same_service",
    "service_kind",
    "service_synonyms",
    "tells_kind",
    "told_elsewhere",
]

# words of a kind too vague to tell it by ("new place", "usual spot")
VAGUE_KIND = frozenset({"new", "old", "current", "usual", "regular", "local", "main", "favourite", "favorite"})


def names_whole_kind(text: str, asked: str) -> bool:
    """``text`` names every word of kind ``asked`` ("futsal" and "team" of a futsal team), a word
    counting when it begins one of the text; a word too vague to tell it by ("place") aside."""
    words = sorted(kind_words(asked) - VAGUE_KIND)
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


# kinds of service a person goes to or is provided by: the words of a slot that name each (to read
# the asked kind), and the words that name a provider of it in a statement, no ordinary word among
# them ("clinic", "power", "savings" tell no one kind). A state of a verb class's chain whose words
# name only other such kinds is none of the asked one ("a check-up at Castle Green Dental" is no
# mobile network); a kind named by no word here tells nothing.
_SERVICE_WORDS = {
    "dental": ("dentist dental orthodontist hygienist", "dentist dentists dental orthodontist"),
    "medical": ("doctor gp physician", "doctor gp physician"),
    "physio": ("physio physiotherapist osteopath chiropractor", "physio physiotherapist osteopath chiropractor"),
    "hair": ("hair hairdresser barber salon stylist haircut", "hairdresser hairdressers barber barbers barbershop"),
    "telecom": ("mobile network carrier telecom wireless cellular", "telecom"),
    "internet": ("broadband internet fibre fiber isp", "broadband isp"),
    "energy": ("energy electricity electric gas power utility", "electricity"),
    "bank": ("bank banking", "bank banks banked banking"),
    "insurance": ("insurance insurer", "insurance insurer insurers"),
    "vet": ("vet veterinary veterinarian", "vet vets veterinary veterinarian"),
    "cafe": (
        "cafe café coffee coffeehouse",
        "cafe café coffeehouse roasters latte lattes cappuccino cappuccinos espresso espressos americano cortado "
        "macchiato mocha flat_white",
    ),
    "bakery": ("bakery baker", "bakery bakeries"),
}
_ASKED_SERVICE = {w: kind for kind, (asked, _) in _SERVICE_WORDS.items() for w in asked.split()}
_TOLD_SERVICE = {w: kind for kind, (_, told) in _SERVICE_WORDS.items() for w in told.split()}
# (a word of two, "flat_white", is told with any space between them)
_TOLD_WORDS = "|".join(w.replace("_", r"\s+") for w in sorted(_TOLD_SERVICE, key=len, reverse=True))
_TOLD_RE = re.compile(rf"\b(?:{_TOLD_WORDS})\b", re.IGNORECASE)


def service_kind(asked: str) -> str | None:
    """The kind of service slot ``asked`` names by one of its words, or None."""
    return next((_ASKED_SERVICE[w] for w in asked.split("_") if w in _ASKED_SERVICE), None)


def tells_kind(text: str, asked: str) -> bool:
    """``text`` names kind ``asked`` whole, or a provider of the service it names ("my usual flat
    white at X" tells a cafe)."""
    service = service_kind(asked)
    return names_whole_kind(text, asked) or (service is not None and service in _told_services(text))


def names_other_service(text: str, kind: str) -> bool:
    """``text`` names providers of kinds of service by their words, and of none of them ``kind``."""
    named = _told_services(text)
    return bool(named) and kind not in named


def _told_services(text: str) -> set[str]:
    """The kinds of service whose provider words ``text`` says."""
    return {_TOLD_SERVICE["_".join(m.group(0).lower().split())] for m in _TOLD_RE.finditer(text)}


def of_told_kind(states: Sequence[State], asked: str, service: str) -> list[State]:
    """Of a verb class's chain (which holds every kind one goes to or joins), for an open-ended
    kind ``asked`` of ``service`` (``service_kind``): when some of its statements name the service
    (all the kind's words, or a provider word of its service: "sorted out the dentist thing: I'm
    with Dr. Lien"), those and the states whose values are of their values' type (a title or head
    noun: "switched to Dr. Roy"); the others are other places one goes to ("my usual latte at
    Sjobris" is no dentist). All of them when none names it. (A kind that is no service keeps its
    whole chain: a choir's members are often told by its name alone.)"""
    named = {s.fact_id for s in states if names_whole_kind(s.text, asked) or service in _told_services(s.text)}
    if not named:
        return list(states)
    types = frozenset().union(*(type_words(s.value, s.text) for s in states if s.fact_id in named and s.value))
    return [s for s in states if s.fact_id in named or (s.value and type_words(s.value, s.text) & types)]


def same_service(asked: str, chains: Mapping[str, int]) -> str | None:
    """The chain filed under another name of the service ``asked`` names, where its names are one
    service ("salon" asked, a ``hairdresser`` chain; "mobile carrier", a ``mobile_network`` one; "bank",
    an ``account`` one) and the two slots qualify it alike ("car insurer" and ``car_insurance``, never
    ``home_insurance``) or the chain not at all ("home insurer" and ``insurance``): the one with the
    most states, the first filed of equals; verb classes never. None when ``asked`` is a named
    attribute, names no such service, or no chain is of it."""
    alike = service_synonyms(asked, chains)
    return max(alike, key=lambda label: chains[label]) if alike else None


def service_synonyms(asked: str, chains: Mapping[str, int]) -> tuple[str, ...]:
    """The chains of ``chains`` (label -> states) filed under the names of the service ``asked``
    names, as :func:`same_service` tells them, in the order they were first filed; none for a named
    attribute or a kind that names no such service."""
    service = _synonym_service(asked)
    if service is None or asked in STATE_ATTRIBUTES:
        return ()
    qualified = _qualifiers(asked)
    return tuple(
        label
        for label in chains
        if label not in GENERIC and _synonym_service(label) == service and _qualifiers(label) in (qualified, ())
    )


# services whose names are one service (a salon is a hairdresser's); gas and electricity, a dentist
# and an orthodontist, a physio and a chiropractor are different ones
_SYNONYM_SERVICES = frozenset({"medical", "hair", "telecom", "internet", "bank", "insurance", "vet", "cafe"})
# words of a slot that name who provides a service or what one holds with them, not which one
_PROVIDER_WORDS = frozenset({"supplier", "provider", "company", "firm", "place", "shop", "service", "account"})


def _synonym_service(slot: str) -> str | None:
    if slot == "account":
        return "bank"  # (a bare account is a bank's: "my salary goes into my Tarvel account")
    service = service_kind(slot)
    return service if service in _SYNONYM_SERVICES else None


def _qualifiers(slot: str) -> tuple[str, ...]:
    """The words of ``slot`` that neither name a service nor its provider ("car" of ``car_insurer``)."""
    return tuple(w for w in slot.split("_") if w not in _ASKED_SERVICE and w not in _PROVIDER_WORDS)


# chains whose values never name an open-ended kind: a verb class's, and a named attribute's, of its
# own kind ("Saltgrass Studio" as an employer is no yoga studio)
_NOT_NAMED_KIND = frozenset({*GENERIC, *STATE_ATTRIBUTES})


def value_kind_label(attribute: str, labelled: Sequence[tuple[str, State]]) -> str | None:
    """For an open-ended kind with no chain of its own, the kind-named chain of the latest state
    whose value, a name, has the kind's own head noun: "Quayside Bank" filed as ``savings`` answers
    "which bank"; else of one whose value's head noun is another word of the kind ("Tessel Mobile"
    filed as ``number`` answers "which mobile network"); None when no value is so named (a common
    noun, a "studio" one lives in, heads no name)."""
    if attribute in STATE_ATTRIBUTES:
        return None
    words = attribute.split("_")
    heads = [
        (lab, head(s.value)) for lab, s in labelled if lab not in _NOT_NAMED_KIND and s.value and s.value[:1].isupper()
    ]
    named = [lab for lab, h in heads if h == words[-1]]
    # else a value whose head noun is another word of the kind: "Tessel Mobile" for "mobile network"
    named = named or [lab for lab, h in heads if h in words[:-1] and h not in VAGUE_KIND]
    return named[-1] if named else None
