"""A kind of service asked by another of its names is answered by the chain filed under one of
them ("which salon" by a ``hairdresser`` chain, "which mobile carrier" by a ``mobile_network`` one),
never by a verb class's chain of other things, nor by the chain of a different service of the same
family (gas is no electricity). Sentences and names of my own."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from support.temporal_answers import answered

from memforest.retrieval.temporal.kind_words import same_service
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import plan_answer
from memforest.retrieval.timecues import parse_time_cues

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)


def _row(fid: int, year: int, text: str, attribute: str | None, value: str | None) -> dict[str, Any]:
    return {
        "fact_id": fid,
        "valid_from": datetime(year, 3, 1, tzinfo=UTC),
        "text": text,
        "attribute": attribute,
        "value": value,
        "entities": ["Odile", value] if value else ["Odile"],
    }


ROWS = [
    _row(1, 2021, "Odile switched her hairdresser to Maison Tréfle on Rue Vanne.", "hairdresser", "Maison Tréfle"),
    _row(2, 2022, "Odile joined the Corbeau Racquets club.", "membership", "Corbeau Racquets"),
    _row(3, 2023, "Odile's hairdresser is Studio Grenat now.", "hairdresser", "Studio Grenat"),
    _row(4, 2024, "Odile signed up with the Pivert Padel league.", "membership", "Pivert Padel"),
]


def _answer(question: str) -> int | None:
    cues = parse_time_cues(question, NOW)
    tq = parse_question(question, speaker="Odile", now=NOW, window=(cues.after, cues.before))
    return answered(plan_answer(tq, "Odile", ROWS, hints={2: 0.9, 4: 0.9}))


def test_another_name_of_the_service_finds_its_chain() -> None:
    assert same_service("salon", {"hairdresser": 2, "membership": 2}) == "hairdresser"
    assert same_service("mobile_carrier", {"mobile_network": 1, "bank": 3}) == "mobile_network"
    assert same_service("bank", {"account": 1, "membership": 2}) == "account"  # ("my Tarvel account")
    assert same_service("car_insurer", {"car_insurance": 1}) == "car_insurance"
    # a different service of one family, or the same one qualified otherwise: none
    assert same_service("gas", {"electricity": 2}) is None
    assert same_service("orthodontist", {"dentist": 2}) is None
    assert same_service("home_insurance", {"car_insurance": 2}) is None
    assert same_service("streaming_account", {"bank": 2}) is None
    # no kind of service, or none of its chains: none; a verb class never
    assert same_service("choir", {"hairdresser": 2}) is None
    assert same_service("salon", {"patronage": 4, "bank": 1}) is None


def test_a_question_by_another_name_of_the_service_is_answered_from_its_chain() -> None:
    assert _answer("Which salon do I go to now?") == 3
    assert _answer("Which salon was I going to in 2022?") == 1
