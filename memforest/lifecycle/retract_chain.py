"""Repair of a supersession chain around a removed fact: the (subject, attribute) slot timeline
without it, as canonicalisation would have threaded it had the fact never been stated."""

from __future__ import annotations

from memforest.lifecycle.retract_report import RetractWork
from memforest.rules import forms_timeline, same_state_value
from memforest.store import retraction as q
from memforest.store.sql import Row, RowView

__all__ = ["unlink_supersession"]


async def unlink_supersession(w: RetractWork, fact_id: int) -> None:
    """The slot timeline without the fact (ADR 0028): each fact it superseded is linked to
    its successor when that is the slot's next fact and their values differ, else becomes current
    again; then the facts just before and after it in the timeline are linked as canonicalisation
    links neighbours. A ``valid_to`` is only reset when it was the removed fact's start (set by
    supersession). Any other fact still pointing at it (outside its slot: a merge can link so)
    becomes current too."""
    x = await q.fact_slot(w.conn, w.tenant_id, fact_id)
    assert x is not None
    _forget_restored(w, fact_id)  # (made current earlier in this retraction, now removed itself)
    # canonical supersession links one slot; a verb class's slot is no timeline (rules.timeline_slot)
    if x["subject"] is not None and x["attribute"] is not None and forms_timeline(str(x["attribute"])):
        await _rethread_slot(w, fact_id, x)
    # superseded_by has no foreign key to clear it (migration 0019, ADR 0028)
    for released in await q.release_superseded(w.conn, w.tenant_id, w.forest_id, fact_id, x["valid_from"]):
        _restored(w, released)


async def _rethread_slot(w: RetractWork, fact_id: int, x: Row) -> None:
    """The slot's facts that ``x`` superseded: linked to its successor when that is the next fact of
    the slot's timeline and states a value (a merge can link backwards or across slots, a correction
    or a later insert can start after others), else current again; then the new neighbours."""
    succ = None
    if x["superseded_by"] is not None:
        succ = await q.fact_successor(w.conn, w.tenant_id, int(x["superseded_by"]))
    _, after = await _around(w, fact_id, x)
    nxt = None
    if succ is not None and after is not None and int(after["fact_id"]) == int(succ["fact_id"]):
        nxt = succ if succ["value"] is not None else None
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
            _restored(w, pred_id)
    if succ is not None and succ["supersedes"] is not None and int(succ["supersedes"]) == fact_id:
        await q.set_supersedes(w.conn, w.tenant_id, int(succ["fact_id"]), relinked)
    await _link_new_neighbours(w, fact_id, x)


async def _around(w: RetractWork, fact_id: int, x: Row) -> tuple[RowView | None, RowView | None]:
    """The slot's live facts just before and just after ``x`` in its timeline (either may be None)."""
    slot = (str(x["subject"]), str(x["attribute"]))
    rows = await q.slot_around(w.conn, w.tenant_id, w.forest_id, slot, fact_id, x["valid_from"])
    return next((r for r in rows if r["before"]), None), next((r for r in rows if not r["before"]), None)


async def _link_new_neighbours(w: RetractWork, fact_id: int, x: Row) -> None:
    """The facts just before and just after ``x`` in the slot's timeline meet once it is gone: when
    the earlier is current (it stated ``x``'s value, so nothing linked it to ``x``; or it was just
    made current) and their values differ, the later supersedes it, as canonicalisation links
    neighbours. Nothing is linked across a correction (no value), nor when the earlier can already
    be reached from the later by ``superseded_by`` (a merge's backward links: that would close a cycle)."""
    prev, nxt = await _around(w, fact_id, x)
    if prev is None or nxt is None or prev["superseded_by"] is not None:
        return
    if prev["value"] is None or nxt["value"] is None or same_state_value(prev["value"], nxt["value"]):
        return
    prev_id, nxt_id = int(prev["fact_id"]), int(nxt["fact_id"])
    if nxt["superseded_by"] is not None and await q.supersession_reaches(w.conn, w.tenant_id, nxt_id, prev_id):
        return
    if not await q.link_current(w.conn, w.tenant_id, prev_id, nxt_id, nxt["valid_from"]):
        return
    if prev_id in w.restored:  # (current again for a moment only)
        _forget_restored(w, prev_id)
    else:  # (current before this retraction: current again later is no restoration)
        w.superseded_here.add(prev_id)
    if nxt["supersedes"] is None or int(nxt["supersedes"]) == fact_id:
        await q.set_supersedes(w.conn, w.tenant_id, nxt_id, prev_id)


def _restored(w: RetractWork, fact_id: int) -> None:
    """Count a fact made current again (once; not one that was current when the retraction began)."""
    if fact_id in w.superseded_here:
        w.superseded_here.discard(fact_id)
    elif fact_id not in w.restored:
        w.restored.add(fact_id)
        w.report.facts_restored += 1


def _forget_restored(w: RetractWork, fact_id: int) -> None:
    """Uncount a fact made current earlier in this retraction that is superseded or removed after all."""
    if fact_id in w.restored:
        w.restored.discard(fact_id)
        w.report.facts_restored -= 1
