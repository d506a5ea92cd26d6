"""A verb of disposal ends a state and names no successor; "missed" as an attributive participle
("the third missed appointment") is an adjective, not nostalgia (issue 48 item 3). The sentences
are mine, none a benchmark template's."""

from __future__ import annotations

import pytest
from support.states import speaker_slots

from memforest.text.mood import is_leave, mood_of


@pytest.mark.parametrize(
    "text",
    [
        "Mia got rid of Quayside Physio after the third missed appointment.",
        "Mia ditched the Halden scooter after two missed trains.",
        "Mia gave away her Halden scooter after the move.",
        "Mia binned the Lumo kettle after a missed delivery.",
        "Mia donated the Lumo bike to the school.",
        "Mia threw out the Vestry armchair last spring.",
    ],
)
def test_a_disposal_is_a_leaving_in_no_mood(text: str) -> None:
    assert mood_of(text) is None and is_leave(text)


@pytest.mark.parametrize(
    "text", ["I gave away my Halden scooter after the move.", "I donated my Lumo bike to the school in May."]
)
def test_a_disposed_thing_is_no_state_started(text: str) -> None:
    assert speaker_slots(text, "Mia") == [(None, None, None)]


def test_a_state_beside_an_attributive_missed_is_stated() -> None:
    assert speaker_slots("I moved to Tromso after a missed flight.", "Mia") == [("Mia", "residence", "Tromso")]


@pytest.mark.parametrize("text", ["Mia misses her old flat in Tromso.", "Mia missed the Halden scooter all winter."])
def test_missing_something_is_still_nostalgia(text: str) -> None:
    assert mood_of(text) == "nostalgia"
