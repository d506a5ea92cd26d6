"""Write-side shapes of a state (issue 48 items 1 and 5), in sentences of my own (ADR 0086): a
switch of a kind named in the plural whose new value is the subject of the next clause; a home
stated by a transitive move is the home of the one moved; "started going to X" is a habit begun,
not a plan."""

from __future__ import annotations

import pytest
from support.states import SAID_AT, speaker_slots

from memforest.domain import FactKind
from memforest.text.kinds import fact_kind


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I switched tailors, Pomfret & Lyle alter my suits now.", ("Mia", "tailor", "Pomfret & Lyle")),
        ("Changed opticians; Dr. Wenlock checks my eyes these days.", ("Mia", "optician", "Dr. Wenlock")),
        ("Swapped banks, Quillfeather holds my pension now.", ("Mia", "bank", "Quillfeather")),
        # a switcher named before the verb; a pronoun in the next clause stands for them
        (
            "My nephew switched coaches, Harrow Rise Athletics trains him on Sundays.",
            ("Mia's nephew", "coach", "Harrow Rise Athletics"),
        ),
        # the clause says it holds now, of a name of several words
        ("Switched kennels, Brackenfold Boarding minds the dogs now.", ("Mia", "kennel", "Brackenfold Boarding")),
    ],
)
def test_the_next_clause_names_the_new_value(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


@pytest.mark.parametrize(
    "text",
    [
        "I switched tailors, Pomfret & Lyle is pricier.",  # a copula says what it is
        "I switched tailors, Pomfret & Lyle might alter my suits.",  # a hedge
        "Switched tailors, Oskar says hello.",  # one word acting on no one: maybe a person
    ],
)
def test_a_next_clause_that_does_not_act_on_the_switcher_names_no_value(text: str) -> None:
    assert all(attribute != "tailor" for _, attribute, _ in speaker_slots(text))


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("We moved Pickle to the Thornbury Stables.", "Pickle"),
        ("I moved Grandpa to Larchfield Lodge.", "Mia's grandpa"),
    ],
)
def test_a_transitive_move_is_the_home_of_the_one_moved(text: str, subject: str) -> None:
    assert [s for s, attribute, _ in speaker_slots(text) if attribute == "residence"] == [subject]


def test_an_intransitive_move_stays_the_movers() -> None:
    assert [s for s, attribute, _ in speaker_slots("We moved house to Kettlewick.") if attribute == "residence"] == [
        "Mia"
    ]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I started going to Brindle Pilates on Thursdays.", FactKind.EVENT),
        ("Stopped going to the Cobbold Baths, too crowded.", FactKind.EVENT),
        ("I'm going to book a table at Ravel.", FactKind.PLAN),
        ("We're going to the coast on Saturday.", FactKind.PLAN),
    ],
)
def test_going_to_after_a_verb_of_beginning_is_no_plan(text: str, kind: FactKind) -> None:
    assert fact_kind(text, [], SAID_AT) == kind


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Now I drive a Corbel Wayfarer.", "Corbel Wayfarer"),
        ("I drive a battered Lindqvist Tourer these days.", "Lindqvist Tourer"),
    ],
)
def test_a_name_one_drives_now_is_a_vehicle_of_no_known_make(text: str, value: str) -> None:
    assert speaker_slots(text) == [("Mia", "vehicle", value)]
