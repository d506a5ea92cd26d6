"""A change stated by the thing that changed, and the persons of a sentence that opens with a
value (sentences of my own; no benchmark template, name or value): "Our broadband switched from A
to B" is the speaker's broadband; the later word of a longer name ("the Quarry Hill Harriers") is
no person; a group named after its meeting day and place ("the Thursday quiz team at the Anchor,
the Know-It-Ales") is the appositive's name, not the day's."""

from __future__ import annotations

import pytest
from support.states import speaker_slots

from memforest.text.changes import find_named_change


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # the thing that changed is the kind, its owner the subject
        (
            "Our energy supplier switched from Voltara to Greenfinch this spring.",
            ("Mia", "energy_supplier", "Greenfinch"),
        ),
        ("My pension moved over to Larchmont Life.", ("Mia", "pension", "Larchmont Life")),
        ("Tobiah's mobile contract changed to Skyward Mobile.", ("Tobiah", "mobile_contract", "Skyward Mobile")),
        # a switch naming what it replaced outranks a dwelling named in a later clause
        (
            "I quit Kestrel Swim Club and switched to Otterpool Masters, it's closer to the flat.",
            ("Mia", "change", "Otterpool Masters"),
        ),
        (
            "Left Corvina Bank and switched to Parrock Savings; the flat is nearer now.",
            ("Mia", "change", "Parrock Savings"),
        ),
        # a thing sold and what is now done with another: the other replaced it
        ("Tobiah sold his Quillon and now cycles a Varro.", ("Tobiah", "change", "Varro")),
        ("Sold my old Dunmore and started driving a Pellway.", ("Mia", "change", "Pellway")),
        # the first of what recurs starts a habit; an appositive kind may have a place after it
        ("Booked my first trim at Shorn Identity, the new salon by the station.", ("Mia", "salon", "Shorn Identity")),
        ("Had my first lesson with Corrie Vance, a cello teacher in Bath.", ("Mia", "cello_teacher", "Corrie Vance")),
        # "left A for B" is a switch; a pronoun's present place is the person named before it
        ("My colleague Bettina left Orvale for Quanterra last month.", ("Bettina", "change", "Quanterra")),
        ("My flatmate Priya switched gyms, she's at Corewell now.", ("Priya", "gym", "Corewell")),
        # a provider one is on now
        ("Valdane kept dropping my calls, so I'm on Pipit Mobile now.", ("Mia", "patronage", "Pipit Mobile")),
        # a group named after a day and a place: the appositive is its name
        ("I joined the Thursday quiz team at the Anchor, the Quizzly Bears.", ("Mia", "quiz_team", "Quizzly Bears")),
    ],
)
def test_a_change_of_an_owned_thing(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "Left the Quarry Hill Harriers and joined the Ferncombe Striders.",
        "Cancelled with Northgate Mutual and went to Pellucid Insurance instead.",
    ],
)
def test_the_later_word_of_a_longer_name_is_no_person(text: str) -> None:
    subjects = {s for s, a, _ in speaker_slots(text) if a}
    assert subjects <= {"Mia"}


def test_a_switch_between_groups_is_the_speakers() -> None:
    assert ("Mia", "change", "Ferncombe Striders") in speaker_slots(
        "Left the Quarry Hill Harriers and joined the Ferncombe Striders."
    )


def test_a_one_off_first_is_no_habit() -> None:
    assert not [a for _, a, _ in speaker_slots("My first time at Wembley was magical.") if a]
    assert not [a for _, a, _ in speaker_slots("Got my first pay slip from Ormond Freight.") if a == "patronage"]
    assert not [a for _, a, _ in speaker_slots("The final is on Channel Nine now.") if a]
    assert not [a for _, a, _ in speaker_slots("She's at Corewell now.") if a]  # (whose, it does not say)


@pytest.mark.parametrize(
    "text",
    [
        "Tobiah bumped into Oswyn at the market, he's with Brightwave now.",
        "Tobiah and Oswyn had lunch; he's at Quenby Labs now.",
        "I saw Oswyn and Tobiah yesterday and she's on Pipit Mobile now.",
    ],
)
def test_a_pronoun_after_two_persons_names_no_one(text: str) -> None:
    # (whose present place, the words do not say: no state rather than the first person's)
    assert not [s for s in speaker_slots(text) if s[1] and s[2] in ("Brightwave", "Quenby Labs", "Pipit Mobile")]


def test_a_pronoun_after_one_person_is_that_person() -> None:
    assert ("Oswyn", "bank", "Fernmoor") in speaker_slots("Oswyn switched banks in May and he's with Fernmoor now.")


def test_a_kin_noun_that_moved_is_no_owned_thing() -> None:
    assert find_named_change("Ana's sister moved to Ghent.", "Ana") is None
    assert find_named_change("Ana's grandson changed to Oakley School.", "Ana") is None


@pytest.mark.parametrize(
    "text",
    [
        # a first anything "with" someone names a companion, not a service one goes back to
        "Tobiah's first dance with Oswyn was magical.",
        "Tobiah had his first kiss with Oswyn at the fair.",
        "Tobiah's first match with the Corvel Rooks was a win.",
        "My first lesson with Ravi went well.",  # (a participant of the conversation)
    ],
)
def test_a_first_with_a_companion_is_no_habit(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] and s[2] in ("Oswyn", "Corvel Rooks", "Ravi")]


def test_a_first_service_with_a_provider_is_a_habit() -> None:
    assert ("Tobiah", "patronage", "Pellory") in speaker_slots("Tobiah's first haircut with Pellory was sharp.")
    # opening the sentence with no owner, as people write of themselves: the speaker's
    assert ("Mia", "patronage", "Pellory") in speaker_slots("First trim with Pellory at Shear Luck was on Friday.")
    assert not [s for s in speaker_slots("First match with the Corvel Rooks is Sunday.") if s[2] == "Corvel Rooks"]


@pytest.mark.parametrize(
    "text",
    [
        # a trip or a purpose, not a switch
        "Tobiah left Varesk for Dunmere on Tuesday.",
        "Tobiah left Gorrow Airport for Dunmere.",
        "Tobiah left Varesk for Dunmere at noon.",
        "Tobiah quit Chirply for Lent.",
    ],
)
def test_left_for_a_trip_or_a_time_is_no_switch(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] and s[2] in ("Dunmere", "Dunmere on Tuesday", "Lent")]


def test_left_for_that_ends_the_clause_is_a_switch() -> None:
    for text in ("Tobiah left Harwick Bank for Corliss Trust for good.", "Tobiah left Harwick Bank for Corliss Trust."):
        assert [s for s in speaker_slots(text) if s[0] == "Tobiah" and s[2] == "Corliss Trust"]


def test_what_is_done_after_a_sale_names_the_new_thing_only_when_one_uses_it() -> None:
    assert not [s for s in speaker_slots("Tobiah sold his Quillon and then watched a Corvel film.") if s[2] == "Corvel"]
    assert ("Tobiah", "change", "Varro") in speaker_slots("Tobiah sold his Quillon and then leased a Varro.")
