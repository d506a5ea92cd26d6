"""A state its holder left holds no longer (issue 48 item 4, ADR 0088): "as of" a time after the
leave, and "now", the chain has no answer; before the leave, and after a later state, it answers as
before. Sentences, names and things of my own."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memforest.retrieval.question import Question
from memforest.retrieval.temporal.plan import ANSWER, plan_answer
from tests.support.fact_rows import fact_row

ME = "Corwen"
NOW = datetime(2025, 2, 1, tzinfo=UTC)


def _row(fid: int, month: int, text: str, attribute: str | None = None, value: str | None = None) -> dict[str, Any]:
    subject = ME.casefold() if attribute else None
    return fact_row(
        fid, month, text, ME, subject=subject, attribute=attribute, value=value, entities=[value] if value else []
    )


def _answer(rows: list[dict[str, Any]], question: str) -> int | None:
    tq = Question.parse(question, now=NOW, has_as_of=False, speaker=ME).temporal  # (its month read as a window)
    plan = plan_answer(tq, ME, rows)
    if plan is None:
        return None
    return next(fid for fid, role in plan.roles.items() if role == ANSWER)


CHAIN = [
    _row(1, 1, "Corwen's new optician is Lanthorn Eyes.", "optician", "Lanthorn Eyes"),
    _row(2, 3, "Corwen switched opticians, from Lanthorn Eyes to Brindle Optics.", "optician", "Brindle Optics"),
    _row(3, 6, "Corwen no longer goes to Brindle Optics.", None, None),
]


def test_a_state_left_before_the_asked_time_answers_nothing() -> None:
    assert _answer(CHAIN, "Who was my optician in August 2024?") is None
    assert _answer(CHAIN, "Who is my optician now?") is None


def test_before_the_leave_the_state_still_answers() -> None:
    assert _answer(CHAIN, "Who was my optician in April 2024?") == 2
    assert _answer(CHAIN, "Who was my optician in February 2024?") == 1


def test_a_later_state_answers_after_the_gap() -> None:
    rows = [*CHAIN, _row(4, 9, "Corwen's new optician is Marrow and Lens.", "optician", "Marrow and Lens")]
    assert _answer(rows, "Who was my optician in October 2024?") == 4
    assert _answer(rows, "Who is my optician now?") == 4


def test_a_denied_leave_or_another_persons_leave_ends_nothing() -> None:
    denied = [*CHAIN[:2], _row(3, 6, "Corwen never left Brindle Optics, whatever Ilsa says.", None, None)]
    assert _answer(denied, "Who was my optician in August 2024?") == 2
    theirs = [*CHAIN[:2], _row(3, 6, "Corwen's sister left Brindle Optics.", None, None)]
    assert _answer(theirs, "Who was my optician in August 2024?") == 2


def test_one_state_answers_before_or_after_an_anchor_timed_elsewhere() -> None:
    """The anchor ("the Velka Nine") is no state of the subject's chain, but its time is known (the
    query resolves it from the facts naming it): the one known state before it, or after it, answers."""
    rows = [_row(1, 2, "Corwen bought a Pashley Rover.", "vehicle", "Pashley Rover")]
    before = Question.parse("What was my bike before the Velka Nine?", now=NOW, has_as_of=False, speaker=ME).temporal
    plan = plan_answer(before, ME, rows, anchor_time=datetime(2024, 7, 1, tzinfo=UTC))
    assert plan is not None and plan.roles == {1: ANSWER}
    after = Question.parse("What was my bike after the Velka Nine?", now=NOW, has_as_of=False, speaker=ME).temporal
    assert plan_answer(after, ME, rows, anchor_time=datetime(2024, 7, 1, tzinfo=UTC)) is None
    assert plan_answer(after, ME, rows, anchor_time=datetime(2024, 1, 1, tzinfo=UTC)) is not None
    assert plan_answer(before, ME, rows) is None  # (no time for the anchor: nothing to be before)
