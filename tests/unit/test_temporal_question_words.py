"""Question phrasings the parser read wrong (ADR 0109), written for this test: the asked noun after
"what was the", beside "as of", before "earlier", with an accent; "switch to from X" as after; "the
year before last" as no latest."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.retrieval.temporal.parse import parse_question

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
