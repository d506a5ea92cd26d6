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
            w.restored.add(pred_id)
    if nxt is not None and nxt["supersedes"] is not None and int(nxt["supersedes"]) == fact_id:
        await q.set_supersedes(w.conn, w.tenant_id, int(nxt["fact_id"]), relinked)
    await _link_new_neighbours(w, fact_id, x)


async def _link_new_neighbours(w: RetractWork, fact_id: int, x: Row) -> None:
    """The facts just before and just after ``x`` in the slot's timeline meet once it is gone: when
    the earlier is current (it stated ``x``'s value, so nothing linked it to ``x``; or it was just
    made current) and their values differ, the later supersedes it, as canonicalisation links
    neighbours. Only the timeline decides: ``x``'s own successor may be earlier or in another slot
    (a merge keeps such links)."""
    slot = (str(x["subject"]), str(x["attribute"]))
    rows = await q.slot_around(w.conn, w.tenant_id, w.forest_id, slot, fact_id, x["valid_from"])
    prev = next((r for r in rows if r["before"]), None)
    nxt = next((r for r in rows if not r["before"]), None)
    if prev is None or nxt is None or prev["superseded_by"] is not None:
        return
    if same_state_value(prev["value"], nxt["value"]):
        return
    prev_id, nxt_id = int(prev["fact_id"]), int(nxt["fact_id"])
    if not await q.link_current(w.conn, w.tenant_id, prev_id, nxt_id, nxt["valid_from"]):
        return
    if prev_id in w.restored:  # (current again for a moment only: not counted as restored)
        w.restored.discard(prev_id)
        w.report.facts_restored -= 1
    if nxt["supersedes"] is None or int(nxt["supersedes"]) == fact_id:
        await q.set_supersedes(w.conn, w.tenant_id, nxt_id, prev_id)
