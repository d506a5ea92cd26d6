"""A sentence whose clauses state two slots' states files both, and a home told by its dwelling is
the place it is in (sentences of my own)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support.states import SAID_AT, speaker_slots

from memforest.domain import CellTurn, CellView
from memforest.text.clauses import clause_spans, shared_subject_clauses
from memforest.text.extractor import extract_cell


def _pieces(sentence: str) -> list[str]:
    return [sentence[a:b] for a, b in clause_spans(sentence)]


def test_clauses_are_cut_where_a_subject_of_their_own_begins() -> None:
    assert _pieces("My aunt Greta moved to Hull, so now I see Dr. Vance.") == [
        "My aunt Greta moved to Hull",
        "I see Dr. Vance.",
    ]
    assert _pieces("We left Corby in June; the twins go to Elm Row now.") == [
        "We left Corby in June",
        "the twins go to Elm Row now.",
    ]
    assert _pieces("Ana moved to Porto and she loves it.") == ["Ana moved to Porto", "she loves it."]
    # a verb with no subject of its own, an appositive name, a clause of two words: no cut
    assert _pieces("I left Quarry Foods and joined Tallis Labs.") == ["I left Quarry Foods and joined Tallis Labs."]
    assert _pieces("I found a barber, Sami at Fade Street.") == ["I found a barber, Sami at Fade Street."]
    assert _pieces("I moved to Ripon and I did.") == ["I moved to Ripon and I did."]


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        (
            "My brother Anselm moved to Oban, so I've started going to a new barber, Dev at Kingsway Cuts.",
            [("Anselm", "residence", "Oban"), ("Mia", "barber", "Dev")],
        ),
        (
            "My husband Ollie started at Fenmore Council last month and I joined Quayside Rowing Club.",
            # (and the husband named in apposition: Mia's partner)
            [
                ("Ollie", "employer", "Fenmore Council"),
                ("Mia", "membership", "Quayside Rowing Club"),
                ("Mia", "partner", "Ollie"),
            ],
        ),
        (
            "I'm renting in Whitby now and I drive a Calder Sport.",
            [("Mia", "residence", "Whitby"), ("Mia", "vehicle", "Calder Sport")],
        ),
        (
            "We moved to Ledbury in March; the kids now go to Orchard Lane School.",
            # (the kids' school, not the speaker's: ADR 0161)
            [("Mia", "residence", "Ledbury"), ("Mia's kids", "school", "Orchard Lane School")],
        ),
    ],
)
def test_each_clause_files_its_own_state(text: str, slots: list[tuple[str, str, str]]) -> None:
    assert [s for s in speaker_slots(text) if s[1] is not None] == slots


@pytest.mark.parametrize(
    "text",
    [
        "I moved to Settle in May and the rent is much cheaper.",  # one state: the sentence stays whole
        "I used to live in Bude, and now I live in Looe.",  # one slot twice: the sentence's reading
        "I might move to Truro next year, but for now I'm happy where I am.",  # a plan
    ],
)
def test_a_sentence_of_one_state_stays_one_fact(text: str) -> None:
    assert len(speaker_slots(text)) == 1


def test_each_clause_keeps_its_own_time() -> None:
    cell = CellView(
        "s",
        SAID_AT,
        (
            CellTurn(
                0, "Mia", "I joined Fairholme Choir in January, and my friend Cato moved to Skipton last week.", SAID_AT
            ),
        ),
    )
    facts = {c.subject: c for c in extract_cell(cell) if c.attribute is not None}
    assert facts["Mia"].valid_from == datetime(2023, 1, 1, tzinfo=UTC)
    assert facts["Cato"].valid_from.date() < SAID_AT.date()
    assert facts["Cato"].valid_from.date() >= datetime(2023, 5, 1, tzinfo=UTC).date()
    assert facts["Mia"].text.startswith("Mia joined Fairholme Choir") and "Cato" not in facts["Mia"].text


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "As of Monday I officially live in a narrow terraced house on Quillon Row.",
            ("Mia", "residence", "Quillon Row"),
        ),
        ("We moved into a flat in Dunhavel last spring.", ("Mia", "residence", "Dunhavel")),
        ("Honestly my flat on Corrigan Lane is freezing.", ("Mia", "residence", "Corrigan Lane")),
        # a day after "home": no home now (one left: tests/unit/test_former_things.py)
        ("Meet Juniper, the cat my aunt brought home on Sunday.", ("Mia's aunt", "pet", "Juniper")),
    ],
)
def test_a_home_told_by_its_dwelling_is_the_place_it_is_in(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("I moved to Ripon in March and started at Hallam Print last week.",
         [("Mia", "residence", "Ripon"), ("Mia", "employer", "Hallam Print")]),
        ("My brother Tove now works for Lantern Labs and moved to Corbridge.",
         [("Tove", "employer", "Lantern Labs"), ("Tove", "residence", "Corbridge")]),
        ("We adopted a lurcher called Pip and registered him with Bramley Vets.",
         [("Mia", "pet", "Pip"), ("Mia", "patronage", "Bramley Vets")]),
    ],
)  # fmt: skip
def test_two_verb_phrases_of_one_subject_state_two_states(text: str, slots: list[tuple[str, str, str]]) -> None:
    assert speaker_slots(text) == slots


def test_a_switch_told_by_two_verb_phrases_stays_one() -> None:
    assert shared_subject_clauses("Ana quit Corvo and joined Beta Labs.") == ("Ana quit Corvo", "Ana joined Beta Labs.")
    assert speaker_slots("I quit Corvo Foods and joined Beta Labs.") == [("Mia", "change", "Beta Labs")]
    assert shared_subject_clauses("Moved to Ripon and started at Hallam Print.") is None  # no subject to share
