"""The live facts of a forest that changed since a snapshot, for a process that keeps their vectors
(``pipeline.stored_nearest``), with the exact text-hash matches of a commit's candidates, in one
statement.

A row version is new to a snapshot when the transaction that wrote it was not committed in it: its
``xmin`` is one of the snapshot's running transactions or the reading transaction's own, or lies
from the snapshot's ``xmax`` up to this statement's (circular 32-bit order, as PostgreSQL compares
them; a row older than 2^31 transactions, frozen with its raw ``xmin`` kept, falls outside that
window and is old). The caller passes the snapshot as :class:`Snapshot`, as a previous call
returned it; a transaction that had written before that call lists its own id among the running
ones, so its later writes are never taken as already seen. The statement also counts the forest's
facts the reading transaction itself wrote (``own_rows``): a view that holds them would keep them
after a rollback. No writer of facts uses subtransactions, whose ids a snapshot does not list."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memforest.store.forest_indexes import INDEXED_SQL
from memforest.store.sql import Conn, Row, fetch_all

__all__ = ["XID_WINDOW", "LiveChanges", "Snapshot", "live_changes"]

_XID_SPAN = 2**32
# A snapshot more transactions old than this is not brought up to date (read whole instead): the
# circular order of 32-bit ids holds over less than 2^31.
XID_WINDOW = 2**30

# :xmax NULL: every live fact (a first read). Otherwise the facts written since the snapshot
# (:xmax, :xip), live or not (a retracted one leaves the caller's view). One row at least: the
# forest's meta (snapshot, counts, indexes, exact matches) on every row, NULL fact columns when no
# fact changed. A forest with its own indexes returns its meta only.
_LIVE_CHANGES = f"""
WITH exact AS MATERIALIZED (
    SELECT h.i, min(x.fact_id) AS fact_id
    FROM unnest(CAST(:h AS text[])) WITH ORDINALITY AS h(h, i)
    JOIN facts x ON x.tenant_id = :t AND x.forest_id = :f AND x.text_hash = h.h
    GROUP BY h.i
), now AS MATERIALIZED (
    SELECT pg_current_snapshot() AS snap, CAST(CAST(pg_current_xact_id_if_assigned() AS text) AS bigint) AS own
), forest AS MATERIALIZED (
    SELECT fact_id, retracted_at IS NULL AND embedding IS NOT NULL AS live,
        CAST(CAST(xmin AS text) AS bigint) AS x
    FROM facts WHERE tenant_id = :t AND forest_id = :f
), meta AS MATERIALIZED (
    SELECT CAST(now.snap AS text) AS snap, now.own,
        CAST(CAST(pg_snapshot_xmax(now.snap) AS text) AS bigint) % {_XID_SPAN} AS xmax_now,
        CAST((SELECT oid FROM pg_database WHERE datname = current_database()) AS bigint) AS db,
        pg_postmaster_start_time() AS started, {INDEXED_SQL} AS indexed,
        (SELECT count(*) FROM forest WHERE live) AS n_live,
        (SELECT count(*) FROM forest WHERE x = now.own % {_XID_SPAN}) AS own_rows,
        ARRAY(SELECT i FROM exact ORDER BY i) AS exact_i, ARRAY(SELECT fact_id FROM exact ORDER BY i) AS exact_id
    FROM now
), changed AS (
    SELECT forest.fact_id FROM forest, meta WHERE NOT meta.indexed AND CASE
        WHEN CAST(:xmax AS bigint) IS NULL THEN forest.live
        ELSE forest.x = ANY (CAST(:xip AS bigint[])) OR forest.x = meta.own % {_XID_SPAN}
            OR ((forest.x - CAST(:xmax AS bigint) + {_XID_SPAN}) % {_XID_SPAN}
                < (meta.xmax_now - CAST(:xmax AS bigint) + {_XID_SPAN}) % {_XID_SPAN}) END
)
SELECT meta.snap, meta.own, meta.db, meta.started, meta.indexed, meta.n_live, meta.own_rows, meta.exact_i,
    meta.exact_id, f.fact_id, f.retracted_at IS NULL AND f.embedding IS NOT NULL AS live, f.kind, f.speaker,
    f.valid_from, f.subject, f.attribute, f.value, CASE WHEN f.retracted_at IS NULL THEN f.embedding END AS embedding
FROM meta LEFT JOIN (changed JOIN facts f ON f.tenant_id = :t AND f.fact_id = changed.fact_id) ON true
ORDER BY f.fact_id
"""


@dataclass(frozen=True)
class Snapshot:
    """What a view of the forest has seen: the statement snapshot's ``xmax`` (64-bit, as the
    database counts transactions) and the transactions running in it (32-bit; the reading
    transaction's own id among them when it had one)."""

    xmax: int
    running: tuple[int, ...]

    @staticmethod
    def parse(text: str, own: int | None) -> Snapshot:
        """From ``pg_current_snapshot()``'s text (``xmin:xmax:xip,...``) and the reader's own id."""
        _, xmax, xip = text.split(":")
        running = [int(x) for x in xip.split(",") if x] + ([own] if own is not None else [])
        return Snapshot(int(xmax), tuple(sorted({x % _XID_SPAN for x in running})))


@dataclass(frozen=True)
class LiveChanges:
    """One read: the statement's snapshot, the database it ran in (``incarnation``: a view taken in
    another is not this one's), whether the forest has its own indexes, its count of live facts
    with a vector, how many of its facts the reading transaction wrote itself (``own_rows``), the
    exact text-hash match of each candidate (index from 0 -> fact id), and the facts read
    (``rows``: fact_id, live, kind, speaker, valid_from, subject, attribute, value, embedding;
    ascending fact_id)."""

    snapshot: Snapshot
    incarnation: tuple[Any, ...]
    indexed: bool
    live_count: int
    own_rows: int
    exact: dict[int, int]
    rows: list[Row]


async def live_changes(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, since: Snapshot | None, hashes: Sequence[str]
) -> LiveChanges:
    """The facts of the forest written since ``since`` (every live fact when None), with the meta
    :class:`LiveChanges` holds."""
    params = {
        "t": tenant_id, "f": forest_id, "h": list(hashes),
        "xmax": since.xmax % _XID_SPAN if since else None, "xip": list(since.running) if since else [],
    }  # fmt: skip
    rows = await fetch_all(conn, _LIVE_CHANGES, params)
    meta = rows[0]
    return LiveChanges(
        snapshot=Snapshot.parse(meta["snap"], meta["own"]),
        incarnation=(meta["db"], meta["started"]),
        indexed=bool(meta["indexed"]),
        live_count=int(meta["n_live"]),
        own_rows=int(meta["own_rows"]),
        exact={int(i) - 1: int(x) for i, x in zip(meta["exact_i"], meta["exact_id"], strict=True)},
        rows=[r for r in rows if r["fact_id"] is not None],
    )
