"""A medicine someone is on now (by its generic name), a diet named by its own words, a school named
after the course studied there or by "High", what is no home though one "moved to" it, someone the
speaker names by role beside what the sentence tells of them, a group named in apposition, and a
thing named by its make and kind. Sentences and names of my own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import speaker_slots

from memforest.text.medication import is_medicine


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'm on sertraline now and it makes me sleepy.", ("Mia", "medication", "sertraline")),
        ("My GP switched me from citalopram to sertraline.", ("Mia", "medication", "sertraline")),
        ("The clinic started me on metformin in January.", ("Mia", "medication", "metformin")),
        ("I've been taking propranolol for the tremor.", ("Mia", "medication", "propranolol")),
        ("They put me on ramipril after the check-up.", ("Mia", "medication", "ramipril")),
        ("My dad takes 75mg of aspirin every morning.", ("Mia's dad", "medication", "aspirin")),
        ("My mum is on warfarin so she can't have grapefruit.", ("Mia's mum", "medication", "warfarin")),
        ("My levothyroxine dose went up again.", ("Mia", "medication", "levothyroxine")),
        ("Started on lisinopril on Monday. Any tips?", ("Mia", "medication", "lisinopril")),
        ("Been on fluoxetine 20mg since March.", ("Mia", "medication", "fluoxetine")),
    ],
)
def test_a_medicine_taken_now_is_a_state(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "The doctor wants to put me on statins.",  # a plan
        "I was on citalopram back in uni.",  # a past one
        "I'm not on any medication.",  # denied
        "I stopped taking sertraline.",  # ended
        "I came off citalopram in May.",
        "I took ibuprofen for the headache.",  # once
        "I'm on Fernway now.",  # a provider, no medicine
        "I'm on nights this week.",
    ],
)
def test_no_medicine_where_none_is_taken_now(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] == "medication"]


def test_a_medicine_is_known_by_its_stem_not_by_a_list_of_names() -> None:
    assert all(is_medicine(w) for w in ("lisinopril", "bisoprolol", "atorvastatin", "Omeprazole", "amoxicillin"))
    assert not any(is_medicine(w) for w in ("Vodafone", "nights", "gasoline", "april", "control", "Pixel"))


@pytest.mark.parametrize(
    "text",
    [
        "I moved to a four-day week at work in March.",
        "I moved to the night shift.",
        "We moved to a new rota at the hospital.",
    ],
)
def test_an_arrangement_of_work_moved_to_is_no_home(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] == "residence"]


def test_a_school_is_the_one_named_as_a_school_not_the_course() -> None:
    slots = speaker_slots("I'm doing a part-time MSc in Data Science at Thornbury University, any tips?")
    assert ("Mia", "school", "Thornbury University") in slots
    assert ("Mia's daughter", "school", "Kestrel High") in speaker_slots("My daughter started at Kestrel High.")


def test_a_diet_is_named_by_its_own_words() -> None:
    assert ("Mia", "diet", "low-sodium") in speaker_slots("The nurse put me on a low-sodium diet for my heart.")
    assert not [s for s in speaker_slots("I'm on a strict diet this month.") if s[2] == "strict"]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("my barber Jonah left Clip Joint so I'm following him to Sharp & Co.", ("Mia", "barber", "Jonah")),
        ("My GP Dr. Okonjo wants my bloods done again.", ("Mia", "doctor", "Dr. Okonjo")),
        ("my violin teacher Herr Lind thinks I should practise scales", ("Mia", "violin_teacher", "Herr Lind")),
        ("my flatmate Ilka just joined the Quarry Ramblers", ("Mia", "flatmate", "Ilka")),
        ("my boss Tarni signed off my leave", ("Mia", "manager", "Tarni")),
    ],
)
def test_someone_named_by_role_is_read_beside_what_the_sentence_tells(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    ["my flatmate Ilka moved out last week", "I miss my old barber Jonah", "my physio Bram retired"],
)
def test_a_role_told_as_over_is_none(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] in ("flatmate", "barber", "physio")]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("joined a sunday walking club, Los Caminantes, to get out more", ("Mia", "walking_club", "Los Caminantes")),
        ("I've been welcomed into a sewing circle, the Thimble Set.", ("Mia", "sewing_circle", "Thimble Set")),
        ("I'm now in a rowing crew called Tidewater Eight", ("Mia", "rowing_crew", "Tidewater Eight")),
        ("we signed up to a veg box scheme, Greenleaf Crates, last week", ("Mia", "box_scheme", "Greenleaf Crates")),
    ],
)
def test_a_group_named_in_apposition_is_the_value(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("my Talvik hoover keeps losing suction", ("Mia", "hoover", "Talvik")),
        ("our new Brenner dishwasher is so quiet", ("Mia", "dishwasher", "Brenner")),
        ("brand new Quarra espresso machine already leaking", ("Mia", "espresso_machine", "Quarra")),
        ("my dad's Oskel Nine phone keeps freezing", ("Mia's dad", "device", "Oskel Nine")),
        ("my phone's a Voss Mini 2 and the camera is rubbish", ("Mia", "device", "Voss Mini 2")),
    ],
)
def test_a_thing_named_by_its_make_and_kind_is_had(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "my Spanish teacher is lovely",
        "my Amazon order is late",
        "I miss my old Talvik bike",
        "my Monday class ran late",
    ],
)
def test_no_thing_where_the_words_after_a_name_are_no_thing_had_now(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[2] in ("Spanish", "Amazon", "Talvik", "Monday")]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'm on nights this week so can you set reminders for 4pm", ("Mia", "shift", "nights")),
        ("my sister has gone onto the early shift", ("Mia's sister", "shift", "early shift")),
        ("I went part-time after the baby", ("Mia", "working_hours", "part-time")),
        ("we switched to a four-day week at work", ("Mia", "working_hours", "four-day week")),
        ("Been on lates at the depot since May", ("Mia", "shift", "lates")),
    ],
)
def test_when_someone_works_is_a_state(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize("text", ["I might go part-time next year", "I'm not on nights anymore"])
def test_no_work_schedule_where_none_holds(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] in ("shift", "working_hours")]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("we got two kittens, Bramble and Fig", ("Mia", "pet", "Bramble and Fig")),
        ("I adopted two guinea pigs, Nutmeg and Sorrel!!", ("Mia", "pet", "Nutmeg and Sorrel")),
        ("the new puppy ate my slippers again", ("Mia", "pet", "puppy")),
        ("my sister adopted a rescue dog last month", ("Mia's sister", "pet", "dog")),
    ],
)
def test_pets_told_by_number_or_without_a_name(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize("text", ["got a cat tattoo on my arm", "we're thinking of getting a puppy"])
def test_no_pet_where_no_animal_is_had(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] == "pet"]


@pytest.mark.parametrize(
    ("text", "job", "employer"),
    [
        ("4 yrs at Quillon Data as a test engineer and my review is next week", "test engineer", "Quillon Data"),
        ("First week as shift lead at Harrowby Freight done!", "shift lead", "Harrowby Freight"),
        ("My sister Zainab is a midwife at Loxley General.", "midwife", "Loxley General"),
    ],
)
def test_a_job_title_and_its_employer_told_together_are_two_states(text: str, job: str, employer: str) -> None:
    slots = speaker_slots(text)
    assert any(s[1] == "job" and s[2] == job for s in slots)
    assert any(s[1] == "employer" and s[2] == employer for s in slots)


@pytest.mark.parametrize(
    ("text", "course", "school"),
    [
        (
            "my cousin Teodor just started marine ecology at Brackwater University!",
            "marine ecology",
            "Brackwater University",
        ),
        (
            "Just enrolled in a part-time MSc in Urban Design at Ostrava College",
            "MSc in Urban Design",
            "Ostrava College",
        ),
        (
            "I'm doing a diploma in garden design through Pelham Polytechnic",
            "diploma in garden design",
            "Pelham Polytechnic",
        ),
    ],
)
def test_a_course_and_its_school_told_together_are_two_states(text: str, course: str, school: str) -> None:
    slots = speaker_slots(text)
    assert any(s[1] == "course" and s[2] == course for s in slots)
    assert any(s[1] == "school" and s[2] == school for s in slots)


def test_a_school_graduated_from_is_none() -> None:
    assert not [s for s in speaker_slots("I graduated from Pelham Polytechnic last month!") if s[1] == "school"]


def test_an_instrument_picked_up_is_played_one_fetched_is_not() -> None:
    assert ("Mia", "instrument", "bass guitar") in speaker_slots("picked up bass guitar 3 weeks ago, any easy songs?")
    assert not [s for s in speaker_slots("I picked up the cello from the repair shop") if s[1] == "instrument"]


def test_a_kind_one_runs_named_by_called_is_the_value() -> None:
    slots = speaker_slots("just launched a lil podcast called Night Bus Notes about buses")
    assert ("Mia", "podcast", "Night Bus Notes") in slots
