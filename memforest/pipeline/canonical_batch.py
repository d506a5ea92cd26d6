"""Canonicalise a commit's candidates as a batch (ADR 0023): the same outcome as canonicalising each
candidate in order one at a time (the tests' oracle, ``tests/support/reference/canonical.py``), with
three statements for the whole batch instead of two to four per candidate.

1. One lookup: each candidate's exact match by text hash, else its three nearest stored live facts.
2. In memory, in order: a candidate matches an exact duplicate (stored, or new earlier in the batch),
   else the first near duplicate among its three nearest facts of the stored ones and the batch's
   earlier new facts (scored in memory), else it is new. Merges and new facts change nothing the
   lookup read (text hashes, vectors, kinds, speakers, times, slots, retraction), so the stored part
   of the lookup stays valid for the whole batch.
3. One statement allocates the new facts' ids (in order, as one insert each would) and reads, per
   slotted new fact, the stored holders of its slot just before and after it; the batch's earlier
   new facts of that slot are added in memory and the supersession links are worked out in order.
4. One statement writes the new facts (final validity, pointers and source counts), every source
   in order (already recorded ones skipped), and the link changes and added source counts of stored
   facts; which candidate added which stored source decides merged versus duplicate.
"""

from __future__ import annotations

import heapq
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from memforest.domain import Candidate
from memforest.pipeline.canonical import CanonicalOutcome, SourceRef, clean_surface, pick_near, text_hash
from memforest.pipeline.nearest_rows import RowMatrix
from memforest.pipeline.stored_nearest import nearest_stored
from memforest.rules import cosine_sq, nearest_first, same_state_value, squared_norm, supersession_slot, timeline_slot
from memforest.store import facts_batch
from memforest.store.sql import Conn, Row

__all__ = ["canonicalize_many"]

_NEAREST = 3  # as the one-at-a-time reference reads


@dataclass(slots=True)
class _New:
    """A candidate the batch stores as a new fact."""

    index: int  # among the batch's new facts
    item: int  # its position among the batch's candidates
    cand: Candidate
    emb: np.ndarray[Any, Any]
    source: SourceRef
    surface: str
    hash: str
    subject: str | None
    attribute: str | None
    valid_to: datetime | None
    turns: set[int]
    fact_id: int = 0
    supersedes: int | None = None
    superseded_by: int | None = None
    superseded: int | None = None  # the outcome's link
    norm: float = 0.0  # squared_norm(emb)

    def row(self, sim: float) -> Row:
        """The fact as the lookup would return it (fact_id: a placeholder until ids are allocated)."""
        return {
            "fact_id": -(self.index + 1), "kind": self.cand.kind.value, "speaker": self.cand.speaker,
            "valid_from": self.cand.valid_from, "sim": sim, "subject": self.subject, "attribute": self.attribute,
            "value": self.cand.value,
        }  # fmt: skip


@dataclass(slots=True)
class _Stored:
    """What the batch changes on a stored fact."""

    valid_to: datetime | None = None
    supersedes: int | None = None
    superseded_by: int | None = None


def _earlier(a: datetime | None, b: datetime | None) -> datetime | None:
    """LEAST as PostgreSQL computes it (NULL ignored)."""
    if a is None:
        return b
    return a if b is None else min(a, b)


