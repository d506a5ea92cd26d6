"""Operational statements: readiness ping, queue and backlog gauges, and the table list."""

from __future__ import annotations

from memforest.store.sql import Conn, Row, fetch_all, scalar

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
_DIRTY_NODES = "SELECT count(*) FROM dirty_nodes"
_TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"


async def ping(conn: Conn) -> None:
    """A round trip to the database (raises when it is unreachable)."""
    await scalar(conn, _PING)


async def jobs_by_state(conn: Conn) -> list[Row]:
    """Per job state (all tenants): ``state``, ``n``, ``due`` (claimable now), ``oldest_s`` (oldest due)."""
    return await fetch_all(conn, _JOBS_BY_STATE)


async def dirty_node_count(conn: Conn) -> int:
    """Tree nodes waiting for a summary refresh (all tenants; the rows of ``dirty_nodes``)."""
    return int(await scalar(conn, _DIRTY_NODES) or 0)


async def table_names(conn: Conn) -> list[str]:
    """The tables of the current schema, by name."""
    return [str(r["tablename"]) for r in await fetch_all(conn, _TABLES)]


# connections the server would still accept from ordinary roles: max_connections less the slots it
# keeps for superusers (and, from PostgreSQL 16, for pg_use_reserved_connections) less the backends
# connected to any database now (pg_stat_database, which every role may read: pg_stat_activity hides
# the kind of other roles' sessions from a role without pg_read_all_stats)
_CONNECTION_ROOM = (
    "SELECT current_setting('max_connections')::int "
    "- current_setting('superuser_reserved_connections')::int "
    "- coalesce(nullif(current_setting('reserved_connections', true), '')::int, 0) "
    "- (SELECT coalesce(sum(numbackends), 0) FROM pg_stat_database)"
)


async def connection_room(conn: Conn) -> int:
    """How many more client connections the server accepts now (never below 0); the connection
    asking is counted as taken."""
    return max(0, int(await scalar(conn, _CONNECTION_ROOM) or 0))
