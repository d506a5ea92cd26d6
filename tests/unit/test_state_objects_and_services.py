"""Three general readings of a change (sentences of my own): a name after a preposition does
nothing in its clause, so a sentence with no subject of its own is the speaker's ("Ported my
number from Vodo to Telia"); a name after "new <kind>," that a verb follows opens a clause and is
no value ("at the new flat, Oswyn was right"); a service a provider is taken "for" names its kind
("signed up with X for the gas")."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # no subject of its own: the speaker's switch, never the provider it left
        ("Ported my number from Vodo to Telia on Monday, the signal is better.", ("Mia", "change", "Telia")),
        # a subject of its own keeps it
        ("Quillon ported his number from Vodo to Telia on Monday.", ("Quillon", "change", "Telia")),
    ],
)
def test_a_name_after_a_preposition_is_no_subject(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_a_pronoun_may_still_stand_for_a_name_after_a_preposition() -> None:
    # two persons before "he": whose, the words do not say (the one after "into" counts as a person)
    slots = speaker_slots("Tobiah bumped into Oswyn at the market, he's with Brightwave now.")
    assert all(value != "Brightwave" for _, _, value in slots)


def test_a_name_after_new_kind_and_a_comma_that_a_verb_follows_is_no_value() -> None:
    slots = speaker_slots("I signed up with Gorsefield for the gas at the new place, Oswyn was right.")
    assert all(value != "Oswyn" for _, _, value in slots)
    # a longer name, or one with a number, is the value a verb may follow
    assert ("Mia", "gym", "Kestrel Fitness") in speaker_slots("My new gym, Kestrel Fitness is great.")
    # in apposition, closed by punctuation or a preposition, it is the value
    assert ("Mia", "device", "Tarn 6") in speaker_slots("I got a new phone, a Tarn 6, on Friday.")


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I signed up with Gorsefield for the gas last week.", ("Mia", "gas", "Gorsefield")),
        ("This year I went with Pellbright for the car insurance.", ("Mia", "car_insurance", "Pellbright")),
    ],
)
def test_a_service_taken_for_names_the_kind(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text", ["I signed up with Gorsefield for the price.", "I went with Gorsefield for the phone."]
)
def test_a_thing_taken_for_that_is_no_service_names_no_kind(text: str) -> None:
    assert all(attribute not in ("price", "phone", "device") for _, attribute, _ in speaker_slots(text))


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # a thing one owns is no provider's ("my car is at X"), its contract is ("my car insurance")
        ("My car insurance is with Tollmere Mutual right now.", ("Mia", "car_insurance", "Tollmere Mutual")),
        ("My phone plan is with Vantelo now.", ("Mia", "phone_plan", "Vantelo")),
        # a provider chosen in place of another
        ("Renewed the car with Quorra instead of Tollmere Mutual, saved a lot.", ("Mia", "change", "Quorra")),
        ("I switched my savings with Zenbank instead of Corwell Savings.", ("Mia", "change", "Zenbank")),
        # a title in a header's value
        ("Dentist: switched to Dr. Okafor, finally.", ("Mia", "dentist", "Dr. Okafor")),
    ],
)  # fmt: skip
def test_providers_named_by_their_contract_or_in_place_of_another(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    ["I had dinner with Nadia instead of Oswyn.", "Nadia stayed with Oswyn instead of Priya in Lisbon."],
)
def test_a_person_one_is_with_instead_of_another_is_no_provider(text: str) -> None:
    assert all(value not in ("Nadia", "Oswyn") for _, _, value in speaker_slots(text))


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # a clause opened by "so" has its own subject, not the first clause's
        ("Ysolde retired, so now I go to Taillefer Coiffure.", ("Mia", "patronage", "Taillefer Coiffure")),
        ("Ysolde closed her shop, so now I go to Taillefer Coiffure on Quai Brun.",
         ("Mia", "patronage", "Taillefer Coiffure on Quai Brun")),
    ],
)  # fmt: skip
def test_a_clause_opened_by_so_is_its_own_subjects(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_a_switch_announced_before_names_the_next_sentences_provider() -> None:
    slots = speaker_slots("Switched barbers. Ysolde retired, so now I go to Taillefer Coiffure.")
    assert ("Mia", "barber", "Taillefer Coiffure") in slots
    # a hedged announcement names nothing
    hedged = speaker_slots("Might switch barbers. Ysolde retired, so now I go to Taillefer Coiffure.")
    assert ("Mia", "barber", "Taillefer Coiffure") not in hedged
    # someone else's switch, or a thing joined after it, is none of it
    others = speaker_slots("Ysolde switched barbers. I joined the Harrowby Larks.")
    assert all(attribute != "barber" for _, attribute, _ in others)


def test_a_title_and_name_after_from_are_no_subject_of_a_switch() -> None:
    # the clause's subject opens the sentence; the dentist left is the value replaced, no person acting
    slots = speaker_slots("Quillon switched dentists, from Dr. Vessey to Dr. Armitage.")
    assert ("Quillon", "dentist", "Dr. Armitage") in slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # a first fee or payment to a provider says one uses it, as a first bill does
        ("Paid the first Quillcare fee this month.", ("Mia", "patronage", "Quillcare")),
        ("My first Quillcare payment went out today.", ("Mia", "patronage", "Quillcare")),
        # an account held with a provider names what it is
        ("My salary still goes into my Tarvel account.", ("Mia", "account", "Tarvel")),
    ],
)  # fmt: skip
def test_a_first_fee_or_an_account_names_the_provider(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "Paid the Quillcare fee.",  # (no first: any fee)
        "Paid the first Quillcare fee for Oswyn.",  # (someone else's)
        "My Streamly account got hacked.",  # (an account alone is no contract)
        "Insomnia again: ended up at Kestrel Gym at 6am.",
    ],
)
def test_a_fee_or_an_account_names_no_provider_of_the_speakers_otherwise(text: str) -> None:
    assert all(
        value not in ("Quillcare", "Streamly") and attribute != "insomnia"
        for _, attribute, value in speaker_slots(text)
    )


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # the letter that carries a renewal or a bill says one is the provider's customer
        ("The renewal notice from Corvane Mutual arrived, dearer again.", ("Mia", "patronage", "Corvane Mutual")),
        ("My renewal reminder from Corvane Mutual came.", ("Mia", "patronage", "Corvane Mutual")),
        ("The bill from Tollard Energy was huge this quarter.", ("Mia", "patronage", "Tollard Energy")),
        # whose: the owner named, else the clause's subject
        ("My cousin Oswyn's renewal letter from Corvane Mutual came.", ("Oswyn", "patronage", "Corvane Mutual")),
        ("Quillon got the renewal notice from Corvane Mutual on Monday.", ("Quillon", "patronage", "Corvane Mutual")),
    ],
)
def test_a_bill_or_renewal_letter_from_a_provider_is_patronage(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "The letter from Corvane Mutual came.",  # a letter alone says nothing of a contract
        "The renewal notice from the council came.",  # no provider's name
        "Did you see the renewal notice from Corvane Mutual?",  # a question states nothing
    ],
)
def test_a_letter_without_a_bill_or_a_name_is_no_patronage(text: str) -> None:
    assert all(attribute != "patronage" for _, attribute, _ in speaker_slots(text))


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # a flat on someone's thing is a puncture, whoever's it is, kin word and name included
        ("Got a flat on my brother Oswyn's Corvell Sprint on the way home.", ("Oswyn", "possession", "Corvell Sprint")),
        ("Got a flat on my Tarn Roadster on the way home.", ("Mia", "vehicle", "Tarn Roadster")),
        # a flat somewhere is a home
        ("My brother Oswyn got a flat in Harrowgate.", ("Oswyn", "residence", "Harrowgate")),
    ],
)
def test_a_flat_on_a_named_persons_thing_is_a_puncture_not_a_home(text: str, slot: tuple[str, str, str]) -> None:
    slots = speaker_slots(text)
    assert slot in slots
    assert all(attribute != "home_type" for _, attribute, _ in slots)
