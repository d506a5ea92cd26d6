"""The facts of retracted turns: drop the turns' sources, detach the facts that keep other sources,
and remove the others with their leaves in every tree, their entity links and their scene
membership (remembered for :mod:`memforest.lifecycle.retract_settle`)."""

from __future__ import annotations

from memforest.lifecycle.retract_chain import unlink_supersession
from memforest.lifecycle.retract_report import RetractWork
from memforest.store import retraction as q
from memforest.store.tree_delete import remove_source
from memforest.text.digits import decimal_int

__all__ = ["remove_fact", "retract_sources"]


async def retract_sources(w: RetractWork, turn_ids: list[int]) -> None:
    """Drop the turns' fact sources; detach facts that keep other sources, remove the others."""
    if not turn_ids:
        return
    fact_ids = await q.delete_turn_sources(w.conn, w.tenant_id, turn_ids)
    if not fact_ids:
        return
    left = await q.sources_left(w.conn, w.tenant_id, fact_ids)
    detached = [fid for fid, n in left.items() if n > 0]
    removed = sorted(fid for fid, n in left.items() if n == 0)
    if detached:
        await _detach(w, detached)
    for fact_id in removed:
        await remove_fact(w, fact_id)


async def _detach(w: RetractWork, fact_ids: list[int]) -> None:
    """Facts that keep other sources: recount sources, move ``recorded_at`` to when the remaining
    sources were said, and re-point entity links whose session no longer supports the fact."""
    await q.recount_sources(w.conn, w.tenant_id, fact_ids)
    w.touched_entities |= set(await q.repoint_entity_links(w.conn, w.tenant_id, fact_ids))
    w.report.facts_detached += len(fact_ids)


async def remove_fact(w: RetractWork, fact_id: int) -> None:
    """Re-thread supersession around the fact, remove its leaves everywhere, then the fact itself
    (its sources must be gone already)."""
    await unlink_supersession(w, fact_id)
    scene_keys = await q.fact_scene_keys(w.conn, w.tenant_id, fact_id)
    fact = await q.fact_for_removal(w.conn, w.tenant_id, fact_id)
    assert fact is not None
    for key in scene_keys:
        cluster = decimal_int(key)
        if cluster is not None:
            w.touched_scenes.setdefault(cluster, []).append(fact)
    await remove_source(w.conn, w.tenant_id, "fact", fact_id, w.report.rebalance, w.trees)
    w.touched_entities |= set(await q.delete_fact(w.conn, w.tenant_id, fact_id))
    w.report.facts_removed += 1
