"""States told beside a reason, a later clause or a bracket, and people held in a role by any doer's
noun or by "as": a reason's negation is not the statement's, a plan in the next clause is not the
joining's, the speaker's own name ends a value, a relative named in brackets holds their own
states. Sentences and names of my own."""

from __future__ import annotations

import pytest
from support.states import Slot, speaker_slots
from support.states import held_slots as held

from memforest.text.mood import mood_near


def test_a_reason_after_a_statement_keeps_its_negation_to_itself() -> None:
    text = "I moved my dentist to Dr Quayle because the last one never answered the phone."
    assert ("Mia", "dentist", "Dr Quayle") in held(text)
    # the statement's own negation still denies it, and a suggestion's reason stays a suggestion
    assert not held("I didn't join Ferrow Leisure because the pool was shut.")
    assert not held("My aunt keeps telling me to switch to Corrib Mobile because they cover the island.")


def test_the_reason_takes_the_mood_of_the_clause_it_explains() -> None:
    text = "Mia keeps telling Tom to switch to X because they cover the island"
    at_reason = text.index("island")
    assert mood_near(text, at_reason) == "suggestion"
    plain = "Mia switched to X because the old one never worked"
    assert mood_near(plain, plain.index("X")) is None


def test_the_speakers_name_opening_a_clause_ends_a_value() -> None:
    slots = held("since I moved to Dunmore I've pretty much lived at the climbing wall.")
    assert ("Mia", "residence", "Dunmore") in slots
    assert not [s for s in slots if s[2] and "Mia" in s[2]]


def test_a_plan_in_the_next_clause_is_not_the_joinings() -> None:
    assert ("Mia", "netball_team", "Harlow Kites") in held(
        "i've joined the Harlow Kites netball team, first match is tomorrow at 7."
    )


def test_a_home_told_only_as_the_time_of_something_else_is_past() -> None:
    assert not [s for s in held("when I lived in Carrowmore I had soda bread every day.") if s[1] == "residence"]


def test_a_relative_named_before_their_relation_in_brackets_or_commas_holds_their_state() -> None:
    assert ("Oisin", "employer", "Beltra Foods") in held("Oisin (my brother) just started at Beltra Foods.")
    assert ("Oisin", "employer", "Beltra Foods") in held("Oisin, my brother, just started at Beltra Foods.")


def test_a_partner_named_before_the_relation_is_the_speakers_partner() -> None:
    slots = speaker_slots("Cathal (my husband) got a job at Drumlin Energy, so we're househunting.")
    assert ("Mia", "partner", "Cathal") in slots
    assert ("Cathal", "employer", "Drumlin Energy") in slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("my piano tuner Ines is booked solid till June.", ("Mia", "piano_tuner", "Ines")),
        ("ugh my window cleaner Jovan skipped us again.", ("Mia", "window_cleaner", "Jovan")),
        ("My supervisor Dr Okafor signed off my leave.", ("Mia", "supervisor", "Dr Okafor")),
    ],
)
def test_any_doers_noun_names_a_role_held(text: str, slot: Slot) -> None:
    assert slot in held(text)


def test_a_relatives_or_things_noun_names_no_role() -> None:
    assert not [s for s in held("my brother Ali rang.") if s[1] == "brother"]
    assert not held("my computer Dell died again.")


def test_one_who_cancelled_on_the_speaker_is_still_theirs() -> None:
    assert ("Mia", "cleaner", "Jovana") in held("my cleaner, Jovana, cancelled on me twice this month.")
    assert not held("I cancelled my gym at Ferrow Leisure.")


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Orla now has Mr Quayle as her violin teacher and she loves it.", ("Orla", "violin_teacher", "Mr Quayle")),
        ("I have Dr Byrne as my GP now.", ("Mia", "doctor", "Dr Byrne")),
        ("I've got a dog walker, Saoirse, doing Tuesdays.", ("Mia", "dog_walker", "Saoirse")),
        ("Finally found a physio that does evenings — Declan Moy in Ardee.", ("Mia", "physio", "Declan Moy")),
    ],
)
def test_someone_had_in_a_role(text: str, slot: Slot) -> None:
    assert slot in held(text)


def test_a_former_or_wished_role_is_none() -> None:
    assert not held("Orla has Mr Quayle as her old violin teacher.")
    assert not held("I'd love to have Dr Byrne as my GP.")


def test_a_request_refused_by_another_is_no_offer_turned_down() -> None:
    text = "We've been with Corrib Mutual for home insurance for years and they just rejected my claim."
    assert ("Mia", "patronage", "Corrib Mutual") in held(text)
    assert not held("Corrib Mutual offered me cover but I rejected it.")


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("my nephew Cian is doing a coding bootcamp at Harbour Code.", ("Cian", "coding_bootcamp", "Harbour Code")),
        ("started Irish classes at Conradh na Gaeilge this week!", ("Mia", "irish_class", "Conradh na Gaeilge")),
        ("Gran has begun physiotherapy at Ardmore Clinic.", ("Mia's gran", "physiotherapy", "Ardmore Clinic")),
    ],
)
def test_a_programme_taken_part_in_at_a_named_place(text: str, slot: Slot) -> None:
    assert slot in held(text)


def test_a_one_off_or_planned_programme_is_none() -> None:
    assert not held("I'm doing a talk at Dunmore Tech.")
    assert not held("I might start a pottery course at Clayworks.")


def test_a_job_title_with_a_number_in_it() -> None:
    slots = held("I'm a year 6 teacher at Rathmore Learning Centre and I need a spelling game.")
    assert ("Mia", "employer", "Rathmore Learning Centre") in slots
    assert ("Mia", "job", "year 6 teacher") in slots


@pytest.mark.parametrize(
    ("text", "not_filed"),
    [
        ("I wore my Galway United jersey to the match.", "United"),  # a capitalised name is no doer's noun
        ("After my shower I went to bed.", "Mia"),  # "I" is no one named
        ("I emailed my advisor Friday about the draft.", "Friday"),  # nor is a day
        ("My heater Dyson broke again.", "Dyson"),  # a thing's noun that ends like a doer's
        ("Nobody has Tom as their coach anymore.", "Tom"),  # no one holds it
        ("Finally found a buyer — Tom — for my old bike.", "Tom"),  # a one-off, by a noun of no role of its own
        ("I'm doing a talk on therapy at Acme Labs.", "Acme Labs"),  # a talk, not a programme
        ("I declined my transfer to the Berlin office.", "Berlin"),  # the speaker's own refusal
    ],
)
def test_no_role_or_programme_is_filed(text: str, not_filed: str) -> None:
    assert not [s for s in speaker_slots(text) if s[2] == not_filed]


def test_only_the_sentences_opening_name_is_a_relatives_name() -> None:
    slots = held("In Leeds, my brother, a chef, works at Dishoom.")
    assert not [s for s in slots if s[0] == "Leeds"]
