"""Repair of a supersession chain around a removed fact: the (subject, attribute) slot timeline
without it, as canonicalisation would have threaded it had the fact never been stated."""

from __future__ import annotations

from memforest.lifecycle.retract_report import RetractWork
from memforest.rules import same_state_value
from memforest.store import retraction as q
from memforest.store.sql import Row

__all__ = ["unlink_supersession"]


async def unlink_supersession(w: RetractWork, fact_id: int) -> None:
    """The slot timeline without the fact: each fact it superseded is linked to its successor when
    their values differ (as canonicalisation would have linked them), else becomes current again.
    A ``valid_to`` is only reset when it was the removed fact's start (set by supersession). Any
    other fact still pointing at it (outside its slot: a merge can link so) becomes current too."""
    x = await q.fact_slot(w.conn, w.tenant_id, fact_id)
    assert x is not None
    if x["subject"] is not None and x["attribute"] is not None:  # canonical supersession links one slot
        await _rethread_slot(w, fact_id, x)
    # superseded_by has no foreign key to clear it (migration 0019, ADR 0028)
    w.report.facts_restored += await q.release_superseded(w.conn, w.tenant_id, w.forest_id, fact_id, x["valid_from"])


async def _rethread_slot(w: RetractWork, fact_id: int, x: Row) -> None:
    """The slot's facts that ``x`` superseded: linked to its successor or current again."""
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
    if nxt is not None and relinked is None:
        relinked = await _link_unlinked_predecessor(w, fact_id, x, nxt)
    if nxt is not None and nxt["supersedes"] is not None and int(nxt["supersedes"]) == fact_id:
        await q.set_supersedes(w.conn, w.tenant_id, int(nxt["fact_id"]), relinked)


async def _link_unlinked_predecessor(w: RetractWork, fact_id: int, x: Row, nxt: Row) -> int | None:
    """The fact just before ``x`` in the slot's timeline, when current (it stated ``x``'s value, so
    nothing linked it to ``x``), now meets ``x``'s successor: linked to it when their values differ,
    as canonicalisation links neighbours. Returns its id when linked."""
    slot = (str(x["subject"]), str(x["attribute"]))
    prev = await q.slot_predecessor(w.conn, w.tenant_id, w.forest_id, slot, fact_id, x["valid_from"])
    if prev is None or prev["superseded_by"] is not None or same_state_value(prev["value"], nxt["value"]):
        return None
    prev_id = int(prev["fact_id"])
    if prev_id == int(nxt["fact_id"]):  # a link against the timeline (a merge's) is left as it is
        return None
    linked = await q.link_current(w.conn, w.tenant_id, prev_id, int(nxt["fact_id"]), nxt["valid_from"])
    return prev_id if linked else None
