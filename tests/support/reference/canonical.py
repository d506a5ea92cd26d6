"""The one-by-one canonicaliser: the reference ``memforest.pipeline.canonical_batch`` must match.

Each candidate merges into its exact duplicate (same normalised-text hash), else into a near
duplicate among the three nearest live facts (``pick_near``), else becomes a new fact threaded into
its supersession slot's timeline; a few statements per candidate. Tests run it beside the batched
canonicaliser and compare the facts, sources and links each leaves.
"""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np

from memforest.domain import Candidate
from memforest.pipeline.canonical import CanonicalOutcome, SourceRef, clean_surface, pick_near, text_hash
from memforest.rules import same_state_value, supersession_slot, timeline_slot
from memforest.store.facts import NewFact, insert_fact
from memforest.store.sql import Conn
from support.reference import facts

__all__ = ["canonicalize", "thread_into_slot"]


async def _add_sources(conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_id: int, src: SourceRef) -> int:
    """Add the source turns not yet recorded and count them into ``source_count``."""
    if not src.turn_ids:
        return 0
    return await facts.add_sources(
        conn, tenant_id, forest_id, fact_id, session_id=src.session_id, cell_id=src.cell_id, turn_ids=src.turn_ids
    )


async def _match(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    text_hash_: str,
    cand: Candidate,
    embedding: np.ndarray[Any, Any],
    threshold: float,
) -> int | None:
    """The existing fact ``cand`` merges into: the exact duplicate, else a near duplicate, else None."""
    if not np.any(embedding):
        return await facts.find_exact(conn, tenant_id, forest_id, text_hash_)
    rows = await facts.exact_or_nearest(conn, tenant_id, forest_id, text_hash_, embedding)
    if rows and rows[0]["exact"]:
        return int(rows[0]["fact_id"])
    return pick_near(rows, cand, threshold)


async def thread_into_slot(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_id: int, cand: Candidate
) -> int | None:
    """Thread the new fact into its (subject, attribute) slot's timeline: the holder just before it
    (by valid_from) ends where it starts, and it ends where the next holder starts. Only holders
    with a different value are linked; nothing is deleted. Returns the fact linked to it (the one
    it superseded, else the later one that supersedes it), or None."""
    slot = timeline_slot(cand.subject, cand.attribute, cand.value)
    if slot is None:
        return None
    rows = await facts.slot_neighbours(conn, tenant_id, forest_id, slot, fact_id, cand.valid_from)
    before = next((r for r in rows if r["before"]), None)
    after = next((r for r in rows if not r["before"]), None)
    old = int(before["fact_id"]) if before is not None and not same_state_value(before["value"], cand.value) else None
    nxt = int(after["fact_id"]) if after is not None and not same_state_value(after["value"], cand.value) else None
    if old is None and nxt is None:
        return None
    # old ends where the new fact starts; the new fact ends where the next holder starts (one statement)
    await facts.link_supersession(
        conn, tenant_id, fact_id, cand.valid_from, old=old, nxt=nxt,
        next_valid_from=after["valid_from"] if nxt is not None and after is not None else None,
    )  # fmt: skip
    return old if old is not None else nxt


async def canonicalize(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    cand: Candidate,
    embedding: np.ndarray[Any, Any],
    source: SourceRef,
    *,
    near_threshold: float,
) -> CanonicalOutcome:
    """Merge ``cand`` into an existing fact (adding a source) or insert it as a new fact."""
    surface = clean_surface(cand.text)
    h = text_hash(surface)
    match = await _match(conn, tenant_id, forest_id, h, cand, embedding, near_threshold)
    if match is not None:
        added = await _add_sources(conn, tenant_id, forest_id, match, source)
        return CanonicalOutcome(match, "merged" if added else "duplicate")
    # a state holds until a later state of its slot supersedes it: the time expression ("in the week
    # of 25 September") dates the change, its end is not the end of the state
    valid_to = None if supersession_slot(cand.subject, cand.attribute, cand.value) is not None else cand.valid_to
    new = NewFact(
        text=surface, text_hash=h, kind=cand.kind.value, entities=list(cand.entities), topics=list(cand.topics),
        speaker=cand.speaker, subject=cand.subject.casefold() if cand.subject else None,
        attribute=cand.attribute.casefold() if cand.attribute else None, value=cand.value,
        time_text=cand.time_text, valid_from=cand.valid_from, valid_to=valid_to, recorded_at=source.said_at,
        embedding=embedding, session_id=source.session_id, cell_id=source.cell_id, turn_ids=source.turn_ids,
    )  # fmt: skip
    fact_id = await insert_fact(conn, tenant_id, forest_id, new)
    superseded = await thread_into_slot(conn, tenant_id, forest_id, fact_id, cand)
    return CanonicalOutcome(fact_id, "new", superseded)
