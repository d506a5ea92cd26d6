"""A question's noun that a named attribute stands for ("scooter": vehicle, "tablet": device) finds
the chain a reader filed under the noun itself, where the subject has none of the named attribute
(a model reader names a state's slot by its kind); where the named chain exists it answers as
before (sentences of my own)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memforest.retrieval.temporal.parse import parse_question
from tests.support.fact_rows import own_state_row
from tests.support.temporal_answers import answer_of

ME = "Wendeline"
NOW = datetime(2024, 12, 1, 12, tzinfo=UTC)


def _scooters(attribute: str) -> list[dict[str, Any]]:
    return [
        own_state_row(1, 2, "Wendeline got a Vespa Primavera for the school run.", ME, attribute, "Vespa Primavera"),
        own_state_row(2, 6, "Wendeline traded the Vespa for a Niu MQi.", ME, attribute, "Niu MQi"),
        own_state_row(3, 9, "Wendeline's tablet is a Kobo Sage now.", ME, "tablet", "Kobo Sage"),
    ]


def test_the_question_keeps_its_own_noun_beside_the_attribute_it_stands_for() -> None:
    tq = parse_question("What scooter do I ride now?", speaker=ME)
    assert (tq.attribute, tq.noun_own) == ("vehicle", "scooter")
    assert parse_question("Which dentist do I see now?", speaker=ME).noun_own is None  # its own slot already


def test_a_chain_filed_under_the_noun_itself_answers() -> None:
    rows = _scooters("scooter")
    assert answer_of(rows, "What scooter do I ride now?", ME, NOW) == 2
    assert answer_of(rows, "Which scooter did I have before the Niu MQi?", ME, NOW) == 1
    assert answer_of(rows, "Which tablet do I have?", ME, NOW) == 3


def test_the_named_attributes_chain_still_answers_where_there_is_one() -> None:
    rows = [
        *_scooters("vehicle"),
        own_state_row(4, 10, "Wendeline's scooter club is Twistgrip.", ME, "scooter", "Twistgrip"),
    ]
    assert answer_of(rows, "What scooter do I ride now?", ME, NOW) == 2
