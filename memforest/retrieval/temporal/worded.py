"""States of an open-ended kind that the write side filed under no slot but that name the kind in
their own words as the subject's ("switched hairdressers, from A to B", "B is his climbing wall
now"): with the chain's filed states they make one timeline, so a later change the write side could
not read is not hidden behind the last one it could (ADR 0109)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from memforest.attributes import STATE_ATTRIBUTES
from memforest.retrieval.temporal.chains import GENERIC, named_values
from memforest.retrieval.temporal.ended import mood_of
from memforest.retrieval.temporal.lexicon import CUES
from memforest.retrieval.temporal.memo import per_question
from memforest.retrieval.temporal.state import State
from memforest.store.sql import Row
from memforest.text.kind_spellings import spelled_otherwise
from memforest.text.lexicon import CAPITALS, WORD_START
from memforest.text.state_words import KIN

# a value named right after one of these is the state being left, not the new one
_LEFT = re.compile(
    r"\b(?:from|left|leaving|quit|quitting|ditched|dropped|replaced|sold|selling|after|not|instead\s+of|"
    r"done\s+with|gave\s+up(?:\s+on)?|stopped\s+(?:going\s+to|seeing|using)|no\s+longer\s+(?:go(?:es)?\s+to|with|at))"
    r"\s+(?:the\s+|a\s+|an\s+|my\s+|his\s+|her\s+|their\s+)?",
    re.IGNORECASE,
)
# a value named right after one of these is where or why, not what
_AROUND = re.compile(
    r"\b(?:in|near|on|over|around|outside|inside|via|through|because\s+of|thanks\s+to|by)\s+(?:the\s+)?",
    re.IGNORECASE,
)
# a person: a name a kin word introduces ("sister Lotte", "nephew, Tobias"), one owning something
_KIN_NAMED = re.compile(rf"\b(?i:{KIN})s?,?\s+([{CAPITALS}][\w'-]*)")
_OWNER = re.compile(rf"{WORD_START}([{CAPITALS}][\w-]*)['\u2019]s\b")
_MODIFIERS = r"(?:(?:new|usual|regular|go-to|current|old|favourite|favorite|local|own)\s+)?"
MAX_VALUES = 12  # the named things of one statement a value is chosen among


@functools.lru_cache(maxsize=1024)
def kind_words(attribute: str) -> str | None:
    """The pattern source of an open-ended kind's own name ("climbing\\s+wall(?:e?s)?"), or None
    for a named attribute or a verb class (their statements are read by cue words)."""
    if attribute in STATE_ATTRIBUTES or attribute in CUES or attribute in GENERIC:
        return None
    words = [re.escape(w) for w in attribute.split("_") if w]
    if not words:
        return None
    others = spelled_otherwise(attribute.split("_")[-1])  # ("doctor": a GP too)
    words[-1] = f"(?:{words[-1]}(?:e?s)?|{others})" if others else f"{words[-1]}(?:e?s)?"
    return r"\s+".join(words) + r"\b"


@per_question
def names_own_kind(text: str, subject: str, attribute: str) -> bool:
    """Whether ``text`` names the kind as the subject's own: possessed by them ("my / her / Ana's
    (new) dentist", not "her sister's dentist") or changed by them ("Ana switched dentists")."""
    own = _own_kind(subject, attribute)
    return own is not None and own.search(text) is not None


@functools.lru_cache(maxsize=1024)
def _own_kind(subject: str, attribute: str) -> re.Pattern[str] | None:
    """The pattern of :func:`names_own_kind` for one subject and kind."""
    kind = kind_words(attribute)
    if kind is None:
        return None
    name = re.escape(subject)
    owned = rf"(?:\b(?i:my|his|her|their)|(?<!\w){name}['\u2019]s)\s+(?i:{_MODIFIERS}{kind})"
    changed = rf"(?<!\w){name}\s+(?:\w+\s+)?(?i:switched|changed|swapped)\s+(?i:{kind})"
    return re.compile(f"{owned}|{changed}")


def worded_states(
    rows: Sequence[Row],
    states: Sequence[State],
    subject: str,
    attribute: str,
    about: Callable[[Row], bool],
    aliases: Sequence[str] = (),
) -> list[State]:
    """The statements of ``rows`` with no slot that name the open-ended kind ``attribute`` as the
    subject's own (:func:`names_own_kind`), carry no mood, are about the subject (``about``) and
    name a value (:func:`new_value`), as states; a statement may name the subject by one of its
    ``aliases`` ("Ana's cousin switched dentists"). None of them is a fact ``states`` holds."""
    if kind_words(attribute) is None:
        return []
    held = {s.fact_id for s in states}
    known = {s.value.casefold() for s in states if s.value}
    out: list[State] = []
    for r in rows:
        text = str(r["text"])
        if int(r["fact_id"]) in held or r["attribute"] is not None or mood_of(text) is not None:
            continue
        if not any(names_own_kind(text, n, attribute) for n in (subject, *aliases)):
            continue
        if not about(r) and _start(text, aliases) is None:
            continue
        value = new_value(r, subject, known)
        if value is not None:
            out.append(State(int(r["fact_id"]), r["valid_from"], text, value, False))
    return out


def new_value(row: Row, subject: str, known: set[str]) -> str | None:
    """The value a statement moves to, among the things it names (its entities, else its
    capitalised phrases; at most ``MAX_VALUES``) that are no person (the subject, the speaker, a
    name a kin word introduces, an owner) and that no leaving word ("from X", "gave up on X") nor
    place or cause word ("in X", "because of X") introduces: the first that no earlier state names
    (``known``, case-folded), else the first (a return to an earlier value); None when none is left."""
    text = str(row["text"])
    people = {subject.casefold(), str(row.get("speaker") or "").casefold()}
    people |= {m.group(1).casefold() for m in (*_KIN_NAMED.finditer(text), *_OWNER.finditer(text))}
    named = [str(e) for e in row["entities"] or () if str(e).casefold() not in people]
    named = named or [v for v in named_values(text, (subject,)) if v.casefold() not in people]
    left = {m.end() for m in _LEFT.finditer(text)} | {m.end() for m in _AROUND.finditer(text)}
    placed = sorted((at, v) for v in named[:MAX_VALUES] if (at := _start(text, v)) is not None)
    values = [v for at, v in placed if at not in left]
    fresh = [v for v in values if v.casefold() not in known]
    picked = fresh or values
    return picked[0] if picked else None


def _start(text: str, values: str | Sequence[str]) -> int | None:
    """Where one of ``values`` is first named in ``text`` as a whole word, or None (none given)."""
    alternatives = [values] if isinstance(values, str) else list(values)
    if not alternatives:
        return None
    found = re.search(rf"(?<!\w)(?:{'|'.join(map(re.escape, alternatives))})(?!\w)", text)
    return found.start() if found is not None else None
