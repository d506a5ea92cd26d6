"""Open-ended states (issue #48): the slot of a state is the kind of thing the sentence names, or
the class of its verb of change; moods are no states; a question's noun, person and time.

Every sentence here was written for these tests: its people, places, organisations and kinds of
thing appear in neither split of ``bench.temporal_v2``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from support.states import speaker_slots

from memforest.retrieval.temporal.chains import chain_label, link_generic
from memforest.retrieval.temporal.parse import parse_question
from memforest.text.changes import find_change, find_named_change, slot_key, subject_key
from memforest.text.mood import mood_near, mood_of

NOW = datetime(2027, 6, 15, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My new optician is Lumen Eyecare.", ("Mia", "optician", "Lumen Eyecare")),
        ("Northfield Pharmacy is my pharmacy now.", ("Mia", "pharmacy", "Northfield Pharmacy")),
        ("I switched vets, from Paws Clinic to Oakline Vets.", ("Mia", "vet", "Oakline Vets")),
        ("I started seeing Dr. Okafor, my new physiotherapist.", ("Mia", "physio", "Dr. Okafor")),
        ("Found a new bakery: Crumb and Crust.", ("Mia", "bakery", "Crumb and Crust")),
        ("Swapped Ironworks for Summit Gym as my gym.", ("Mia", "gym", "Summit Gym")),
        ("My go-to barber these days is Sharp Lines.", ("Mia", "barber", "Sharp Lines")),
        ("I signed up with a dentist: Dr. Abernethy at Pippinford Dental.", ("Mia", "dentist", "Dr. Abernethy")),
        ("At last I registered with a GP: Dr. Okonkwo-Hale.", ("Mia", "doctor", "Dr. Okonkwo-Hale")),
    ],
)
def test_a_state_is_filed_under_the_noun_it_names(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I joined the Larkfield Chess Society last week.", ("Mia", "membership", "Larkfield Chess Society")),
        ("I'm a member of Westbrook Rowers now.", ("Mia", "membership", "Westbrook Rowers")),
        ("I picked up a refurbished Nokora Z7.", ("Mia", "possession", "Nokora Z7")),
        ("I quit Eastgate Bowls and joined Millbrook Bowls.", ("Mia", "change", "Millbrook Bowls")),
        ("Traded in my Velto One for a Velto Two.", ("Mia", "change", "Velto Two")),
        ("I switched to Harbor Credit Union last month.", ("Mia", "change", "Harbor Credit Union")),
        ("I have been seeing Dr. Abara since spring.", ("Mia", "patronage", "Dr. Abara")),
        ("These days I go to Fernwood Clinic now.", ("Mia", "patronage", "Fernwood Clinic")),
        ("I take my bike to Spoke and Chain these days.", ("Mia", "patronage", "Spoke and Chain")),
        ("In the end I went with Tallis Mutual.", ("Mia", "patronage", "Tallis Mutual")),
        ("Joined a walking group, the Saturday Ramblers.", ("Mia", "walking_group", "Saturday Ramblers")),
        # a habit of getting one's things from a place, and a thing named with the clause of its getting
        ("I get my morning coffee from Thistlecombe Roasters.", ("Mia", "patronage", "Thistlecombe Roasters")),
        ("Writing this on the Marrowby 7 I bought last week.", ("Mia", "possession", "Marrowby 7")),
        # signing up at a place is no job, even beside a contract that ended
        (
            "My Glasswick contract ended, so I signed up at Hollybank Pilates.",
            ("Mia", "membership", "Hollybank Pilates"),
        ),
    ],
)
def test_a_state_that_names_no_kind_is_filed_under_its_verb(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm planning to join the Larkfield Chess Society in autumn.",
        "One day I would love to see Dr. Okafor for my knee.",
        "If I had the time, I would join Westbrook Rowers.",
        "I looked into Summit Gym but it was too far.",
        "Oakline Vets offered me a slot, but I said no.",
        "My brother keeps telling me to switch to Oakline Vets.",
        "Just to be clear, Lumen Eyecare is not my optician.",
        "I still miss Crumb and Crust, those were the days.",
        "Found an old photo from my Westbrook Rowers days.",
        "Is Sharp Lines your barber?",
    ],
)
def test_a_mood_is_no_state(text: str) -> None:
    assert all(attribute is None for _, attribute, _ in speaker_slots(text))


def test_a_mood_is_read_in_the_clause_of_the_state() -> None:
    text = "Mia's new address is in Tarragona, Mia will send it tonight."
    assert mood_of(text) == "plan"
    assert mood_near(text, text.index("Tarragona")) is None
    said_no = "Oakline Vets offered Mia a slot, but Mia said no."
    assert mood_near(said_no, 0) == "turned_down"


def test_a_relative_has_their_own_states() -> None:
    assert ("Kofi", "membership", "Ashgrove Rowing Club") in speaker_slots(
        "My brother Kofi joined Ashgrove Rowing Club."
    )
    assert ("Mia's aunt", "optician", "Lumen Eyecare") in speaker_slots("My aunt's new optician is Lumen Eyecare.")
    assert subject_key("Mia's brother Kofi") == "Kofi"
    assert subject_key("Mia's brother") == "Mia's brother"


def test_grammar_on_rewritten_text() -> None:
    assert find_named_change("Tomasz's usual tailor is Hem and Stitch.", "Mia") == (
        "Tomasz",
        "tailor",
        "Hem and Stitch",
    )
    assert find_change("Tomasz became a member of Ridgeview Curling.", "Mia") == (
        "Tomasz",
        "membership",
        "Ridgeview Curling",
    )
    assert find_change("Tomasz might join Ridgeview Curling.", "Mia") is None
    assert slot_key("Coffee Places") == "coffee_place"


def test_a_verb_class_state_joins_the_chain_of_the_value_it_replaced() -> None:
    labels = ["tailor", "change", "membership"]
    values = ["Hem and Stitch", "Needle Row", "Ridgeview Curling"]
    texts = [
        "X's tailor is Hem and Stitch.",
        "X went from Hem and Stitch to Needle Row.",
        "X joined Ridgeview Curling.",
    ]
    assert link_generic(labels, values, texts) == ["tailor", "tailor", "membership"]


def test_a_question_slot_without_a_chain_falls_back_to_a_verb_class() -> None:
    assert chain_label("tailor", {"tailor": 2, "membership": 3}) == "tailor"
    assert chain_label("curling_club", {"possession": 2, "membership": 3}) == "membership"
    assert chain_label("scooter", {"possession": 2, "membership": 3}) == "possession"
    assert chain_label("scooter", {"tailor": 1}) is None
    assert chain_label("coffee", {"coffee_place": 2, "possession": 1}) == "coffee_place"


@pytest.mark.parametrize(
    ("question", "operator", "attribute", "first_name"),
    [
        ("What was my optician before Lumen Eyecare?", "before", "optician", "Mia"),
        ("Which curling club do I belong to now?", "now", "curling_club", "Mia"),
        ("What was my brother's tailor before Needle Row?", "before", "tailor", "Mia's brother"),
        ("Which bakery does Tomasz go to at the moment?", "now", "bakery", "Tomasz"),
        ("Where does my aunt live now?", "now", "residence", "Mia's aunt"),
    ],
)
def test_a_question_names_its_person_and_kind(question: str, operator: str, attribute: str, first_name: str) -> None:
    tq = parse_question(question, speaker="Mia", now=NOW)
    assert (tq.operator, tq.attribute, tq.names[0]) == (operator, attribute, first_name)


def test_a_question_asks_for_an_acronym_kind() -> None:
    tq = parse_question("Who was my GP last winter?", speaker="Mia", now=NOW)
    assert (tq.attribute, tq.names) == ("doctor", ("Mia",))  # ("GP" is the kind, filed as a doctor; not a person)


def test_what_a_professional_tends_is_served_never_bought() -> None:
    chains = {"possession": 2, "patronage": 1}
    assert chain_label("hair", chains) == "patronage"  # "who cut my hair before ...": the hairdresser


def test_a_question_names_its_time() -> None:
    ago = parse_question("Which gym did I use three years ago?", speaker="Mia", now=NOW)
    assert ago.operator == "as_of" and ago.at is not None
    assert abs(ago.at - datetime(2024, 6, 15, tzinfo=UTC)) < timedelta(days=2)
    window = (datetime(2025, 10, 1, tzinfo=UTC), datetime(2025, 11, 1, tzinfo=UTC))
    month = parse_question("Who was my barber in October 2025?", speaker="Mia", now=NOW, window=window)
    assert month.operator == "as_of" and month.at == datetime(2025, 10, 16, 12, tzinfo=UTC)
    during = parse_question("Which gym did I use back when I lived in Tarragona?", speaker="Mia", now=NOW)
    assert (during.operator, during.during) == ("as_of", "Tarragona")
    early = parse_question("Which gym did I use in early 2025?", speaker="Mia", now=NOW)
    assert (early.operator, early.at) == ("as_of", datetime(2025, 2, 15, tzinfo=UTC))
    anchored = parse_question("Who was my vet before Dr. Okafor?", speaker="Mia", now=NOW)
    assert anchored.anchor == "Dr. Okafor"
