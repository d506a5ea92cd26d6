"""The kind a question asks after when it names no "which" noun and no possessed one: a kind one
joins or goes to named after a determiner and names ("the Thursday choir") in a how-long or when
question's own clause, when no other word names an attribute (or only a bare "with", or "join"
read as a job); a word opening the question ("Back when ...") is no name; what follows the last
question mark is context, not the question; a relative "doing for work" asks for their employer.
Phrasings and names of my own, no benchmark template or value."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.retrieval.question import Question
from memforest.retrieval.temporal.parse import TemporalQuestion, parse_question
from memforest.retrieval.timecues import asked_part, parse_time_cues

NOW = datetime(2026, 2, 1, 12, tzinfo=UTC)


def _parse(question: str) -> TemporalQuestion:
    cues = parse_time_cues(question, NOW)
    return parse_question(question, speaker="Oona", now=NOW, window=(cues.after, cues.before))


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("How long did I stick with the Wednesday choir?", "choir"),
        ("How long have I been going to the Quayside gym?", "gym"),
        ("When did my brother join the Saltmarsh rowing club?", "rowing_club"),
        ("How long did I work at the bank?", "employer"),  # (a verb's own attribute stays)
        ("When did I move to Leeds after leaving the choir?", "residence"),  # (a kind in a later clause)
        ("How long was Ana with Marco Bellini?", "partner"),  # (a person's name: a partner still)
        ("Who was I with in 2021?", "partner"),
    ],
)
def test_the_kind_a_question_names_without_asking_which(question: str, attribute: str | None) -> None:
    parsed = _parse(question)
    assert parsed.attribute == attribute


def test_a_kind_in_an_anchor_clause_is_not_the_one_asked() -> None:
    parsed = _parse("Where did I live before I joined the choir?")
    assert (parsed.operator, parsed.attribute) == ("before", "residence")


def test_a_word_opening_the_question_is_no_name() -> None:
    parsed = _parse("Back when I lived in Tarbet, which dance school was Inés at?")
    assert "Back" not in parsed.names
    assert parsed.names[0] == "Inés"


def test_what_follows_the_question_mark_asks_nothing() -> None:
    # ("before my mum nags me" is context after the question, no "before" operator)
    parsed = Question.parse(
        "who's my dentist these days? need to book one before my mum nags me again",
        now=NOW, has_as_of=False, speaker="Oona",
    ).temporal  # fmt: skip
    assert (parsed.operator, parsed.attribute, parsed.anchor) == ("now", "dentist", None)
    # the last question mark ends the question; one inside a web address ends nothing
    assert asked_part("Remember my bank move? Which bank was I with before Quayside?").endswith("Quayside?")
    assert asked_part("see example.com/?q=1 for my dentist last week").endswith("last week")


@pytest.mark.parametrize(
    "question",
    ["what's my sister doing for work at the moment?", "What's my sister doing for a living now?"],
)
def test_a_relative_doing_for_work_asks_for_their_employer(question: str) -> None:
    parsed = _parse(question)
    assert parsed.attribute == "employer"
    assert parsed.names[0] == "Oona's sister"
