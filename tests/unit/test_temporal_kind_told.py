"""A verb class's chain (things joined, gone to, got) answers for an open-ended kind no chain is
named for; but when none of its states names the kind and another of the subject's statements by
the same speaker names all of it, the chain is of another kind and the plan leaves the question to
the statements that name it (the loose plan). Sentences and names of my own, no benchmark template
or value."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from support.temporal_answers import answered

from memforest.retrieval.temporal.kind_words import names_whole_kind
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import plan_answer
from memforest.retrieval.timecues import parse_time_cues
from tests.support.fact_rows import named_row

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)


def _row(
    fid: int, year: int, text: str, attribute: str | None, value: str | None, speaker: str = "Petra"
) -> dict[str, Any]:
    subject = "Petra" if attribute else None
    return named_row(
        fid, datetime(year, 3, 1, tzinfo=UTC), text, "Petra", attribute, value, speaker=speaker, subject=subject
    )


SEEN = _row(1, 2021, "Petra started seeing Halvard at Brookfield Osteopathy.", "patronage", "Halvard")
QUIZ = _row(2, 2022, "Petra got a seat on the quiz team at the Anchor, the Lamplighters.", None, None)


def _answer(question: str, rows: list[dict[str, Any]]) -> int | None:
    cues = parse_time_cues(question, NOW)
    tq = parse_question(question, speaker="Petra", now=NOW, window=(cues.after, cues.before))
    return answered(plan_answer(tq, "Petra", rows))


def test_a_kind_named_whole_takes_every_word_of_it() -> None:
    assert names_whole_kind("the quiz team at the Anchor", "quiz_team")
    assert names_whole_kind("two quizzes with the team", "quiz_team")  # (a word begins one of the text)
    assert not names_whole_kind("not on any team, just mates", "quiz_team")
    assert not names_whole_kind("my new one", "new")  # (a vague word alone names no kind)


def test_a_verb_class_chain_answers_when_nothing_names_the_kind() -> None:
    assert _answer("Which quiz team was I on in 2023?", [SEEN]) == 1


def test_a_statement_naming_the_kind_leaves_the_other_kinds_chain() -> None:
    assert _answer("Which quiz team was I on in 2023?", [SEEN, QUIZ]) is None


def test_a_chain_naming_the_kind_or_another_speakers_words_keep_the_answer() -> None:
    joined = _row(3, 2022, "Petra joined the Lamplighters quiz team.", "membership", "Lamplighters")
    assert _answer("Which quiz team was I on in 2023?", [SEEN, joined, QUIZ]) == 3
    advice = _row(4, 2022, "A quiz team at a pub may suit Petra.", None, None, speaker="assistant")
    assert _answer("Which quiz team was I on in 2023?", [SEEN, advice]) == 1


def test_a_verb_class_state_named_as_a_kind_of_another_family_is_none_of_the_asked_kind() -> None:
    sang = _row(5, 2022, "Petra started going to the Saltings Singers on Thursdays.", "patronage", "Saltings Singers")
    power = _row(6, 2024, "Petra switched to Brackwater Energy for the flat.", "patronage", "Brackwater Energy")
    # (a supplier's name, "X Energy", is no choir: the chain's own choir answers now)
    assert _answer("Which choir am I in now?", [sang, power]) == 5


def test_a_state_begun_after_the_question_is_asked_holds_not_yet() -> None:
    first = _row(7, 2021, "Petra joined the Lamplighters quiz team.", "membership", "Lamplighters")
    later = _row(8, 2024, "Petra joined the Beacon quiz team.", "membership", "Beacon")
    asked = datetime(2023, 1, 10, tzinfo=UTC)
    tq = parse_question("Which quiz team am I on now?", speaker="Petra", now=asked, asked_at=asked)
    assert answered(plan_answer(tq, "Petra", [first, later])) == 7
    assert _answer("Which quiz team am I on now?", [first, later]) == 8  # (no time of asking given)


def test_a_kind_one_goes_to_is_never_read_from_a_chain_of_things_got() -> None:
    bike = _row(9, 2022, "Petra bought a Solway tourer.", "possession", "Solway tourer")
    cut = _row(10, 2021, "Petra started going to Bexley Barbers.", "patronage", "Bexley Barbers")
    hints = {9: 0.9, 10: 0.5}  # (the question's recall found the bike most similar)
    tq = parse_question("Who cuts my hair now?", speaker="Petra", now=NOW)
    assert answered(plan_answer(tq, "Petra", [cut, bike], hints=hints)) == 10


def test_a_verb_class_state_telling_only_another_service_is_none_of_the_asked_one() -> None:
    bill = _row(11, 2021, "Petra's first bill from Corrie arrived, more data for less.", "patronage", "Corrie")
    teeth = _row(12, 2022, "Petra's check-up with Dr Lyle at Tay Street Dental went fine.", "patronage", "Dr Lyle")
    # (a check-up at a dental practice is no mobile network; the bill names no kind and may be)
    assert _answer("Which mobile network was I with in 2023?", [bill, teeth]) == 11
    assert _answer("Who was my dentist in 2023?", [bill, teeth]) == 12


def test_a_cafe_is_no_physio() -> None:
    cafe = _row(13, 2021, "Petra spends Saturdays at Tallow Lane with a book.", "patronage", "Tallow Lane")
    physio = _row(
        14, 2022, "Petra's first appointment at Quarry Road Physio was on Friday.", "patronage", "Quarry Road Physio"
    )
    assert _answer("Which cafe was my go-to in 2023?", [cafe, physio]) == 13


def test_the_kind_checks_leave_named_attributes_and_ordinary_words_alone() -> None:
    # (a job at a bank is a job: "X Bank" tells another kind only of an open-ended one)
    bank_job = _row(15, 2022, "Petra joined Northway Bank as an analyst.", "membership", "Northway Bank")
    assert _answer("Where did I work in 2023?", [bank_job]) == 15
    # ("clinic" names no one kind of service)
    clinic = _row(16, 2022, "Petra started seeing Dr Lyle at the Marsh Lane clinic.", "patronage", "Dr Lyle")
    assert _answer("Who was my dentist in 2023?", [clinic]) == 16
