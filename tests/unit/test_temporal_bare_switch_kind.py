"""A bare switch ("Tomasz switched to X") continues the one open-ended chain begun before it only
when nothing says it is of another kind and something says it is of this one (review s9 R3, R3b):
its value's head noun names no kind of another family than the one asked ("X Power", "X Telecom"
are no cycling club), and its sentence names a word of the asked kind or a head noun of the chain's
earlier values ("Cycling", "Cyclists"), not merely a word their sentences also use.
A person with one club also switches energy supplier, bank and phone network with a bare
"switched to X". Sentences and names of my own, no benchmark template or value."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from support.temporal_answers import answered

from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import plan_answer, states_of
from memforest.retrieval.timecues import parse_time_cues
from tests.support.fact_rows import named_row

NOW = datetime(2026, 3, 10, 12, tzinfo=UTC)


def _row(fid: int, year: int, text: str, attribute: str | None, value: str | None) -> dict[str, Any]:
    return named_row(fid, datetime(year, 9, 14, tzinfo=UTC), text, "Tomasz", attribute, value)


FIRST = _row(1, 2019, "Tomasz joined the Quarry Lane Cyclists, they ride out past the reservoir.", "membership",
             "Quarry Lane Cyclists")  # fmt: skip
LAST = _row(3, 2023, "Tomasz signed up with the Ridgeway Wheelers.", "membership", "Ridgeway Wheelers")


def _with(text: str, value: str) -> list[dict[str, Any]]:
    return [FIRST, _row(2, 2021, text, "change", value), LAST]


def _answer(rows: list[dict[str, Any]], question: str) -> int | None:
    cues = parse_time_cues(question, NOW)
    tq = parse_question(question, speaker="Tomasz", now=NOW, window=(cues.after, cues.before))
    plan = plan_answer(tq, "Tomasz", rows)
    return answered(plan)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the value's head noun names a provider's kind
        ("Tomasz switched to Brightwell Power, his old tariff had doubled.", "Brightwell Power"),
        ("Tomasz switched to Orrin Broadband, the old router kept dropping.", "Orrin Broadband"),
        # ... even when the sentence shares a word with the club's
        ("Tomasz switched to Ferngate Telecom, no signal on his rides out past the reservoir.", "Ferngate Telecom"),
        # a name of no kind, in a sentence that shares nothing with the club's nor with "cycling club"
        ("Tomasz switched to Pellow, the monthly fee was lower.", "Pellow"),
        # words shared only with the club's sentence say nothing of the kind (review s9 R3b)
        ("Tomasz switched to Pellow, their shop is on his ride out past the reservoir.", "Pellow"),
    ],
)
def test_a_bare_switch_of_another_kind_continues_no_chain(text: str, value: str) -> None:
    rows = _with(text, value)
    assert [s.fact_id for s in states_of(rows, "cycling_club", "Tomasz")] == [1, 3]
    assert _answer(rows, "Which cycling club was Tomasz in in 2022?") == 1
    assert _answer(rows, "Which cycling club was Tomasz in before the Ridgeway Wheelers?") == 1


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a head noun of the chain's earlier values ("Cyclists")
        ("Tomasz switched to the Kettle Hill Cyclists, longer rides and steeper climbs.", "Kettle Hill Cyclists"),
        # a word of the asked kind, and a head noun of the same kind
        ("Tomasz switched to the Dunmore Cycling Club.", "Dunmore Cycling Club"),
    ],
)
def test_a_related_bare_switch_still_continues_the_chain(text: str, value: str) -> None:
    rows = _with(text, value)
    assert [s.fact_id for s in states_of(rows, "cycling_club", "Tomasz")] == [1, 2, 3]
    assert _answer(rows, "Which cycling club was Tomasz in before the Ridgeway Wheelers?") == 2
