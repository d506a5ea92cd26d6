"""A question's kind named by what is done ("cello lessons with", "see for physio", "who coaches",
"switch schools"), the earlier one asked without a noun ("previously", "before the one I'm at
now", "before she changed practices"), and "at the time I ..." as a clause naming a state
(questions of my own)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support.reads import question_of

from memforest.retrieval.temporal.parse import TemporalQuestion

NOW = datetime(2025, 9, 3, 12, 0, tzinfo=UTC)


def _read(question: str, speaker: str = "Zsofika") -> TemporalQuestion:
    return question_of(question, now=NOW, speaker=speaker).temporal


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("Who does Ottilie have cello lessons with these days?", "cello_teacher"),
        ("Who did I take swimming classes from as a kid?", "swimming_teacher"),
        ("Who does my dad see for osteopathy now?", "osteopathy"),
        ("Who coaches my nephew's rugby side now?", "coach"),
        ("When did Casimir switch gyms?", "gym"),
        ("Who was my car insured with in 2022?", "insurer"),
        ("Which was the first orchestra Ilse ever played in?", "orchestra"),
        ("Who was my first ever riding instructor?", "riding_instructor"),
    ],
)
def test_the_kind_named_by_what_is_done(question: str, attribute: str) -> None:
    assert _read(question).attribute == attribute


@pytest.mark.parametrize(
    "question",
    ["Who does Ottilie have cello lessons with these days?", "Who did I take swimming classes from as a kid?"],
)
def test_lessons_with_or_from_someone_name_no_partner_and_no_origin(question: str) -> None:
    assert _read(question).attribute not in ("partner", "origin")


@pytest.mark.parametrize(
    "question",
    [
        "Which pharmacy did we use previously?",
        "Which climbing gym was I at before the one I'm at now?",
        "Which surgery was Tancredi with before the one he's with now?",
        "Who was my mother's optician before she switched opticians?",
    ],
)
def test_the_one_before_the_current_one(question: str) -> None:
    tq = _read(question)
    assert (tq.operator, tq.back) == ("latest", 1)


def test_a_time_while_another_state_held_opens_with_at_the_time() -> None:
    tq = _read("At the time I was renting in Moorvale, which dentist did I go to?")
    assert (tq.operator, tq.during, tq.attribute) == ("as_of", "Moorvale", "dentist")


def test_a_kind_named_by_a_noun_still_wins_over_what_is_done() -> None:
    # (the possessed noun is the asked kind; the plural after "switched" only says a change happened)
    assert _read("Who was my aunt's chiropodist before she switched chiropodists?").attribute == "chiropodist"
    assert _read("Who's Benedek's tutor for the violin lessons now?").attribute == "tutor"
