"""A switch that names neither its kind nor the value it left ("Maelle switched to X", filed under
the verb class ``change`` and linked to no chain) presupposes an earlier value of the same kind: it
continues the open-ended chain it comes after (``chains.bare_switches``) when that is the only
open-ended chain begun before it, never a named attribute's chain, and never a chain that starts
after it. Sentences and names of my own, no benchmark template or value."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from support.temporal_answers import answer_of

from memforest.retrieval.temporal.plan import states_of
from tests.support.fact_rows import named_row

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)


def _row(fid: int, year: int, text: str, attribute: str | None, value: str | None) -> dict[str, Any]:
    return named_row(fid, datetime(year, 5, 1, tzinfo=UTC), text, "Maelle", attribute, value)


ROWS = [
    _row(1, 2020, "Maelle joined the Corrib Otters, cold water every Sunday.", "membership", "Corrib Otters"),
    _row(2, 2022, "Maelle switched to Lough Mask Swimmers.", "change", "Lough Mask Swimmers"),
    _row(3, 2024, "Maelle signed up with the Inisheer Dippers.", "membership", "Inisheer Dippers"),
]


def _answer(rows: list[dict[str, Any]], question: str) -> int | None:
    return answer_of(rows, question, "Maelle", NOW)


def test_a_bare_switch_continues_the_open_ended_chain_before_it() -> None:
    assert [s.fact_id for s in states_of(ROWS, "swimming_club", "Maelle")] == [1, 2, 3]
    assert _answer(ROWS, "Which swimming club was Maelle in before the Inisheer Dippers?") == 2
    assert _answer(ROWS, "Which swimming club did Maelle have in 2023?") == 2


def test_a_switch_before_the_chain_starts_is_none_of_it() -> None:
    rows = [_row(4, 2019, "Maelle switched to Tern Valley Energy.", "change", "Tern Valley Energy"), *ROWS[::2]]
    assert [s.fact_id for s in states_of(rows, "swimming_club", "Maelle")] == [1, 3]


def test_a_switch_that_names_what_it_left_is_of_that_kind_not_this_chain() -> None:
    left = _row(7, 2023, "Maelle moved over from Ardmore Wheelers to Clew Bay Cyclists.", "change", "Clew Bay Cyclists")
    assert [s.fact_id for s in states_of([*ROWS, left], "swimming_club", "Maelle")] == [1, 2, 3]


def test_a_bare_switch_after_two_open_ended_chains_continues_neither() -> None:
    dentist = _row(8, 2021, "Maelle has had her teeth seen by Dr. Foyle ever since.", "dentist", "Dr. Foyle")
    rows = [*ROWS, dentist]
    assert [s.fact_id for s in states_of(rows, "swimming_club", "Maelle")] == [1, 3]
    assert [s.fact_id for s in states_of(rows, "dentist", "Maelle", loose=False)] == [8]


def test_a_named_attribute_takes_no_bare_switch() -> None:
    rows = [
        _row(5, 2020, "Maelle moved to Westport, right by the quay.", "residence", "Westport"),
        _row(6, 2022, "Maelle switched to Lough Mask Swimmers.", "change", "Lough Mask Swimmers"),
    ]
    assert [s.fact_id for s in states_of(rows, "residence", "Maelle")] == [5]


def test_a_bare_switch_relates_by_its_value_not_by_the_rest_of_its_sentence() -> None:
    # "swims" shares a stem with the asked kind, but it says how an app works, not what was switched to
    other = _row(8, 2022, "Maelle switched to Quorra, the app swims along so much faster.", "change", "Quorra")
    rows = [ROWS[0], other, ROWS[2]]
    assert [s.fact_id for s in states_of(rows, "swimming_club", "Maelle")] == [1, 3]
    assert _answer(rows, "Which swimming club did Maelle have in 2023?") == 1
