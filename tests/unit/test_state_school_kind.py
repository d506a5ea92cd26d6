"""A place an employer cue finds ("is at X now", "started at X") is a school when the value's own
head noun names one and the sentence says nothing of work (sentences of my own, ADR 0063)."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "My nephew Barnaby is at Quillerby Academy now, he loves the debate club.",
            ("Barnaby", "school", "Quillerby Academy"),
        ),
        ("Barnaby started at Ostrava Heights College last autumn.", ("Barnaby", "school", "Ostrava Heights College")),
        ("Barnaby is at Lanthorn University these days.", ("Barnaby", "school", "Lanthorn University")),
    ],
)
def test_a_school_named_by_its_head_noun_is_a_school(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "Wendeline is at Corrowmere Academy now, as a boarder.",
            ("Wendeline", "school", "Corrowmere Academy"),
        ),
        ("Wendeline started at Corrowmere Academy as a day pupil.", ("Wendeline", "school", "Corrowmere Academy")),
        (
            "Wendeline is at Corrowmere Academy now, the workouts there are brutal.",
            ("Wendeline", "school", "Corrowmere Academy"),
        ),
    ],
)
def test_a_pupil_role_or_a_word_merely_holding_work_is_still_a_school(text: str, slot: tuple[str, str, str]) -> None:
    """ "as a" names no role of work when what follows is a pupil's, or when it is not right after
    the school ("now, as a boarder"); "workouts" is no word of work."""
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "Wendeline started at Corrowmere Academy, teaching maths.",
            ("Wendeline", "employer", "Corrowmere Academy"),
        ),
        (
            "Wendeline started at Corrowmere Academy, where she teaches art.",
            ("Wendeline", "employer", "Corrowmere Academy"),
        ),
        (
            "Wendeline joined Pellbrook Institute as a lab technician.",
            ("Wendeline", "employer", "Pellbrook Institute"),
        ),
        (
            "Wendeline started at Corrowmere Academy as an assistant coach.",
            ("Wendeline", "employer", "Corrowmere Academy"),
        ),
    ],
)
def test_a_school_one_works_at_is_no_school(text: str, slot: tuple[str, str, str]) -> None:
    """The employer cue finds the school, and a word of work or a role taken there keeps it one."""
    slots = speaker_slots(text)
    assert slot in slots
    assert all(attribute != "school" for _, attribute, _ in slots)
