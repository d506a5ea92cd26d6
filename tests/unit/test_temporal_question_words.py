"""Question phrasings the parser read wrong (ADR 0109), written for this test: the asked noun after
"what was the", beside "as of", before "earlier", with an accent; "switch to from X" as after; "the
year before last" as no latest."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.timecues import parse_time_cues

NOW = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("What was the vet I used before Dr. Amsel?", "vet"),
        ("What's Oriel's insurer as of today?", "insurer"),
        ("Who was my dentist earlier this year?", "dentist"),
        ("Which café do I go to these days?", "cafe"),
        ("Which cafe do I go to these days?", "cafe"),
        ("What is the name of my landlord?", "landlord"),
    ],
)
def test_the_asked_noun(question: str, attribute: str) -> None:
    assert parse_question(question, now=NOW, speaker="Wenna").attribute == attribute


def test_switching_to_from_a_value_asks_what_came_after_it() -> None:
    tq = parse_question("What did Oriel switch to from Ironhall?", now=NOW, speaker="Wenna")
    assert (tq.operator, tq.anchor) == ("after", "Ironhall")


def test_the_year_before_last_is_a_time_not_the_latest() -> None:
    assert parse_question("Who was my dentist the year before last?", now=NOW, speaker="Wenna").operator != "latest"
    assert parse_question("Which was my last dentist?", now=NOW, speaker="Wenna").operator == "latest"


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("in May last year", datetime(2025, 5, 1, tzinfo=UTC), datetime(2025, 6, 1, tzinfo=UTC)),
        ("in the summer two years ago", datetime(2024, 6, 1, tzinfo=UTC), datetime(2024, 9, 1, tzinfo=UTC)),
        ("in spring '23", datetime(2023, 3, 1, tzinfo=UTC), datetime(2023, 6, 1, tzinfo=UTC)),
        ("in the winter of '22", datetime(2022, 12, 1, tzinfo=UTC), datetime(2023, 3, 1, tzinfo=UTC)),
        ("this January", datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC)),
        ("throughout 2022", datetime(2022, 1, 1, tzinfo=UTC), datetime(2023, 1, 1, tzinfo=UTC)),
    ],
)
def test_a_named_time_in_the_question_is_its_window_and_as_of_point(
    phrase: str, start: datetime, end: datetime
) -> None:
    question = f"Which gym did I go to {phrase}?"
    cues = parse_time_cues(question, NOW)
    assert (cues.after, cues.before) == (start, end)
    tq = parse_question(question, now=NOW, speaker="Wenna", window=(cues.after, cues.before))
    assert tq.operator == "as_of" and tq.at is not None and start <= tq.at < end


def test_first_and_last_inside_a_time_phrase_ask_no_first_or_latest() -> None:
    assert parse_question("Which gym did I go to in the first months of 2025?", now=NOW).operator != "first"
    assert parse_question("Which gym did I go to last May?", now=NOW).operator != "latest"
