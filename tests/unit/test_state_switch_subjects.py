"""Whose switch a sentence states and what it switched to (sentences of my own, ADR 0057): a verb
after "and" that has no subject of its own shares the first clause's ("Quentin dropped out of A
and enrolled at B" is Quentin's school); the place one starts at after leaving another is the
employer; a service moved to a provider is that service's state, not a home; "left A for B" is a
switch whose subject is never the place left."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # a clause that opens with its verb has the subject of the clause before it
        (
            "Quentin dropped out of Harrowgate Poly and enrolled at Vellum Institute.",
            ("Quentin", "school", "Vellum Institute"),
        ),
        (
            "Mia's godson Quentin dropped out of Harrowgate Poly and enrolled at Vellum Institute.",
            ("Quentin", "school", "Vellum Institute"),
        ),
        # a clause with a subject of its own keeps it
        (
            "Quentin dropped out of Harrowgate Poly and I enrolled at Vellum Institute.",
            ("Mia", "school", "Vellum Institute"),
        ),
        # the employer one starts at, not the one left
        (
            "Handed in my notice at Fallowmere Press; I start at Gristlebury Books on Monday.",
            ("Mia", "employer", "Gristlebury Books"),
        ),
        (
            "Finished at Fallowmere Press; starting at Gristlebury Books next week.",
            ("Mia", "employer", "Gristlebury Books"),
        ),
        ("Started at Hobbin & Crane in 2019 and I'm still there.", ("Mia", "employer", "Hobbin & Crane")),
        # a plain "start at" with no end of the old job may be no job: the job named first stays
        (
            "I work at Brackwell Foods, but I start at Tollgate Fitness tomorrow to get in shape.",
            ("Mia", "employer", "Brackwell Foods"),
        ),
        (
            "My job at Brackwell Foods is stressful; I start at Greenway Yoga next week to relax.",
            ("Mia", "employer", "Brackwell Foods"),
        ),
        ("I start work at Gristlebury Books on Monday.", ("Mia", "employer", "Gristlebury Books")),
        # a service moved over to a provider is the service's, not a home
        ("Moved Mia's gas and electric over to Lumenvale Energy.", ("Mia", "gas", "Lumenvale Energy")),
        # people moved somewhere are no service moved to a provider
        ("Moved my kids and dog to Dunmarrow.", ("Mia's kids", "residence", "Dunmarrow")),
        # "left A for B": a switch, and the place left is nobody
        ("Left Dunmarrow for Ettlesby for good.", ("Mia", "change", "Ettlesby")),
        ("Left Crossbeck Insurance for Merrowgate Cover for good.", ("Mia", "change", "Merrowgate Cover")),
    ],
)
def test_switch_subject_and_value(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


@pytest.mark.parametrize(
    "text",
    [
        "Tobin stayed in Dunmarrow and parents relocated to Ettlesby.",
        "Tobin stayed in Dunmarrow and cousins moved to Ettlesby.",
        "Tobin quit Fallowmere Press, as his boss Idris joined Gristlebury Books.",
    ],
)
def test_a_plural_noun_or_function_word_opening_a_clause_shares_no_subject(text: str) -> None:
    # "parents", "cousins" and "as" are no verb: the clause after them is not Tobin's
    assert all(subject != "Tobin" for subject, _, _ in speaker_slots(text))
