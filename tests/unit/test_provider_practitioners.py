"""Whom one sees at a provider is of the kind its name says, and a kind set beside its value
states it (sentences and names of my own)."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I've registered with Dr. Halloran at Quayside Dental Care.", ("Mia", "dentist", "Dr. Halloran")),
        ("I signed up with Dr. Ekwueme at Marsh Lane Medical Centre.", ("Mia", "doctor", "Dr. Ekwueme")),
        ("I'm seeing Birgit at Northway Physio now.", ("Mia", "physio", "Birgit")),
        ("I switched to Lorcan at Tidemark Barbers.", ("Mia", "barber", "Lorcan")),
        # seen at a clinic whose name says no one kind: a provider used, no partner
        ("I've started seeing Cosmin Varga at Redfern Sports Clinic.", ("Mia", "patronage", "Cosmin Varga")),
        # no provider: the partner stays a partner; a job at a provider stays a job
        ("I've started seeing Cosmin Varga.", ("Mia", "partner", "Cosmin Varga")),
        ("I joined Quayside Dental Care as a receptionist.", ("Mia", "employer", "Quayside Dental Care")),
    ],
)
def test_a_practitioner_is_of_the_kind_the_providers_name_says(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I have to ring my GP, Dr. Okonjo at Fernhill Surgery, about the results.", ("Mia", "gp", "Dr. Okonjo")),
        ("My dentist, Dr. Sorensen, says I need a filling.", ("Mia", "dentist", "Dr. Sorensen")),
        # a relative named beside its noun is a person, no state of the speaker's
        ("My cousin, Wendell, got married in June.", (None, None, None)),
    ],
)
def test_a_kind_beside_its_value_states_it(text: str, slot: tuple[str | None, str | None, str | None]) -> None:
    assert speaker_slots(text) == [slot]
