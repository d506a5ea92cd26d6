"""Names that open with a capital outside A-Z ("Łucja", "Évora", "Ốc Hương", "Ørsted") are names
on both paths: the states a speaker tells and the names a question asks about. Sentences and names
of my own."""

from __future__ import annotations

import re

import pytest
from support.states import speaker_slots

from memforest.retrieval.temporal.parse import parse_question
from memforest.text.lexicon import CAPITALS
from memforest.text.sentences import split_sentences


def test_the_capitals_are_the_upper_case_letters_of_latin_greek_and_cyrillic() -> None:
    capital = re.compile(f"[{CAPITALS}]")
    assert all(capital.fullmatch(c) for c in "AZÀÉÖØÞŁŚŻĐỐẞΩЖ")
    assert not any(capital.fullmatch(c) for c in "azéłđốωж×÷1 _")


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I joined Ủy Ban Climbing last week.", ("Mia", "membership", "Ủy Ban Climbing")),
        ("My sister Żywia moved to Ústrava.", ("Żywia", "residence", "Ústrava")),
        ("I switched my dentist to Dr. Ørskov.", ("Mia", "dentist", "Dr. Ørskov")),
    ],
)
def test_a_state_whose_names_open_with_such_a_capital(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_a_question_names_them() -> None:
    tq = parse_question("Where did Łucyna live before Édenvale?")
    assert tq.names[0] == "Łucyna"
    assert tq.anchor == "Édenvale"
    assert "Ốc Vàng" in parse_question("When did Ilse start going to Ốc Vàng?").names


def test_a_possessor_whose_name_opens_with_such_a_capital_owns_the_asked_noun() -> None:
    tq = parse_question("who was my physio before Keldor", speaker="Þórgunn")
    assert (tq.attribute, tq.anchor, tq.names[0]) == ("physio", "Keldor", "Þórgunn")


def test_a_title_of_another_language_ends_no_sentence() -> None:
    text = "Saw a new dentist today. Dra. Ofélia Brandão, very gentle. Mme. Quenneville cuts my hair."
    assert split_sentences(text) == [
        "Saw a new dentist today.",
        "Dra. Ofélia Brandão, very gentle.",
        "Mme. Quenneville cuts my hair.",
    ]
