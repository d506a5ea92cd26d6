"""Question phrasings the parser read wrong (ADR 0109), written for this test: the asked noun after
"what was the", beside "as of", before "earlier", with an accent; "switch to from X" as after; "the
year before last" as no latest."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.timecues import parse_time_cues
from memforest.text.dates import rewrite_relative

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


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("What insurer covers my car?", "insurer"),
        ("Which gym hosts my classes?", "gym"),
        ("Who's my landlord?", "landlord"),
    ],
)
def test_a_present_question_whose_asked_one_does_something_asks_now(question: str, attribute: str) -> None:
    tq = parse_question(question, now=NOW, speaker="Wenna")
    assert (tq.operator, tq.attribute) == ("now", attribute)


def test_a_past_question_with_a_noun_ending_in_s_asks_no_now() -> None:
    assert parse_question("What classes did I take?", now=NOW, speaker="Wenna").operator is None
    assert parse_question("Which gyms were there?", now=NOW, speaker="Wenna").operator is None


def test_the_verbs_may_and_march_are_no_months() -> None:
    ref = datetime(2025, 6, 10, tzinfo=UTC)
    for text in (
        "This may be wrong, but Kofi left.",
        "The tickets this may cost more.",
    ):
        assert "2024" not in rewrite_relative(text, ref)[0] and "2025" not in rewrite_relative(text, ref)[0], text
    assert rewrite_relative("We moved in May last year.", ref)[0] == "We moved in May 2024."
    assert rewrite_relative("We may march there this May.", ref)[0] == "We may march there in May 2025."


def test_a_winter_some_years_back_is_the_one_then_in_progress_or_last_begun() -> None:
    cues = parse_time_cues("Which gym did I use the winter a year ago?", datetime(2025, 1, 15, tzinfo=UTC))
    assert (cues.after, cues.before) == (datetime(2023, 12, 1, tzinfo=UTC), datetime(2024, 3, 1, tzinfo=UTC))


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("What is the difference between Ana's cars?", "vehicle"),
        ("What was the deal with Ana's lease?", "lease"),
        ("What was the most recent job Ana had?", "job"),
        ("What is the best way to reach Ana?", None),
    ],
)
def test_a_possessed_or_plain_noun_wins_over_the_copulas_the(question: str, attribute: str | None) -> None:
    assert parse_question(question, now=NOW, speaker="Wenna").attribute == attribute


def test_going_somewhere_from_a_place_is_no_succession() -> None:
    assert parse_question("Which city did Ana go to from the airport?", now=NOW).operator != "after"
