"""A write transaction begins on the server as it opens, its BEGIN and tenant settings in one round
trip and without the pool's pre-ping (``db.folded_begin``, ADR 0082). It must still confine its
statements to one tenant, commit and roll back as SQLAlchemy's own transaction does, survive a
pooled connection the database dropped, and hand no open transaction back to the pool."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from support.db import log_statements

from memforest.db import folded_begin
from memforest.db.engine import Database
from memforest.db.lock_wait import TENANT_LOCK_TIMEOUT_MS
from memforest.db.rls import APP_ROLE
from memforest.store.sql import execute, fetch_all, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant

_NAMES = "SELECT name FROM forests ORDER BY name"
_ADD = "INSERT INTO forests (tenant_id, name) VALUES (:t, :n)"


async def _tenant_with_forest(db: Database, name: str, forest: str) -> uuid.UUID:
    tenant_id = await ensure_tenant(db, name)
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, forest)
    return tenant_id


async def test_one_round_trip_opens_it_with_the_tenants_settings(db: Database) -> None:
    a = await _tenant_with_forest(db, "a", "garden-a")
    await _tenant_with_forest(db, "b", "garden-b")
    log = log_statements(db)
    lock_timeout = TENANT_LOCK_TIMEOUT_MS.set(1234)
    try:
        async with db.tenant(a) as conn:
            settings = await fetch_all(
                conn,
                "SELECT current_user AS role, current_setting('memforest.tenant_id') AS tenant,"
                " current_setting('lock_timeout') AS lock_timeout, current_setting('plan_cache_mode') AS plans",
            )
            assert [r["name"] for r in await fetch_all(conn, _NAMES)] == ["garden-a"]  # (RLS: one tenant)
    finally:
        TENANT_LOCK_TIMEOUT_MS.reset(lock_timeout)
    assert settings == [{"role": APP_ROLE, "tenant": str(a), "lock_timeout": "1234ms", "plans": "force_custom_plan"}]
    sent = [sql for _, sql in log]
    assert sent[0].startswith("BEGIN; SELECT set_config('role'") and "'1234'" in sent[0]
    assert sent[1:] == [sent[1], sent[2], "COMMIT;"] and ";" not in sent  # (no ping, no BEGIN of its own)


async def test_it_commits_and_rolls_back_as_sqlalchemys_own(db: Database) -> None:
    a = await _tenant_with_forest(db, "a", "garden")
    async with db.tenant(a) as conn:
        await execute(conn, _ADD, {"t": a, "n": "kept"})
        await conn.execute(text("SELECT 1"))  # (a statement through SQLAlchemy joins the same transaction)
    with pytest.raises(RuntimeError):
        async with db.tenant(a) as conn:
            await execute(conn, _ADD, {"t": a, "n": "dropped"})
            raise RuntimeError("the caller's own error")
    with pytest.raises(DBAPIError):
        async with db.tenant(a) as conn:
            await execute(conn, _ADD, {"t": a, "n": "dropped too"})
            await execute(conn, _ADD, {"t": a, "n": "garden"})  # (a unique name taken: the statement fails)
    async with db.system() as conn:
        rows = await fetch_all(conn, "SELECT name FROM forests WHERE tenant_id = :t ORDER BY name", {"t": a})
        assert await scalar(conn, "SELECT current_setting('memforest.tenant_id', true)") in (None, "")
    assert [r["name"] for r in rows] == ["garden", "kept"]
    with pytest.raises(RuntimeError):
        async with db.system() as conn:
            await execute(conn, _ADD, {"t": a, "n": "dropped by the system"})
            raise RuntimeError("the caller's own error")
    async with db.tenant(a) as conn:
        assert [r["name"] for r in await fetch_all(conn, _NAMES)] == ["garden", "kept"]


async def test_a_pooled_connection_the_database_dropped_is_replaced_without_an_error(db: Database) -> None:
    a = await _tenant_with_forest(db, "a", "garden")
    async with db.tenant(a) as conn:
        first = await scalar(conn, "SELECT pg_backend_pid()")
    async with db.system() as other:
        await execute(other, "SELECT pg_terminate_backend(:p)", {"p": first})
    async with db.tenant(a) as conn:  # on another connection, the dropped one discarded
        assert await scalar(conn, "SELECT pg_backend_pid()") != first
        assert [r["name"] for r in await fetch_all(conn, _NAMES)] == ["garden"]
    async with db.system() as one, db.system() as two:  # (two connections in the system pool)
        pids = {await scalar(one, "SELECT pg_backend_pid()"), await scalar(two, "SELECT pg_backend_pid()")}
    async with db.autocommit() as other:  # holds one of them, drops the other
        own = (await other.execute(text("SELECT pg_backend_pid()"))).scalar()
        (dropped,) = pids - {own}
        await other.execute(text("SELECT pg_terminate_backend(:p)"), {"p": dropped})
        async with db.system() as conn:  # (the dropped one is the only one left in the pool)
            assert await scalar(conn, "SELECT pg_backend_pid()") not in (dropped, own)


async def test_a_knob_that_is_not_plain_is_sent_as_a_parameter(db: Database) -> None:
    a = await _tenant_with_forest(db, "a", "garden")
    log = log_statements(db)
    async with db.tenant(a, knobs={"application_name": "two words"}) as conn:
        assert await scalar(conn, "SELECT current_setting('application_name')") == "two words"
        assert [r["name"] for r in await fetch_all(conn, _NAMES)] == ["garden"]
    sent = [sql for _, sql in log]
    # (SQLAlchemy begins it and prepares the settings' statement, which this log does not show)
    assert sent[0] == "BEGIN;" and "two words" not in " ".join(sent)


async def test_a_driver_that_keeps_its_state_elsewhere_gets_sqlalchemys_own_begin(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = await _tenant_with_forest(db, "a", "garden")
    monkeypatch.setattr(folded_begin, "_DRIVER_STATE", ("_a_name_no_release_has",))
    log = log_statements(db)
    async with db.tenant(a) as conn:
        await execute(conn, _ADD, {"t": a, "n": "kept"})
        names = [r["name"] for r in await fetch_all(conn, _NAMES)]
    sent = [sql for _, sql in log]
    assert names == ["garden", "kept"]
    assert sent[:2] == [";", "BEGIN;"]  # (the pool's ping and asyncpg's own BEGIN: nothing folded)
    async with db.system() as conn:
        assert [r["name"] for r in await fetch_all(conn, _NAMES)] == ["garden", "kept"]
