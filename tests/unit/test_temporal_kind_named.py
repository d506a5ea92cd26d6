"""A statement with no slot whose value is named by the asked kind's own head noun ("took the dog to
the Harrowfield Vets") is a state of that open-ended kind (sentences of my own, ADR 0063)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import ANSWER, plan_answer
from tests.support.fact_rows import row_at


def _row(fid: int, month: int, text: str, attribute: str | None, value: str | None, *entities: str) -> dict[str, Any]:
    when = datetime(2023, month, 1, tzinfo=UTC)
    return row_at(fid, when, text, attribute=attribute, value=value, entities=["Ysolde", *entities])


ROWS = [
    _row(
        1,
        2,
        "Ysolde's vet is the Brackwater Animal Clinic.",
        "vet",
        "Brackwater Animal Clinic",
        "Brackwater Animal Clinic",
    ),
    _row(2, 7, "Ysolde took Pimento to the Harrowfield Vets instead.", None, None, "Pimento", "Harrowfield Vets"),
    _row(3, 9, "Ysolde would like to try the Cobble Lane Vets one day.", None, None, "Cobble Lane Vets"),
]


def _answer_of(rows: list[dict[str, Any]], question: str) -> int | None:
    plan = plan_answer(parse_question(question), "Ysolde", rows)
    if plan is None:
        return None
    return next(fid for fid, role in plan.roles.items() if role == ANSWER)


def test_a_value_named_by_the_kind_is_the_latest_state() -> None:
    assert _answer_of(ROWS[:2], "Which vet does Ysolde use now?") == 2


def test_a_wish_naming_the_kind_is_no_state() -> None:
    """The wish is the latest statement naming a vet: read as a state, it would be the answer."""
    assert _answer_of(ROWS, "Which vet does Ysolde use now?") == 2


def test_a_vet_of_someone_close_to_the_subject_is_not_theirs() -> None:
    """A statement that names the subject only as the owner of a relative is about that relative:
    the friend's workplace, named by the kind's head noun, is no state of the subject's vet."""
    friend = _row(4, 10, "Ysolde's friend Tamsin works at the Dunmere Vets now.", None, None, "Tamsin", "Dunmere Vets")
    assert _answer_of([*ROWS[:2], friend], "Which vet does Ysolde use now?") == 2
    plain = _row(5, 10, "Ysolde's friends work at the Dunmere Vets.", None, None, "Dunmere Vets")
    assert _answer_of([*ROWS[:2], plain], "Which vet does Ysolde use now?") == 2
    own = _row(6, 11, "Ysolde and her friend Tamsin took Pimento to the Dunmere Vets.", None, None,
               "Tamsin", "Pimento", "Dunmere Vets")  # fmt: skip
    assert _answer_of([*ROWS[:2], friend, own], "Which vet does Ysolde use now?") == 6


CLUB = [
    _row(1, 1, "Ysolde joined the Pennyfold backgammon club.", "backgammon_club", "Pennyfold", "Pennyfold"),
    _row(
        2,
        5,
        "Quit the Pennyfold club and play at the Thimbleway Games Society now.",
        None,
        None,
        "Pennyfold",
        "Thimbleway Games Society",
    ),
    _row(
        3,
        8,
        "Might quit the Pennyfold club and try the Ostler Street Circle.",
        None,
        None,
        "Pennyfold",
        "Ostler Street Circle",
    ),
]


def test_leaving_a_state_for_another_is_a_new_state() -> None:
    plan = plan_answer(parse_question("Which backgammon club does Ysolde play at now?"), "Ysolde", CLUB)
    assert plan is not None
    assert next(fid for fid, role in plan.roles.items() if role == ANSWER) == 2
