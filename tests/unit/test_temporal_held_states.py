"""A state filed under the verb of its telling (a thing got, a place gone to) joins the asked kind's
own chain when the statement tells that kind ("my usual cortado at X" tells a cafe) or when the
thing got is a model of the only kind of models the person has got. Sentences and names of my own,
no benchmark template or value."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from support.temporal_answers import answered

from memforest.retrieval.temporal.kind_words import tells_kind
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import plan_answer
from memforest.retrieval.timecues import parse_time_cues
from tests.support.fact_rows import named_row

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)


def _row(fid: int, year: int, text: str, attribute: str | None, value: str | None) -> dict[str, Any]:
    subject = "Petra" if attribute else None
    return named_row(
        fid, datetime(year, 3, 1, tzinfo=UTC), text, "Petra", attribute, value, speaker="Petra", subject=subject
    )


def _answer(question: str, rows: list[dict[str, Any]]) -> int | None:
    cues = parse_time_cues(question, NOW)
    tq = parse_question(question, speaker="Petra", now=NOW, window=(cues.after, cues.before))
    return answered(plan_answer(tq, "Petra", rows))


CAFES = [
    _row(1, 2020, "Petra found a new coffee place: Tallow Yard.", "coffee_place", "Tallow Yard"),
    _row(2, 2022, "Petra started going to Brisk Hair.", "patronage", "Brisk Hair"),
    _row(3, 2023, "Picked up Petra's usual cortado at Ninefold on the way in.", "patronage", "Ninefold"),
]


def test_a_drink_ordered_tells_a_cafe_and_two_words_may_be_one() -> None:
    assert tells_kind("my usual flat  white at Ninefold", "coffee_place")
    assert tells_kind("Ninefold, my new coffee place", "coffee_place")
    assert not tells_kind("a white van outside Ninefold", "coffee_place")
    assert not tells_kind("started going to Brisk Hair", "coffee_place")


def test_a_place_gone_to_that_tells_the_kind_answers_for_its_chain() -> None:
    assert _answer("Which coffee place do I go to now?", CAFES) == 3
    assert _answer("Which coffee place did I go to in 2021?", CAFES) == 1


def test_a_place_gone_to_that_tells_another_kind_stays_out() -> None:
    assert _answer("Which coffee place do I go to now?", CAFES[:2]) == 1


LAPTOPS = [
    _row(11, 2019, "Petra just bought a Lenovo Yoga.", "device", "Lenovo Yoga"),
    _row(12, 2021, "Petra picked up a second-hand Orvane Slate.", "possession", "Orvane Slate"),
    _row(13, 2024, "Petra just bought a MacBook Air.", "device", "MacBook Air"),
]


def test_a_model_got_by_someone_whose_only_models_are_devices_is_a_device() -> None:
    assert _answer("What was my laptop before the MacBook Air?", LAPTOPS) == 12
    assert _answer("What laptop did I have in 2022?", LAPTOPS) == 12


def test_a_model_got_by_someone_with_a_car_too_is_left_out() -> None:
    car = _row(14, 2018, "Petra drives a Fiat Panda now.", "vehicle", "Fiat Panda")
    assert _answer("What was my laptop before the MacBook Air?", [car, *LAPTOPS]) == 11
