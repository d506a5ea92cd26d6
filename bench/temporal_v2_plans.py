"""Where ``bench.temporal_v2``'s answers come from, counted over a world (aggregates only, so a
held-out world or split may show them): a temporal plan, whose answer state cites the gold turn or
not, and then why not (the gold turn filed no state; its state is another person's; it is in
another chain; it is in the plan's chain, which picked another of its states), or recall alone."""

from __future__ import annotations

from typing import Any

from bench.env import BenchEnv
from memforest.store.sql import fetch_all

KEYS = (
    "questions",
    "planned",
    "plan_answer_right",
    "plan_wrong_gold_unslotted",
    "plan_wrong_other_subject",
    "plan_wrong_other_chain",
    "plan_wrong_same_chain",
    "unplanned",
    "unplanned_right_time_first",
    "unplanned_gold_unslotted",
)

# the slots of the live facts a turn is a source of
_GOLD_SLOTS = """
SELECT DISTINCT f.subject, f.attribute FROM facts f
JOIN fact_sources s ON s.tenant_id = f.tenant_id AND s.fact_id = f.fact_id
JOIN turns t ON t.tenant_id = s.tenant_id AND t.turn_id = s.turn_id
WHERE f.tenant_id = :t AND t.external_id = :gold AND f.retracted_at IS NULL AND f.attribute IS NOT NULL
"""


async def count_answer(counts: dict[str, int], env: BenchEnv, res: Any, gold: str, right_time_first: bool) -> str:
    """Add one question's answer ``res`` to ``counts`` (keys: :data:`KEYS`); returns the key that
    says where it came from (with the gold turn's slots, for a world whose questions may be read)."""
    counts["questions"] += 1
    async with env.db.tenant(env.tenant_id) as conn:
        slots = [(str(r["subject"] or "").casefold(), str(r["attribute"]).casefold())
                 for r in await fetch_all(conn, _GOLD_SLOTS, {"t": env.tenant_id, "gold": gold})]  # fmt: skip
    if res.temporal is None:
        counts["unplanned"] += 1
        counts["unplanned_right_time_first"] += int(right_time_first)
        counts["unplanned_gold_unslotted"] += int(not slots)
        return f"unplanned {slots}"
    counts["planned"] += 1
    if any(gold in e.turn_ids for e in res.evidence if e.temporal_role == "answer"):
        counts["plan_answer_right"] += 1
        return "plan_answer_right"
    subject, _, attribute = str(res.temporal).split(" ", 1)[-1].rpartition(".")
    subject, attribute = subject.casefold(), attribute.casefold()
    if not slots:
        key = "plan_wrong_gold_unslotted"
    elif not any(s == subject or s.endswith(f" {subject}") or subject.endswith(f" {s}") for s, _ in slots):
        key = "plan_wrong_other_subject"
    elif attribute not in {a for _, a in slots}:
        key = "plan_wrong_other_chain"
    else:
        key = "plan_wrong_same_chain"
    counts[key] += 1
    return f"{key} (plan: {res.temporal}; gold: {slots})"
