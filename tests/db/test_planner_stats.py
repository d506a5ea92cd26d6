"""Planner statistics kept fresh after bulk writes (ADR 0118, ADR 0156): a table changed by more
rows than autovacuum's analyze threshold is analyzed by the next refresh job rather than at
autovacuum's next wake-up, a table changed by fewer is left alone, one worker analyzes at a time,
and a worker's upkeep between jobs analyzes the tables that at least doubled."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

from support import session_input

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.pipeline.planner_upkeep import PlannerUpkeep
from memforest.pipeline.service import ingest_sessions
from memforest.settings import Settings
from memforest.store import planner_stats
from memforest.store.sql import execute, fetch_all, scalar
from memforest.store.tenants import ensure_tenant


async def _table(db: Database, name: str, rows: int) -> None:
    """A table ``name`` of ``rows`` rows, its changes reported to the statistics at once."""
    async with db.autocommit() as conn:
        await execute(conn, f"CREATE TABLE {name} (n int)")
        await execute(conn, f"INSERT INTO {name} SELECT generate_series(1, {rows})")
        await scalar(conn, "SELECT pg_stat_force_next_flush()")
        await execute(conn, "SELECT 1")  # (the flush comes at the end of a statement's transaction)


async def _analyzed(db: Database, name: str) -> tuple[bool, float]:
    """Whether ``name`` was analyzed by hand (not by autovacuum), and the rows its statistics count."""
    async with db.autocommit() as conn:
        rows = await fetch_all(
            conn,
            "SELECT s.last_analyze IS NOT NULL AS done, c.reltuples FROM pg_stat_user_tables s "
            "JOIN pg_class c ON c.oid = s.relid WHERE s.relname = :n",
            {"n": name},
        )
    return bool(rows[0]["done"]), float(rows[0]["reltuples"])


async def test_a_grown_table_is_analyzed_and_then_left_alone(db: Database) -> None:
    await _table(db, "grown", 500)
    await _table(db, "barely", 20)  # fewer changes than autovacuum_analyze_threshold (50)
    async with db.autocommit() as conn:
        assert "grown" in await planner_stats.stale_tables(conn)
        analyzed = await planner_stats.analyze_stale(conn)
        assert "grown" in analyzed and "barely" not in analyzed
        assert "grown" not in await planner_stats.stale_tables(conn)
    assert await _analyzed(db, "grown") == (True, 500.0)
    assert (await _analyzed(db, "barely"))[0] is False


async def test_a_second_worker_leaves_the_analysis_to_the_first(db: Database) -> None:
    await _table(db, "grown", 500)
    async with db.autocommit() as first, db.autocommit() as second:
        assert await scalar(first, "SELECT pg_try_advisory_lock(hashtextextended('memforest:planner_stats', 0))")
        try:
            assert await planner_stats.analyze_stale(second) == []
        finally:
            await scalar(first, "SELECT pg_advisory_unlock(hashtextextended('memforest:planner_stats', 0))")
        assert "grown" in await planner_stats.analyze_stale(second)


async def _grow(db: Database, name: str, rows: int) -> None:
    """``rows`` more rows in ``name``, reported to the statistics at once."""
    async with db.autocommit() as conn:
        await execute(conn, f"INSERT INTO {name} SELECT generate_series(1, {rows})")
        await scalar(conn, "SELECT pg_stat_force_next_flush()")
        await execute(conn, "SELECT 1")


async def _analyzed_by_hand(db: Database, name: str) -> None:
    async with db.autocommit() as conn:
        await execute(conn, f"ANALYZE {name}")


async def test_only_a_table_that_doubled_has_outgrown_its_statistics(db: Database) -> None:
    await _table(db, "doubled", 400)
    await _table(db, "tenth_more", 1000)
    await _analyzed_by_hand(db, "doubled")
    await _analyzed_by_hand(db, "tenth_more")
    await _grow(db, "doubled", 600)  # 600 changed of 1000 live: more than 50 + 500
    await _grow(db, "tenth_more", 300)  # stale for autovacuum (50 + 130), not outgrown (50 + 650)
    async with db.autocommit() as conn:
        stale = await planner_stats.stale_tables(conn)
        assert "doubled" in stale and "tenth_more" in stale
        analyzed = await planner_stats.analyze_outgrown(conn)
    assert "doubled" in analyzed and "tenth_more" not in analyzed
    assert await _analyzed(db, "doubled") == (True, 1000.0)


async def test_a_workers_upkeep_runs_one_pass_at_a_time_and_at_most_once_an_interval(db: Database) -> None:
    upkeep = PlannerUpkeep(db, interval_s=3_600.0)
    await _table(db, "first", 500)
    upkeep.job_ended()
    upkeep.job_ended()  # (the pass started by the first is in flight or done: none more this hour)
    assert "first" in await upkeep.drain()
    await _table(db, "second", 500)
    upkeep.job_ended()
    assert "second" not in await upkeep.drain()
    assert (await _analyzed(db, "second"))[0] is False


async def test_an_upkeep_pass_in_flight_never_makes_the_refresh_rule_skip(db: Database) -> None:
    await _table(db, "grown", 500)
    async with db.autocommit() as upkeep, db.autocommit() as refresh:
        held = "SELECT pg_try_advisory_lock(hashtextextended('memforest:planner_stats:outgrown', 0))"
        assert await scalar(upkeep, held)
        try:
            assert await planner_stats.analyze_outgrown(refresh) == []  # (one upkeep pass at a time)
            assert "grown" in await planner_stats.analyze_stale(refresh)
        finally:
            await scalar(upkeep, "SELECT pg_advisory_unlock(hashtextextended('memforest:planner_stats:outgrown', 0))")


async def test_a_cancelled_workers_pass_is_cancelled_not_waited_for(db: Database) -> None:
    await _table(db, "locked", 500)
    upkeep = PlannerUpkeep(db, interval_s=3_600.0)
    async with db.autocommit() as holder:
        await execute(holder, "BEGIN")
        await execute(holder, "LOCK TABLE locked IN ACCESS EXCLUSIVE MODE")  # (its ANALYZE waits)
        try:
            upkeep.job_ended()
            await asyncio.sleep(0.5)
            started = time.monotonic()
            assert await upkeep.drain(cancel=True) == []
            assert time.monotonic() - started < 5.0
        finally:
            await execute(holder, "ROLLBACK")
    assert (await _analyzed(db, "locked"))[0] is False


async def test_the_refresh_job_of_an_ingest_analyzes_what_grew(db: Database, settings: Settings) -> None:
    # stale for autovacuum's rule, which the refresh job applies, and not outgrown for the worker's
    # upkeep between jobs (test_only_a_table_that_doubled_has_outgrown_its_statistics)
    await _table(db, "grown", 1000)
    await _analyzed_by_hand(db, "grown")
    await _grow(db, "grown", 300)
    backends = build_backends(settings)
    try:
        tenant_id = await ensure_tenant(db, "acme")
        when = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
        session = session_input("s0", when, ["I adopted a grey cat named Pistachio."], ("Ilse",), role=None)
        report = await ingest_sessions(db, settings, backends, tenant_id, "home", [session])
        assert report.jobs_failed == 0 and report.refresh_jobs == 1
    finally:
        await backends.aclose()
    assert await _analyzed(db, "grown") == (True, 1300.0)
