"""A car told only by its upkeep (issue 48 item 5: indirect statements): the words of servicing
and fuelling a car point a statement to the vehicle (sentences of my own)."""

from __future__ import annotations

import pytest

from memforest.retrieval.temporal.lexicon import is_state_of


@pytest.mark.parametrize(
    "text",
    [
        "The mechanic at Quinta Motors says the Corvo needs new brakes.",
        "Had the gearbox on the Corvo fixed, ouch.",
        "Put winter tyres on the Corvo yesterday.",
        "The Corvo is on a lease until 2026.",
    ],
)
def test_upkeep_words_point_to_the_vehicle(text: str) -> None:
    assert is_state_of(text, "vehicle")
