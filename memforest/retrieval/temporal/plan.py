"""From a parsed temporal question and the subject's facts to the answer state and its neighbours
(design 3.1, steps 2-4): the states of the attribute in time order, the anchor as a time, the
state next to it (before / after) or holding it (as of / now), earlier and later neighbours."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memforest.retrieval.temporal.lexicon import is_state_of
from memforest.retrieval.temporal.parse import TemporalQuestion
from memforest.store.sql import Row

ANSWER, EARLIER, LATER = "answer", "earlier", "later"


@dataclass(frozen=True, slots=True)
class State:
    """One state statement of the subject: a fact, its time and the value it names (when known)."""

    fact_id: int
    time: datetime
    text: str
    value: str | None
    slot: bool  # the write path filed it under (subject, attribute)


@dataclass(slots=True)
class TemporalPlan:
    """The facts to rank first, in order, each with its role."""

    operator: str
    subject: str
    attribute: str | None
    anchor_time: datetime | None = None
    roles: dict[int, str] = field(default_factory=dict)  # fact id -> answer | earlier | later, in rank order
    node_reads: int = 0  # node reads of the interval-guided descent that found the states

    def describe(self) -> str:
        """A short phrase for the query result ("before X of alice.residence")."""
        return f"{self.operator} {self.subject}.{self.attribute or '?'}"


def _value(row: Row, subject: str) -> str | None:
    if row["value"]:
        return str(row["value"])
    for e in row["entities"] or ():
        if str(e).casefold() != subject.casefold():
            return str(e)
    return None


def states_of(rows: Sequence[Row], attribute: str, subject: str) -> list[State]:
    """The subject's states of ``attribute``: slot facts of it, and facts with no slot that name
    the subject and a value and whose cue words point to the attribute; oldest first."""
    out: list[State] = []
    for r in rows:
        slot = r["attribute"] is not None and str(r["attribute"]).casefold() == attribute
        value = _value(r, subject)
        # without a slot, the statement must be about the subject (its rewritten text names them)
        # and name a value (an entity other than the subject) its cue words tie to the attribute
        cued = value is not None and mentions(str(r["text"]), subject) and is_state_of(str(r["text"]), attribute)
        if slot or (r["attribute"] is None and cued):
            out.append(State(int(r["fact_id"]), r["valid_from"], str(r["text"]), value, slot))
    out.sort(key=lambda s: (s.time, s.fact_id))
    return out


def _runs(states: Sequence[State]) -> list[list[State]]:
    """Consecutive states naming the same value fold into one run (a restatement is no change)."""
    runs: list[list[State]] = []
    for s in states:
        last = runs[-1][0].value if runs else None
        if runs and s.value is not None and last is not None and s.value.casefold() == last.casefold():
            runs[-1].append(s)
        else:
            runs.append([s])
    return runs


def run_count(states: Sequence[State]) -> int:
    """How many runs (changes of value) ``states`` (oldest first) make."""
    return len(_runs(states))


def mentions(text: str, anchor: str) -> bool:
    """``text`` names ``anchor`` as a whole word or phrase (case-insensitive)."""
    return re.search(rf"(?<!\w){re.escape(anchor)}(?!\w)", text, re.IGNORECASE) is not None


def _holding(runs: Sequence[list[State]], anchor: str) -> list[int]:
    """The runs whose value is the anchor; else those whose text names it ("sold the Kia Niro"
    names the old car in the statement of the new one, so a value match comes first)."""
    valued = [i for i, run in enumerate(runs) if run[0].value is not None and _same(run[0].value, anchor)]
    return valued or [i for i, run in enumerate(runs) if any(mentions(s.text, anchor) for s in run)]


def _same(value: str, anchor: str) -> bool:
    """``value`` and ``anchor`` name the same thing: equal, or one a whole-word part of the other
    ("Kia Niro" and "Niro", "the Honda Civic" and "Honda Civic")."""
    return value.casefold() == anchor.casefold() or mentions(value, anchor) or mentions(anchor, value)


def _pick(tq: TemporalQuestion, runs: list[list[State]], anchor_time: datetime | None) -> int | None:
    op = tq.operator
    if op in ("now", "latest", "as_of"):
        return len(runs) - 1
    if op == "first":
        return 0
    held = _holding(runs, tq.anchor) if tq.anchor else []
    if op in ("when", "how_long"):
        return held[0] if held else (len(runs) - 1 if op == "how_long" else None)
    if op == "before":
        if held:
            return held[-1] - 1 if held[-1] > 0 else None
        earlier = [i for i, run in enumerate(runs) if anchor_time is not None and run[0].time < anchor_time]
        return earlier[-1] if earlier else None
    if op == "after":
        if held:
            return held[0] + 1 if held[0] + 1 < len(runs) else None
        later = [i for i, run in enumerate(runs) if anchor_time is not None and run[0].time > anchor_time]
        return later[0] if later else None
    if op == "between":
        start = _holding(runs, tq.anchor)[:1] if tq.anchor else []
        return start[0] + 1 if start and start[0] + 1 < len(runs) else None
    return None


def plan_answer(
    tq: TemporalQuestion, subject: str, rows: Sequence[Row], anchor_time: datetime | None = None
) -> TemporalPlan | None:
    """The answer state and its neighbours among the subject's facts ``rows`` (oldest first);
    None when the question has no operator, no attribute can be told, or no state answers it.
    ``anchor_time`` is the time of an event anchor resolved elsewhere (used when no state names X)."""
    if tq.operator is None:
        return None
    attribute = tq.attribute
    if attribute is None and tq.anchor is None and tq.operator == "when":
        return None
    if attribute is None:
        anchor = tq.anchor or next((n for n in tq.names if n.casefold() != subject.casefold()), None)
        slot_rows = [r for r in rows if r["attribute"] and anchor and mentions(str(r["text"]), anchor)]
        if not slot_rows:
            return None
        attribute = str(slot_rows[-1]["attribute"]).casefold()
    if tq.operator == "when" and tq.anchor is None:
        anchor = next((n for n in tq.names if n.casefold() != subject.casefold()), None)
        tq = TemporalQuestion(tq.operator, attribute, tq.names, anchor)
    runs = _runs(states_of(rows, attribute, subject))
    if len(runs) < 2 and tq.operator not in ("when", "now", "latest", "as_of", "first"):
        return None
    if not runs:
        return None
    i = _pick(tq, runs, anchor_time)
    if i is None or not 0 <= i < len(runs):
        return None
    plan = TemporalPlan(str(tq.operator), subject, attribute, anchor_time)
    plan.roles[runs[i][0].fact_id] = ANSWER
    if i > 0:
        plan.roles[runs[i - 1][0].fact_id] = EARLIER
    if i + 1 < len(runs):
        plan.roles[runs[i + 1][0].fact_id] = LATER
    return plan
