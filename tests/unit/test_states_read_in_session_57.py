"""States read from forms the reader missed (sentences of my own, ADR 0149): a role one goes to at
a provider by any role's noun, a name with a lower-case particle, a job title with no article, what
came instead of a value left told in the next verb phrase, and talk of a change that is none."""

from __future__ import annotations

import pytest
from support.states import held_slots

from memforest.text.chatter import split_asked_tail
from memforest.text.clauses import shared_subject_clauses


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My plumber at Kettlewell Heating says the valve is shot.", ("Mia", "plumber", "Kettlewell Heating")),
        ("My tattoo artist at Bramble Ink moved my booking.", ("Mia", "tattoo_artist", "Bramble Ink")),
        ("Could you help me email my landscaper at Greenhallow?", ("Mia", "landscaper", "Greenhallow")),
        ("My manager at Tolland Freight wants the report.", ("Mia", "employer", "Tolland Freight")),
    ],
)
def test_a_role_at_a_provider_is_that_roles_state(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in held_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "My partner at Lindell Law is hopeless with deadlines.",  # a business partner: no partner, no provider
        "My sister at Caldmoor is visiting.",  # a relative somewhere
        "My old plumber at Kettlewell Heating was useless.",  # one that was
    ],
)
def test_a_relative_partner_or_former_role_at_a_place_is_none(text: str) -> None:
    assert not [s for s in held_slots(text) if s[2] in ("Lindell Law", "Caldmoor", "Kettlewell Heating")]


def test_a_name_with_a_lower_case_particle_is_read_whole() -> None:
    assert ("Mia", "residence", "Quinta da Serra") in held_slots("We moved to Quinta da Serra in March.")
    assert ("Mia", "walking_club", "Caminantes del Norte") in held_slots(
        "My walking club, Caminantes del Norte, meets on Sundays."
    )


@pytest.mark.parametrize(
    "text",
    [
        "Dmitri is head baker at Larchfield Loaves now.",
        "Dmitri is the senior buyer at Larchfield Loaves.",
        "Dmitri is chief engineer at Larchfield Loaves these days.",
    ],
)
def test_a_job_title_with_no_article_names_the_employer(text: str) -> None:
    assert ("Dmitri", "employer", "Larchfield Loaves") in held_slots(text)


def test_a_comparison_at_a_place_names_no_employer() -> None:
    assert not [s for s in held_slots("Dmitri is better at Larchfield Quiz than me.") if s[1] == "employer"]


def test_what_came_instead_of_a_value_left_is_read_from_the_next_verb_phrase() -> None:
    text = "Pilar quit her job at Orrin Hotels and just wrapped up her first month at Calloway Books."
    assert shared_subject_clauses(text) == (
        "Pilar quit her job at Orrin Hotels",
        "Pilar wrapped up her first month at Calloway Books.",
    )
    assert ("Pilar", "employer", "Calloway Books") in held_slots(text)
    assert ("Pilar", "employer", "Orrin Hotels") not in held_slots(text)  # (left: its end)
    # no verb of leaving before the "and": the sentence stays whole
    assert shared_subject_clauses("Pilar visited Orrin Hotels and finally booked a table.") is None


@pytest.mark.parametrize(
    "text",
    [
        "My cousin Rafe is talking about moving to Bexmoor again.",
        "Rafe talks of joining the Harrowgate Harriers every spring.",
    ],
)
def test_talk_of_a_change_is_no_state(text: str) -> None:
    assert held_slots(text) == []


def test_a_mood_in_another_clause_leaves_a_role_named_in_passing() -> None:
    assert ("Mia", "childminder", "Solveig") in held_slots(
        "My childminder Solveig comes on Mondays and I never remember to pay her on time."
    )
    assert ("Mia", "plumber", "Kettlewell Heating") in held_slots(
        "My plumber at Kettlewell Heating is quick but I never know what to tip."
    )
    # the mood in the role's own clause still voids it
    assert held_slots("I don't see my childminder Solveig anymore.") == []
    assert held_slots("I never liked my plumber at Kettlewell Heating.") == []


def test_a_statement_ends_at_the_last_place_its_question_can_begin() -> None:
    # (not at the earlier ", is" of an apposition)
    assert split_asked_tail("Odile, our childminder, is off all week — any backup options?") == [
        "Odile, our childminder, is off all week.",
        "any backup options?",
    ]
    assert ("Mia", "childminder", "Odile") in held_slots(
        "Odile, our childminder, is off all week — any backup options?"
    )


def test_a_value_that_has_been_ones_role_for_a_while_is_that_roles_state() -> None:
    assert ("Mia", "mechanic", "Brock Motors") in held_slots("Brock Motors has been my mechanic for years.")
    assert ("Mia", "plumber", "Kettlewell Heating") in held_slots("Kettlewell Heating's been my plumber since 2020.")
    assert held_slots("Tomas has been my friend for ages.") == []  # a relation by birth or friendship: none
    assert held_slots("Baking has been my escape this winter.") == []  # a pastime told so is no provider
