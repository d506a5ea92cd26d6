"""A car maker's name at the head of a place's name names the place, not a car (sentences of my own)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.domain import CellTurn, CellView
from memforest.text.extractor import extract_cell
from memforest.text.state_values import thing_kind

SAID = datetime(2025, 2, 11, 9, 30, tzinfo=UTC)


def _slots(text: str, speaker: str = "Radomir") -> set[tuple[str | None, str | None, str | None]]:
    view = CellView("s", SAID, (CellTurn(0, speaker, text, SAID),))
    return {(c.subject, c.attribute, c.value) for c in extract_cell(view) if c.attribute}


@pytest.mark.parametrize("value", ["Jaguar Lounge", "Volvo Bakery", "Porsche Studios", "Alfa Gym"])
def test_a_make_before_a_word_of_premises_is_a_place(value: str) -> None:
    assert thing_kind(value) is None


@pytest.mark.parametrize(("value", "kind"), [("Volvo V60", "vehicle"), ("Jaguar Lounge", None)])
def test_a_make_and_model_is_still_a_vehicle(value: str, kind: str | None) -> None:
    assert thing_kind(value) == kind


def test_a_class_at_a_place_named_after_a_maker_files_no_car() -> None:
    slots = _slots("I do pilates at Jaguar Lounge every Thursday now.")
    assert all(attribute != "vehicle" for _, attribute, _ in slots)
