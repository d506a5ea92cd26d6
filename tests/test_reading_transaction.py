"""``Database.reading``: the read path's transaction, run by the driver itself (ADR 0022, session 23).
It must confine its statements to one tenant as ``Database.tenant`` does, enter in one round trip,
refuse writes, end its transaction whatever happens in it, and never hand a connection with an
open transaction back to the pool."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import DBAPIError

from memforest.db.engine import Database
from memforest.db.rls import APP_ROLE
from memforest.errors import DatabaseUnavailableError
from memforest.store.sql import execute, fetch_all, fetch_one, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant

_FORESTS = "SELECT name FROM forests ORDER BY name"
_INSERT_FOREST = "INSERT INTO forests (tenant_id, name) VALUES (:t, 'x') RETURNING forest_id"


def _log_statements(db: Database) -> list[str]:
    """Every statement the tenant pool's connections run from now on, in order."""
    log: list[str] = []
    seen: set[int] = set()

    def watch(dbapi_connection: Any, *_: Any) -> None:
        driver = dbapi_connection.driver_connection
        if id(driver) not in seen:
            seen.add(id(driver))
            driver.add_query_logger(lambda rec: log.append(rec.query))

    event.listen(db.tenant_engine.sync_engine, "checkout", watch)
    return log


async def _two_tenants(db: Database) -> tuple[uuid.UUID, uuid.UUID]:
    a, b = await ensure_tenant(db, "a"), await ensure_tenant(db, "b")
    for tenant_id, name in ((a, "notes-a"), (b, "notes-b")):
        async with db.tenant(tenant_id) as conn:
            await ensure_forest(conn, tenant_id, name)
    return a, b


async def test_a_reading_transaction_sees_its_tenant_only_as_the_app_role(db: Database) -> None:
    a, b = await _two_tenants(db)
    for tenant_id, name in ((a, "notes-a"), (b, "notes-b")):
        async with db.reading(tenant_id) as conn:
            assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == [name]  # no filter of ours: RLS
            assert await scalar(conn, "SELECT current_user") == APP_ROLE
            assert await scalar(conn, "SELECT current_setting('memforest.tenant_id')") == str(tenant_id)


async def test_it_enters_in_one_round_trip_with_its_knobs_and_ends_with_commit(db: Database) -> None:
    a, _ = await _two_tenants(db)
    log = _log_statements(db)
    async with db.reading(a, knobs={"hnsw.ef_search": "77"}) as conn:
        assert await scalar(conn, "SELECT current_setting('hnsw.ef_search')") == "77"
        assert await scalar(conn, "SELECT current_setting('transaction_read_only')") == "on"
    enter, *_, end = log
    assert enter.startswith("BEGIN READ ONLY; SELECT set_config('role'")
    assert "set_config('hnsw.ef_search', '77', true)" in enter
    assert end == "COMMIT"
    async with db.reading(a) as conn:  # the knob was the transaction's only
        assert await scalar(conn, "SELECT current_setting('hnsw.ef_search')") != "77"


async def test_a_write_is_refused_and_changes_nothing(db: Database) -> None:
    a, _ = await _two_tenants(db)
    with pytest.raises(DBAPIError, match="read-only transaction"):
        async with db.reading(a) as conn:
            await fetch_one(conn, _INSERT_FOREST, {"t": a})
    with pytest.raises(DBAPIError, match="read-only transaction"):
        async with db.reading(a) as conn:
            await execute(conn, "DELETE FROM forests")
    async with db.tenant(a) as conn:
        assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == ["notes-a"]


async def test_the_pool_does_not_ping_for_it_its_first_statement_checks_the_connection(db: Database) -> None:
    a, _ = await _two_tenants(db)
    log = _log_statements(db)
    async with db.reading(a) as conn:
        first = await scalar(conn, "SELECT pg_backend_pid()")
    async with db.tenant(a) as conn:  # (a transaction of the usual kind is pinged)
        assert await scalar(conn, "SELECT pg_backend_pid()") == first
    pinged = len(log)
    async with db.reading(a) as conn:
        assert await scalar(conn, "SELECT pg_backend_pid()") == first
    assert ";" in log[:pinged] and ";" not in log[pinged:]
    async with db.system() as other:  # the database drops the idle pooled connection
        await execute(other, "SELECT pg_terminate_backend(:p)", {"p": first})
    async with db.reading(a) as conn:  # on another connection, without an error
        assert await scalar(conn, "SELECT pg_backend_pid()") != first
        assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == ["notes-a"]


async def test_an_error_inside_rolls_back_and_the_connection_comes_back_clean(db: Database) -> None:
    a, _ = await _two_tenants(db)
    for _ in range(3):  # more uses than a pool of one would survive with a transaction left open
        with pytest.raises(DBAPIError):
            async with db.reading(a) as conn:
                await scalar(conn, "SELECT 1 / 0")
        with pytest.raises(RuntimeError):
            async with db.reading(a) as conn:
                await scalar(conn, "SELECT 1")
                raise RuntimeError("the caller's own error")
    async with db.tenant_engine.connect() as conn:
        driver = (await conn.get_raw_connection()).driver_connection
        assert not driver.is_in_transaction()
    async with db.reading(a) as conn:
        assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == ["notes-a"]


async def test_a_connection_cut_inside_is_unavailability_and_is_replaced(db: Database) -> None:
    a, _ = await _two_tenants(db)
    with pytest.raises(DatabaseUnavailableError):
        async with db.reading(a) as conn:
            pid = await scalar(conn, "SELECT pg_backend_pid()")
            async with db.system() as other:
                await execute(other, "SELECT pg_terminate_backend(:p)", {"p": pid})
            await fetch_all(conn, _FORESTS)
    async with db.reading(a) as conn:
        assert [r["name"] for r in await fetch_all(conn, _FORESTS)] == ["notes-a"]


@pytest.mark.parametrize("knobs", [{"hnsw.ef_search": "1'; DROP TABLE facts; --"}, {"a b": "1"}, {"x": ""}])
async def test_a_setting_that_is_not_plain_is_refused_before_anything_runs(db: Database, knobs: dict[str, str]) -> None:
    a, _ = await _two_tenants(db)
    log = _log_statements(db)
    with pytest.raises(ValueError, match="not a plain setting"):
        async with db.reading(a, knobs=knobs):
            pass
    assert not any("DROP" in sql or "set_config" in sql for sql in log)


async def test_a_connection_returned_inside_a_driver_transaction_is_not_handed_out_again(db: Database) -> None:
    async with db.tenant_engine.connect() as conn:
        driver = (await conn.get_raw_connection()).driver_connection
        await driver.execute("BEGIN")  # as a reading transaction that could not end would leave it
    assert driver.is_closed()  # closed at check-in, not reset: SQLAlchemy's reset ends its own only
    async with db.tenant_engine.connect() as conn:
        assert not (await conn.get_raw_connection()).driver_connection.is_in_transaction()
