"""Whose state a relative clause on the value names (issue 48 item 2, ADR 0084): "Meet X, the
lizard Wenna's uncle carried home" is the uncle's, not the speaker's; a giver's clause names no
holder; a place one is brought to is no one taken on by an employer. Sentences and names of my own."""

from __future__ import annotations

import pytest

from memforest.domain import FactKind
from memforest.text.change_subjects import clause_subject
from memforest.text.state_slot import state_slot

ME = "Wenna"


def _slot(text: str) -> tuple[str, str, str] | None:
    return state_slot(text, FactKind.EVENT, ME, (ME,))


@pytest.mark.parametrize(
    ("text", "holder"),
    [
        ("Meet Quillon, the tortoise Wenna's uncle adopted last spring.", "Wenna's uncle"),
        ("Meet Dapple, the pony Wenna's aunt Sorcha rescued from the sale.", "Sorcha"),
        ("Meet Fidget, the ferret Brannoch took home from the fair.", "Brannoch"),
        ("Meet Marzipan, the kitten that Wenna's flatmate found in the shed.", "Wenna's flatmate"),
    ],
)
def test_the_subject_of_a_relative_clause_on_the_value_holds_it(text: str, holder: str) -> None:
    found = _slot(text)
    assert found is not None and found[0] == holder and found[1] == "pet", found


def test_the_speakers_own_clause_stays_the_speakers() -> None:
    found = _slot("Meet Quillon, the tortoise Wenna adopted last spring.")
    assert found == ("Wenna", "pet", "Quillon")


def test_a_givers_clause_names_no_holder() -> None:
    assert clause_subject("Meet Quillon, the tortoise Wenna's uncle gave her.", "Quillon") is None
    assert clause_subject("Meet Quillon, the tortoise Brannoch sold Wenna.", "Quillon") is None


def test_no_clause_no_holder() -> None:
    assert clause_subject("Quillon the tortoise sleeps all winter.", "Quillon") is None
    assert clause_subject("Meet Quillon, the tortoise.", "Quillon") is None


def test_a_place_brought_to_is_no_one_taken_on_by_an_employer() -> None:
    found = _slot("Meet Fidget, the ferret Brannoch brought home on Sunday.")
    assert found is not None and found[1] == "pet" and found[0] == "Brannoch", found
    found = _slot("Harrowgate Labs brought Wenna on as a tester.")
    assert found is not None and found[1] == "employer" and found[2] == "Harrowgate Labs", found


def test_the_possessor_right_before_a_named_noun_holds_the_value() -> None:
    assert _slot("Wenna's uncle's new tortoise, Quillon, hides all day.") == ("Wenna's uncle", "pet", "Quillon")
    assert _slot("Wenna's aunt Sorcha's new ferret, Fidget, bites.") == ("Sorcha", "pet", "Fidget")
    assert _slot("Wenna's new tortoise, Quillon, hides all day.") == ("Wenna", "pet", "Quillon")
