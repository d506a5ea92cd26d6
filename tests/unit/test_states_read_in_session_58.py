"""States told in passing by an owner's kind noun beside a name (sentences of my own, ADR 0150):
a group, place or provider one belongs to or uses, a person by role after their name, a supply
with its provider, a place one goes back to and the group or place of recurring sessions."""

from __future__ import annotations

import pytest
from support.states import held_slots

from memforest.text.associated import find_associated
from memforest.text.chatter import split_asked_tail


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Our pottery group at Kilnhouse Lane is firing on Thursday.", ("Mia", "pottery_group", "Kilnhouse Lane")),
        ("Bright Sparrows (our nursery) shut early today.", ("Mia", "nursery", "Bright Sparrows")),
        ("Tidal Verse, my little poetry circle, meets upstairs.", ("Mia", "poetry_circle", "Tidal Verse")),
        ("My niece Ottilie's swim club, Grebe Aquatics, has a gala.", ("Ottilie", "swim_club", "Grebe Aquatics")),
        ("My dad's allotment at Furrow Row is full of leeks.", ("Mia's dad", "allotment", "Furrow Row")),
        ("Our team at Quillmark Studios is hiring.", ("Mia", "employer", "Quillmark Studios")),
        ("My Orla Mutual policy went up again.", ("Mia", "patronage", "Orla Mutual")),
        ("Home insurance with Harefield Cover costs a fortune.", ("Mia", "home_insurance", "Harefield Cover")),
        ("Ingrid, my childminder, has the flu.", ("Mia", "childminder", "Ingrid")),
        (
            "Copperleaf Chemists, the pharmacy I use, ran out of my inhaler.",
            ("Mia", "pharmacy", "Copperleaf Chemists"),
        ),
        ("Gilded Shears is where I always go for a trim.", ("Mia", "patronage", "Gilded Shears")),
        (
            "The wednesday sessions at Brackenside Climbing Club are packed.",
            ("Mia", "membership", "Brackenside Climbing Club"),
        ),
        ("My son's cello lessons at Vireo Music Hall are on mondays.", ("Mia's son", "patronage", "Vireo Music Hall")),
    ],
)
def test_a_kind_beside_a_name_tells_a_state_in_passing(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in held_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "My dad's allotment at Furrow Row got taken back by the council.",  # over
        "Ingrid, our childminder, finished with us on Friday.",  # over
        "My old pottery group at Kilnhouse Lane was lovely.",  # a former one
        "I'd love to join a pottery group at Kilnhouse Lane one day.",  # a wish
        "My friend Bo runs with the Saltmarsh Striders on Sundays.",  # someone else's, by a verb
        "Our pottery group at Kilnhouse Lane would be more fun with you in it.",  # a supposition
    ],
)
def test_a_kind_beside_a_name_that_is_over_or_in_a_mood_is_none(text: str) -> None:
    values = ("Furrow Row", "Ingrid", "Kilnhouse Lane", "Saltmarsh Striders")
    assert not [s for s in held_slots(text) if s[2] in values and s[0] == "Mia"]


def test_the_practitioner_at_a_provider_opening_the_speakers_sentence_is_theirs() -> None:
    assert find_associated("The physio at Larkrise Clinic gave Mia new stretches.", "Mia") == (
        "Mia",
        "physio",
        "Larkrise Clinic",
    )


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        (
            "I just moved to Harrowgate and the boxes are everywhere, walk me through unpacking?",
            "I just moved to Harrowgate and the boxes are everywhere.",
        ),
        ("My running club meets at Fenwick Park, please suggest a warm-up?", "My running club meets at Fenwick Park."),
    ],
)
def test_a_request_to_the_listener_ends_the_statement_before_it(text: str, stated: str) -> None:
    assert split_asked_tail(text)[0] == stated


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My best friend Idris started at Calloway Freight.", ("Idris", "employer", "Calloway Freight")),
        ("My eldest sister started at Calloway Freight.", ("Mia's sister", "employer", "Calloway Freight")),
    ],
)
def test_a_relative_named_with_a_word_of_age_or_closeness_holds_their_own_state(
    text: str, slot: tuple[str, str, str]
) -> None:
    assert slot in held_slots(text)


def test_a_discourse_header_names_no_kind() -> None:
    slots = held_slots("Also, total bombshell: my brother joined the Tarn Valley Wheelers last month!")
    assert ("Mia's brother", "membership", "Tarn Valley Wheelers") in slots


def test_a_side_one_plays_for_is_no_employer_whatever_word_of_work_follows() -> None:
    slots = held_slots("Oskar is playing for the Wrenfield Otters with me now! Same team at last.")
    assert ("Oskar", "membership", "Wrenfield Otters") in slots
    assert not [s for s in slots if s[1] == "employer"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Pumpernickel chewed through the phone charger again last night.", "Pumpernickel"),
        ("Ugh, Biscuit barked at the delivery van for an hour.", "Biscuit"),
        ("Clementine destroyed another squeaky toy and went for my socks.", "Clementine"),
        ("I picked up a big bag of kibble for Marlowe on the way home.", "Marlowe"),
    ],
)
def test_a_name_doing_what_only_an_animal_does_is_the_speakers_pet(text: str, value: str) -> None:
    assert ("Mia", "pet", value) in held_slots(text)


@pytest.mark.parametrize(
    "text",
    ["Tobiah chewed his pen all through the meeting.", "Tobiah ate my lunch again.", "Tobiah destroyed my argument."],
)
def test_what_a_person_does_names_no_pet(text: str) -> None:
    assert not [s for s in held_slots(text) if s[1] == "pet"]
