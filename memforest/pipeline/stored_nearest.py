"""The exact match and three nearest stored live facts of every candidate of a commit, ranked in
this process over a kept view of each forest's live vectors (ADR 0142), so that the database does
not scan the forest per candidate inside the forest's commit lock.

Each process keeps, per forest it commits to, the live facts' vectors and the columns the
canonicaliser reads, as of a database snapshot. Each commit's one statement (``store.live_facts``)
brings the facts written since that snapshot, the forest's count of live facts and the exact
matches. A view whose size then differs from the count (a fact deleted, a writer that rolled back
after it was read), taken in another database, or too many transactions old is read again whole;
a view holding facts the reading transaction wrote itself serves that call only. A task takes a
view out of the process's registry while it awaits the read, so no two tasks share one.

The ranking is the one ``nearest_rows`` makes exact for the batch's own facts: one matrix product
finds the few rows that can be among each candidate's three nearest, and ``rules.cosine_sq``
scores those; ties go to the older fact. A forest with its own indexes, or whose view would take
more than ``SHARE_MAX`` of ``VIEW_BYTES_MAX``, is ranked by the database
(``store.facts_batch.lookup_many``). Views are kept up to ``VIEW_BYTES_MAX`` bytes in all, the
least recently used dropped first.
"""

from __future__ import annotations

import heapq
import threading
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from memforest.pipeline.nearest_rows import RowMatrix
from memforest.rules import cosine_sq, nearest_first, squared_norm
from memforest.store import facts_batch
from memforest.store.live_facts import XID_WINDOW, LiveChanges, Snapshot, live_changes
from memforest.store.sql import Conn, Row, as_vector

__all__ = ["NEAREST", "SHARE_MAX", "VIEWS", "VIEW_BYTES_MAX", "ForestViews", "nearest_stored"]

NEAREST = 3  # stored facts ranked per candidate, as the database's lookup returns them
VIEW_BYTES_MAX = 256 * 2**20
SHARE_MAX = 1 / 8  # a forest whose view would take more of the budget is left to the database
_ELSEWHERE_MAX = 65_536  # forests remembered as left to the database (the least recent forgotten)
_ROW_OVERHEAD = 400  # bytes a kept row costs beside its vector (its columns and index entries)
_META = ("kind", "speaker", "valid_from", "subject", "attribute", "value")


@dataclass
class _View:
    """One forest's live facts as of ``snapshot`` in the database ``incarnation``."""

    incarnation: tuple[Any, ...]
    snapshot: Snapshot
    rows: dict[int, tuple[np.ndarray[Any, Any], float, tuple[Any, ...]]] = field(default_factory=dict)
    ids: list[int] = field(default_factory=list)  # ascending; position i is row i of ``matrix``
    matrix: RowMatrix | None = None  # None: to be built from ``rows``

    def apply(self, changes: LiveChanges) -> None:
        """Take in the facts ``changes`` read (newer versions, retractions) and its snapshot."""
        appended: list[int] = []
        for r in changes.rows:
            fact_id = int(r["fact_id"])
            old = self.rows.pop(fact_id, None)
            if r["live"]:
                vector = as_vector(r["embedding"])
                self.rows[fact_id] = (vector, squared_norm(vector), tuple(r[k] for k in _META))
                if old is None and (not self.ids or fact_id > self.ids[-1]):
                    appended.append(fact_id)
                elif old is None or not np.array_equal(old[0], vector):
                    self.matrix = None
            elif old is not None:
                self.matrix = None
        self.snapshot = changes.snapshot
        if self.matrix is None:
            return
        for fact_id in appended:
            vector, norm, _ = self.rows[fact_id]
            self.matrix.append(vector, norm)
            self.ids.append(fact_id)

    def built(self, dim: int) -> RowMatrix:
        """The matrix of the kept vectors in fact id order (built when a change left it stale)."""
        if self.matrix is None:
            self.ids = sorted(self.rows)
            self.matrix = RowMatrix(len(self.ids), dim)
            for fact_id in self.ids:
                vector, norm, _ = self.rows[fact_id]
                self.matrix.append(vector, norm)
        return self.matrix

    def nbytes(self) -> int:
        """About the memory the view holds: its vectors as stored, their matrix (when built), and
        the columns kept beside them."""
        dim = next((len(v) for v, _, _ in self.rows.values()), 0)
        matrix = self.matrix.nbytes() if self.matrix is not None else 8 * dim * len(self.rows)
        return len(self.rows) * (4 * dim + _ROW_OVERHEAD) + matrix

    def nearest_many(self, embs: list[np.ndarray[Any, Any]]) -> list[list[tuple[float, int]]]:
        """For each of ``embs``, the ``NEAREST`` kept facts nearest it as (cosine, fact id), nearest
        first, NaN cosines (a zero vector) last, ties to the older fact."""
        if not self.rows or not embs:
            return [[] for _ in embs]
        queries = [(emb, squared_norm(emb)) for emb in embs]
        matrix = self.built(len(embs[0]))
        out = []
        for (emb, norm), kept in zip(queries, matrix.candidates_many(queries, NEAREST), strict=True):
            scored = []
            for i in kept:
                vector, stored_norm, _ = self.rows[self.ids[i]]
                scored.append((cosine_sq(vector, stored_norm, emb, norm), self.ids[i]))
            out.append(heapq.nsmallest(NEAREST, scored, key=lambda s: nearest_first(s[0])))
        return out


