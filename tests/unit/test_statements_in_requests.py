"""States said in passing while asking the assistant for something (issue 48): a statement that
runs on into a question, a person introduced in a request and taken up by "she" or "he", a plan in
one clause that is not the state of another, a provider named with whom one sees there, and the
plain verbs of using a service (sentences of my own)."""

from __future__ import annotations

import pytest
from support.states import SAID_AT, speaker_slots

from memforest.domain import CellTurn, CellView, FactKind
from memforest.text.chatter import split_asked_tail
from memforest.text.extractor import extract_cell
from memforest.text.mood import leaves, mood_of
from memforest.text.persons import introduced_person


def test_a_statement_that_runs_on_into_a_question_is_cut_from_it() -> None:
    assert split_asked_tail("I work at Pollen Robotics as a tester, can you help me explain it to my gran?") == [
        "I work at Pollen Robotics as a tester.",
        "can you help me explain it to my gran?",
    ]
    assert split_asked_tail("Now that I live in Carrick Bay, what's the quickest way to the ferry?")[0] == (
        "Now that I live in Carrick Bay."
    )
    # a question from its first word, a supposition, a statement of two words, no question at all: whole
    for whole in (
        "Where did I leave the keys, do you know?",
        "Say I got a whippet called Dot, would my flat do?",
        "Ok so, any ideas?",
        "I work at Pollen Robotics, and I like it.",
    ):
        assert split_asked_tail(whole) == [whole]


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("I work at Pollen Robotics as a tester, can you help me explain it to my gran?",
         [("Mia", "employer", "Pollen Robotics"), ("Mia", "job", "tester")]),
        ("My cousin Ludo just started at Fennick Law, what's a good gift?", [("Ludo", "employer", "Fennick Law")]),
        ("Since spring I've been banking with Corvell, can you list my bills?", [("Mia", "patronage", "Corvell")]),
        # the asking part states nothing, and a supposition stays one
        ("Say I got a whippet called Dot, would my flat be big enough?", [(None, None, None)]),
    ],
)  # fmt: skip
def test_the_statement_before_the_question_states_its_state(text: str, slots: list[tuple[str | None, ...]]) -> None:
    assert [s for s in speaker_slots(text) if s[1] is not None] == [s for s in slots if s[1] is not None]


def test_a_person_introduced_in_a_request_is_whom_the_next_he_means() -> None:
    assert introduced_person("Can you help me write a card for my sister Odile?") == "Odile"
    assert introduced_person("Any tips for my coworker Jem and my aunt Rosa?") is None  # two people: no one
    assert introduced_person("Can you help me write a card?") is None
    assert speaker_slots("Could you draft a toast for my brother Kasimir? He signed with Dunlin Records.") == [
        ("Kasimir", "employer", "Dunlin Records")
    ]
    # a person introduced after a preposition in a kept sentence counts too
    assert ("Odile", "residence", "Tarbury") in speaker_slots(
        "I had tea with my sister Odile today. She moved to Tarbury in May."
    )