@dataclass(slots=True)
class _Batch:
    near_threshold: float
    vectors: RowMatrix  # the new facts' vectors, in order (which of them can be among a candidate's nearest)
    new: list[_New] = field(default_factory=list)
    by_hash: dict[str, _New] = field(default_factory=dict)
    stored: dict[int, _Stored] = field(default_factory=dict)

    def add(self, n: _New) -> None:
        """Keep ``n`` as the batch's next new fact."""
        self.new.append(n)
        self.by_hash[n.hash] = n
        self.vectors.append(n.emb, n.norm)

    def match(self, cand: Candidate, emb: np.ndarray[Any, Any], h: str, rows: list[Row]) -> int | _New | None:
        """The fact ``cand`` merges into (stored id or a new fact of the batch), else None."""
        mine = self.by_hash.get(h)
        if mine is not None:
            return mine
        if rows and rows[0]["exact_id"] is not None:
            return int(rows[0]["exact_id"])
        if not np.any(emb):
            return None
        # a stored zero vector has a NaN cosine: PostgreSQL sorts it last, and is_near_duplicate
        # rejects it, as in the one-at-a-time lookup
        scored: list[tuple[float, Row | _New]] = [(float(r["sim"]), r) for r in rows if r["fact_id"] is not None]
        norm = squared_norm(emb)
        # the new facts that can be among the _NEAREST (every other one has _NEAREST new facts
        # strictly nearer: nearest_rows), each scored exactly
        picked = [self.new[i] for i in self.vectors.candidates(emb, norm, _NEAREST)]
        scored += [(cosine_sq(n.emb, n.norm, emb, norm), n) for n in picked]
        # the first _NEAREST in a stable sort, stored rows first (nsmallest equals sorted()[:n])
        top = heapq.nsmallest(_NEAREST, scored, key=lambda s: nearest_first(s[0]))
        near = [x if isinstance(x, dict) else x.row(sim) for sim, x in top]
        found = pick_near(near, cand, self.near_threshold)
        if found is None:
            return None
        return self.new[-found - 1] if found < 0 else found

    def supersede(self, n: _New, before: tuple[Any, ...] | None, after: tuple[Any, ...] | None) -> None:
        """Thread new fact ``n`` into its slot as the one-at-a-time reference does, given the stored
        holders just before and after it: ``(valid_from, fact_id, value)``."""
        slot = timeline_slot(n.cand.subject, n.cand.attribute, n.cand.value)
        if slot is None:
            return
        vf = n.cand.valid_from
        # (valid_from, order, fact_id, value): the batch's facts come after every stored one at one time
        cands: list[tuple[datetime, int, int, str | None]] = []
        if before is not None:
            cands.append((before[0], 0, before[1], before[2]))
        if after is not None:
            cands.append((after[0], 0, after[1], after[2]))
        for m in self.new[: n.index]:
            if (m.subject, m.attribute) == slot:
                cands.append((m.cand.valid_from, 1 + m.index, m.fact_id, m.cand.value))
        below = [c for c in cands if c[0] <= vf]
        above = [c for c in cands if c[0] > vf]
        prev = max(below, key=lambda c: (c[0], c[1], c[2])) if below else None
        nxt_row = min(above, key=lambda c: (c[0], c[1], c[2])) if above else None
        old = prev[2] if prev is not None and not same_state_value(prev[3], n.cand.value) else None
        nxt = nxt_row[2] if nxt_row is not None and not same_state_value(nxt_row[3], n.cand.value) else None
        if old is not None:
            self._change(old, valid_to=vf, superseded_by=n.fact_id)
            n.supersedes = old
        if nxt is not None and nxt_row is not None:
            n.superseded_by = nxt
            n.valid_to = _earlier(n.valid_to, nxt_row[0])
            self._change(nxt, supersedes=n.fact_id)
        n.superseded = old if old is not None else nxt

    def _change(
        self, fact_id: int, *, valid_to: datetime | None = None, supersedes: int | None = None,
        superseded_by: int | None = None,
    ) -> None:  # fmt: skip
        mine = next((m for m in self.new if m.fact_id == fact_id), None)
        target: _New | _Stored = mine if mine is not None else self.stored.setdefault(fact_id, _Stored())
        target.valid_to = _earlier(target.valid_to, valid_to)
        if supersedes is not None:
            target.supersedes = supersedes
        if superseded_by is not None:
            target.superseded_by = superseded_by


