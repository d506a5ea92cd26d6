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


@pytest.mark.parametrize(
    ("text", "year"),
    [
        # no auxiliary before "still": the verb after it is past
        ("Who still lived in Kerava in 2020?", 2020),
        # "in Bergen in 2021": a preposition after a name opens no relative clause
        ("Was Bertil still in the flat in Bergen in 2021?", 2021),
        ("Did my nephew still have his old Vespa in the summer of 2021?", 2021),
        # the relative clause names 2018; the main clause, after the comma, names the time asked
        ("Did Tamsin still drive the van she bought in 2018, back in 2021?", 2021),
    ],
)
def test_still_in_a_past_main_clause_is_as_of_its_time(text: str, year: int) -> None:
    op, at = _parsed(text)
    assert op == "as_of" and at is not None and at.year == year, (op, at)


@pytest.mark.parametrize(
    "text",
    [
        # a present main clause asks about now, whatever time a relative clause names (review s9 R2)
        "Does Bertil still rent the loft he found in 2020?",
        "Is Tamsin still with the choir she joined three years ago?",
        "Do I still have the kayak I bought last autumn?",
        "Does my sister still drive the van our uncle sold her in 2017?",
        "Are the Okafors still in the house they built in 2015?",
        "Who still lives in the house they built in 2015?",
        # a past main clause whose only time is inside a relative clause after a noun names no as-of time
        "Did Tamsin still drive the van she bought in 2018?",
        "Was Bertil still living in the cottage his parents left him three years ago?",
        "Did I still own the kayak that Jorun sold me last autumn?",
        "Was Ines still singing with the choir that moved to Tromso in 2022?",
        "Did Tamsin still work at the bakery Ines opened in 2019?",
    ],
)
def test_still_with_a_time_only_in_a_relative_clause_or_a_present_question_asks_now(text: str) -> None:
    assert _parsed(text) == ("now", None)
