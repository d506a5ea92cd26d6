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
    "text",
    [
        "Barnaby teaches at Quillerby Academy now.",
        "Barnaby joined Lanthorn Institute as a lab technician.",
        "Barnaby's first paycheck from Quillerby Academy came today.",
    ],
)
def test_a_school_one_works_at_is_no_school(text: str) -> None:
    assert all(attribute != "school" for _, attribute, _ in speaker_slots(text))
