"""Which other subject is a person by another name when no statement joins the two: one of the
other form (relation or name) who left a value the person held, or whose value the person left;
exactly one. Sentences and names of my own."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memforest.retrieval.temporal.partners import left, partner_values, value_partner
from tests.support.fact_rows import row_at


def _row(year: int, subject: str, text: str, value: str) -> dict[str, Any]:
    return row_at(year, datetime(year, 1, 1, tzinfo=UTC), text, subject=subject, attribute="change", value=value)


HELD = _row(2021, "kasimir", "Kasimir joined the Larchmont Harriers.", "Larchmont Harriers")
LEFT = _row(2023, "briony's nephew", "Briony's nephew moved over from Larchmont Harriers to Quillbrook Pacers.",
            "Quillbrook Pacers")  # fmt: skip


def test_leaving_is_switching_from_or_ending() -> None:
    assert left("moved over from the Larchmont Harriers to X", "Larchmont Harriers")
    assert left("My nephew sold his Corvane Tab last week.", "Corvane Tab")
    assert not left("My nephew joined the Larchmont Harriers.", "Larchmont Harriers")


def test_the_relation_that_leaves_the_names_value_is_the_name() -> None:
    assert value_partner("Kasimir", [HELD, LEFT]) == "briony's nephew"
    assert value_partner("Briony's nephew", [HELD, LEFT]) == "kasimir"


def test_no_partner_when_the_leaving_came_first_or_two_could_be() -> None:
    early = {**LEFT, "valid_from": datetime(2020, 1, 1, tzinfo=UTC)}
    assert value_partner("Kasimir", [HELD, early]) is None
    other = _row(2024, "briony's cousin", "Briony's cousin quit Larchmont Harriers.", "Larchmont Harriers")
    assert value_partner("Kasimir", [HELD, LEFT, {**other, "value": None}]) is None


def test_a_person_is_never_their_own_relative() -> None:
    own = _row(2023, "kasimir's nephew", "Kasimir's nephew moved over from Larchmont Harriers to X.", "X")
    assert value_partner("Kasimir", [HELD, own]) is None


def test_the_values_looked_up_are_the_names_beside_the_person() -> None:
    texts = ["Kasimir joined the Larchmont Harriers.", "Kasimir met Briony at Pellow Park."]
    assert partner_values("Kasimir", texts) == ["Larchmont Harriers", "Briony", "Pellow Park"]