def test_a_plan_in_one_clause_is_not_the_state_of_another() -> None:
    """A concert in December makes the sentence read as a plan as a whole; the clause of the choir
    states a membership now, and the fact keeps the whole sentence."""
    cell = CellView("s", SAID_AT, (CellTurn(0, "Mia", "My uncle Teodor sings in the Parr Street Chorale "
                                                    "and they have a concert in December.", SAID_AT),))  # fmt: skip
    (candidate,) = extract_cell(cell)
    assert (candidate.subject, candidate.attribute, candidate.value) == ("Teodor", "membership", "Parr Street Chorale")
    assert candidate.kind is not FactKind.PLAN
    assert candidate.valid_from == SAID_AT
    assert "December" in candidate.text


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Quick one: my barber at Crop & Clyde reckons I should grow it out.", ("Mia", "barber", "Crop & Clyde")),
        ("My dentist at Lumen Dental says I brush too hard.", ("Mia", "dentist", "Lumen Dental")),
        ("My dad's manager at Orrery Freight is retiring.", ("Mia's dad", "employer", "Orrery Freight")),
        ("I'm seeing a physio at Stride Clinic for my ankle.", ("Mia", "physio", "Stride Clinic")),
        ("My brother sees a counsellor at Quiet Harbour.", ("Mia's brother", "counsellor", "Quiet Harbour")),
    ],
)
def test_a_provider_named_with_whom_one_sees_there_is_used(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


@pytest.mark.parametrize(
    "text",
    [
        "My old dentist at Lumen Dental was kinder.",  # a former one
        "I miss my barber at Crop & Clyde.",  # nostalgia
        "If my dentist at Lumen Dental retires, I'll panic.",  # a supposition
    ],
)
def test_a_former_missed_or_supposed_provider_is_none(text: str) -> None:
    assert [s for s in speaker_slots(text) if s[1] is not None] == []


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My aunt banks with Holloway Mutual.", ("Mia's aunt", "patronage", "Holloway Mutual")),
        ("We registered our rabbit with Thornbury Vets.", ("Mia", "patronage", "Thornbury Vets")),
        ("My electricity comes from Brightwatt.", ("Mia", "patronage", "Brightwatt")),
        ("My sister-in-law teaches at Kelso Grammar.", ("Mia's sister-in-law", "employer", "Kelso Grammar")),
        ("My cousin Ines lives on Tanner Street now.", ("Ines", "residence", "Tanner Street")),
    ],
)
def test_the_plain_verbs_of_a_service_a_job_or_a_street_state_it(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


def test_a_word_of_work_inside_a_name_is_no_job() -> None:
    assert [s for s in speaker_slots("The queue at Dunmore Post Office was awful today.") if s[1] is not None] == []
    assert [s for s in speaker_slots("She lives on a shoestring.") if s[1] is not None] == []


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My pal Oswin has been on Tarrant Mobile for years.", ("Oswin", "patronage", "Tarrant Mobile")),
        ("Our new landlord is a firm called Kettering Lets.", ("Mia", "landlord", "Kettering Lets")),
        ("My manager Ilse left on Friday to join Quorn Labs.", ("Ilse", "employer", "Quorn Labs")),
        ("My mum is a Brackley Ramblers member now.", ("Mia's mum", "membership", "Brackley Ramblers")),
    ],
)
def test_ongoing_providers_landlords_and_members_are_states(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


@pytest.mark.parametrize(
    "text",
    [
        "My uncle retired from the Ashby depot on Friday.",
        "My Corvel bike was stolen from the station.",
        "The lease on my flat on Ottery Lane ended, so I'm at my sister's.",
        "I've been on the waiting list for ages.",
    ],
)
def test_retiring_a_theft_and_a_lease_that_ended_end_a_state(text: str) -> None:
    cell = CellView("s", SAID_AT, (CellTurn(0, "Mia", text, SAID_AT),))
    held = [c for c in extract_cell(cell) if c.value and not leaves(c.text, max(c.text.find(c.value), 0))]
    assert held == []


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # a place one trains or sings at, started at with no word of work, is a membership
        ("I started at Kestrel Boxing last week.", ("Mia", "membership", "Kestrel Boxing")),
        # a verb after "and ... is" shares the first clause's subject
        (
            "Orlaith left Pennant Grill and is now head cook at the Tamsin Foods staff canteen.",
            ("Orlaith", "employer", "Tamsin Foods"),
        ),
    ],
)
def test_who_started_where_as_what(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


def test_a_request_naming_my_practitioner_or_workmate_at_a_provider_presupposes_it() -> None:
    cell = CellView("s", SAID_AT, (CellTurn(0, "Mia", "Could you help me email my manager at Kelpie Games about "
                                                    "taking two days off in September?", SAID_AT),))  # fmt: skip
    (candidate,) = extract_cell(cell)
    assert (candidate.subject, candidate.attribute, candidate.value) == ("Mia", "employer", "Kelpie Games")
    assert candidate.valid_from == SAID_AT  # (held now, not at the time the request is about)
    assert speaker_slots("Should I complain to my dentist at Lumen Dental?") == [("Mia", "dentist", "Lumen Dental")]
    # a former one, someone else's, or a request naming no one of the asker's is none
    for text in ("Should I write to my old dentist at Lumen Dental?", "Could you email Ana's boss at Kelpie Games?",
                 "Can you find me a dentist at Lumen Dental?"):  # fmt: skip
        assert [s for s in speaker_slots(text) if s[1] is not None] == []


def test_a_recruiter_from_a_company_is_no_job_there() -> None:
    text = "A recruiter from Tallow Labs messaged me about a senior role."
    assert [s for s in speaker_slots(text) if s[1] is not None] == []
    assert mood_of(text) == "considered"  # (the read path's cue words see no job in it either)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I swim at Fenwick Baths on Tuesdays.", ("Mia", "patronage", "Fenwick Baths")),
        ("Most mornings I grab a cortado at Little Wren before work.", ("Mia", "patronage", "Little Wren")),
        ("My dad gets his hair cut at Clipper Row.", ("Mia's dad", "patronage", "Clipper Row")),
    ],
)
def test_a_habit_in_the_present_tense_uses_its_place(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


@pytest.mark.parametrize(
    "text", ["I had lunch at Fenwick Deli today.", "I think at Oxford they mark harder.", "My aunt lives with Rosa."]
)
def test_a_visit_a_thought_or_a_housemate_is_no_place_used(text: str) -> None:
    assert [s for s in speaker_slots(text) if s[1] is not None] == []


def test_a_state_said_before_a_short_sentence_of_the_future_is_a_state() -> None:
    """A short "starts tomorrow", merged into the sentence before it, made the two a plan as a whole."""
    cell = CellView("s", SAID_AT, (CellTurn(0, "Mia", "I've switched my car insurance to Quillon Direct. "
                                                    "Cover starts tomorrow.", SAID_AT),))  # fmt: skip
    (candidate,) = extract_cell(cell)
    assert (candidate.attribute, candidate.value) == ("car_insurance", "Quillon Direct")
    assert candidate.kind is not FactKind.PLAN


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Since May I've been in the Harrow Chamber Orchestra.", ("Mia", "membership", "Harrow Chamber Orchestra")),
        ("Hired Pelling & Vane as my accountant this year.", ("Mia", "accountant", "Pelling & Vane")),
        ("Got the lenses from Brightsight Opticians, where I've been going for years.",
         ("Mia", "patronage", "Brightsight Opticians")),
    ],
)  # fmt: skip
def test_groups_providers_hired_and_places_gone_to_for_years(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]
