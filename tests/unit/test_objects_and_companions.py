"""What a verb's object tells: a person dropped off at or picked up from a school or a nursery goes
there, a pet or a relative taken to the speaker's own vet or dentist does not; one met for an
occasion (and where) is a companion, no employer; a car's model after its
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
        ("I dropped off Ffion's kids at Quenby Primary.", ("Ffion's kids", "school", "Quenby Primary")),
        ("I drop Ivo off at Quenby Creche on Mondays.", ("Ivo", "patronage", "Quenby Creche")),
        ("I dropped Ivo off at Quenby Primary, where Ffion teaches.", ("Ivo", "school", "Quenby Primary")),
        # the speaker's own trip stays the speaker's, and so does the speaker's own provider
        ("I took the bus to Quenby School.", ("Mia", "school", "Quenby School")),
        ("I took Rufus to Wendover Vets, our new vet.", ("Mia", "vet", "Wendover Vets")),
        ("I took Mum to Dr Kaur, my dentist.", ("Mia", "dentist", "Dr Kaur")),
        ("I dropped Ffion off at Brackley Bank, where I work.", ("Mia", "employer", "Brackley Bank")),
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
        ("Had coffee with Bram (my new boss at Tarrant Freight) this morning.", "Tarrant Freight"),
        # an organisation worked with stays the employer, at a place too
        ("I work with Tarrant Freight.", "Tarrant Freight"),
        ("I got a job with Tarrant Freight at Canary Wharf.", "Tarrant Freight"),
        ("I had a call with Tarrant Freight, they offered me the job.", "Tarrant Freight"),
    ],
)
def test_one_met_for_an_occasion_is_no_employer(text: str, employer: str) -> None:
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
