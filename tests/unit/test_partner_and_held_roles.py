"""The speaker's partner named in apposition is a state of the speaker's besides what the sentence
states of the partner, and a relation one person holds at a time ("our landlord is X") is a state
as said, while one of several (a flatmate) needs "new" or "now". Sentences and names of my own."""

from __future__ import annotations

import pytest
from support.states import speaker_slots

from memforest.text.clauses import partner_apposed


def test_the_apposition_is_my_partner_words_and_a_name() -> None:
    assert partner_apposed("so my wife Orlaith started at Pennock Foods") == "my wife Orlaith"
    assert partner_apposed("My late husband Piet worked there.") is None
    assert partner_apposed("my ex-wife Orlaith moved out") is None
    assert partner_apposed("My friend's husband Piet plays oboe.") is None
    assert partner_apposed("My husband Piet's mum lives in Tarbet.") is None  # (a name that owns: the mum's)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My husband Piet has just started as a porter at Glencorran Hotel.", ("Mia", "partner", "Piet")),
        ("my boyfriend Anselm is a sous chef at Tallow and Rye so he's never home.", ("Mia", "partner", "Anselm")),
    ],
)
def test_a_partner_named_in_apposition_is_the_speakers_partner(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_a_relation_held_alone_is_a_state_as_said_and_one_of_several_only_when_new() -> None:
    assert ("Mia", "landlord", "Quenby Homes") in speaker_slots("Our landlord is Quenby Homes and the roof leaks.")
    assert not [s for s in speaker_slots("My flatmate is Idris.") if s[1] is not None]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I've had psoriasis since I was a teenager and the cold makes it worse.", ("Mia", "health", "psoriasis")),
        ("My uncle Bram has Alzheimer's and forgets our names.", ("Bram", "health", "alzheimer's")),
        ("My flatmate Idris is lactose intolerant, so no cheese board.", ("Idris", "health", "lactose intolerant")),
        ("I've been pescatarian since 2019 and my sister teases me.", ("Mia", "diet", "pescatarian")),
        ("I'm doing keto at the moment, so low sugar please.", ("Mia", "diet", "keto")),
    ],
)
def test_long_standing_conditions_and_diets_told_in_the_present_perfect(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_an_instrument_played_now_is_read_beside_the_group_it_is_played_in() -> None:
    slots = speaker_slots("My cousin Tove plays oboe in the Harrowgate Sinfonia and they tour in May.")
    assert ("Tove", "instrument", "oboe") in slots
    assert ("Mia", "instrument", "cello") in speaker_slots("I've been learning the cello since March.")
    assert not [s for s in speaker_slots("I played the flute as a child.") if s[1] == "instrument"]
    assert not [s for s in speaker_slots("I'd love to learn the harp one day.") if s[1]]
