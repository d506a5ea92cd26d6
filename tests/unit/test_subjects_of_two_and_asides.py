"""Whose state a sentence with a subject of two persons, or an aside after its opening person, tells:
the first person of "X and Y moved" holds it (the speaker when one of the two is the speaker, as
with "we"); the person a relative clause or an apposition follows holds what the main clause says;
"folks" are one's parents, in statements and in questions. Sentences and names of my own, no
benchmark template or value."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support.states import speaker_slots

from memforest.retrieval.temporal.parse import parse_question
from memforest.text.persons import rewrite_persons


def assert_held_only_by(text: str, slot: tuple[str, str, str]) -> None:
    """The sentence files ``slot``, and no other holder of its kind."""
    slots = speaker_slots(text)
    assert slot in slots
    assert not [s for s in slots if s[1] == slot[1] and s[0] != slot[0]]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Ildris and his husband relocated to Brackenthwaite.", ("Ildris", "residence", "Brackenthwaite")),
        ("Ildris and Bryluen moved to Brackenthwaite.", ("Ildris", "residence", "Brackenthwaite")),
        ("Bryluen and her brother started at Pollexfen Primary.", ("Bryluen", "school", "Pollexfen Primary")),
        ("Ildris and I moved to Brackenthwaite.", ("Mia", "residence", "Brackenthwaite")),
        ("Me and Ildris moved to Brackenthwaite.", ("Mia", "residence", "Brackenthwaite")),
        ("My wife and I moved to Brackenthwaite.", ("Mia", "residence", "Brackenthwaite")),
        ("My oldest friend and I moved to Brackenthwaite.", ("Mia", "residence", "Brackenthwaite")),
        ("When Ildris and I moved to Brackenthwaite, it rained all week.", ("Mia", "residence", "Brackenthwaite")),
        ("Me and my boyfriend Ildris moved to Brackenthwaite.", ("Mia", "residence", "Brackenthwaite")),
        (
            "Ildris and his girlfriend Bryluen joined Pollexfen Rowing Club.",
            ("Ildris", "membership", "Pollexfen Rowing Club"),
        ),
        ("My best friend moved to Brackenthwaite.", ("Mia's friend", "residence", "Brackenthwaite")),
    ],
)
def test_a_subject_of_two_is_filed_under_the_first_or_the_speaker(text: str, slot: tuple[str, str, str]) -> None:
    assert_held_only_by(text, slot)


def test_the_other_persons_move_never_supersedes_the_speakers_home() -> None:
    assert not [s for s in speaker_slots("Ildris and his husband relocated to Brackenthwaite.") if s[0] == "Mia"]


def test_an_opening_interjection_is_no_first_person() -> None:
    slots = speaker_slots("Oh and Ildris just adopted a whippet called Tumbrel last weekend.")
    assert ("Ildris", "pet", "Tumbrel") in slots


def test_the_speaker_second_of_two_is_written_first() -> None:
    assert (
        rewrite_persons("Ildris and I moved to Brackenthwaite.", "Mia", None)
        == "Mia and Ildris moved to Brackenthwaite."
    )
    # (not after a verb: "left Leeds and I moved" coordinates clauses, not persons)
    clauses = rewrite_persons("I left Quenby and I moved to Brackenthwaite.", "Mia", None)
    assert clauses.startswith("Mia left Quenby and Mia")


@pytest.mark.parametrize(
    "text",
    ["He and I moved to Brackenthwaite.", "Oh and I adopted a lurcher.", "I was off from Monday and I moved house."],
)
def test_no_word_but_a_persons_name_is_written_after_the_speaker(text: str) -> None:
    assert "Mia and" not in rewrite_persons(text, "Mia", None)


def test_with_the_partner_in_a_subject_of_two_the_main_verb_is_the_state() -> None:
    slots = speaker_slots("Me and my boyfriend Ildris just signed up with Skelwith Fibre for broadband.")
    assert ("Mia", "membership", "Skelwith Fibre") in slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Bryluen, who lives across the road, adopted a whippet called Tumbrel.", ("Bryluen", "pet", "Tumbrel")),
        (
            "Bryluen, my neighbour, has a new job at Pollexfen Analytics.",
            ("Bryluen", "employer", "Pollexfen Analytics"),
        ),
        (
            "Bryluen, whose kids go to Pollexfen Primary, moved to Brackenthwaite.",
            ("Bryluen", "residence", "Brackenthwaite"),
        ),
        ("Ildris, who I met at uni, started at Pollexfen Analytics.", ("Ildris", "employer", "Pollexfen Analytics")),
    ],
)
def test_the_person_before_an_aside_holds_the_main_clauses_state(text: str, slot: tuple[str, str, str]) -> None:
    slots = speaker_slots(text)
    assert slot in slots
    assert not [s for s in slots if s[0] == "Mia" and s[2] == slot[2]]


def test_an_aside_with_no_state_in_the_main_clause_keeps_its_own() -> None:
    assert ("Mia", "dentist", "Dr Achterberg") in speaker_slots("Dr Achterberg, my new dentist, is great.")


def test_folks_are_ones_parents() -> None:
    assert ("Mia's folks", "residence", "Brackenthwaite") in speaker_slots(
        "My folks moved to Brackenthwaite last year."
    )
    question = parse_question("Where do my folks live now?", speaker="Mia", now=datetime(2024, 6, 1, tzinfo=UTC))
    assert "Mia's folks" in question.names
    assert "Mia's parents" in question.names


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Last year Ildris and his husband relocated to Brackenthwaite.", ("Ildris", "residence", "Brackenthwaite")),
        ("In 2021 Ildris and Bryluen moved to Brackenthwaite.", ("Ildris", "residence", "Brackenthwaite")),
        ("Three weeks ago Bryluen and Ildris moved to Brackenthwaite.", ("Bryluen", "residence", "Brackenthwaite")),
        (
            "Over the summer Bryluen and her brother joined Pollexfen Rowing Club.",
            ("Bryluen", "membership", "Pollexfen Rowing Club"),
        ),
        ("Last year Ildris moved to Brackenthwaite.", ("Ildris", "residence", "Brackenthwaite")),
        ("Yesterday Ildris and I moved to Brackenthwaite.", ("Mia", "residence", "Brackenthwaite")),
    ],
)
def test_a_time_opening_the_sentence_keeps_its_subject_of_two(text: str, slot: tuple[str, str, str]) -> None:
    assert_held_only_by(text, slot)


def test_the_speaker_second_after_a_time_is_written_first() -> None:
    assert rewrite_persons("In 2021 Ildris and I moved to Brackenthwaite.", "Mia", None).startswith(
        "In 2021 Mia and Ildris moved"
    )


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Ildris and his kids joined Pollexfen Rowing Club.", ("Ildris", "membership", "Pollexfen Rowing Club")),
        ("Bryluen and her twins joined Pollexfen Rowing Club.", ("Bryluen", "membership", "Pollexfen Rowing Club")),
        ("Bryluen and her son signed up with Skelwith Fibre.", ("Bryluen", "membership", "Skelwith Fibre")),
        (
            "After a long winter, Bryluen and the kids moved to Brackenthwaite.",
            ("Bryluen", "residence", "Brackenthwaite"),
        ),
    ],
)
def test_a_relative_of_the_first_as_the_second_of_two_leaves_the_change_the_firsts(
    text: str, slot: tuple[str, str, str]
) -> None:
    slots = speaker_slots(text)
    assert slot in slots
    assert not [s for s in slots if s[0] == "Mia"]


@pytest.mark.parametrize(
    "text",
    [
        "My sister Bryluen and I moved to Brackenthwaite.",
        "In 2022 my sister Bryluen and I moved to Brackenthwaite.",
        "Recently Aunt Bryluen and I moved to Brackenthwaite.",
        "Over the summer Cousin Ildris and I moved to Brackenthwaite.",
        "Last winter my best friend Ildris and I moved to Brackenthwaite.",
    ],
)
def test_the_speaker_second_to_a_titled_or_named_relative_holds_the_state(text: str) -> None:
    assert_held_only_by(text, ("Mia", "residence", "Brackenthwaite"))


def test_a_partners_relative_is_their_own_subject_and_the_partner_has_no_possessive() -> None:
    assert_held_only_by(
        "My wife Bryluen's brother moved to Brackenthwaite.", ("Bryluen's brother", "residence", "Brackenthwaite")
    )
    assert ("Mia", "partner", "Ildris") in speaker_slots("My husband Ildris's car broke down again.")
