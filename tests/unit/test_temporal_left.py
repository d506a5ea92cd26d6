"""A state its holder left holds no longer (issue 48 item 4, ADR 0088): "as of" a time after the
leave, and "now", the chain has no answer; before the leave, and after a later state, it answers as
before. The sentence shapes, questions, names and the attribute (a physio) are mine, none a
benchmark template's; the leave verb ("parted ways with") is one ``mood.is_leave`` knows."""

from __future__ import annotations

from datetime import UTC, datetime

from memforest.retrieval.question import Question
from memforest.retrieval.temporal.plan import ANSWER, plan_answer
from tests.support.fact_rows import own_state_row
from tests.support.temporal_answers import answer_of

ME = "Corwen"
NOW = datetime(2025, 2, 1, tzinfo=UTC)


def _answer(rows: list[dict[str, object]], question: str) -> int | None:
    return answer_of(rows, question, ME, NOW)


def _physio(fid: int, month: int, text: str, value: str | None = None) -> dict[str, object]:
    """A statement of Corwen's, filed as his physio ``value`` when one is given."""
    return own_state_row(fid, month, text, ME, "physio" if value else None, value)


CHAIN = [
    _physio(1, 1, "Corwen booked a first session with Harlow Physio for the shoulder.", "Harlow Physio"),
    _physio(2, 3, "Corwen now sees Quaystone Clinic about the shoulder instead of Harlow Physio.", "Quaystone Clinic"),
    _physio(3, 6, "Corwen parted ways with Quaystone Clinic over the bills."),
]


def test_a_state_left_before_the_asked_time_answers_nothing() -> None:
    assert _answer(CHAIN, "Which physio was I seeing in August 2024?") is None
    assert _answer(CHAIN, "Who is my physio these days?") is None


def test_before_the_leave_the_state_still_answers() -> None:
    assert _answer(CHAIN, "Which physio was I seeing in April 2024?") == 2
    assert _answer(CHAIN, "Which physio was I seeing in February 2024?") == 1


def test_a_later_state_answers_after_the_gap() -> None:
    rows = [*CHAIN, _physio(4, 9, "Corwen signed up with Ebbside Rehab for the knee.", "Ebbside Rehab")]
    assert _answer(rows, "Which physio was I seeing in October 2024?") == 4
    assert _answer(rows, "Which physio do I see at present?") == 4


def test_a_denied_leave_or_another_persons_leave_ends_nothing() -> None:
    denied = [
        *CHAIN[:2],
        _physio(3, 6, "Corwen never parted ways with Quaystone Clinic, whatever Perrin says."),
    ]
    assert _answer(denied, "Which physio was I seeing in August 2024?") == 2
    theirs = [*CHAIN[:2], _physio(3, 6, "Corwen's brother parted ways with Quaystone Clinic.")]
    assert _answer(theirs, "Which physio was I seeing in August 2024?") == 2


def test_one_state_answers_before_or_after_an_anchor_timed_elsewhere() -> None:
    """The anchor ("the Velka Nine") is no state of the subject's chain, but its time is known (the
    query resolves it from the facts naming it): the one known state before it, or after it, answers."""
    rows = [
        own_state_row(1, 2, "Corwen paid cash for a Lambretta Luna at the auction.", ME, "vehicle", "Lambretta Luna")
    ]

    def asked(question: str) -> Question:
        return Question.parse(question, now=NOW, has_as_of=False, speaker=ME)

    before = asked("Which scooter did I ride before the Velka Nine?").temporal
    plan = plan_answer(before, ME, rows, anchor_time=datetime(2024, 7, 1, tzinfo=UTC))
    assert plan is not None and plan.roles == {1: ANSWER}
    after = asked("Which scooter did I ride once I had the Velka Nine?").temporal
    assert after.operator == "after", after
    assert plan_answer(after, ME, rows, anchor_time=datetime(2024, 7, 1, tzinfo=UTC)) is None
    assert plan_answer(after, ME, rows, anchor_time=datetime(2024, 1, 1, tzinfo=UTC)) is not None
    assert plan_answer(before, ME, rows) is None  # (no time for the anchor: nothing to be before)
