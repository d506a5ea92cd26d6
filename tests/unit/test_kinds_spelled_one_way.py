"""A kind's other spellings file under one slot on both sides ("physiotherapist" a physio, "GP" a
doctor); a question's kind named by the work done on one's own thing ("who does my taxes": an
accountant), by what is provided ("who supplies the gas": its provider), by a doer after a leading
clause, and past a bare "current one" (questions and sentences of my own)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from support.reads import question_of
from support.states import speaker_slots

from memforest.retrieval.temporal.chains import names_kind
from memforest.retrieval.temporal.parse import TemporalQuestion
from memforest.retrieval.temporal.worded import kind_words
from memforest.text.changes import slot_key

NOW = datetime(2025, 9, 3, 12, 0, tzinfo=UTC)


def _read(question: str, speaker: str = "Zsofika") -> TemporalQuestion:
    return question_of(question, now=NOW, speaker=speaker).temporal


@pytest.mark.parametrize(
    ("noun", "slot"),
    [
        ("physiotherapists", "physio"),
        ("GP", "doctor"),
        ("roommate", "flatmate"),
        ("landlady", "landlord"),
        ("sports physiotherapist", "sports_physio"),
        ("family doctor", "family_doctor"),
        ("dentist", "dentist"),
    ],
)
def test_a_kind_is_filed_under_its_one_spelling(noun: str, slot: str) -> None:
    assert slot_key(noun) == slot


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My physiotherapist is Dr. Quennell now.", ("Zsofika", "physio", "Dr. Quennell")),
        ("I switched physiotherapists, I see Brannagh Lute now.", ("Zsofika", "physio", "Brannagh Lute")),
        ("My physio Brannagh Lute fixed my shoulder.", ("Zsofika", "physio", "Brannagh Lute")),
        ("My GP these days is Dr. Harrowgate.", ("Zsofika", "doctor", "Dr. Harrowgate")),
    ],
)
def test_statements_with_either_spelling_fill_one_slot(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text, speaker="Zsofika")


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("Who is my physiotherapist now?", "physio"),
        ("Who was my physio last year?", "physio"),
        ("Who was Casimir's GP in March 2023?", "doctor"),
    ],
)
def test_a_question_asks_for_the_slot_its_kind_is_filed_under(question: str, attribute: str) -> None:
    assert _read(question).attribute == attribute


def test_a_statement_names_a_kind_by_another_spelling() -> None:
    assert names_kind("Dr. Harrowgate, her GP, retired.", "doctor")
    pattern = kind_words("doctor")
    assert pattern is not None
    assert re.search(pattern, "my new GP", re.IGNORECASE) and re.search(pattern, "two GPs", re.IGNORECASE)
    # another spelling is a whole word: a GPS names no doctor
    assert not names_kind("I switched to my new GPS.", "doctor")
    assert not re.search(pattern, "my new GPS", re.IGNORECASE)


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("Who did Casimir's taxes in 2022?", "accountant"),
        ("Who was doing my books last year?", "accountant"),
        ("Where did I get my hair cut before the move?", "hairdresser"),
        ("Where was Casimir having his teeth cleaned in 2021?", "dentist"),
        ("Who got my car serviced last spring?", "mechanic"),
        ("Who supplies the gas at my flat now?", "gas_provider"),
        ("Who provided Casimir's broadband in 2023?", "broadband_provider"),
        ("While I lived in Quarrendon, who coached my hockey team?", "coach"),
        ("In 2019, who coached Casimir's hockey team?", "coach"),
        ("Who's doing my taxes these days?", "accountant"),
        ("Who provides my new home insurance?", "home_insurance_provider"),
        ("Who did I go to for massages before my current one?", "massage"),
    ],
)
def test_a_kind_is_named_by_what_is_done_or_provided(question: str, attribute: str) -> None:
    assert _read(question).attribute == attribute


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("What car did Casimir drive in 2022?", "vehicle"),  # a car named, nothing done to it
        ("What was her furry one called in 2021?", "pet"),  # a "one" whose word before it names a kind
        ("Who provides it now?", None),  # a pronoun is no kind
        ("Who provides my current broadband?", "broadband_provider"),  # "current" tells which one
        # work done or a doer in a clause that is not the question's own "who"
        ("Who was my dentist when I got my hair cut short?", "dentist"),
        ("Who was my GP when I had my teeth cleaned?", "doctor"),
        ("Where did Casimir's brother, who coaches football, work in 2020?", "employer"),
    ],
)
def test_no_service_is_read_where_none_is_named(question: str, attribute: str | None) -> None:
    assert _read(question).attribute == attribute


@pytest.mark.parametrize(
    ("question", "worker"),
    [
        ("Where did my books go after the move?", "accountant"),  # "did" asks; no one does the books
        ("When did my teeth start hurting?", "dentist"),
        ("How long did Casimir's hair take to grow back?", "hairdresser"),
        ("Who supplies us with gas now?", "us_provider"),
        ("Who provided for her after the divorce?", "for_provider"),
        ("When I got my hair cut short, who was my dentist?", "hairdresser"),  # the work is the clause's
        ("When did I last have my car checked?", "mechanic"),  # the event's time is asked
    ],
)
def test_an_auxiliary_or_a_preposition_names_no_service(question: str, worker: str) -> None:
    assert _read(question).attribute != worker
