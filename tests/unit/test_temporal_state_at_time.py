"""A question asking what held at a time it names: read from its verb, matched without the time,
and windowed up to the time's end (a state said before the window still holds in it)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.retrieval.question import Question
from memforest.retrieval.service import _embedded_texts
from memforest.retrieval.temporal.stative import asks_what_held
from memforest.retrieval.timecues import names_a_day, parse_time_cues, without_times

NOW = datetime(2025, 3, 10, tzinfo=UTC)


def _parse(text: str) -> Question:
    return Question.parse(text, now=NOW, has_as_of=False)


@pytest.mark.parametrize(
    "question",
    [
        "Which piano teacher did Brannagh have in August 2022?",
        "What was my gym in spring 2023?",
        "Who was Bruno's landlord in March 2024?",
        "Which scooter does Hamid own now?",
        "Where did Tomasz live in 2021?",
        "Where do I work?",
        "Where was Ysolde staying in 2020?",  # a progressive of dwelling is a state
        "What was my housing in 2021?",  # a noun in -ing is no progressive
    ],
)
def test_a_form_of_be_have_own_or_dwelling_asks_what_held(question: str) -> None:
    assert asks_what_held(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Keiko buy in August 2022?",  # an event
        "What was Keiko reading in June 2023?",  # a progressive, though after a form of "be"
        "What is Bruno practising for in June?",  # a progressive: what went on
        "What was Keiko's favourite band, as mentioned in June 2023?",  # when it was said
        "When did Hamid sell his scooter?",
        "What was the film Ysolde watched in 2020?",  # a clause of its own after "be": an event
        "What was the name of the bakery she opened in 2022?",
        "Which kayak did Hamid rent in June, and does he have it now?",  # "have" in another clause
    ],
)
def test_events_progressives_and_sayings_do_not_ask_what_held(question: str) -> None:
    assert not asks_what_held(question)


def test_the_time_named_is_cut_from_the_words_matched() -> None:
    assert without_times("Which piano teacher did Brannagh have in August 2022?", NOW) == (
        "Which piano teacher did Brannagh have?"
    )
    assert without_times("What was my gym in spring 2023?", NOW) == "What was my gym?"
    assert without_times("Where did Tomasz live?", NOW) == "Where did Tomasz live?"
    assert without_times("Who was my landlord as of March 2024?", NOW) == "Who was my landlord?"
    assert without_times("In March 2024, who was my landlord?", NOW) == "who was my landlord?"


def test_a_named_day_is_told_from_a_month_or_a_year() -> None:
    assert names_a_day("Which tailor did Bruno use on 4 June 2023?", NOW)
    assert not names_a_day("Which tailor did Bruno use in June 2023?", NOW)
    assert not names_a_day("Where did Tomasz live in 2021?", NOW)


def test_up_to_end_keeps_only_the_window_end_and_wants_the_latest() -> None:
    cues = parse_time_cues("What was my gym in spring 2023?", NOW)
    assert cues.after is not None and cues.before is not None
    held = cues.up_to_end()
    assert (held.after, held.before) == (None, cues.before)
    assert held.wants_latest and not held.wants_earliest
    unbounded = parse_time_cues("What is my gym?", NOW)
    assert unbounded.up_to_end() == unbounded


def test_a_state_asked_in_a_month_is_held_at_time() -> None:
    q = _parse("Which piano teacher did Brannagh have in August 2022?")
    assert q.held_at_time
    assert q.text == "Which piano teacher did Brannagh have in August 2022?"  # (shown as asked)
    assert q.matched_text == "Which piano teacher did Brannagh have?"
    assert "august" not in q.search_terms and "2022" not in q.search_terms
    window = q.cues(NOW)  # (the time stage's window)
    assert window.after is None and window.before == datetime(2022, 9, 1, tzinfo=UTC)
    assert window.wants_latest
    assert _embedded_texts(q, names=1.0) == ["Which piano teacher did Brannagh have?"]


def test_a_time_named_first_is_read_past() -> None:
    q = _parse("In March 2024, which scooter did Hamid own?")
    assert q.held_at_time
    assert q.matched_text == "which scooter did Hamid own?"


@pytest.mark.parametrize(
    "question",
    [
        "What did Keiko buy in August 2022?",  # an event in the month
        "Which tailor did Bruno use on 4 June 2023?",  # a day: what happened on it
        "Which tailor does Bruno use?",  # no time named: the "now" plan
    ],
)
def test_events_days_and_untimed_questions_are_matched_as_asked(question: str) -> None:
    q = _parse(question)
    assert not q.held_at_time
    assert q.matched_text == q.text
    assert q.cues(NOW) == parse_time_cues(question, NOW)  # (the window as the question names it)
    assert _embedded_texts(q, names=1.0)[0] == question