class ForestViews:
    """The kept views of one process, by (tenant, forest), least recently used first, and the
    forests it leaves to the database. A task takes a view out while it awaits its changes and puts
    it back once it is up to date; its ranking follows without yielding, so no two tasks of an event
    loop share a view (the lock keeps the registry whole; the views are for one event loop)."""

    def __init__(self, bytes_max: int = VIEW_BYTES_MAX) -> None:
        self.bytes_max = bytes_max
        self._lock = threading.Lock()
        self._views: OrderedDict[tuple[uuid.UUID, int], _View] = OrderedDict()
        self._elsewhere: OrderedDict[tuple[uuid.UUID, int], None] = OrderedDict()

    def take(self, key: tuple[uuid.UUID, int]) -> _View | None:
        """The kept view of ``key``, taken out (None when there is none)."""
        with self._lock:
            return self._views.pop(key, None)

    def peek(self, key: tuple[uuid.UUID, int]) -> _View | None:
        """The kept view of ``key``, left where it is."""
        with self._lock:
            return self._views.get(key)

    def keep(self, key: tuple[uuid.UUID, int], view: _View) -> None:
        """Keep ``view`` for ``key`` (the most recently used), dropping the least recently used views
        over the budget."""
        with self._lock:
            self._views[key] = view
            self._views.move_to_end(key)
            total = sum(v.nbytes() for v in self._views.values())
            while total > self.bytes_max and self._views:
                _, dropped = self._views.popitem(last=False)
                total -= dropped.nbytes()

    def ranked_elsewhere(self, key: tuple[uuid.UUID, int]) -> bool:
        """Whether ``key`` is left to the database's lookup."""
        with self._lock:
            return key in self._elsewhere

    def send_elsewhere(self, key: tuple[uuid.UUID, int]) -> None:
        """Leave ``key`` to the database's lookup from now on (it has its own indexes, or its view
        would take more than a ``SHARE_MAX`` of the budget)."""
        with self._lock:
            self._views.pop(key, None)
            self._elsewhere[key] = None
            while len(self._elsewhere) > _ELSEWHERE_MAX:
                self._elsewhere.popitem(last=False)

    def clear(self) -> None:
        """Forget every view and every forest left to the database."""
        with self._lock:
            self._views.clear()
            self._elsewhere.clear()


VIEWS = ForestViews()


async def _current_view(
    conn: Conn, key: tuple[uuid.UUID, int], hashes: Sequence[str], views: ForestViews
) -> tuple[_View | None, LiveChanges]:
    """The forest's view brought up to the statement's snapshot, kept again when it may be (None
    when the forest is left to the database), and the read."""
    kept = views.take(key)
    changes = await live_changes(conn, key[0], key[1], kept.snapshot if kept else None, hashes)
    if kept is not None and (
        kept.incarnation != changes.incarnation or changes.snapshot.xmax - kept.snapshot.xmax >= XID_WINDOW
    ):  # (another database's snapshot, or too old to bring up to date: read whole)
        kept = None
        changes = await live_changes(conn, key[0], key[1], None, hashes)
    view = kept if kept is not None else _View(changes.incarnation, changes.snapshot)
    if not changes.indexed:
        view.apply(changes)
        if len(view.rows) != changes.live_count and kept is not None:  # (a fact deleted, a rollback)
            changes = await live_changes(conn, key[0], key[1], None, hashes)
            view = _View(changes.incarnation, changes.snapshot)
            view.apply(changes)
    if changes.indexed or view.nbytes() > views.bytes_max * SHARE_MAX:
        views.send_elsewhere(key)
        return None, changes
    if len(view.rows) != changes.live_count:  # (not after a whole read, whose count is of its own rows)
        return None, changes
    if not changes.own_rows:  # (a view holding the reader's own writes would keep them after a rollback)
        views.keep(key, view)
    return view, changes


async def nearest_stored(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    hashes: Sequence[str],
    embeddings: Sequence[np.ndarray[Any, Any]],
    views: ForestViews = VIEWS,
) -> list[Row]:
    """What ``store.facts_batch.lookup_many`` returns for the candidates: for each ``i`` (1-based)
    one row with ``exact_id`` when a fact of the forest has its text hash; else its three nearest
    live facts (one row each, nearest first) when its vector is non-zero; else one row of NULLs."""
    key = (tenant_id, forest_id)
    if views.ranked_elsewhere(key):
        return await facts_batch.lookup_many(conn, tenant_id, forest_id, hashes, embeddings)
    view, changes = await _current_view(conn, key, hashes, views)
    if view is None:
        return await facts_batch.lookup_many(conn, tenant_id, forest_id, hashes, embeddings)
    ranked = [i for i, emb in enumerate(embeddings) if i not in changes.exact and np.any(emb)]
    nearest = dict(zip(ranked, view.nearest_many([embeddings[i] for i in ranked]), strict=True))
    rows: list[Row] = []
    for i in range(len(embeddings)):
        near = nearest.get(i, [])
        rows.extend(_near_row(i, sim, fact_id, view) for sim, fact_id in near)
        if not near:
            empty: Row = {"i": i + 1, "exact_id": changes.exact.get(i), "fact_id": None, "sim": None}
            rows.append(empty | dict.fromkeys(_META))
    return rows


def _near_row(i: int, sim: float, fact_id: int, view: _View) -> Row:
    """One ranked stored fact as the database's lookup returns it."""
    meta = view.rows[fact_id][2]
    return {"i": i + 1, "exact_id": None, "fact_id": fact_id, "sim": sim, **dict(zip(_META, meta, strict=True))}
