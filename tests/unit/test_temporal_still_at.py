"""A yes/no question with "still" and a time it names asks as of that time, not now (issue 48 item
4): "still" says a state went on; only with no time named does it ask about the present. The
questions are mine, none a benchmark template's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.retrieval.question import Question

NOW = datetime(2025, 1, 20, 12, tzinfo=UTC)


def _parsed(text: str) -> tuple[str | None, datetime | None]:
    tq = Question.parse(text, now=NOW, has_as_of=False, speaker="Wilma").temporal
    return tq.operator, tq.at


@pytest.mark.parametrize(
    ("text", "year", "month"),
    [
        ("Was Dario still living in Tromso in 2023?", 2023, None),
        ("Did I still have Sorrel in March 2024?", 2024, 3),
        ("Was my uncle still with the Kelbridge orchestra in June 2022?", 2022, 6),
        ("Did Dario still drive the Vantor two years ago?", 2023, 1),
        ("Was Sorrel still my pet in the autumn of 2023?", 2023, None),
    ],
)
def test_still_with_a_named_time_is_as_of_that_time(text: str, year: int, month: int | None) -> None:
    op, at = _parsed(text)
    assert op == "as_of" and at is not None and at.year == year, (op, at)
    assert month is None or at.month == month, at


@pytest.mark.parametrize(
    "text", ["Is Dario still living in Tromso?", "Does my uncle still play with the Kelbridge orchestra now?"]
)
def test_still_alone_asks_about_now(text: str) -> None:
    assert _parsed(text) == ("now", None)
