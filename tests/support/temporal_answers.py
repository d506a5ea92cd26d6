"""The fact a temporal plan answers with, for plan tests (:func:`answer_of` over :func:`fact_rows.fact_row` rows)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memforest.retrieval.question import Question
from memforest.retrieval.temporal.plan import ANSWER, TemporalPlan, plan_answer


def answer_of(rows: Sequence[dict[str, Any]], question: str, speaker: str, now: datetime) -> int | None:
    """The id of the fact the plan for ``question`` (asked by ``speaker`` at ``now``, its month read
    as a window as the query reads it) answers with over ``rows``; None when there is no plan."""
    tq = Question.parse(question, now=now, has_as_of=False, speaker=speaker).temporal
    plan = plan_answer(tq, speaker, list(rows))
    return answered(plan)


def answered(plan: TemporalPlan | None) -> int | None:
    """The id of the fact ``plan`` answers with; None without a plan or an answer."""
    return next((fid for fid, role in (plan.roles.items() if plan else ()) if role == ANSWER), None)
