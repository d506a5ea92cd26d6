"""Database hardening (issue 14): tenant work cannot RESET ROLE out of RLS (hole 4), /readyz keeps to
the pool (hole 6), driver errors reach neither logs nor tenants with SQL or values (hole 7), and the
pools end idle transactions."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from support import admin_settings, app_client, seed_two_tenants, session_body, tenant_key

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.domain import Job
from memforest.logs import JsonFormatter, TextFormatter
from memforest.pipeline.worker import run_worker
from memforest.settings import Settings

SECRET = "TOPSECRET-4711"
LEAKY = "SELECT CAST(CAST(:secret AS text) AS integer)"  # the server's message itself quotes the value
# the same, with an error that is not the client's bad input (class 22 is, and becomes InputError)
LEAKY_SERVER_ERROR = "SELECT CAST(CAST(:secret AS text) AS regclass)"


async def test_reset_role_inside_a_tenant_transaction_cannot_see_other_tenants(db: Database) -> None:
    a, _b = await seed_two_tenants(db)
    async with db.tenant(a) as conn:
        await conn.execute(text("RESET ROLE"))
        who = (await conn.execute(text("SELECT current_user, session_user"))).one()
        assert who[0] == who[1] != "postgres"
        assert (await conn.execute(text("SELECT count(*) FROM forests"))).scalar_one() == 1
        assert (await conn.execute(text("SELECT count(*) FROM tenants"))).scalar_one() == 1
    with pytest.raises(DBAPIError, match="permission denied"):
        async with db.tenant(a) as conn:
            await conn.execute(text("SET ROLE postgres"))
    await db.verify_rls()  # the start-up check agrees


async def test_readyz_uses_the_pool_not_a_new_connection_per_call(settings: Settings, db: Database) -> None:
    async def sessions() -> int:
        async with db.system() as conn:
            await conn.execute(text("SELECT pg_stat_force_next_flush()"))
            await conn.execute(text("SELECT pg_stat_clear_snapshot()"))
            n = await conn.execute(text("SELECT sessions FROM pg_stat_database WHERE datname = current_database()"))
            return int(n.scalar_one())

    async with app_client(admin_settings(settings), db) as (_app, c):
        assert (await c.get("/readyz")).status_code == 200  # warm: the pool has its connections
        before = await sessions()
        for _ in range(8):
            assert (await c.get("/readyz")).status_code == 200
        await asyncio.sleep(0.6)  # a closed backend reports its session when it exits
        after = await sessions()
    assert after - before <= 1, f"{after - before} new database sessions for 8 readiness probes"


async def test_the_engine_hides_parameters(db: Database) -> None:
    with pytest.raises(DBAPIError) as err:
        async with db.system() as conn:
            await conn.execute(text("SELECT length(CAST(:secret AS text)) FROM no_such_table"), {"secret": SECRET})
    assert SECRET not in str(err.value)


def _logged(formatter: logging.Formatter, exc: BaseException) -> str:
    record = logging.LogRecord("t", logging.ERROR, __file__, 1, "unhandled error", None, (type(exc), exc, None))
    return formatter.format(record)


async def test_logs_show_the_sqlstate_not_the_statement_or_values(db: Database) -> None:
    with pytest.raises(DBAPIError) as err:
        async with db.system() as conn:
            await conn.execute(text(LEAKY_SERVER_ERROR), {"secret": SECRET})
    assert SECRET.lower() in str(err.value.orig)  # (the server's own text quotes it, case folded)
    for formatter in (JsonFormatter(), TextFormatter()):
        out = _logged(formatter, err.value)
        assert SECRET.lower() not in out.lower() and "CAST" not in out, out
        assert "42P01" in out and "UndefinedTableError" in out, out


async def _leaky_handler(db: Database, _s: Settings, _b: Backends, job: Job, _l: UsageLedger) -> tuple[dict, list]:  # type: ignore[type-arg]
    async with db.tenant(job.tenant_id) as conn:
        await conn.execute(text(LEAKY), {"secret": SECRET})
    return {}, []


async def test_a_job_failing_in_the_driver_tells_the_tenant_only_a_generic_reason(
    settings: Settings, db: Database
) -> None:
    s = admin_settings(settings).model_copy(update={"worker": settings.worker.model_copy(update={"max_attempts": 1})})
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logging.getLogger().addHandler(handler)
    try:
        async with app_client(s, db) as (app, c):
            _, h = await tenant_key(c)
            await c.post("/v1/forests", json={"name": "f"}, headers=h)
            r = await c.post(
                "/v1/forests/f/sessions", json=session_body("s1", "2024-01-01T00:00:00Z", ["hi"]), headers=h
            )
            assert r.status_code == 202, r.text
            job_id = r.json()["job_id"]
            await run_worker(db, s, app.state.backends, stop_when_idle=True, handlers={"ingest": _leaky_handler})
            job = (await c.get(f"/v1/jobs/{job_id}", headers=h)).json()
    finally:
        logging.getLogger().removeHandler(handler)
    assert job["state"] == "failed", job
    errors = json.dumps(job["errors"])
    assert SECRET not in errors and "CAST" not in errors and "invalid input" not in errors, errors
    assert "InvalidTextRepresentationError" in errors and "22P02" in errors, errors
    logged = stream.getvalue()
    assert logged and SECRET not in logged and "CAST" not in logged, logged


async def test_pools_end_idle_transactions(db: Database) -> None:
    a, _ = await seed_two_tenants(db)
    async with db.tenant(a) as conn:
        tenant_timeout = (await conn.execute(text("SHOW idle_in_transaction_session_timeout"))).scalar_one()
    async with db.system() as conn:
        system_timeout = (await conn.execute(text("SHOW idle_in_transaction_session_timeout"))).scalar_one()
    assert tenant_timeout == system_timeout == "1min"
