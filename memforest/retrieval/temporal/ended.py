"""Whether the state a temporal plan would answer with had ended by the asked time: its holder left
it ("sold her Brompton", "no longer goes to X", "left X, not enough time") after saying it held and
before the next state of its chain. A state so ended holds at no later time, so "as of" and "now"
have no answer in that chain then (the loose plan, ADR 0057, reads the statements instead)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from memforest.retrieval.temporal.pick import mentions
from memforest.retrieval.temporal.state import State
from memforest.store.sql import Row
from memforest.text.mood import leaves, mood_near


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
