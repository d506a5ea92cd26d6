"""Which run of a chain answers a temporal question's operator (design 3.1, step 4): the run
holding the anchor, the one before or after it, the one holding a time, the latest or the first;
and how a chain's states fold into runs (a restatement is no change)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import NamedTuple

from memforest.retrieval.temporal.chains import TITLE_WORDS
from memforest.retrieval.temporal.memo import per_question
from memforest.retrieval.temporal.parse import TemporalQuestion
from memforest.retrieval.temporal.state import State
from memforest.text.lexicon import CAPITALS


@per_question
def mentions(text: str, anchor: str) -> bool:
    """``text`` names ``anchor`` as a whole word or phrase (case-insensitive)."""
    return re.search(rf"(?<!\w){re.escape(anchor)}(?!\w)", text, re.IGNORECASE) is not None


# a person asked about by title and surname alone ("Dr. Cole")
_TITLED_SHORT = re.compile(rf"(?P<title>(?i:{TITLE_WORDS}))\.?\s+(?P<surname>[^\W\d_][\w'-]*)")
# the spellings of one title ("Dr." and "Doctor")
_SAME_TITLE = {"dr": "dr|doctor", "doctor": "dr|doctor", "prof": "prof|professor", "professor": "prof|professor"}


def titled_surname(anchor: str) -> str | None:
    """The surname of a person asked about by title and surname alone ("Cole" of "Dr. Cole")."""
    m = _TITLED_SHORT.fullmatch(anchor)
    return m["surname"] if m is not None else None


def in_full(anchor: str | None, texts: Iterable[str]) -> str | None:
    """``anchor``, or, when it names a person by title and surname alone and none of ``texts`` says
    it so, the full name the first of them to name that person gives ("Dr. Cole" asked, "switched GP
    to Dr. Aaron Cole" told: "Dr. Aaron Cole"): its first names capitalised, its title the same or
    another spelling of it ("Doctor"), so that it is found as the value it was filed as."""
    m = _TITLED_SHORT.fullmatch(anchor) if anchor else None
    if anchor is None or m is None:
        return anchor
    said = list(texts)
    if any(mentions(text, anchor) for text in said):
        return anchor
    title = _SAME_TITLE.get(m["title"].casefold(), re.escape(m["title"]))
    first = rf"[{CAPITALS}][\w'-]*"
    full = re.compile(rf"\b(?i:{title})\.?\s+{first}(?:\s+{first}){{0,2}}?\s+{re.escape(m['surname'])}(?![\w'-])")
    found = (f.group(0) for f in map(full.search, said) if f is not None)
    return next(found, anchor)


def holding(runs: Sequence[list[State]], anchor: str) -> list[int]:
    """The runs whose value is the anchor; else those whose text names it ("sold the Kia Niro"
    names the old car in the statement of the new one, so a value match comes first)."""
    valued = [i for i, run in enumerate(runs) if run[0].value is not None and same(run[0].value, anchor)]
    return valued or [i for i, run in enumerate(runs) if any(mentions(s.text, anchor) for s in run)]


def valued(runs: Sequence[list[State]], anchor: str | None) -> bool:
    """Some run's value is ``anchor`` (not only its text naming it)."""
    return anchor is not None and any(run[0].value is not None and same(run[0].value, anchor) for run in runs)


def same(value: str, anchor: str) -> bool:
    """``value`` and ``anchor`` name the same thing: equal, or one a whole-word part of the other
    ("Kia Niro" and "Niro", "the Honda Civic" and "Honda Civic")."""
    return value.casefold() == anchor.casefold() or mentions(value, anchor) or mentions(anchor, value)


def pick(tq: TemporalQuestion, runs: list[list[State]], anchor_time: datetime | None) -> int | None:
    op = tq.operator
    if op in ("before", "after") and tq.at is not None:  # "before 2023": next to the time it names
        anchor_time = tq.at
    if op == "as_of" and tq.at is not None:  # the time the question names
        held = [i for i, run in enumerate(runs) if run[0].time <= tq.at]
        return held[-1] if held else None
    if op in ("now", "latest", "as_of"):
        # ("my previous dentist": the run before the latest; counted back past the first known
        # state, no known state answers: no pin); a state begun after the question is asked holds not
        # yet (the runs begun by then are a prefix of the runs, which are in time order)
        began = [run for run in runs if tq.asked_at is None or run[0].time <= tq.asked_at] if op != "as_of" else runs
        return len(began) - 1 - tq.back if tq.back < len(began) else None
    if op == "first":
        return 0
    held = holding(runs, tq.anchor) if tq.anchor else []
    if op in ("when", "how_long"):
        # with no value named ("When did Ana move?"), the past tense asks for the latest change
        return held[0] if held else (len(runs) - 1 if op == "how_long" or not tq.anchor else None)
    if op == "before":
        if held:
            return held[-1] - 1 if held[-1] > 0 else None
        earlier = [i for i, run in enumerate(runs) if anchor_time is not None and run[0].time < anchor_time]
        return earlier[-1] if earlier else None
    if op == "after":
        if held and not valued(runs, tq.anchor):  # the anchor is only named by the state that replaced it
            return held[0]
        if held:
            return held[0] + 1 if held[0] + 1 < len(runs) else None
        later = [i for i, run in enumerate(runs) if anchor_time is not None and run[0].time > anchor_time]
        return later[0] if later else None
    if op == "between":
        start = holding(runs, tq.anchor)[:1] if tq.anchor else []
        return start[0] + 1 if start and start[0] + 1 < len(runs) else None
    return None


def runs(states: Sequence[State]) -> list[list[State]]:
    """Consecutive states naming the same value fold into one run (a restatement is no change, nor
    is a short form of the name: "Pollux" after "Pollux Analytics")."""
    out: list[list[State]] = []
    for s in states:
        last = out[-1][0].value if out else None
        if out and s.value is not None and last is not None and restated(s.value, last):
            out[-1].append(s)
        else:
            out.append([s])
    return out


def run_count(states: Sequence[State]) -> int:
    """How many runs (changes of value) ``states`` (oldest first) make."""
    return len(runs(states))


def restated(value: str, last: str) -> bool:
    """``value`` restates ``last``: equal but for a leading "the", or a short form of it that keeps
    its first word ("Pollux" of "Pollux Analytics"; "York" is no short form of "New York")."""
    a, b = (re.sub(r"^the\s+", "", v.strip(), flags=re.IGNORECASE).casefold() for v in (value, last))
    short, full = sorted((a, b), key=len)
    return a == b or (short.split()[:1] == full.split()[:1] and mentions(full, short))


class Span(NamedTuple):
    """The time a state held: from its statement to the next state of its chain (``ended``), else
    to its last restatement (it may hold still)."""

    start: datetime
    end: datetime
    ended: bool

    @property
    def middle(self) -> datetime:
        return self.start + (self.end - self.start) / 2


def changed_during(states: Sequence[State], span: Span) -> datetime | None:
    """The time of the first change among ``states`` made while ``span`` held (a state that held
    before it and is only restated then is none), or None."""
    runs_ = runs(sorted(states, key=lambda s: (s.time, s.fact_id)))
    made = [run[0].time for run in runs_ if span.start <= run[0].time and (run[0].time <= span.end or not span.ended)]
    return made[0] if made else None
