"""The planner's statistics of the service's tables, refreshed when writes have outgrown them.

PostgreSQL plans a statement from each table's statistics, which ``ANALYZE`` takes and autovacuum
retakes once a table has changed by enough rows, when it next wakes (every minute by default). A
fresh database, or a tenant's bulk load into a small one, leaves the statistics of an empty table
in place for that minute: the planner then expects one row of a forest's nodes and reads the
children of a node by scanning all of them (ADR 0118). :func:`analyze_stale` analyzes the tables
autovacuum would analyze next, now; :func:`analyze_outgrown` those a bulk write at least doubled
(a worker's upkeep between its jobs, ADR 0156).
"""

from __future__ import annotations

from memforest.store import queries
from memforest.store.sql import Conn, execute, fetch_all, scalar

_Q = queries.load("planner_stats")
_STALE_TABLES = _Q["stale_tables"]
_OUTGROWN_TABLES = _Q["outgrown_tables"]
_TRY_LOCK = _Q["try_lock"]
_UNLOCK = _Q["unlock"]


async def stale_tables(conn: Conn) -> list[str]:
    """The quoted names of the current schema's tables autovacuum would analyze next, most changed first."""
    return [str(r["name"]) for r in await fetch_all(conn, _STALE_TABLES)]


async def analyze_stale(conn: Conn) -> list[str]:
    """Analyze each table of :func:`stale_tables` on ``conn`` (a connection outside any transaction,
    of the tables' owner: another role's ``ANALYZE`` skips the table with a warning); returns the
    names analyzed. Nothing when another connection is analyzing by this rule (a session advisory
    lock); a table the role may not analyze is never listed."""
    return await _analyze_listed(conn, _STALE_TABLES, "memforest:planner_stats")


async def analyze_outgrown(conn: Conn) -> list[str]:
    """As :func:`analyze_stale`, for the tables whose rows changed by more than half their live
    rows since their last analyze (the query ``outgrown_tables``): fewer passes over a table that
    grows from empty than autovacuum's tenth. Its own advisory lock: a pass by one rule never
    makes the other skip."""
    return await _analyze_listed(conn, _OUTGROWN_TABLES, "memforest:planner_stats:outgrown")


async def _analyze_listed(conn: Conn, listing: str, rule: str) -> list[str]:
    if not await scalar(conn, _TRY_LOCK, {"rule": rule}):
        return []
    try:
        names = [str(r["name"]) for r in await fetch_all(conn, listing)]
        for name in names:
            await execute(conn, f"ANALYZE {name}")  # (a name quote_ident quoted)
        return names
    finally:
        await scalar(conn, _UNLOCK, {"rule": rule})
