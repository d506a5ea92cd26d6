"""Small words that changed whose state a sentence told, or made one up (issue 48, items 2, 3 and
5): a comment adverb before a name ("Apparently"), "in-laws", "hopefully" (a wish), the keys one
picks up (no instrument), and a named person's word of work ("Bertrand's first payslip from X").
Sentences and names of my own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import held_slots


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("Apparently Bertrand moved to Quenby.", [("Bertrand", "residence", "Quenby")]),
        ("Luckily Bertrand got into Marrowgate College.", [("Bertrand", "school", "Marrowgate College")]),
        ("My in-laws moved to Quenby.", [("Mia's in-laws", "residence", "Quenby")]),
        ("Bertrand's in-laws moved to Quenby.", [("Bertrand's in-laws", "residence", "Quenby")]),
        ("Cecily Watson moved to Quenby.", [("Cecily Watson", "residence", "Quenby")]),
    ],
)
def test_a_comment_word_or_a_group_of_relatives_names_the_holder(text: str, slots: list[tuple[str, str, str]]) -> None:
    assert held_slots(text) == slots


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("Hopefully we move to Quenby soon.", []),
        ("I moved to Quenby, hopefully for good.", [("Mia", "residence", "Quenby")]),
    ],
)
def test_hopefully_is_a_wish_in_its_own_clause(text: str, slots: list[tuple[str, str, str]]) -> None:
    assert held_slots(text) == slots


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("Picked up the keys today.", []),
        ("I picked up the mandolin last year and love it.", [("Mia", "instrument", "mandolin")]),
        ("I picked up keys during lockdown.", [("Mia", "instrument", "keys")]),
    ],
)
def test_the_keys_one_picks_up_are_no_instrument(text: str, slots: list[tuple[str, str, str]]) -> None:
    assert held_slots(text) == slots


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("Bertrand's first payslip from Harlow Mutual came through.", [("Bertrand", "employer", "Harlow Mutual")]),
        ("Got my first paycheck from Harlow Mutual.", [("Mia", "employer", "Harlow Mutual")]),
        ("Bertrand's final payslip from Harlow Mutual came through.", []),
        ("My final paycheck from Harlow Mutual arrived.", []),
    ],
)
def test_a_named_persons_word_of_work_is_theirs(text: str, slots: list[tuple[str, str, str]]) -> None:
    assert held_slots(text) == slots
