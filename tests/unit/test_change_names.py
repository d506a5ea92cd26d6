"""The names in a sentence of change (issue 48 items 1 and 2): the later word of a group's name is no
person even when the word before it is an ordinary word ("Quarrel Climbing Gym"), and a value ends
before a time said with "on" ("on Thursdays", "on 4 March"). Sentences of my own (ADR 0073)."""

from __future__ import annotations

from memforest.domain import FactKind
from memforest.text.changes import find_change
from memforest.text.state_slot import state_slot


def test_the_last_word_of_a_name_after_an_ordinary_word_is_no_subject() -> None:
    text = "Quarrel Climbing Gym raised its prices so Odalys quit; now Odalys boulders at Tessaly Bouldering Gym."
    found = find_change(text, "Odalys", ("Odalys",))
    assert found is not None and found[0] == "Odalys" and found[2] == "Tessaly Bouldering Gym"


def test_a_person_after_an_opening_adverb_is_still_the_subject() -> None:
    found = find_change("Yesterday Corwin joined Lindqvist Fencers.", "Odalys", ("Odalys",))
    assert found is not None and found[0] == "Corwin"


def test_a_value_ends_before_a_plural_weekday_or_a_date() -> None:
    slot = state_slot("Odalys started going to Fernhill Lido on Thursdays.", FactKind.EVENT, "Odalys", ("Odalys",))
    assert slot is not None and slot[2] == "Fernhill Lido"
    slot = state_slot("Signed up at Brantley Judo Club on 4 March 2024.", FactKind.EVENT, "Odalys", ("Odalys",))
    assert slot is not None and slot[2] == "Brantley Judo Club"


def test_work_as_a_place_one_goes_to_names_no_employer() -> None:
    text = "Odalys left Harrow Fencing Club and joined Wick Lane Fencing Club, it is nearer to work."
    slot = state_slot(text, FactKind.EVENT, "Odalys", ("Odalys",))
    assert slot is not None and slot[1] != "employer" and slot[2] == "Wick Lane Fencing Club"
    slot = state_slot("Odalys joined Fennick Labs to work as a welder.", FactKind.EVENT, "Odalys", ("Odalys",))
    assert slot is not None and slot[1] == "employer"


def test_a_time_of_day_named_by_work_names_no_employer() -> None:
    for text in ("Odalys joined Quenby Squash Club, she plays there after work.",
                 "Odalys signed up at Tarrow Pool and swims before work now."):  # fmt: skip
        slot = state_slot(text, FactKind.EVENT, "Odalys", ("Odalys",))
        assert slot is not None and slot[1] == "membership", text
