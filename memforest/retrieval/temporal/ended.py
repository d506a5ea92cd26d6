"""Statements that leave a state. Whether the state a temporal plan would answer with had ended by
the asked time: its holder left it ("sold her Brompton", "no longer goes to X", "left X, not enough
time") after saying it held and before the next state of its chain. A state so ended holds at no
later time, so "as of" and "now" have no answer in that chain then (the loose plan, ADR 0057, reads
the statements instead). And a statement with no slot that leaves a state and names what came
instead is the next state (``left_for``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime

from memforest.retrieval.temporal.memo import per_question
from memforest.retrieval.temporal.parse import TemporalQuestion
from memforest.retrieval.temporal.pick import mentions, same
from memforest.retrieval.temporal.state import State
from memforest.store.sql import Row
from memforest.text import mood
from memforest.text.emphatic import plain_verbs
from memforest.text.mood import leaves, mood_near

# a text's mood, kept for the question (``memo``): the walk asks each fact read again after each node read
mood_of = per_question(mood.mood_of)


def left_by(
    rows: Sequence[Row], runs: Sequence[list[State]], i: int, until: datetime | None, about: Callable[[str], bool]
) -> bool:
    """Whether one of ``rows`` (the subject's facts) leaves the value of run ``i`` after the run's
    last statement, before the next run starts and by ``until`` (None: any time): a statement
    with no slot, about the subject (``about`` its text), that ends a state without naming a
    successor and names the value, as the object of a verb of disposal when the sentence's verbs of
    leaving are all of disposal (``mood.leaves``: "dumped my photos onto X" ends no X), in a clause
    with no mood ("never left X" leaves nothing)."""
    value = runs[i][0].value
    if value is None:
        return False
    start = runs[i][-1].time
    end = runs[i + 1][0].time if i + 1 < len(runs) else None
    for r in rows:
        when: datetime = r["valid_from"]
        if when <= start or (end is not None and when >= end) or (until is not None and when > until):
            continue
        text = str(r["text"])
        if r["attribute"] is not None or not mentions(text, value) or not about(text):
            continue
        at = text.casefold().find(value.casefold())
        if leaves(text, at) and mood_near(text, at) is None:
            return True
    return False


# the question's words (content stems) that ask when a state ended: "when did I leave / quit X"
_ENDING_TERMS = frozenset(
    {"leave", "left", "quit", "stop", "drop", "cancel", "cancell", "sold", "sell", "ditch", "dump"}
)


def end_asked(
    tq: TemporalQuestion, rows: Sequence[Row], run: Sequence[State], about: Callable[[str], bool]
) -> State | None:
    """For "when did I leave / quit X" (a when question with a word of ending), the first of
    ``rows`` after the last statement of X's ``run`` that leaves X (``mood.leaves``; an emphatic
    "did leave" read as "left"), about the subject (``about`` its text), in a clause with no mood;
    None for any other question, or when no statement tells the end."""
    if tq.operator != "when" or tq.anchor is None or not _ENDING_TERMS & set(tq.terms):
        return None
    value = tq.anchor
    for r in rows:
        text = plain_verbs(str(r["text"]))
        if r["valid_from"] <= run[-1].time or not mentions(text, value) or not about(text):
            continue
        at = text.casefold().find(value.casefold())
        if leaves(text, at) and mood_near(text, at) is None:
            return State(int(r["fact_id"]), r["valid_from"], str(r["text"]), value, False)
    return None


# a verb of leaving right before what was left ("quit the Orrery Hill club")
_LEAVE = r"\b(?i:quit|left|stopped|dropped|ditched|cancel(?:l?ed)?|gave\s+up(?:\s+on)?)\s+(?i:the\s+|my\s+|our\s+)?"
_LEAVING = re.compile(_LEAVE)


def left_for(
    rows: Sequence[Row], states: Sequence[State], subject: str, names: Callable[[str], bool] | None = None
) -> list[State]:
    """Statements with no slot that leave a state of ``states`` and name what came instead ("Quit
    the Orrery Hill club and play at the Ravensgate Chess Society now"): a new state whose value is
    the first other entity named after the one left. The statement has no mood, and it is about the
    subject: it names them (``names``: whether a text names the subject as more than a relative's
    owner; default: any mention), or it opens with the verb of leaving (the speaker's own)."""
    named = names or (lambda text: mentions(text, subject))
    values = sorted({s.value for s in states if s.value})
    known = {s.fact_id for s in states}
    out: list[State] = []
    for r in rows:
        text = str(r["text"])
        if r["attribute"] is not None or int(r["fact_id"]) in known or mood_of(text) is not None:
            continue
        if _LEAVING.search(text) is None:  # (a text with no verb of leaving leaves no value)
            continue
        for old in values:
            if old not in text:  # (``left_span`` reads the value as written)
                continue
            left = left_span(text, old)
            about = named(text) or (left is not None and left[0] == 0)
            if left is None or not about:
                continue
            after = [str(e) for e in r["entities"] or () if str(e).casefold() != subject.casefold()
                     and not same(str(e), old) and text.find(str(e)) > left[1]]  # fmt: skip
            if after:
                first = min(after, key=text.find)
                out.append(State(int(r["fact_id"]), r["valid_from"], text, first, False))
                break
    return out


@per_question
def left_span(text: str, old: str, owner: str = "") -> tuple[int, int] | None:
    """Where ``text`` leaves ``old`` (``_LEAVE`` then the value, or ``owner``'s value: "had to
    cancel Ana's X" as stored for Ana's "my X"): the span, or None. An empty ``old`` is never left."""
    if not old:
        return None
    owned = rf"(?:{re.escape(owner)}['\u2019]s\s+)?" if owner else ""
    left = re.search(_LEAVE + owned + re.escape(old), text)
    return left.span() if left is not None else None
