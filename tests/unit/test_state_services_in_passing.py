"""States told in passing while the sentence is about something else: a provider's tariff one is
on, a service used for something, a practitioner seen or named with where they practise, gig work
one drives for, a provider gone with after dropping another; and what does not hide them: a
dwelling no one is said to hold, a later clause's negation, a habit told as a refusal. Sentences
and names of my own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import SAID_AT, speaker_slots

from memforest.domain import FactKind
from memforest.text.associated import find_associated
from memforest.text.dwelling import dwelling_held
from memforest.text.kinds import fact_kind


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("We're on Lumen Gas's fixed tariff until May.", ("Mia", "patronage", "Lumen Gas")),
        ("My mum is on Tessaly's prepaid plan.", ("Mia's mum", "patronage", "Tessaly")),
        ("I use Parcelo for all my deliveries.", ("Mia", "patronage", "Parcelo")),
        ("I see Dr. Oyelaran for my back.", ("Mia", "patronage", "Dr. Oyelaran")),
        ("My new doctor in Kelby is Dr. Amsel and she is great.", ("Mia", "doctor", "Dr. Amsel")),
        ("My dentist in town is Dr. Amsel.", ("Mia", "dentist", "Dr. Amsel")),
        ("My brother Yaw started driving for Cabzy.", ("Yaw", "employer", "Cabzy")),
        ("Priya delivers for Zipbox now.", ("Priya", "employer", "Zipbox")),
        ("We dropped Kelvix Broadband and went with Orbit Fibre.", ("Mia", "patronage", "Orbit Fibre")),
        ("Ana quit Kelvix and went with Orbit Fibre.", ("Ana", "patronage", "Orbit Fibre")),
    ],
)
def test_a_state_told_in_passing_is_read(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "I used Parcelo for the move.",  # a past use
        "I might use Parcelo for my deliveries.",  # a use weighed
        "I'm not on Brightpath's tariff anymore.",  # denied
        "I was driving for an hour.",  # no one driven for
        "I had a coffee and went to Leeds.",  # a trip, no provider gone with
        "We had dinner and went with Sam to the cinema.",  # a companion, no provider
        "I'm on Ravi's family plan.",  # a person's plan
        "I stopped driving for Cabzy last month.",  # gig work told as over
        "I was delivering for Zipbox back in college.",
    ],
)
def test_no_state_where_the_sentence_tells_none(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] in ("patronage", "employer")]


def test_a_dwelling_no_one_holds_yields_to_the_change_told_beside_it() -> None:
    slots = speaker_slots("My son Idris switched from violin to cello and honestly the house is so quiet now.")
    assert ("Idris", "hobby", "cello") in slots
    assert ("Mia", "patronage", "Halvard Mutual") in speaker_slots("We're insured with Halvard Mutual for the house.")
    # a dwelling held or lived in still tells the kind of home
    assert ("Mia", "home_type", "flat") in speaker_slots("We live in a flat near the station.")
    assert ("Mia", "home_type", "flat") in speaker_slots("I had to rehome the cat, the flat was too small.")


def test_dwelling_held_reads_possessives_and_verbs_of_living() -> None:
    def at(text: str) -> bool:
        return dwelling_held(text, text.rfind("flat"))

    assert at("Mia's 4th floor flat")
    assert at("we moved into a flat")
    assert at("Mia is in a flat")
    assert not at("the flat was quiet")
    assert not at("practising in a flat")


def test_a_negation_in_a_later_clause_of_another_subject_leaves_the_state() -> None:
    slots = speaker_slots("I went vegan in March and I'm running out of lunches that aren't just toast.")
    assert ("Mia", "diet", "vegan") in slots


def test_a_habit_told_as_a_refusal_is_no_plan() -> None:
    assert fact_kind("Biscuit, our new kitten, will not stop climbing the curtains.", [], SAID_AT) is not FactKind.PLAN
    assert fact_kind("Bo won't eat his biscuits.", [], SAID_AT) is not FactKind.PLAN
    assert fact_kind("I will stop climbing next year.", [], SAID_AT) is FactKind.PLAN
    assert ("Mia", "pet", "Biscuit") in speaker_slots("Biscuit, our new kitten, will not stop climbing the curtains.")


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # an opening quote or dash right before a name or an owner
        ("'Little Acorns (Ana's daycare)' closes early on fridays", ("Ana", "daycare", "Little Acorns")),
        ("'Fatou, Ana's nanny, is off sick'", ("Ana", "nanny", "Fatou")),
        ("-Ana's knitting group at Woolly Yarns meets on mondays", ("Ana", "knitting_group", "Woolly Yarns")),
    ],
)
def test_a_quoted_name_or_owner_is_read_whole(text: str, slot: tuple[str, str, str]) -> None:
    assert find_associated(text, "Ana") == slot


def test_no_name_starts_inside_a_word() -> None:
    assert find_associated("eBay, Ana's supplier", "Ana") is None
