"""A kind no chain is named for is answered by the chain of a value named by the kind's head noun
("Ostler Bank" filed as the speaker's ``mortgage`` answers "which bank"), and counted back from the
latest ("my previous bank"); a switch that names the value it left by a short form ("quit Wyvern")
joins that value's chain. Sentences and names of my own, no benchmark template or value."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from support.temporal_answers import answered

from memforest.retrieval.temporal.chains import link_generic
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import plan_answer, states_of
from memforest.retrieval.timecues import parse_time_cues
from tests.support.fact_rows import named_row

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)


def _row(fid: int, year: int, text: str, attribute: str | None, value: str | None) -> dict[str, Any]:
    return named_row(fid, datetime(year, 3, 1, tzinfo=UTC), text, "Petra", attribute, value)


ROWS = [
    _row(1, 2020, "Petra took her mortgage out with Ostler Bank.", "mortgage", "Ostler Bank"),
    _row(2, 2021, "Petra joined the Wyvern Rowing Club.", "membership", "Wyvern Rowing Club"),
    _row(3, 2023, "Petra moved her mortgage from Ostler Bank to Corran Building Society.", "change", "Corran"),
]


def _answer(question: str) -> int | None:
    cues = parse_time_cues(question, NOW)
    tq = parse_question(question, speaker="Petra", now=NOW, window=(cues.after, cues.before))
    plan = plan_answer(tq, "Petra", ROWS)
    return answered(plan)


def test_a_value_named_by_the_kind_answers_for_it() -> None:
    assert [s.fact_id for s in states_of(ROWS, "bank", "Petra", loose=False)] == [1, 3]
    assert _answer("Which bank was I with in 2021?") == 1
    assert _answer("Who was my previous bank?") == 1
    # counted back past the first known state: no known state answers (no pin)
    assert _answer("Which bank did I have three banks ago?") is None


def test_a_named_attribute_or_an_unnamed_kind_takes_no_value_chain() -> None:
    assert states_of(ROWS, "residence", "Petra", loose=False) == []
    assert states_of(ROWS, "florist", "Petra", loose=False) == []


def test_a_short_form_of_a_value_left_links_the_switch_to_its_chain() -> None:
    labels = ["membership", "change"]
    values = ["Wyvern Rowing Club", "Tamar Scullers"]
    texts = ["Petra joined the Wyvern Rowing Club.", "Petra quit Wyvern and switched to Tamar Scullers."]
    assert link_generic(labels, values, texts) == ["membership", "membership"]
    # a later word alone ("Club") or another name sharing no first word is no short form
    texts[1] = "Petra quit the Club and switched to Tamar Scullers."
    assert link_generic(labels, values, texts) == ["membership", "change"]
