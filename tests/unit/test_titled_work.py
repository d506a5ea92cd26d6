"""A job title and an employer told in one phrase are two states of one person, each filed by its
own fact: the employer with the whole sentence, the title with the sentence up to the title (or
the other way round when the organisation is named first). The sentences are mine, none a
benchmark template's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support.states import speaker_slots

from memforest.domain import CellTurn, CellView
from memforest.text.extractor import extract_cell
from memforest.text.titled_work import titled_at

SAID_AT = datetime(2024, 3, 6, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("I'm a pastry cook at Brasserie Wendel these days.", [("Mia", "employer", "Brasserie Wendel"),
                                                              ("Mia", "job", "pastry cook")]),
        ("My brother Oskar is now a senior surveyor at Harrowgate Partners.",
         [("Oskar", "employer", "Harrowgate Partners"), ("Oskar", "job", "senior surveyor")]),
        ("I'm a nurse on the night ward at Pellow Infirmary.", [("Mia", "employer", "Pellow Infirmary"),
                                                                ("Mia", "job", "nurse")]),
        ("I joined Quorrin Dental Care as a receptionist.", [("Mia", "employer", "Quorrin Dental Care"),
                                                             ("Mia", "job", "receptionist")]),
        ("I started at Kestrel Boxing as a receptionist.", [("Mia", "employer", "Kestrel Boxing"),
                                                            ("Mia", "job", "receptionist")]),
        ("My aunt Vee has just started as head baker at Lindqvist Foods.",
         [("Vee", "employer", "Lindqvist Foods"), ("Vee", "job", "head baker")]),
        ("I got a job as an IT technician at Soren Logistics!", [("Mia", "employer", "Soren Logistics"),
                                                                 ("Mia", "job", "IT technician")]),
    ],
)  # fmt: skip
def test_a_title_at_an_organisation_files_both(text: str, slots: list[tuple[str, str, str]]) -> None:
    assert speaker_slots(text) == slots


def test_each_state_has_a_text_of_its_own() -> None:
    view = CellView("s", SAID_AT, (CellTurn(0, "Mia", "I'm a pastry cook at Brasserie Wendel.", SAID_AT),))
    texts = {c.attribute: c.text for c in extract_cell(view)}
    assert texts == {"employer": "Mia is a pastry cook at Brasserie Wendel.", "job": "Mia is a pastry cook."}


@pytest.mark.parametrize(
    "text",
    [
        "Mia's manager at Orrery Freight is retiring.",  # a possessive "'s" gives no one a title
        "Mia is a member at Tollgate Golf Club.",  # no job by its form
        "Mia is a pupil at Whitmoor High.",
        "Mia works at Orrery Freight.",  # no title told
    ],
)
def test_no_title_no_pair(text: str) -> None:
    assert titled_at(text) is None
