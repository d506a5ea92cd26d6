"""Two grammar rules of the write path's state slot (issue 48, open-ended states of other people):

* a subject pronoun ("he", "she") opening a later clause is the one person the sentence named as a
  subject before it: "Ingrid quit the bakery, she works at X now" is Ingrid's job, not the
  speaker's; with two people named before it the words do not say whose, and the rule says nothing;
* a dwelling word capitalised after a capitalised word heads a proper name (a place or a business
  called "... Cottage"), not a kind of home: a home type is a common noun ("my cottage").

Sentences of their own (no benchmark template, name or place)."""

from __future__ import annotations

import pytest

from memforest.domain import FactKind
from memforest.text.state_slot import state_slot

SPEAKER = "Pavel"


def slot(text: str) -> tuple[str, str, str] | None:
    return state_slot(text, FactKind.EVENT, SPEAKER, (SPEAKER,))


@pytest.mark.parametrize(
    ("text", "subject", "value"),
    [
        ("Ingrid quit the bakery, she works at Copperleaf Studios now.", "Ingrid", "Copperleaf Studios"),
        ("Ingrid sold the old van, and now she drives a Skoda Octavia.", "Ingrid", "Skoda Octavia"),
    ],
)
def test_a_pronoun_opening_a_later_clause_is_the_person_named_before(text: str, subject: str, value: str) -> None:
    got = slot(text)
    assert got is not None and (got[0], got[2]) == (subject, value)


def test_a_pronoun_after_two_people_names_neither() -> None:
    got = slot("Ingrid met Tomas at the gym, he works at Copperleaf Studios now.")
    assert got is None or got[0] not in ("Ingrid", "Tomas")


@pytest.mark.parametrize(
    "text",
    [
        "Pavel cancelled Ferncroft Cottage and books massages at Willow Spa now.",
        "Pavel loves Bramble Loft, the climbing hall on Quay Street.",
        "Pavel rented a room at Harbour House for the summer.",
    ],
)
def test_a_dwelling_word_heading_a_name_is_no_home_type(text: str) -> None:
    got = slot(text)
    assert got is None or got[1] != "home_type"


@pytest.mark.parametrize(
    ("text", "value"),
    [("Pavel's cottage is freezing in January.", "cottage"), ("Loving the new loft, so much light.", "loft")],
)
def test_a_dwelling_word_as_a_common_noun_is_still_a_home_type(text: str, value: str) -> None:
    assert slot(text) == (SPEAKER, "home_type", value)
