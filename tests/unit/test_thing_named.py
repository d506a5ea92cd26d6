"""A thing got in one sentence and named in the next is the getter's state of its kind (sentences of
my own)."""

from __future__ import annotations

import pytest
from support.states import speaker_slots

from memforest.text.thing_named import thing_named


def test_the_next_sentence_names_the_thing_got() -> None:
    text = "Picked up a new bike yesterday! Second-hand Ferro Gravel 3, blue, and I rode it to Setubal already."
    assert ("Mia", "vehicle", "Ferro Gravel 3") in speaker_slots(text)


def test_thing_named_reads_the_kind_and_the_holder() -> None:
    assert thing_named("It's a Lumo Air 14.", "Got a new laptop today.", "Mia") == ("Mia", "device", "Lumo Air 14")
    assert thing_named("A used Corvo Estate, red.", "Tomas bought a car yesterday.", "Mia") == (
        "Tomas",
        "vehicle",
        "Corvo Estate",
    )


def test_no_thing_without_a_kind_got_or_a_name_first() -> None:
    assert thing_named("Lumo Air 14, silver.", "Got a new haircut today.", "Mia") is None  # no thing's kind
    assert thing_named("Anyway, how are you?", "Got a new phone today.", "Mia") is None
    assert thing_named("It's a Lumo Air 14.", "Got a new laptop from Ines and Tomas.", "Mia") == (
        "Mia",
        "device",
        "Lumo Air 14",
    )


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My old phone died, so I went for a Sabia X5.", ("Mia", "possession", "Sabia X5")),
        ("Ines opted for a Ferro Gravel 3.", ("Ines", "possession", "Ferro Gravel 3")),
        ("I settled on the Corvo Estate.", ("Mia", "possession", "Corvo Estate")),
        ("Tomas chose a Lumo Air 14 in the end.", ("Tomas", "possession", "Lumo Air 14")),
    ],
)
def test_a_thing_chosen_is_got(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize("text", ["We went for a Thai last night.", "Went for a Big Mac after work."])
def test_going_for_a_meal_is_no_thing_got(text: str) -> None:
    assert all(attribute is None for _, attribute, _ in speaker_slots(text))
