"""Other people's changes told through a message or a relative in a later clause (issue 48, item
2): a clause reported after "texted me", "wrote that", "rang to say"; a name right after a verb of
telling is whom one tells, not who acted; "her" inside a word ("brother") owns nothing; and "her
son" opening a later clause is the son of the relative named before it. Sentences and names of my
own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import held_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Ysolde texted me Bertrand moved to Quenby.", ("Bertrand", "residence", "Quenby")),
        ("Ysolde emailed me to say Bertrand moved to Quenby.", ("Bertrand", "residence", "Quenby")),
        ("Ysolde messaged to say she started at Pennock Foods.", ("Ysolde", "employer", "Pennock Foods")),
        ("Ysolde told me Bertrand started at Pennock Foods.", ("Bertrand", "employer", "Pennock Foods")),
        ("Ysolde told me that Bertrand started at Pennock Foods.", ("Bertrand", "employer", "Pennock Foods")),
    ],
)
def test_a_clause_reported_in_a_message_is_its_own_subjects(text: str, slot: tuple[str, str, str]) -> None:
    assert held_slots(text) == [slot]


@pytest.mark.parametrize(
    "text",
    [
        "Ysolde wrote that she joined Marrowgate Rowing.",
        "My uncle rang to say he joined Harlow Mutual.",
        "My brother said he switched to Harlow Mutual.",
    ],
)
def test_a_reported_clause_is_never_the_speakers(text: str) -> None:
    slots = held_slots(text)
    assert slots and all(s[0] != "Mia" for s in slots)


def test_her_inside_a_word_owns_nothing() -> None:
    assert held_slots("My brother said he switched to Harlow Mutual.") == [("Mia's brother", "change", "Harlow Mutual")]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My aunt retired and her son joined Pennock Foods.", ("Mia's aunt's son", "employer", "Pennock Foods")),
        (
            "My uncle moved to Quenby and his kids started at Marrowgate Academy.",
            ("Mia's uncle's kids", "school", "Marrowgate Academy"),
        ),
    ],
)
def test_a_relative_opening_a_later_clause_is_the_relatives(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in held_slots(text)


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("I texted Ysolde that I moved to Quenby.", [("Mia", "residence", "Quenby")]),
        ("I wrote a poem about Quenby.", []),
        ("My uncle moved to Quenby.", [("Mia's uncle", "residence", "Quenby")]),
    ],
)
def test_the_speakers_own_message_stays_theirs(text: str, slots: list[tuple[str, str, str]]) -> None:
    assert held_slots(text) == slots


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("Oriabel texted Ysolde to say she moved to Quenby.", [("Oriabel", "residence", "Quenby")]),
        ("Oriabel emailed Ysolde Marr that she moved to Quenby.", [("Oriabel", "residence", "Quenby")]),
        ("Ysolde texted me about my move to Quenby.", [("Mia", "residence", "Quenby")]),
        ("My aunt's son and her husband moved to Quenby.", [("Mia's aunt's son", "residence", "Quenby")]),
        ("My aunt got a puppy and her son named it Bramble.", [("Mia's aunt", "pet", "Bramble")]),
        ("My uncle moved out and the guy next door moved to Quenby.", []),
    ],
)
def test_the_one_told_a_subject_of_two_and_an_unnamed_person_keep_their_readings(
    text: str, slots: list[tuple[str, str, str]]
) -> None:
    assert held_slots(text) == slots
