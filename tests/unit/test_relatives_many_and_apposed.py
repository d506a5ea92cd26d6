"""Relatives told of in the plural hold their own states ("Ffion's kids go to X"), in statements and
in questions; a person named with their role in apposition after the verb whose object they are
("Ffion adores Rosel, her hairdresser.", "met Bram (my new flatmate)") is that role's holder's
state. Sentences, names and places of my own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import speaker_slots

from memforest.retrieval.temporal.parse import parse_question


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Ffion's kids go to Saltmarsh Primary.", ("Ffion's kids", "school", "Saltmarsh Primary")),
        ("Ffion's daughters attend Saltmarsh Primary now.", ("Ffion's daughters", "school", "Saltmarsh Primary")),
        ("Tiberio's parents live in Aberporth now.", ("Tiberio's parents", "residence", "Aberporth")),
        ("Tiberio's siblings live in Aberporth.", ("Tiberio's siblings", "residence", "Aberporth")),
        ("My cousins moved to Aberporth.", ("Mia's cousins", "residence", "Aberporth")),
        ("My kids go to Saltmarsh Primary.", ("Mia's kids", "school", "Saltmarsh Primary")),
        # one relative reads as before
        ("Ffion's son goes to Saltmarsh Primary.", ("Ffion's son", "school", "Saltmarsh Primary")),
    ],
)
def test_relatives_in_the_plural_hold_their_own_state(text: str, slot: tuple[str, str, str]) -> None:
    slots = speaker_slots(text)
    assert slot in slots
    assert not [s for s in slots if s[0] == "Mia" and s[2] == slot[2]]  # never the speaker's


@pytest.mark.parametrize(
    ("question", "relatives"),
    [
        ("Where do Ffion's kids go to school?", {"Ffion's kids", "Ffion's children"}),
        ("Which school did Ffion's children go to before Saltmarsh?", {"Ffion's kids", "Ffion's children"}),
        ("Where did Tiberio's parents live in 2019?", {"Tiberio's parents", "Tiberio's folks"}),
    ],
)
def test_a_question_about_relatives_in_the_plural_asks_about_them(question: str, relatives: set[str]) -> None:
    tq = parse_question(question, speaker="Wenna")
    assert relatives <= set(tq.names), tq
    assert tq.attribute in ("school", "residence"), tq


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Ffion adores Rosel, her hairdresser.", ("Ffion", "hairdresser", "Rosel")),
        ("I met Bram (my new flatmate) today.", ("Mia", "flatmate", "Bram")),
        ("Hung out with Bram (my new flatmate) today.", ("Mia", "flatmate", "Bram")),
        ("We had lunch with Odile, Ffion's new girlfriend.", ("Ffion", "partner", "Odile")),
    ],
)
def test_a_role_in_apposition_after_the_object_names_its_holders_state(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "I called Bram, Ffion's brother.",  # a relative by birth is no state
        "I miss Rosel, my old hairdresser.",  # a former one
        "I had tea with Bram, my neighbour.",  # one of several neighbours, not said to be new
        "I bumped into Bram, my friend from school.",  # a person met, no school
        "We lost Bram, our dog.",  # a holding ended
        "Ffion broke up with Bram, her boyfriend.",
    ],
)
def test_an_apposition_that_names_no_held_role_is_no_state(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] and s[2] in ("Bram", "Rosel")]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Ffion's kids are obsessed with my new job at Tarrant Freight.", ("Mia", "employer", "Tarrant Freight")),
        ("Ffion's sister is coming to stay at my place in Aberporth.", ("Mia", "residence", "Aberporth")),
        # ... but a move of the one who opens the clause stays theirs, and a plural possessive owns nothing
        (
            "Ffion's sister is staying at my place until she moves to Aberporth.",
            ("Ffion's sister", "residence", "Aberporth"),
        ),
        ("I adopted my brothers' old cat, Miso.", ("Mia", "pet", "Miso")),
    ],
)
def test_the_speakers_own_thing_stays_the_speakers_whoever_opens_the_clause(
    text: str, slot: tuple[str, str, str]
) -> None:
    assert slot in speaker_slots(text)


def test_a_relatives_own_possessive_still_names_the_relative() -> None:
    assert "Ffion's mum" in parse_question("Who was my mum's GP in 2019?", speaker="Ffion").names
    assert "Tiberio's parents" in parse_question("Where is Tiberio's parents' house?", speaker="Wenna").names
