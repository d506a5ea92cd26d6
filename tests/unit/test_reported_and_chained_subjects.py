"""Other people's changes told in shapes a conversation uses (issue 48, item 2): a relative's
relative ("my neighbour's son"), a clause reported after "told me" with no "that", "he and his
wife" after a verb of saying, a time said before a subject of two ("At the time", "Back then"), an
unnamed relative opening a later clause ("I quit and the kids started at X"), a sentence opened by
"Then his ..." with no one named before it, and a way of going ("commute from X") that is no place
used. Sentences and names of my own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import held_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My neighbour's son moved to Kirkwall.", ("Mia's neighbour's son", "residence", "Kirkwall")),
        (
            "My cousin's daughter started at Tollcross Academy.",
            ("Mia's cousin's daughter", "school", "Tollcross Academy"),
        ),
        ("My brother's kids go to Tollcross Primary.", ("Mia's brother's kids", "school", "Tollcross Primary")),
    ],
)
def test_a_relatives_relative_holds_their_own_state(text: str, slot: tuple[str, str, str]) -> None:
    assert held_slots(text) == [slot]


def test_a_relatives_partner_is_still_the_relatives() -> None:
    assert held_slots("My aunt's husband is Faramond.") == [("Mia's aunt", "partner", "Faramond")]


@pytest.mark.parametrize(
    ("text", "holder"),
    [
        ("My dad told me Osric moved to Kirkwall.", "Osric"),
        ("Osric told me he moved to Kirkwall.", "Osric"),
        ("I told Osric Wendeline moved to Kirkwall.", "Wendeline"),
    ],
)
def test_a_clause_reported_after_telling_is_its_own_subjects(text: str, holder: str) -> None:
    assert held_slots(text) == [(holder, "residence", "Kirkwall")]


def test_the_speaker_telling_of_their_own_move_keeps_it() -> None:
    assert held_slots("I told Osric I moved to Kirkwall.") == [("Mia", "residence", "Kirkwall")]


@pytest.mark.parametrize(
    "text", ["I was told Osric Penhallow moved to Kirkwall.", "I can tell Osric Penhallow moved to Kirkwall."]
)
def test_a_verb_of_telling_without_its_object_keeps_a_whole_name(text: str) -> None:
    assert held_slots(text) == [("Osric Penhallow", "residence", "Kirkwall")]


@pytest.mark.parametrize(
    "text",
    [
        "Osric said he and his wife moved to Kirkwall.",
        "At the time Osric and his son moved to Kirkwall.",
        "After that, Osric and Wendeline moved to Kirkwall.",
    ],
)
def test_a_reported_or_timed_subject_of_two_is_the_first_persons(text: str) -> None:
    assert held_slots(text) == [("Osric", "residence", "Kirkwall")]


@pytest.mark.parametrize(
    "text",
    [
        "I quit last month and the kids started at Tollcross Academy.",
        "I quit and the kids started at Tollcross Academy.",
        "I stayed home while the kids started at Tollcross Academy.",
    ],
)
def test_an_unnamed_relative_opening_a_later_clause_is_the_speakers_relative(text: str) -> None:
    assert held_slots(text) == [("Mia's kids", "school", "Tollcross Academy")]


@pytest.mark.parametrize("text", ["Me and the kids moved to Kirkwall.", "In 2023 I and the kids moved to Kirkwall."])
def test_the_speaker_and_an_unnamed_relative_move_together(text: str) -> None:
    assert held_slots(text) == [("Mia", "residence", "Kirkwall")]


def test_a_possessive_pronoun_after_a_connective_with_no_one_named_files_nothing() -> None:
    assert held_slots("Then his son joined Tollcross Harriers.") == []
    assert held_slots("Anyway, her son joined Tollcross Harriers.") == []
    assert held_slots("Osric was thrilled. Then his son joined Tollcross Harriers.") == [
        ("Osric's son", "membership", "Tollcross Harriers")
    ]


def test_it_after_a_connective_leaves_the_speakers_dropped_subject() -> None:
    assert held_slots("Now it's official: moved into a flat on Quillan Road.") == [("Mia", "home_type", "flat")]


@pytest.mark.parametrize("text", ["I commute from Kirkwall every day.", "Osric drives in from Kirkwall."])
def test_a_way_of_going_is_no_place_used(text: str) -> None:
    assert held_slots(text) == []


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I get my bread from Hollin Bakery now.", ("Mia", "patronage", "Hollin Bakery")),
        ("Osric walks the dog at Penhallow Park.", ("Osric", "patronage", "Penhallow Park")),
    ],
)
def test_a_habit_at_a_place_is_still_its_use(text: str, slot: tuple[str, str, str]) -> None:
    assert held_slots(text) == [slot]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Wendeline said Osric joined Tollcross Harriers.", ("Osric", "membership", "Tollcross Harriers")),
        ("Later Osric moved to Kirkwall.", ("Osric", "residence", "Kirkwall")),
        ("Osric retired, then her son joined Tollcross Harriers.", ("Osric's son", "membership", "Tollcross Harriers")),
        (
            "Osric told me his daughter started at Tollcross Primary.",
            ("Osric's daughter", "school", "Tollcross Primary"),
        ),
    ],
)
def test_a_named_persons_clause_and_relative_are_theirs(text: str, slot: tuple[str, str, str]) -> None:
    assert held_slots(text) == [slot]


def test_a_clause_reported_to_the_speaker_is_never_the_speakers() -> None:
    assert all(s[0] != "Mia" for s in held_slots("Wendeline told me Osric started at Tollcross Bank."))
