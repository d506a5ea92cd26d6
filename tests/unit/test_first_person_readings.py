"""Readings of first-person sentences written for this test (none from a benchmark): an adverb after
a value names no kind ("ever since"); a day or a date alone is no value; what was traded in is no
state held; a value introduced by what it is ("a guy called X"); a switch told in a clause of time
before the clause of the one who made it ("Since switching to X, ..."); a group one is playing with
now, and a class signed up for at a place; a provider signed with, no word of work said, is used;
the thing a new one replaced names its kind; a place named with "The" after "at"."""

from __future__ import annotations

from support.states import speaker_slots


def test_an_adverb_after_the_value_is_no_kind() -> None:
    slots = speaker_slots("Been buying my beans from Roastery Nine ever since Bean Counter closed.")
    assert [s for s in slots if s[2] == "Roastery Nine"], slots
    assert all(slot != "ever" for _, slot, _ in slots)


def test_a_day_or_a_date_alone_is_no_value() -> None:
    slots = speaker_slots("I joined the Thursday choir at St. Brendan's, we sing Fauré next month.")
    assert all(value not in ("Thursday", "June 2023") for _, _, value in slots)


def test_what_was_traded_in_is_no_state_held() -> None:
    slots = speaker_slots("I traded the old Corolla in for a second-hand Ioniq last week.")
    assert all(value != "Corolla" for _, _, value in slots)
    assert any("Ioniq" in value for _, _, value in slots)


def test_a_value_introduced_by_what_it_is() -> None:
    assert ("Mia", "physio", "Tomasz") in speaker_slots("My physio is now a guy called Tomasz at Ridgeway Clinic.")
    assert ("Mia", "dentist", "Dr. Ochoa") in speaker_slots("My dentist is a woman named Dr. Ochoa.")


def test_a_switch_told_before_the_clause_of_the_one_who_made_it() -> None:
    slots = speaker_slots("Since switching to Copperline Bank I actually understand my statements.")
    assert ("Mia", "change", "Copperline Bank") in slots
    theirs = speaker_slots("Since switching to Copperline Bank, Oswyn has been much calmer.")
    assert ("Oswyn", "change", "Copperline Bank") in theirs
    assert all(subject != "Mia" for subject, _, _ in theirs)


def test_a_group_played_with_now_and_a_class_signed_up_for() -> None:
    playing = speaker_slots("I'm now playing five-a-side with the Dockside Dynamos on Wednesdays.")
    assert ("Mia", "membership", "Dockside Dynamos") in playing
    assert ("Mia", "membership", "Kilnhouse Studio") in speaker_slots(
        "Signed up for pottery at Kilnhouse Studio, Tuesday nights."
    )
    trial = speaker_slots("Signed up for a free trial at Kilnhouse Studio.")  # a trial is no membership
    assert all(value != "Kilnhouse Studio" for _, _, value in trial)


def test_a_provider_signed_with_is_used_not_worked_at() -> None:
    used = speaker_slots("Just signed with Tolland Assurance for the car, much cheaper than before.")
    assert ("Mia", "patronage", "Tolland Assurance") in used
    assert ("Mia", "employer", "Tolland Assurance") in speaker_slots("I work at Tolland Assurance now.")


def test_the_thing_a_value_replaced_names_its_kind() -> None:
    assert ("Mia", "device", "Fernway 7") in speaker_slots("I got a Fernway 7 to replace my cracked phone.")
    assert ("Mia", "device", "Tessel X2") in speaker_slots("Bought a Tessel X2 instead of the old laptop.")


def test_a_place_named_with_the_after_at() -> None:
    assert ("Mia", "employer", "Copper Kettle") in speaker_slots("I work at The Copper Kettle now.")
    # "we" rewritten after the value ("... and Mia and others are ...") is no part of it
    slots = speaker_slots("I'm a line cook at The Copper Kettle and we're redoing the menu.")
    assert ("Mia", "employer", "Copper Kettle") in slots
