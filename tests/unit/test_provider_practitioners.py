"""Whom one sees at a provider is of the kind its name says, and a kind set beside its value
states it (sentences and names of my own)."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I've registered with Dr. Vantrell at Quorrin Dental Care.", ("Mia", "dentist", "Dr. Vantrell")),
        ("I signed up with Dr. Ubakwe at Hestergate Medical Centre.", ("Mia", "doctor", "Dr. Ubakwe")),
        ("I'm seeing Yselde at Norrowby Physio now.", ("Mia", "physio", "Yselde")),
        ("I switched to Tamsk at Grelling Barbers.", ("Mia", "barber", "Tamsk")),
        # seen at a clinic whose name says no one kind: a provider used, no partner
        ("I've started seeing Ovid Parrask at Wendlecombe Sports Clinic.", ("Mia", "patronage", "Ovid Parrask")),
        # a doctor moved to is one gone to, no home
        ("I moved to Dr. Quenby in March.", ("Mia", "patronage", "Dr. Quenby")),
        # no provider: the partner stays a partner (a job at a provider stays a job: test_titled_work)
        ("I've started seeing Ovid Parrask.", ("Mia", "partner", "Ovid Parrask")),
    ],
)
def test_a_practitioner_is_of_the_kind_the_providers_name_says(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "I must ring my GP, Dr. Ostrander at Fennicott Surgery, about the results.",
            ("Mia", "doctor", "Dr. Ostrander"),
        ),
        ("My dentist, Dr. Pilkvist, says I need a filling.", ("Mia", "dentist", "Dr. Pilkvist")),
        # a relative named beside its noun is a person, no state of the speaker's
        ("My cousin, Aurelio, got married in June.", (None, None, None)),
    ],
)
def test_a_kind_beside_its_value_states_it(text: str, slot: tuple[str | None, str | None, str | None]) -> None:
    assert speaker_slots(text) == [slot]


def test_a_gym_joined_with_its_workouts_named_is_no_job() -> None:
    assert speaker_slots("I've joined Brackwell CrossFit in Dunmoor. The workouts are brutal.") == [
        ("Mia", "membership", "Brackwell CrossFit")
    ]
