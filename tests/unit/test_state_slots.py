"""The rule-based extractor files state sentences under (subject, attribute, value), for the
attributes of memforest.attributes, in phrasings that name neither the attribute nor the old value."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support.states import speaker_slots

from memforest.attributes import STATE_ATTRIBUTES
from memforest.domain import CellTurn, CellView
from memforest.text.extractor import extract_cell
from memforest.text.persons import rewrite_persons
from memforest.text.states import find_state

T = datetime(2023, 5, 10, 12, tzinfo=UTC)


def slot(text: str, speaker: str = "Mia") -> tuple[str | None, str | None, str | None]:
    found = speaker_slots(text, speaker)
    assert len(found) == 1, found
    return found[0]


CASES = [
    # residence
    ("We're finally in our new apartment in Chicago!", "residence", "Chicago"),
    ("I relocated to Porto for good.", "residence", "Porto"),
    ("Our house hunt is over, we bought a place in Leeds.", "residence", "Leeds"),
    ("Just signed the lease for an apartment in Oslo.", "residence", "Oslo"),
    ("I've been renting a studio in Krakow since March.", "residence", "Krakow"),
    # employer
    ("Got hired by Northwind last month.", "employer", "Northwind"),
    ("Started at Globex on Monday, so far so good.", "employer", "Globex"),
    ("Handed in my notice and joined Hooli.", "employer", "Hooli"),
    ("Northwind offered me the job and I said yes!", "employer", "Northwind"),
    ("My new employer is Cyberdyne.", "employer", "Cyberdyne"),
    # job
    ("I got promoted to senior editor.", "job", "senior editor"),
    ("I work as a nurse now.", "job", "nurse"),
    # school
    ("I enrolled at Boston University this fall.", "school", "Boston University"),
    ("I started my masters at the University of Leeds.", "school", "University of Leeds"),
    # partner
    ("I've been dating Sam for two months.", "partner", "Sam"),
    ("My boyfriend Tom cooked dinner.", "partner", "Tom"),
    # pet
    ("Our new pup is called Nacho.", "pet", "Nacho"),
    ("I adopted Luna from the shelter.", "pet", "Luna"),
    ("Say hello to Ziggy, our new hamster!", "pet", "Ziggy"),
    ("We welcomed a little beagle into the family, Pepper.", "pet", "Pepper"),
    # vehicle
    ("I've got a Subaru Outback now.", "vehicle", "Subaru Outback"),
    ("The Jeep Wrangler I bought is amazing on the trails.", "vehicle", "Jeep Wrangler"),
    ("We swapped the Ford Focus for a Volvo XC40.", "vehicle", "Volvo XC40"),
    ("I'm driving a Nissan Leaf these days.", "vehicle", "Nissan Leaf"),
    # home type
    ("We moved into a townhouse.", "home_type", "townhouse"),
    # diet
    ("I went vegan in January.", "diet", "vegan"),
    ("I gave up meat last year.", "diet", "vegetarian"),
    # health
    ("I was diagnosed with asthma.", "health", "asthma"),
    ("I broke my wrist skiing.", "health", "broken wrist"),
    # hobby
    ("I took up rock climbing.", "hobby", "rock climbing"),
    ("I've gotten really into birdwatching.", "hobby", "birdwatching"),
    ("I joined a tennis club.", "hobby", "tennis"),
    # device
    ("I got a new iPhone 15.", "device", "iPhone 15"),
    ("I switched to a Pixel 8.", "device", "Pixel 8"),
]


@pytest.mark.parametrize(("text", "attribute", "value"), CASES)
def test_state_phrasings(text: str, attribute: str, value: str) -> None:
    assert slot(text) == ("Mia", attribute, value)


def test_every_attribute_is_covered_and_in_the_vocabulary() -> None:
    attrs = {a for _, a, _ in CASES}
    assert attrs <= STATE_ATTRIBUTES
    assert len(attrs) >= 12


@pytest.mark.parametrize(
    "text",
    [
        "My sister moved to Berlin.",
        "I'm thinking about moving to Paris.",
        "I didn't get the job at Globex.",
        "We had a great trip to Rome.",
        "My cousin adopted a cat named Tom.",
        "The neighbours' dog barked all night.",
        "My phone screen cracked again, third time this year.",
        "Did you move to Lisbon?",
    ],
)
def test_no_state_for_others_negations_trips_and_questions(text: str) -> None:
    """No slot of the speaker's (a relative's state is the relative's: issue #48)."""
    cell = CellView("s", T, (CellTurn(0, "Mia", text, T), CellTurn(1, "Ravi", "Oh nice.", T)))
    assert all(c.attribute is None or c.subject != "Mia" for c in extract_cell(cell))


def test_scheduled_state_starts_at_its_date() -> None:
    cell = CellView("s", T, (CellTurn(0, "Mia", "The lease on our flat in Denver starts next week.", T),))
    (c,) = extract_cell(cell)
    assert (c.subject, c.attribute, c.value) == ("Mia", "residence", "Denver")
    assert c.valid_from > T


def test_sold_car_is_not_the_state() -> None:
    assert slot("Finally sold the Honda, the new Kia is so quiet.") == ("Mia", "vehicle", "Kia")


def test_other_participant_is_the_subject_when_named() -> None:
    assert find_state("Ravi moved to Lisbon.", "Mia", ("Mia", "Ravi")) == ("Ravi", "residence", "Lisbon")


def test_negative_contraction_is_not_conjugated() -> None:
    assert rewrite_persons("I didn't get it.", "Mia", None) == "Mia didn't get it."


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("We got a hamster and named her Biscuit.", "Biscuit"),
        ("Biscuit the goldfish joined the family today.", "Biscuit"),
        ("Last week we brought Nacho home, a ginger tomcat.", "Nacho"),
        ("Meet Rex, the kitten we brought home from the shelter.", "Rex"),
    ],
)
def test_pet_phrasings_with_the_name_before_the_animal_or_after_a_pronoun(text: str, value: str) -> None:
    assert slot(text) == ("Mia", "pet", value)
