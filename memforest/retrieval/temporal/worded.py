"""States of an open-ended kind that the write side filed under no slot but that name the kind in
their own words ("switched hairdressers, from A to B", "B is his climbing wall now"): with the
chain's filed states they make one timeline, so a later change the write side could not read is not
hidden behind the last one it could (ADR 0109)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memforest.attributes import STATE_ATTRIBUTES
from memforest.retrieval.temporal.chains import GENERIC, named_values
from memforest.retrieval.temporal.ended import mood_of
from memforest.retrieval.temporal.lexicon import CUES
from memforest.retrieval.temporal.state import State
from memforest.store.sql import Row
from memforest.text.state_words import KIN

# a value named right after one of these is the state being left, not the new one
_LEFT = re.compile(
    r"\b(?:from|left|leaving|quit|quitting|ditched|dropped|replaced|instead\s+of|done\s+with|gave\s+up(?:\s+on)?|"
    r"stopped\s+(?:going\s+to|seeing|using)|no\s+longer\s+(?:goes\s+to|go\s+to|with|at))\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def kind_words(attribute: str) -> re.Pattern[str] | None:
    """The pattern of an open-ended kind's own name in a statement ("climbing wall(s)"), or None
    for a named attribute or a verb class (their statements are read by cue words)."""
    if attribute in STATE_ATTRIBUTES or attribute in CUES or attribute in GENERIC:
        return None
    words = [re.escape(w) for w in attribute.split("_") if w]
    if not words:
        return None
    return re.compile(r"\b" + r"\s+".join(words) + r"(?:e?s)?\b", re.IGNORECASE)


def worded_states(
    rows: Sequence[Row],
    states: Sequence[State],
    subject: str,
    attribute: str,
    about: Callable[[Row], bool],
) -> list[State]:
    """The statements of ``rows`` with no slot that name the open-ended kind ``attribute`` in their
    own words, carry no mood, are about the subject (``about``) and name a value, as states: the
    value is the last one named that is not being left ("from A to B": B) and, when the statement
    also names a value of ``states``, not that one. None of them is a fact ``states`` holds."""
    pattern = kind_words(attribute)
    if pattern is None:
        return []
    held = {s.fact_id for s in states}
    known = {s.value.casefold() for s in states if s.value}
    out: list[State] = []
    for r in rows:
        text = str(r["text"])
        if int(r["fact_id"]) in held or r["attribute"] is not None or pattern.search(text) is None:
            continue
        if mood_of(text) is not None or not about(r):
            continue
        value = new_value(r, subject, known)
        if value is not None:
            out.append(State(int(r["fact_id"]), r["valid_from"], text, value, False))
    return out


def new_value(row: Row, subject: str, known: set[str]) -> str | None:
    """The value a statement moves to: of the things it names (its entities, else its capitalised
    phrases) that are no person (the subject, the speaker, a name a kin word introduces or one
    owning something), the last that no leaving word introduces, one no earlier state names
    (``known``, case-folded) when there is such a one; None when every value is being left."""
    text = str(row["text"])
    people = {subject.casefold(), str(row.get("speaker") or "").casefold()}
    named = [str(e) for e in row["entities"] or () if str(e) in text] or named_values(text, (subject,))
    values = [v for v in sorted(named, key=text.find) if v.casefold() not in people and not _person(text, v)]
    values = [v for v in values if not _left(text, v)]
    fresh = [v for v in values if v.casefold() not in known]
    picked = fresh or values
    return picked[-1] if picked else None


def _person(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` as a person: after a kin word ("sister Lotte") or as an owner."""
    at = re.escape(name)
    return re.search(rf"\b(?i:{KIN})s?\s+{at}\b|\b{at}['\u2019]s\b", text) is not None


def _left(text: str, value: str) -> bool:
    """Whether ``value`` is named in ``text`` right after a leaving word ("from X", "gave up on X")."""
    at = text.find(value)
    return at >= 0 and _LEFT.search(text[:at]) is not None
