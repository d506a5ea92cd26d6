"""Questions that ask what came before or after a state without those words ("what did I swap X
for?", "which club did I leave for X?", "which phone followed X?", "where did I go when I left X?"),
and questions that name their chain only by a lower-case value, a shared word or a value of
another chain (sentences of my own)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memforest.retrieval.question import Question
from memforest.retrieval.temporal.exchanged import exchanged
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import plan_answer
from memforest.retrieval.timecues import without_phrasal_after
from tests.support.fact_rows import fact_row, own_state_row
from tests.support.temporal_answers import answer_of, answered

ME = "Halvard"
NOW = datetime(2024, 12, 1, 12, tzinfo=UTC)

ROWS = [
    own_state_row(1, 1, "Halvard lives in Tromsø.", ME, "residence", "Tromsø"),
    own_state_row(2, 4, "Halvard moved to Leeds.", ME, "residence", "Leeds"),
    own_state_row(3, 8, "Halvard moved to Porto.", ME, "residence", "Porto"),
    own_state_row(4, 2, "Halvard works at Brightmoor Labs.", ME, "employer", "Brightmoor Labs"),
    own_state_row(5, 6, "Halvard started at Quillfield.", ME, "employer", "Quillfield"),
    own_state_row(6, 3, "Halvard's dentist is Dr. Okafor.", ME, "dentist", "Dr. Okafor"),
    own_state_row(7, 7, "Halvard switched to Dr. Lindqvist as dentist.", ME, "dentist", "Dr. Lindqvist"),
    own_state_row(8, 2, "Halvard joined the Fenside Harriers running club.", ME, "running_club", "Fenside Harriers"),
    own_state_row(9, 9, "Halvard joined the Ashgrove Striders running club.", ME, "running_club", "Ashgrove Striders"),
    own_state_row(10, 1, "Halvard's phone is a Fairphone 4.", ME, "phone", "Fairphone 4"),
    own_state_row(11, 5, "Halvard got a Pixel 8.", ME, "phone", "Pixel 8"),
    own_state_row(12, 2, "Halvard is learning the cello.", ME, "instrument", "cello"),
    own_state_row(13, 10, "Halvard took up the banjo.", ME, "instrument", "banjo"),
    own_state_row(14, 3, "Halvard's insurer is Northwind Mutual.", ME, "insurer", "Northwind Mutual"),
    own_state_row(15, 9, "Halvard moved his insurance to Harborline.", ME, "insurer", "Harborline"),
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What did I swap the Fairphone 4 for?", ("after", "the Fairphone 4")),
        ("What did I trade my Fairphone 4 in for?", ("after", "my Fairphone 4")),
        ("What did I replace the Fairphone 4 with?", ("after", "the Fairphone 4")),
        ("Which club did I leave for the Ashgrove Striders?", ("before", "the Ashgrove Striders")),
        ("Which instrument did I give up for the banjo?", ("before", "the banjo")),
        ("Which phone did the Pixel 8 replace?", ("before", "the Pixel 8")),
        ("When did I leave for work?", None),  # (names no value)
        ("Did I swap shifts with Ana?", None),
    ],
)
def test_an_exchange_reads_as_before_or_after(question: str, expected: tuple[str, str] | None) -> None:
    assert exchanged(question) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What did I swap the Fairphone 4 for?", 11),
        ("What did I replace the Fairphone 4 with?", 11),
        ("Which phone followed the Fairphone 4?", 11),
        ("Who took over as my dentist from Dr. Okafor?", 7),
        ("Where did I relocate to when I left Leeds?", 3),
        ("When I left Tromsø, where did I go?", 2),
        ("After I was done with Brightmoor Labs, where did I work?", 5),
        ("What job did I take after Brightmoor Labs?", 5),
        ("What did I upgrade to from the Fairphone 4?", 11),
        ("Which club did I leave for the Ashgrove Striders?", 8),
        ("Which phone did the Pixel 8 replace?", 10),
        ("Which instrument did I give up for the banjo?", 12),
    ],
)
def test_a_state_next_to_an_exchange_answers(question: str, expected: int) -> None:
    assert answer_of(ROWS, question, ME, NOW) == expected


def test_an_anchor_clause_of_the_asker_keeps_its_value() -> None:
    """ "I" is no capitalised value: the clause's object is the anchor, not "I was done"."""
    tq = parse_question("After I was done with Brightmoor Labs, where did I work?", speaker=ME, now=NOW)
    assert (tq.operator, tq.anchor) == ("after", "Brightmoor Labs")


def test_take_after_is_a_time_only_where_the_asked_thing_is_its_object() -> None:
    assert "after" in without_phrasal_after("What job did I take after Brightmoor Labs?")
    assert "after" not in without_phrasal_after("Who do I take after?")
    assert "after" not in without_phrasal_after("Which parent does Ana take after?")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("When did I pick up the banjo?", 13),  # a value in lower case
        ("How long did I play the cello?", 12),
        ("What was I learning two months ago?", 13),  # a word of the chain's statements
        ("Who insured me in the summer?", 14),  # the verb of the chain's agent noun
        ("Who was insuring me around June?", 14),
    ],
)
def test_a_chain_named_by_its_words_answers(question: str, expected: int) -> None:
    assert answer_of(ROWS, question, ME, NOW) == expected


def test_a_present_question_naming_a_value_of_another_chain_reads_that_chain() -> None:
    """ "still with Volta Freight": no partner of Casimir's is known, the value's own chain answers."""
    rows: list[dict[str, Any]] = [
        fact_row(21, 2, "My brother Casimir works at Volta Freight.", ME, subject="casimir", attribute="employer",
                 value="Volta Freight", entities=["Casimir", "Volta Freight"]),
        fact_row(22, 5, "My brother Casimir joined Kestrel Air.", ME, subject="casimir", attribute="employer",
                 value="Kestrel Air", entities=["Casimir", "Kestrel Air"]),
    ]  # fmt: skip
    tq = Question.parse("Is Casimir still with Volta Freight?", now=NOW, has_as_of=False, speaker=ME).temporal
    assert answered(plan_answer(tq, "casimir", rows)) == 22


def test_a_while_clause_value_is_no_value_of_the_asked_chain() -> None:
    """ "which club did I join while I was going to X": X gives the time, not the chain."""
    tq = Question.parse("While I lived in Leeds, which phone did I get?", now=NOW, has_as_of=False, speaker=ME).temporal
    assert answered(plan_answer(tq, ME, ROWS)) == 11
