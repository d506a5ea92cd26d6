"""Kinds of state told in passing that the rule reader now reads (ADR 0140): a thing by its make and
kind come by (bought, given, fitted), a provider one opened an account with or is on a deal with, a
group joined at where it meets, a practitioner one was referred to, a job title told alone or as
"As a ...", lessons taken, a medicine by its form; and what still states nothing (a work dinner, a
flat-top grill, a dwelling of a kind, a nanny who finished). Sentences and names of my own, no
benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("We just bought a Morvik double buggy for the baby.", ("Mia", "double_buggy", "Morvik")),
        ("Tariq got me a Pellino smartwatch for Christmas.", ("Mia", "smartwatch", "Pellino")),
        ("The Ostrava RX-2 dishwasher we bought last month is already leaking.", ("Mia", "dishwasher", "Ostrava RX-2")),
        ("The Calderia heat pump got installed on Monday, what should I set it to?", ("Mia", "heat_pump", "Calderia")),
        ("My Tamburo rice cooker keeps burning the bottom layer.", ("Mia", "rice_cooker", "Tamburo")),
        ("Opened an account with Fenwright Savings last week.", ("Mia", "patronage", "Fenwright Savings")),
        ("Went with Calloway Direct for the home insurance this year.", ("Mia", "patronage", "Calloway Direct")),
        ("I'm on a £12 sim-only deal with Brisa Mobile.", ("Mia", "patronage", "Brisa Mobile")),
        ("My pet cover's with Hollin Mutual now.", ("Mia", "patronage", "Hollin Mutual")),
        ("I just joined the choir at St Brannoc's and loved it.", ("Mia", "choir", "St Brannoc's")),
        ("My brother Ilya joined the chess club at Quarry Library.", ("Ilya", "chess_club", "Quarry Library")),
        (
            "I left the Dunmore running club and joined the one at Pellow Park.",
            ("Mia", "running_club", "Pellow Park"),
        ),
        ("Just got referred to a physio at Strand Motion and the stretches hurt.", ("Mia", "physio", "Strand Motion")),
        ("I'm a freelance translator, so my hours are all over the place.", ("Mia", "job", "freelance translator")),
        ("My aunt Rosa is a retired surveyor and still does odd jobs.", ("Rosa", "job", "retired surveyor")),
        ("I'm a pharmacist at Kellow Chemists.", ("Mia", "employer", "Kellow Chemists")),
        ("I'm a pharmacist at Kellow Chemists.", ("Mia", "job", "pharmacist")),
        ("As a night porter at the Hotel Varna, how do I stay awake?", ("Mia", "employer", "Hotel Varna")),
        ("Started bouzouki lessons last week and my fingers hurt.", ("Mia", "lesson", "bouzouki")),
        ("The GP put me on iron tablets for a month.", ("Mia", "medication", "iron tablets")),
        ("Been on vitamin D since October.", ("Mia", "medication", "vitamin d")),
        ("Carrow Lettings is our landlord and they never answer the phone.", ("Mia", "landlord", "Carrow Lettings")),
        ("Evening shifts for now, 2 till 10.", ("Mia", "shift", "evening shifts")),
        ("Joss has been put on night shifts at the bakery.", ("Joss", "shift", "night shifts")),
        ("Still on Pollenex tablets, two a day.", ("Mia", "medication", "pollenex tablets")),
        ("Renewed the car insurance with Bramble Cover again.", ("Mia", "patronage", "Bramble Cover")),
        ("First week at Quillon Maps done!", ("Mia", "employer", "Quillon Maps")),
        ("The mandolin I bought in June is already out of tune.", ("Mia", "instrument", "mandolin")),
        ("Found a new barber! Teodor at Sharp Lines did a great fade.", ("Mia", "barber", "Teodor")),
        ("My uncle moved to Ravenhoe too.", ("Mia's uncle", "residence", "Ravenhoe")),
        ("Ines left Corvo Labs and started at Pintail Clinic. Less travel.", ("Ines", "patronage", "Pintail Clinic")),
        ("My cousin Wren has been appointed head of design at Tallis Print!", ("Wren", "employer", "Tallis Print")),
        ("My cousin Wren has been appointed head of design at Tallis Print!", ("Wren", "job", "head of design")),
        ("I'm a sonographer on weekends, mostly.", ("Mia", "job", "sonographer")),
        ("Filled up the Brava hatchback on the way to work.", ("Mia", "vehicle", "Brava")),
        ("The Sorrel heat pump we had put in in May hums at night.", ("Mia", "heat_pump", "Sorrel")),
    ],
)
def test_a_state_told_in_passing_is_read(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "We almost bought a Morvik buggy but it was too heavy.",  # weighed
        "I'm thinking of opening an account with Fenwright Savings.",  # a plan
        "Should I go with Calloway Direct for the home insurance?",  # a question
        "I nearly joined the choir at St Brannoc's.",
        "I'm a worrier, always have been.",  # a trait, no job
        "I'm a terrible cook.",
        "I might start bouzouki lessons.",
        "Had a work dinner at Salt & Ember on Friday.",  # a dinner, no workplace
        "Burnt my thumb on the flat-top at lunch.",  # a grill, no home
        "Is a heat pump worth it for a 2 bedroom flat?",
        "Heat pump or gas boiler for a 3 bedroom house, which is cheaper?",
        "Nadia, our cleaner, finished with us in May.",  # one who was
    ],
)
def test_no_state_of_the_speaker_where_none_is_told(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[0] == "Mia"], speaker_slots(text)


def test_a_replacement_is_no_job() -> None:
    assert not [s for s in speaker_slots("Got a Velto charger as a replacement.") if s[1] == "job"]


@pytest.mark.parametrize(
    "text",
    [
        "Leif moved abroad, so I switched to Runa at Fjell Hair.",  # the switch, not a home
    ],
)
def test_a_value_of_another_clause_is_no_home(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] == "residence"], speaker_slots(text)


def test_a_statement_runs_on_past_an_emoji_into_its_question() -> None:
    slots = speaker_slots("My wife Lena has joined the Harrow Brass Band on cornet 🎺 cheap ways to soundproof a shed?")
    assert ("Lena", "membership", "Harrow Brass Band") in slots


def test_when_someone_works_is_filed_beside_their_work() -> None:
    slots = speaker_slots("I work lates at Corrin Foods, 2 till 10.")
    assert ("Mia", "employer", "Corrin Foods") in slots
    assert ("Mia", "shift", "lates") in slots
    slots = speaker_slots("My brother Tobi is a porter at Vale General and he has just gone onto nights.")
    assert ("Tobi", "employer", "Vale General") in slots
    assert ("Tobi", "shift", "nights") in slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("how do I descale my Velora espresso machine?", ("Mia", "espresso_machine", "Velora")),
        ("can you proofread this note to my landlord Mr Obi?", ("Mia", "landlord", "Mr Obi")),
        ("Should I complain to my dentist at Brightsmile?", ("Mia", "dentist", "Brightsmile")),
    ],
)
def test_a_question_files_what_it_presupposes(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize("text", ["is a Velora espresso machine good?", "should I sell my Velora espresso machine?"])
def test_a_question_about_a_thing_one_may_not_have_files_none(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1]]
