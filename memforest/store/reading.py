"""The read path's transactions: the one door to PostgreSQL's planning regimes and the side pool.

A query reads in one read-only tenant transaction (:class:`~memforest.store.read_conn.ReadConn`:
the driver runs it, not SQLAlchemy, ADR 0022). Its statements run under one of two planning
regimes (``db.engine``):

- *parameter plans* (``CUSTOM_PLANS``), every tenant transaction's start: each statement is planned
  for its parameters, so a forest's partial indexes (``WHERE forest_id = N``, ADR 0024) apply and a
  small table may be scanned;
- *generic plans* (``GENERIC_PLANS``): a statement's plan is made once per connection and kept, with
  sequential scans off. Right for statements that read rows by key only, whose plan is the same index
  lookups whatever the keys, and for an indexed forest's vector channels, which name the forest by a
  literal so their generic plan can still prove its partial indexes apply.

Three gates switch between them, each a column of a statement that runs anyway (no round trip of
its own): the transaction's first statement for a forest this process read before (its vector
channels' plan is kept per connection); the vector channels' ``forest`` row, which hands the rest
of the transaction back to parameter plans, or on to generic ones when the caller reads by key only
from there; and the beam descent, whose rows switch to generic plans for the assembly after it. A
statement that returns no row switches nothing, so :class:`ReadTransaction` tracks the regime from
the rows it saw and puts parameter plans back (one statement) only when a caller needs them and the
regime may be generic (ADR 0022, ADR 0024).

``retrieval/`` states what it will do next (:class:`ReadIntent`) and never names a regime.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypeVar

from memforest.db.engine import SidePoolBusy
from memforest.store import recall_channels as channels
from memforest.store.browse.descent import beam_descent, beam_descent_and_candidates
from memforest.store.read_conn import ReadConn, reading
from memforest.store.recall import Vec
from memforest.store.sql import RowView

if TYPE_CHECKING:
    from memforest.db.engine import Database

__all__ = ["ReadIntent", "ReadTransaction", "read_beside", "read_transaction"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ReadIntent:
    """What a query will read in its transaction, as the planning regimes need to know it.

    ``forest_known``: the forest was read by this process before (its id comes from a cache, and
    its vector channels' plan from the connection); ``key_lookups_after_recall``: after the vector
    channels (or the statement of every channel), every statement reads rows by key but a full
    text read after all in the transaction (no event anchor to search, no source filter);
    ``key_lookups_after_browse``: after the beam descent, likewise (no source filter)."""

    forest_known: bool = False
    key_lookups_after_recall: bool = False
    key_lookups_after_browse: bool = False


class ReadTransaction:
    """A query's read-only tenant transaction: ``conn`` for the store's plain reads, and the reads
    whose statements switch the planning regime, which it tracks."""

    def __init__(self, conn: ReadConn, tenant_id: uuid.UUID, intent: ReadIntent) -> None:
        self.conn = conn
        self.tenant_id = tenant_id
        self.intent = intent
        self._maybe_generic = intent.forest_known  # (the first statement's regime: read_transaction)

    async def plans_for_parameters(self) -> None:
        """Plan the next statements for their parameters (a search by vector or text of a forest's
        own indexes needs that); nothing to do when the transaction is known to plan so already."""
        if self._maybe_generic:
            await channels.plans_as_usual(self.conn)
            self._maybe_generic = False

    async def forest(self, name: str, ef_search: int) -> channels.RecallForest:
        """The forest ``name`` for this query (NotFoundError when none), with the HNSW knobs set."""
        await self.plans_for_parameters()
        return await channels.forest_for_recall(self.conn, self.tenant_id, name, ef_search)

    async def indexed(self, forest_id: int, ef_search: int) -> bool:
        """Whether the forest has its own indexes (ADR 0024), with the HNSW knobs set."""
        return await channels.indexed_and_knobs(self.conn, forest_id, ef_search)

    async def channels(
        self,
        forest_id: int,
        q: Vec | None,
        terms: Sequence[str],
        kinds: Sequence[str],
        names: Sequence[str],
        limits: channels.ChannelLimits,
        *,
        indexed: bool,
        as_of: datetime | None,
        parts: Sequence[channels.ChannelPart],
    ) -> list[RowView]:
        """The recall channels' rows of ``parts`` (``channels.recall_channels``). The vector part
        alone, or every channel of a forest read exactly, hands the rest of the transaction on to
        generic plans when the intent reads by key from here; otherwise its forest row hands it
        back to parameter plans."""
        if "vector" not in parts:  # (full text is planned for its forest and may scan it)
            await self.plans_for_parameters()
        handing_on = tuple(parts) == ("vector",) or (not indexed and set(parts) == set(channels.PARTS))
        generic_next = handing_on and self.intent.key_lookups_after_recall
        rows = await channels.recall_channels(
            self.conn, self.tenant_id, forest_id, q, terms, kinds, names, limits,
            exact=not indexed, scan_text=not indexed, as_of=as_of, parts=parts, generic_next=generic_next,
        )  # fmt: skip
        if "vector" in parts and any(r["ch"] == "forest" for r in rows):
            self._maybe_generic = generic_next
        return rows

    async def descend(
        self,
        forest_id: int,
        roots: Sequence[int],
        q: Vec,
        beam_width: int,
        after: datetime | None,
        before: datetime | None,
        penalty: float,
        live_leaves: int,
    ) -> list[RowView]:
        """The leaves of a beam descent from ``roots`` (``browse.descent.beam_descent``); its rows
        switch the rest of the transaction to generic plans when the intent reads by key after it."""
        by_key = self.intent.key_lookups_after_browse
        rows = await beam_descent(
            self.conn, self.tenant_id, forest_id, roots, q, beam_width, after, before, penalty, live_leaves,
            key_lookups_after=by_key,
        )  # fmt: skip
        if by_key and rows:
            self._maybe_generic = True
        return rows

    async def descend_and_read(
        self,
        forest_id: int,
        roots: Sequence[int],
        q: Vec,
        beam_width: int,
        after: datetime | None,
        before: datetime | None,
        penalty: float,
        live_leaves: int,
        candidates: tuple[Sequence[int], Sequence[int], Sequence[int]],
    ) -> tuple[list[RowView], list[RowView] | None]:
        """:meth:`descend` and the candidates of assembly in one statement
        (``browse.descent.beam_descent_and_candidates``), for an intent that reads by key after
        the descent (its rows switch the rest of the transaction to generic plans). When the
        transaction may plan for parameters here, the joint statement would be planned anew at
        every query, so the descent runs alone (its rows have ``node_id`` for ``id``) and the
        candidates come back None, for the caller to read on the generic plans it switches to."""
        if not self._maybe_generic:
            return await self.descend(forest_id, roots, q, beam_width, after, before, penalty, live_leaves), None
        leaves, rows = await beam_descent_and_candidates(
            self.conn, self.tenant_id, forest_id, roots, q, beam_width, after, before, penalty, live_leaves,
            candidates,
        )  # fmt: skip
        if leaves or rows:
            self._maybe_generic = True
        return leaves, rows


@asynccontextmanager
async def read_transaction(
    db: Database, tenant_id: uuid.UUID, ef_search: int, intent: ReadIntent
) -> AsyncIterator[ReadTransaction]:
    """A query's read-only transaction with its HNSW knobs (``ef_search``) and, for a forest read
    before, its vector channels on the connection's kept plan."""
    knobs = channels.recall_knobs(ef_search, planned_once=intent.forest_known)
    async with reading(db, tenant_id, knobs=knobs) as conn:
        yield ReadTransaction(conn, tenant_id, intent)


async def read_beside(db: Database, tenant_id: uuid.UUID, read: Callable[[ReadTransaction], Awaitable[T]]) -> T | None:
    """``read`` in a read-only transaction of the side pool, beside the caller's own (full text
    while the vectors are read), its statements planned for their parameters; None when no side
    connection is free at once (the caller reads in its own transaction instead) or the process
    has no side pool."""
    if db.side_engine is None:
        return None
    try:
        async with reading(db, tenant_id, side=True) as side:
            return await read(ReadTransaction(side, tenant_id, ReadIntent()))
    except SidePoolBusy:
        return None
