"""Whose state a relative clause on the value names (issue 48 item 2, ADR 0084): "This is Nutmeg,
the gecko Wenna's uncle rescued" is the uncle's, not the speaker's; a giver's clause names no
holder; a place one is brought to is no one taken on by an employer. The names, the animals
(gecko, hedgehog, axolotl, chinchilla) and the sentence shapes (a presentative "This is X" /
"Introducing X", the value opening the sentence with the clause inside it) are mine, none a
benchmark template's."""

from __future__ import annotations

import pytest

from memforest.domain import FactKind
from memforest.text.change_subjects import clause_subject
from memforest.text.state_slot import state_slot

ME = "Wenna"


def _slot(text: str) -> tuple[str, str, str] | None:
    return state_slot(text, FactKind.EVENT, ME, (ME,))


@pytest.mark.parametrize(
    ("text", "holder", "value"),
    [
        (
            "This is Nutmeg, the gecko Wenna's uncle rescued from a pet shop that was closing.",
            "Wenna's uncle",
            "Nutmeg",
        ),
        ("Introducing Bramble, a hedgehog that Wenna's cousin Idris adopted in March.", "Idris", "Bramble"),
        ("Nutmeg, the gecko Wenna's uncle rescued, sleeps under a heat lamp.", "Wenna's uncle", "Nutmeg"),
        ("Pebble, the axolotl Idris took home from the fair, glows under the lamp.", "Idris", "Pebble"),
    ],
)
def test_the_subject_of_a_relative_clause_on_the_value_holds_it(text: str, holder: str, value: str) -> None:
    assert _slot(text) == (holder, "pet", value)


def test_the_speakers_own_clause_stays_the_speakers() -> None:
    assert _slot("This is Nutmeg, the gecko Wenna adopted in March.") == ("Wenna", "pet", "Nutmeg")


def test_a_givers_clause_names_no_holder() -> None:
    assert clause_subject("This is Nutmeg, the gecko Wenna's uncle handed her.", "Nutmeg") is None
    assert clause_subject("Pebble, the axolotl Idris sold Wenna, hardly moves.", "Pebble") is None


def test_no_clause_no_holder() -> None:
    assert clause_subject("Nutmeg the gecko basks all afternoon.", "Nutmeg") is None
    assert clause_subject("This is Nutmeg, the gecko.", "Nutmeg") is None


def test_a_place_brought_to_is_no_one_taken_on_by_an_employer() -> None:
    assert _slot("This is Bramble, the hedgehog Idris brought home from the allotment.") == ("Idris", "pet", "Bramble")
    found = _slot("Grimwald Studio brought Wenna on as an illustrator.")
    assert found is not None and found[1] == "employer" and found[2] == "Grimwald Studio", found


def test_the_possessor_right_before_a_named_noun_holds_the_value() -> None:
    assert _slot("Wenna's uncle's new gecko, Nutmeg, hides all day.") == ("Wenna's uncle", "pet", "Nutmeg")
    assert _slot("Wenna's cousin Idris's new axolotl, Pebble, hardly moves.") == ("Idris", "pet", "Pebble")
    assert _slot("Wenna's new chinchilla, Dusty, rolls in sand.") == ("Wenna", "pet", "Dusty")
