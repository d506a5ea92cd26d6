"""Who is named by apposition: an animal or a partner after a possessive is the possessor's, whoever
else the sentence names, and a practitioner, flatmate or partner named after their role is their
holder's state of that role. Sentences and names of my own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import speaker_slots

from memforest.text.possessor import possessor_of
from memforest.text.role_named import find_role_named


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Priya's dog Waffles chewed through my charger again.", ("Priya", "pet", "Waffles")),
        ("Hugo's new puppy Biscuit is adorable.", ("Hugo", "pet", "Biscuit")),
        ("Marco's girlfriend Lena is coming over for dinner.", ("Marco", "partner", "Lena")),
        ("Otis, Priya's spaniel, stayed with us all week.", ("Priya", "pet", "Otis")),
        ("My sister's cat Pixel just had kittens.", ("Mia's sister", "pet", "Pixel")),
        # the speaker's own stays the speaker's
        ("My dog Rufus hates the rain.", ("Mia", "pet", "Rufus")),
    ],
)
def test_the_possessive_before_the_noun_holds_the_animal_or_partner(text: str, slot: tuple[str, str, str]) -> None:
    slots = speaker_slots(text)
    assert slot in slots
    assert not [s for s in slots if s[0] == "Mia" and s[2] == slot[2] and slot[0] != "Mia"]


def test_two_animals_of_two_owners_each_go_to_their_own() -> None:
    slots = speaker_slots("Tomasz's cat Pickle and my dog Rufus finally get along.")
    assert ("Tomasz", "pet", "Pickle") in slots
    assert ("Mia", "pet", "Rufus") in slots


def test_possessor_reads_a_relatives_name_and_nothing_without_a_noun() -> None:
    assert possessor_of("Mia's brother Teo's dog Rex barked.", "Rex") == "Teo"
    assert possessor_of("We adopted a beagle called Moss from Priya's shelter.", "Moss") is None
    assert possessor_of("Priya met Rex at the park.", "Rex") is None


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My hairdresser Lotte cut it way too short.", ("Mia", "hairdresser", "Lotte")),
        ("My physio Anders says I can run again.", ("Mia", "physio", "Anders")),
        ("My flatmate Oskar keeps leaving dishes in the sink.", ("Mia", "flatmate", "Oskar")),
        ("My housemate Bea borrowed my bike.", ("Mia", "flatmate", "Bea")),
        ("My gf Noor got promoted.", ("Mia", "partner", "Noor")),
        ("My new dentist, Dr. Osei, wants an X-ray.", ("Mia", "dentist", "Dr. Osei")),
        ("My dog walker Femi is off sick this week.", ("Mia", "dog_walker", "Femi")),
    ],
)
def test_a_person_named_after_their_role_is_that_role_now(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_a_role_named_beside_a_stated_change_is_read_beside_it() -> None:
    slots = speaker_slots("My flatmate Oskar joined the Fenwick Harriers running club.")
    assert ("Oskar", "running_club", "Fenwick Harriers") in slots  # the sentence's own state
    assert ("Mia", "flatmate", "Oskar") in slots  # and, read alone, the role (``apposed.asides``)


@pytest.mark.parametrize(
    "text",
    [
        "My physio Anders retired last year.",  # told as over
        "My flatmate Oskar moved out in June.",
        "My landlord Greg sold the building.",
        "Harbour Clinic's physio Anders is great.",  # a business's
    ],
)
def test_a_role_told_as_over_or_a_businesss_is_no_role_state(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[2] == "Anders" or s[1] in ("flatmate", "landlord")]


def test_an_animal_taken_in_from_its_possessor_is_the_one_who_took_it_in() -> None:
    slots = speaker_slots("We took in Priya's cat Miso for good when she moved abroad.")
    assert ("Mia", "pet", "Miso") in slots
    assert possessor_of("We took in Priya's cat Miso.", "Miso") is None


@pytest.mark.parametrize(
    "text",
    [
        "Mia's old physio Anders retired.",  # a former one
        "Mia's ex-boyfriend Tom texted.",
        "Mia wishes Mia's therapist Ines would listen more.",  # a wish
        "Mia's sister Ana is lovely.",  # a relative is no role one changes
    ],
)
def test_former_roles_moods_and_relatives_are_no_role_state(text: str) -> None:
    assert find_role_named(text) is None
