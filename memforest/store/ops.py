"""Operational statements: readiness ping, queue and backlog gauges, the table list, job requeue."""

from __future__ import annotations

import json
import uuid
from typing import Any

from memforest.store.sql import Conn, Row, execute, fetch_all, scalar

_PING = "SELECT 1"
# "due": queued and claimable now (a coalesced refresh job scheduled for later is not). Active jobs
# are read through the partial claim index, finished ones through the partial finished index (an
# index-only count), so a scrape never scans the whole table (ADR 0019).
_JOBS_BY_STATE = (
    "SELECT state, count(*) AS n, count(*) FILTER (WHERE due) AS due, "
    "extract(epoch FROM now() - min(coalesce(run_after, created_at)) FILTER (WHERE due)) AS oldest_s "
    "FROM (SELECT state, created_at, run_after, "
    "state = 'queued' AND (run_after IS NULL OR run_after <= now()) AS due FROM jobs "
    "WHERE state IN ('queued', 'running')) j GROUP BY state "
    "UNION ALL SELECT state, count(*), 0, NULL FROM jobs WHERE state IN ('succeeded', 'failed') GROUP BY state"
)
_DIRTY_NODES = "SELECT count(*) FROM nodes WHERE dirty"
_TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
# A refresh job is not put back while a newer one of its forest is queued (one queued refresh job
# per forest): that one refreshes every dirty node.
_REQUEUE = (
    "UPDATE jobs SET state = 'queued', leased_until = NULL, errors = errors || CAST(:e AS jsonb) "
    "WHERE tenant_id = :t AND job_id = :j AND NOT (kind = 'refresh' AND EXISTS (SELECT 1 FROM jobs q "
    "WHERE q.tenant_id = jobs.tenant_id AND q.forest_id = jobs.forest_id AND q.kind = 'refresh' "
    "AND q.state = 'queued'))"
)


async def ping(conn: Conn) -> None:
    """A round trip to the database (raises when it is unreachable)."""
    await scalar(conn, _PING)


async def jobs_by_state(conn: Conn) -> list[Row]:
    """Per job state (all tenants): ``state``, ``n``, ``due`` (claimable now), ``oldest_s`` (oldest due)."""
    return await fetch_all(conn, _JOBS_BY_STATE)


async def dirty_node_count(conn: Conn) -> int:
    """Tree nodes waiting for a summary refresh (all tenants; served by the partial dirty index)."""
    return int(await scalar(conn, _DIRTY_NODES) or 0)


async def table_names(conn: Conn) -> list[str]:
    """The tables of the current schema, by name."""
    return [str(r["tablename"]) for r in await fetch_all(conn, _TABLES)]


async def requeue_job(conn: Conn, tenant_id: uuid.UUID, job_id: uuid.UUID, attempt_error: dict[str, Any]) -> bool:
    """Put a failed attempt's job back in the queue, noting the error; False when it was not put
    back (a refresh job whose forest already has a newer queued refresh job)."""
    params = {"e": json.dumps([attempt_error]), "t": tenant_id, "j": job_id}
    return await execute(conn, _REQUEUE, params) > 0