async def canonicalize_many(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    items: Sequence[tuple[Candidate, np.ndarray[Any, Any], SourceRef]],
    *,
    near_threshold: float,
) -> list[CanonicalOutcome]:
    """Canonicalise every ``(candidate, embedding, source)`` in order, as a batch (see the module
    docstring)."""
    if not items:
        return []
    surfaces = [clean_surface(c.text) for c, _, _ in items]
    hashes = [text_hash(s) for s in surfaces]
    looked: dict[int, list[Row]] = {}
    for r in await nearest_stored(conn, tenant_id, forest_id, hashes, [e for _, e, _ in items]):
        looked.setdefault(int(r["i"]) - 1, []).append(r)
    batch = _Batch(near_threshold, RowMatrix(len(items), len(items[0][1])))
    decided: list[int | _New] = []  # per item: its merge target, or itself as a new fact
    for i, (cand, emb, source) in enumerate(items):
        target = batch.match(cand, emb, hashes[i], looked.get(i, []))
        if target is not None:
            decided.append(target)
            continue
        slotted = supersession_slot(cand.subject, cand.attribute, cand.value) is not None
        n = _New(
            len(batch.new), i, cand, emb, source, surfaces[i], hashes[i],
            cand.subject.casefold() if cand.subject else None, cand.attribute.casefold() if cand.attribute else None,
            None if slotted else cand.valid_to, set(source.turn_ids),
        )  # fmt: skip
        n.norm = squared_norm(emb)
        batch.add(n)
        decided.append(n)
    if batch.new:
        slots = [timeline_slot(n.cand.subject, n.cand.attribute, n.cand.value) for n in batch.new]
        rows = await facts_batch.new_ids_and_neighbours(
            conn, tenant_id, forest_id, slots, [n.cand.valid_from for n in batch.new]
        )
        for n, r in zip(batch.new, rows, strict=True):
            n.fact_id = int(r["id"])
        for n, r in zip(batch.new, rows, strict=True):
            before = (r["before_valid_from"], int(r["before_id"]), r["before_value"]) if r["before_id"] else None
            after = (r["after_valid_from"], int(r["after_id"]), r["after_value"]) if r["after_id"] else None
            batch.supersede(n, before, after)
    # sources in order; a new fact's own turns are all new, merges into new facts are decided here
    sources: list[facts_batch.SourceRow] = []
    status: list[str | None] = []  # None: a merge into a stored fact, decided by what the write adds
    for i, ((_, _, source), target) in enumerate(zip(items, decided, strict=True)):
        fact_id = target.fact_id if isinstance(target, _New) else target
        if isinstance(target, _New) and target.item == i:
            status.append("new")
        elif isinstance(target, _New):
            added = [t for t in dict.fromkeys(source.turn_ids) if t not in target.turns]
            target.turns.update(added)
            status.append("merged" if added else "duplicate")
        else:
            batch.stored.setdefault(fact_id, _Stored())
            status.append(None)
        sources.extend(facts_batch.SourceRow(fact_id, t, source.cell_id, source.session_id) for t in source.turn_ids)
    rows_new = [
        facts_batch.FactRow(
            fact_id=n.fact_id, text=n.surface, text_hash=n.hash, kind=n.cand.kind.value,
            entities=list(n.cand.entities), topics=list(n.cand.topics), speaker=n.cand.speaker, subject=n.subject,
            attribute=n.attribute, value=n.cand.value, time_text=n.cand.time_text, valid_from=n.cand.valid_from,
            valid_to=n.valid_to, recorded_at=n.source.said_at, source_count=len(n.turns), supersedes=n.supersedes,
            superseded_by=n.superseded_by, embedding=n.emb,
        )
        for n in batch.new
    ]  # fmt: skip
    updates = [
        facts_batch.LinkUpdate(fid, c.valid_to, c.supersedes, c.superseded_by) for fid, c in batch.stored.items()
    ]
    added_stored = await facts_batch.write_facts(conn, tenant_id, forest_id, rows_new, sources, updates)
    out: list[CanonicalOutcome] = []
    for i, ((_, _, source), target) in enumerate(zip(items, decided, strict=True)):
        if isinstance(target, _New):
            state = status[i]
            assert state is not None
            out.append(CanonicalOutcome(target.fact_id, state, target.superseded if state == "new" else None))
            continue
        claimed = [k for k in dict.fromkeys((target, t) for t in source.turn_ids) if k in added_stored]
        added_stored.difference_update(claimed)  # the first candidate in order added them
        out.append(CanonicalOutcome(target, "merged" if claimed else "duplicate"))
    return out
