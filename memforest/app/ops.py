"""Operations: readiness checks of the database, the queue gauges a metrics scrape reads, and
what ``memforest db info`` shows."""

from __future__ import annotations

from dataclasses import dataclass

from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database, ServerVersions
from memforest.store import ops

OK = "ok"
JOB_STATES = ("queued", "running", "succeeded", "failed")


@retry_if_cut
async def _ping(database: Database) -> None:
    async with database.system() as conn:
        await ops.ping(conn)


async def database_checks(database: Database) -> dict[str, str]:
    """``database`` reachable (a pooled connection), ``migrations`` at head and ``rls`` in force.
    The last two are read once they pass, then remembered: a probe costs one pooled ``SELECT 1``."""
    checks: dict[str, str] = {}
    try:
        await _ping(database)
        checks["database"] = OK
        checks["migrations"] = await database.migrations_problem() or OK
        checks["rls"] = await database.rls_problem() or OK
    except Exception as exc:  # any failure means: not ready
        checks.setdefault("database", f"unreachable: {type(exc).__name__}")
    return checks


def database_ready(checks: dict[str, str]) -> bool:
    """Every database check passed."""
    return all(checks.get(name) == OK for name in ("database", "migrations", "rls"))


@dataclass(frozen=True, slots=True)
class QueueSnapshot:
    """What one scrape read from the database."""

    jobs_by_state: dict[str, int]
    due_queued: int
    oldest_queued_s: float
    dirty_nodes: int


@retry_if_cut
async def read_queue_snapshot(db: Database) -> QueueSnapshot:
    """Jobs by state (one grouped COUNT) and the dirty-node backlog."""
    async with db.system() as conn:
        rows = await ops.jobs_by_state(conn)
        dirty = await ops.dirty_node_count(conn)
    by_state = dict.fromkeys(JOB_STATES, 0)
    oldest = 0.0
    due = 0
    for row in rows:
        by_state[str(row["state"])] = int(row["n"])
        due += int(row["due"])
        if row["oldest_s"] is not None:
            oldest = max(0.0, float(row["oldest_s"]))
    return QueueSnapshot(jobs_by_state=by_state, due_queued=due, oldest_queued_s=oldest, dirty_nodes=dirty)


async def database_info(db: Database) -> tuple[ServerVersions, list[str]]:
    """The server's PostgreSQL and pgvector versions (checked) and the tables of the schema."""
    versions = await db.check_versions()
    async with db.system() as conn:
        names = await ops.table_names(conn)
    return versions, names
