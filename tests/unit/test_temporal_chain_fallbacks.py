"""Chains a temporal plan finds when the asked kind's own chain cannot answer, and places that do
not make a home (sentences of my own): a club named after its town, a chain labelled by the
question's other words, a state first told inside an ended "during" span, a thing owned in a
statement that negates what it did."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memforest.retrieval.temporal.chains import link_generic
from memforest.retrieval.temporal.ended import left_span
from memforest.retrieval.temporal.state import State
from memforest.retrieval.temporal.termed import chain_labelled_by_terms, chain_sharing_terms
from memforest.retrieval.temporal.whose import owned
from tests.support.fact_rows import own_state_row
from tests.support.temporal_answers import answer_of

ME = "Orla"
NOW = datetime(2024, 12, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("labels", "values", "texts", "expected"),
    [
        # a club named after the town, the town named as where it is: no move of home
        (["residence", "membership"], ["Wexham", "Wexham Rovers"],
         ["Orla moved to Wexham.", "Orla joined the Wexham Rovers, ten minutes from Wexham."],
         ["residence", "membership"]),
        (["residence", "membership"], ["Wexham", "Tilly Readers"],
         ["Orla moved to Wexham.", "The old club was an hour's drive from Wexham, so Orla joined Tilly Readers."],
         ["residence", "membership"]),
        # a switch from the place to another is a move
        (["residence", "change"], ["Wexham", "Dunmore"],
         ["Orla moved to Wexham.", "Orla went from Wexham to Dunmore in spring."], ["residence", "residence"]),
        (["residence", "membership"], ["Wexham", "Tilly Readers"],
         ["Orla moved to Wexham.", "Orla joined Tilly Readers, an hour away from Wexham."],
         ["residence", "membership"]),
        # the place left, not where the new thing is: still linked
        (["residence", "possession"], ["Wexham", "Holt Cottage"],
         ["Orla moved to Wexham.", "Orla left Wexham behind and bought Holt Cottage."], ["residence", "residence"]),
        (["residence", "possession"], ["Wexham", "Holt Cottage"],
         ["Orla moved to Wexham.", "After moving away from Wexham, Orla bought Holt Cottage."],
         ["residence", "residence"]),
    ],
)  # fmt: skip
def test_a_place_named_only_where_the_new_thing_is_makes_no_home(
    labels: list[str], values: list[str], texts: list[str], expected: list[str]
) -> None:
    assert link_generic(labels, list(values), texts) == expected


ROWS: list[dict[str, Any]] = [
    own_state_row(1, 1, "Orla works at Corran Works.", ME, "employer", "Corran Works"),
    own_state_row(2, 2, "Orla moved to Wexham.", ME, "residence", "Wexham"),
    own_state_row(3, 5, "Orla joined the Wexham Rovers, ten minutes from Wexham.", ME, "membership", "Wexham Rovers"),
    own_state_row(4, 3, "Orla got a season ticket for Brackley Town.", ME, "season_ticket", "Brackley Town"),
    own_state_row(5, 9, "Orla started at Tidal Labs.", ME, "employer", "Tidal Labs"),
]


def test_a_club_named_after_the_town_is_joined_not_moved_to() -> None:
    assert answer_of(ROWS, "When did I join the Wexham Rovers?", ME, NOW) == 3


def test_a_chain_labelled_by_the_questions_other_words_answers() -> None:
    """No state of the asked kind (a football team); the season ticket's chain is labelled by the
    question's words."""
    rows = [row for row in ROWS if row["attribute"] != "membership"]
    assert answer_of(rows, "Which football team do I have a season ticket for now?", ME, NOW) == 4


def test_labels_and_statements_share_words_but_no_year() -> None:
    state = State(1, NOW, "Orla climbs at Gritwall on the morning of 3 May 2021.", "Gritwall", True)
    assert chain_sharing_terms([("climbing_gym", state)], ("2021", "car"), ME) is None
    assert chain_labelled_by_terms([("season_ticket", state)], ("season", "ticket"), "football_team") == "season_ticket"
    assert chain_labelled_by_terms([("season_ticket", state)], ("season", "ticket"), "season_ticket") is None


def test_a_state_first_told_late_in_an_ended_span_answers_for_the_span() -> None:
    """Orla was at Corran Works from January to September; the only home told is from July: it is
    where she lived then, though not yet at the span's middle."""
    rows = [
        own_state_row(1, 1, "Orla works at Corran Works.", ME, "employer", "Corran Works"),
        own_state_row(2, 7, "The damp in Orla's flat in Kilbride is awful.", ME, "residence", "Kilbride"),
        own_state_row(3, 9, "Orla started at Tidal Labs.", ME, "employer", "Tidal Labs"),
        own_state_row(4, 11, "Orla moved to Dunmore.", ME, "residence", "Dunmore"),
    ]
    assert answer_of(rows, "During my time at Corran Works, where did I live?", ME, NOW) == 2


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("Orla had to cancel Orla's Brackley Harriers membership.", True),
        ("Orla cancelled the Brackley Harriers.", True),
        ("Orla joined the Brackley Harriers.", False),
        ("Orla dropped Ana's Brackley Harriers kit at the club.", False),  # (another person's)
    ],
)
def test_cancelling_a_membership_leaves_it(text: str, left: bool) -> None:
    assert (left_span(text, "Brackley Harriers", ME) is not None) == left
    assert left_span(text, "", ME) is None


def test_a_club_told_only_as_it_was_cancelled_answers_no_during_span() -> None:
    """The only club told in Orla's Corran Works years is the one she cancelled as they ended: it
    held then, but its statement is no answer of which club she was in."""
    rows = [
        own_state_row(1, 1, "Orla works at Corran Works.", ME, "employer", "Corran Works"),
        own_state_row(2, 7, "Orla had to cancel Orla's Brackley Harriers membership.", ME, "patronage",
                      "Brackley Harriers"),
        own_state_row(3, 9, "Orla started at Tidal Labs.", ME, "employer", "Tidal Labs"),
    ]  # fmt: skip
    assert answer_of(rows, "During my time at Corran Works, which running club was I in?", ME, NOW) is None


def test_a_state_left_stays_unanswered_rather_than_read_from_another_chain() -> None:
    """Orla left her dentist: "who is my dentist now?" has no answer, not the job whose statement
    says "dentist"."""
    rows = [
        own_state_row(1, 2, "Orla's dentist is Dr. Moss.", ME, "dentist", "Dr. Moss"),
        own_state_row(2, 3, "Orla works as a receptionist at Pearl Dental, a dentist's practice.", ME, "employer",
                      "Pearl Dental"),
        own_state_row(3, 6, "Orla stopped seeing Dr. Moss.", ME),
    ]  # fmt: skip
    assert answer_of(rows, "Who is my dentist now?", ME, NOW) is None


def test_a_thing_owned_in_a_negated_statement_starts_its_state() -> None:
    """ "Orla's old Vexa wouldn't start" says she had the Vexa; the later sale names it."""
    rows = [
        own_state_row(1, 2, "Orla's old Vexa Coupe wouldn't start this morning.", ME),
        own_state_row(2, 8, "Orla picked up a Lumo Hatch and sold the Vexa to a neighbour.", ME, "possession",
                      "Lumo Hatch"),
    ]  # fmt: skip
    assert owned("Orla's old Vexa Coupe wouldn't start this morning.", "Vexa", ME)
    assert not owned("Orla never had a Vexa.", "Vexa", ME)
    assert answer_of(rows, "What car was I driving in April?", ME, NOW) == 1
