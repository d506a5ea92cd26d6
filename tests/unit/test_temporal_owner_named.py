"""A speaker's words about another person's state (issue 48 item 2): "..., Wenna's knees gave out"
belongs to Wenna's chain, never to the speaker's. Sentences and names of my own."""

from __future__ import annotations

from typing import Any

from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import ANSWER, plan_answer, states_of
from memforest.retrieval.temporal.whose import value_of
from tests.support.fact_rows import fact_row

ME = "Tobiah"


def _row(fid: int, month: int, text: str, *entities: str, attribute: str | None = None,
         value: str | None = None, subject: str | None = None) -> dict[str, Any]:  # fmt: skip
    return fact_row(fid, month, text, ME, subject=subject, attribute=attribute, value=value, entities=entities)


MINE = [
    _row(1, 1, "Tobiah joined Brindle Paddlers.", "Brindle Paddlers", attribute="rowing_club",
         value="Brindle Paddlers", subject="tobiah"),
    _row(2, 3, "Tobiah rows with Osier Paddlers now.", "Osier Paddlers", attribute="rowing_club",
         value="Osier Paddlers", subject="tobiah"),
]  # fmt: skip


def _answer(rows: list[dict[str, Any]], subject: str, question: str) -> int | None:
    plan = plan_answer(parse_question(question), subject, rows)
    if plan is None:
        return None
    return next(fid for fid, role in plan.roles.items() if role == ANSWER)


def test_the_speakers_words_naming_another_owner_are_not_the_speakers_state() -> None:
    theirs = _row(3, 6, "Raced the river sprint with Weirgate Paddlers, Wenna's arms are done.",
                  "Weirgate Paddlers", "Wenna")  # fmt: skip
    assert _answer([*MINE, theirs], ME, "Which rowing club is Tobiah in now?") == 2


def test_the_speakers_own_words_still_state_the_speakers_state() -> None:
    mine = _row(3, 6, "Raced the river sprint with Weirgate Paddlers, my arms are done.", "Weirgate Paddlers")
    assert _answer([*MINE, mine], ME, "Which rowing club is Tobiah in now?") == 3


def test_a_name_a_kin_word_introduces_is_the_person_not_the_value() -> None:
    row = _row(4, 8, "Tobiah's friend Wenna stopped going to Snipwell Barbers.", "Wenna", "Snipwell Barbers")
    assert value_of(row, "Tobiah's friend") == "Snipwell Barbers"
    assert value_of(row, "Wenna") == "Snipwell Barbers"


FRIEND = "Tobiah's friend"
PETS = [
    _row(1, 1, "Tobiah's friend has a dog called Biscuit.", "Biscuit", attribute="pet", value="Biscuit",
         subject="tobiah's friend"),
    _row(2, 3, "Meet Pebble, the hamster Tobiah's friend Wenna brought home.", "Meet Pebble", "Wenna"),
    _row(3, 6, "After Pebble died, Tobiah's friend got a parrot named Sprocket.", "Pebble", "Sprocket",
         attribute="pet", value="Sprocket", subject="tobiah's friend"),
    _row(4, 8, "Wenna adopted a tortoise, Tobiah says.", "Wenna", attribute="pet", value="Shellby", subject="wenna"),
]  # fmt: skip


def test_one_statement_is_one_state_and_a_person_is_no_value() -> None:
    states = states_of(PETS, "pet", FRIEND)
    assert [s.fact_id for s in states].count(2) == 1
    assert all(s.value != "Wenna" for s in states)
