"""What a verb's object tells: a person dropped off at or picked up from a place goes there; one
met for an occasion or worked with at a place is a person, no employer; a car's model after its
determiner at the start of a sentence is the car the speaker tends to; a band one plays in "now"
is one's band. Sentences, names and places of my own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Dropped Ivo off at Quenby Nursery this morning.", ("Ivo", "school", "Quenby Nursery")),
        ("I picked my son up from Quenby Nursery.", ("Mia's son", "school", "Quenby Nursery")),
        # the speaker's own trip stays the speaker's
        ("I took the bus to Quenby School.", ("Mia", "school", "Quenby School")),
    ],
)
def test_one_dropped_off_or_picked_up_goes_there(text: str, slot: tuple[str, str, str]) -> None:
    slots = speaker_slots(text)
    assert slot in slots
    if slot[0] != "Mia":
        assert not [s for s in slots if s[0] == "Mia" and s[2] == slot[2]]


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I work with Odile at Tarrant Freight.", "Tarrant Freight"),
        ("I'm working with Odile Vance at Tarrant Freight these days.", "Tarrant Freight"),
        ("Had coffee with Bram (my new boss at Tarrant Freight) this morning.", "Tarrant Freight"),
        ("I work with Tarrant Freight.", "Tarrant Freight"),  # an organisation alone stays the employer
    ],
)
def test_one_met_or_worked_with_is_no_employer(text: str, employer: str) -> None:
    employers = [s[2] for s in speaker_slots(text) if s[1] == "employer"]
    assert employers == [employer]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Charged the Ioniq overnight at home.", ("Mia", "vehicle", "Ioniq")),
        ("I'm now playing bass in a band called The Quaysiders.", ("Mia", "band", "The Quaysiders")),
    ],
)
def test_a_thing_tended_or_a_band_played_in_now_is_the_speakers(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)
