"""Repair of a supersession chain around a removed fact: the (subject, attribute) slot timeline
without it, as canonicalisation would have threaded it had the fact never been stated."""

from __future__ import annotations

from memforest.lifecycle.retract_report import RetractWork
from memforest.rules import same_state_value
from memforest.store import retraction as q

__all__ = ["unlink_supersession"]


async def unlink_supersession(w: RetractWork, fact_id: int) -> None:
    """The slot timeline without the fact: each fact it superseded is linked to its successor when
    their values differ (as canonicalisation would have linked them), else becomes current again.
    A ``valid_to`` is only reset when it was the removed fact's start (set by supersession)."""
    x = await q.fact_slot(w.conn, w.tenant_id, fact_id)
    assert x is not None
    if x["subject"] is None or x["attribute"] is None:  # supersession only links facts of one slot
        return
    nxt = None
    if x["superseded_by"] is not None:
        nxt = await q.fact_successor(w.conn, w.tenant_id, int(x["superseded_by"]))
    preds = await q.superseded_by(w.conn, w.tenant_id, w.forest_id, x["subject"], x["attribute"], fact_id)
    relinked = None
    for pred in preds:
        pred_id = int(pred["fact_id"])
        if nxt is not None and not same_state_value(pred["value"], nxt["value"]):
            await q.relink_superseded(
                w.conn, w.tenant_id, pred_id, int(nxt["fact_id"]), x["valid_from"], nxt["valid_from"]
            )
            relinked = relinked if relinked is not None else pred_id
        else:
            await q.make_current(w.conn, w.tenant_id, pred_id, x["valid_from"])
            w.report.facts_restored += 1
    if nxt is not None and nxt["supersedes"] is not None and int(nxt["supersedes"]) == fact_id:
        await q.set_supersedes(w.conn, w.tenant_id, int(nxt["fact_id"]), relinked)
