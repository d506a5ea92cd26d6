"""The temporal step of a query: confirm the subject against the forest, read its facts, plan the
answer (``plan.plan_answer``). When the subject has states but none names the anchor and no event
time was found, the anchor is looked up in the subject's entity tree by interval descent."""

from __future__ import annotations

import uuid
from datetime import datetime

from memforest.retrieval.temporal.parse import TemporalQuestion
from memforest.retrieval.temporal.plan import TemporalPlan, plan_answer
from memforest.store import temporal as store
from memforest.store.sql import Conn


async def temporal_plan(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    tq: TemporalQuestion,
    as_of: datetime | None,
    anchor_time: datetime | None,
) -> TemporalPlan | None:
    """The answer state and its neighbours for a parsed temporal question, or None (then the query
    ranks as it would without a time operator)."""
    if tq.operator is None or not tq.names:
        return None
    known = await store.known_subjects(conn, tenant_id, forest_id, [n.casefold() for n in tq.names])
    anchor = (tq.anchor or "").casefold()
    subjects = [n for n in tq.names if n.casefold() in known and n.casefold() != anchor]
    for subject in subjects:
        rows = await store.subject_facts(conn, tenant_id, forest_id, subject, as_of)
        plan = plan_answer(tq, subject, rows, anchor_time)
        if plan is not None:
            return plan
    return None
