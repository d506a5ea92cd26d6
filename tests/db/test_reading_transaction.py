"""The read path's transaction (``store.read_conn.reading``), run by the driver itself (ADR 0022).
It must confine its statements to one tenant as ``Database.tenant`` does, enter in one round trip,
refuse writes, end its transaction whatever happens in it, and never hand a connection with an
open transaction back to the pool."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.exc import DBAPIError
from support.db import log_statements

from memforest.db import engine
from memforest.db.engine import Database
from memforest.db.rls import APP_ROLE
from memforest.errors import DatabaseUnavailableError
from memforest.store.read_conn import reading
from memforest.store.sql import execute, fetch_all, fetch_one, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant

_FORESTS = "SELECT name FROM forests ORDER BY name"
_INSERT_FOREST = "INSERT INTO forests (tenant_id, name) VALUES (:t, 'x') RETURNING forest_id"


async def _two_tenants(db: Database) -> tuple[uuid.UUID, uuid.UUID]:
    a, b = await ensure_tenant(db, "a"), await ensure_tenant(db, "b")
    for tenant_id, name in ((a, "notes-a"), (b, "notes-b")):
        async with db.tenant(tenant_id) as conn:
            await ensure_forest(conn, tenant_id, name)
    return a, b


async def test_a_reading_transaction_sees_its_tenant_only_as_the_app_role(db: Database) -> None:
    a, b = await _two_tenants(db)
    for tenant_id, name in ((a, "notes-a"), (b, "notes-b")):
        async with reading(db, tenant_id) as conn:
            assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == [name]  # no filter of ours: RLS
            assert await scalar(conn, "SELECT current_user") == APP_ROLE
            assert await scalar(conn, "SELECT current_setting('memforest.tenant_id')") == str(tenant_id)


async def test_it_enters_in_one_round_trip_with_its_knobs_and_ends_with_commit(db: Database) -> None:
    a, _ = await _two_tenants(db)
    log = log_statements(db)
    async with reading(db, a, knobs={"hnsw.ef_search": "77"}) as conn:
        assert await scalar(conn, "SELECT current_setting('hnsw.ef_search')") == "77"
        assert await scalar(conn, "SELECT current_setting('transaction_read_only')") == "on"
    enter, *_, end = [sql for _, sql in log]
    assert enter.startswith("BEGIN READ ONLY; SELECT set_config('role'")
    assert "set_config('hnsw.ef_search', '77', true)" in enter
    assert end == "COMMIT"
    async with reading(db, a) as conn:  # the knob was the transaction's only
        assert await scalar(conn, "SELECT current_setting('hnsw.ef_search')") != "77"


async def test_a_write_is_refused_and_changes_nothing(db: Database) -> None:
    a, _ = await _two_tenants(db)
    with pytest.raises(DBAPIError, match="read-only transaction"):
        async with reading(db, a) as conn:
            await fetch_one(conn, _INSERT_FOREST, {"t": a})
    with pytest.raises(DBAPIError, match="read-only transaction"):
        async with reading(db, a) as conn:
            await execute(conn, "DELETE FROM forests")
    async with db.tenant(a) as conn:
        assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == ["notes-a"]


async def test_the_pool_does_not_ping_for_it_its_first_statement_checks_the_connection(db: Database) -> None:
    a, _ = await _two_tenants(db)
    log = log_statements(db)
    async with reading(db, a) as conn:
        first = await scalar(conn, "SELECT pg_backend_pid()")
    async with db.tenant(a) as conn:  # (nor for a write transaction: its BEGIN checks, ADR 0082)
        assert await scalar(conn, "SELECT pg_backend_pid()") == first
    async with reading(db, a) as conn:
        assert await scalar(conn, "SELECT pg_backend_pid()") == first
    sent = [sql for _, sql in log]
    assert sent[0].startswith("BEGIN READ ONLY;") and ";" not in sent
    async with db.system() as other:  # the database drops the idle pooled connection
        await execute(other, "SELECT pg_terminate_backend(:p)", {"p": first})
    async with reading(db, a) as conn:  # on another connection, without an error
        assert await scalar(conn, "SELECT pg_backend_pid()") != first
        assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == ["notes-a"]


@pytest.fixture
async def one_connection(db: Database) -> AsyncIterator[Database]:
    """A Database on the same server whose tenant pool holds one connection: every transaction
    gets the connection the one before it left behind."""
    single = Database(db.url, tenant_url=db.tenant_url, pool_size=1, max_overflow=0)
    yield single
    await single.dispose()


async def _pid(db: Database, tenant_id: uuid.UUID) -> int:
    async with db.tenant(tenant_id) as conn:
        return int(await scalar(conn, "SELECT pg_backend_pid()"))


async def test_an_error_inside_rolls_back_and_the_connection_comes_back_clean(
    db: Database, one_connection: Database
) -> None:
    a, _ = await _two_tenants(db)
    pid = await _pid(one_connection, a)
    for _ in range(3):
        with pytest.raises(DBAPIError):
            async with reading(one_connection, a) as conn:
                await scalar(conn, "SELECT * FROM no_such_table")  # (class 22 would be InputError)
        with pytest.raises(RuntimeError):
            async with reading(one_connection, a) as conn:
                await scalar(conn, "SELECT 1")
                raise RuntimeError("the caller's own error")
    assert await _pid(one_connection, a) == pid  # rolled back and kept, not closed
    async with reading(one_connection, a) as conn:
        assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == ["notes-a"]


@pytest.mark.parametrize("where", ["entering", "inside"])
async def test_a_cancelled_reading_leaves_no_transaction_for_the_next_user(
    db: Database, one_connection: Database, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """A task cancelled while its statement runs on the server (the query's full-text side task is
    cancelled when the query fails): the connection must not reach the next transaction with the
    statement's BEGIN and tenant still in force."""
    a, b = await _two_tenants(db)
    if where == "entering":  # (a slow enter statement, to be cancelled in)
        real = engine.enter_reading
        monkeypatch.setattr(engine, "enter_reading", lambda *args: real(*args) + ", pg_sleep(0.5)")

    async def read() -> None:
        async with reading(one_connection, a) as conn:
            await scalar(conn, "SELECT pg_sleep(0.5)")

    task = asyncio.create_task(read())
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    monkeypatch.undo()
    async with one_connection.tenant(b) as conn:  # not inside a's transaction: a transaction of its own
        assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == ["notes-b"]
    async with reading(one_connection, b) as conn:
        assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == ["notes-b"]


async def test_a_connection_cut_inside_is_not_replaced_behind_the_callers_back(db: Database) -> None:
    a, _ = await _two_tenants(db)
    with pytest.raises(DatabaseUnavailableError):
        async with reading(db, a) as conn:
            pid = await scalar(conn, "SELECT pg_backend_pid()")
            async with db.system() as other:
                await execute(other, "SELECT pg_terminate_backend(:p)", {"p": pid})
            with pytest.raises(DBAPIError) as cut:  # (inside, SQLAlchemy's error: translated on leaving)
                await fetch_all(conn, _FORESTS)
            assert cut.value.connection_invalidated
            for again in (fetch_all(conn, _FORESTS), scalar(conn, "SELECT 1"), execute(conn, "SELECT 1")):
                with pytest.raises(DatabaseUnavailableError):  # (not run on a new connection without the tenant)
                    await again
    async with reading(db, a) as conn:  # the pool replaced the cut connection
        assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == ["notes-a"]


@pytest.mark.parametrize(
    "knobs", [{"hnsw.ef_search": "1'; DROP TABLE facts; --"}, {"a b": "1"}, {"x": ""}, {"role": "postgres"}]
)
async def test_a_setting_that_is_not_plain_is_refused_before_anything_runs(db: Database, knobs: dict[str, str]) -> None:
    a, _ = await _two_tenants(db)
    log = log_statements(db)
    with pytest.raises(ValueError, match=r"not a plain setting|cannot set the role"):
        async with reading(db, a, knobs=knobs):
            pass
    assert not any("DROP" in sql or "set_config" in sql for _, sql in log)


async def test_a_connection_returned_inside_a_driver_transaction_is_not_handed_out_again(db: Database) -> None:
    async with db.tenant_engine.connect() as conn:
        driver = (await conn.get_raw_connection()).driver_connection
        await driver.execute("BEGIN")  # as a reading transaction that could not end would leave it
    assert driver.is_closed()  # closed at check-in, not reset: SQLAlchemy's reset ends its own only
    async with db.tenant_engine.connect() as conn:
        assert not (await conn.get_raw_connection()).driver_connection.is_in_transaction()
