"""``store.sql``'s helpers send a read transaction's statements (``ReadConn``) to asyncpg directly
and a write transaction's through SQLAlchemy, by the handle's type (ADR 0022, ADR 0039). Their
errors are SQLAlchemy's either way: a constraint violation is ``IntegrityError`` (callers turn it
into 409), a connection cut mid-transaction is unavailability (503), and the statement runs inside
its caller's transaction. A read transaction refuses the helpers that write."""

from __future__ import annotations

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from memforest.db.engine import Database
from memforest.errors import DatabaseUnavailableError
from memforest.store.read_conn import reading
from memforest.store.sql import execute, execute_many, fetch_all, fetch_one, fetch_rows, lock_forest, scalar, writer
from memforest.store.tenants import ensure_forest, ensure_tenant

_INSERT_FOREST = "INSERT INTO forests (tenant_id, name) VALUES (:t, :n) RETURNING forest_id"


async def test_a_constraint_violation_on_the_direct_path_is_sqlalchemys_integrity_error(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, "notes")
    with pytest.raises(IntegrityError) as caught:
        async with db.tenant(tenant_id) as conn:
            await fetch_one(conn, _INSERT_FOREST, {"t": tenant_id, "n": "notes"})
    assert "notes" not in str(caught.value)  # parameters stay out of the error, as the engine's do


async def test_a_direct_statement_belongs_to_its_callers_transaction(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    with pytest.raises(RuntimeError):
        async with db.tenant(tenant_id) as conn:
            await fetch_one(conn, _INSERT_FOREST, {"t": tenant_id, "n": "rolled-back"})
            raise RuntimeError("abort")
    async with db.tenant(tenant_id) as conn:
        assert await fetch_all(conn, "SELECT name FROM forests WHERE name = 'rolled-back'") == []


async def test_a_connection_cut_mid_transaction_on_the_direct_path_is_unavailability(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    with pytest.raises(DatabaseUnavailableError):
        async with db.tenant(tenant_id) as conn:
            pid = await scalar(conn, "SELECT pg_backend_pid()")
            async with db.system() as other:
                await execute(other, "SELECT pg_terminate_backend(:p)", {"p": pid})
            await fetch_all(conn, "SELECT forest_id FROM forests")
    async with db.tenant(tenant_id) as conn:  # the pool replaced the cut connection
        assert await fetch_all(conn, "SELECT forest_id FROM forests") == []


async def test_row_views_read_like_rows_in_either_kind_of_transaction(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    sql = "SELECT forest_id, name FROM forests WHERE tenant_id = :t ORDER BY forest_id"
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, "notes")
        await ensure_forest(conn, tenant_id, "work")
        written = await fetch_rows(conn, sql, {"t": tenant_id})  # dicts, through SQLAlchemy
        expected = await fetch_all(conn, sql, {"t": tenant_id})
    async with reading(db, tenant_id) as read:
        records = await fetch_rows(read, sql, {"t": tenant_id})  # the driver's records
        assert await fetch_all(read, sql, {"t": tenant_id}) == expected
        assert await fetch_one(read, sql, {"t": tenant_id}) == expected[0]
        assert await scalar(read, sql, {"t": tenant_id}) == expected[0]["forest_id"]
    assert all(isinstance(r, dict) for r in written) and not any(isinstance(r, dict) for r in records)
    for rows in (written, records):
        assert [r["name"] for r in rows] == ["notes", "work"]
        assert [dict(r) for r in rows] == expected


async def test_sqlalchemy_opens_a_write_transaction_and_sees_nothing_of_a_read_one(db: Database) -> None:
    """SQLAlchemy opens a write transaction (its tenant setting), whose statements then go to the
    driver (ADR 0053); it sees no statement of a read transaction."""
    tenant_id = await ensure_tenant(db, "acme")
    seen: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        seen.append(statement)

    event.listen(db.tenant_engine.sync_engine, "before_cursor_execute", record)
    try:
        async with db.tenant(tenant_id) as conn:
            opened = list(seen)
            assert await fetch_all(conn, "SELECT 1 AS written") == [{"written": 1}]
            assert [r["written"] for r in await fetch_rows(conn, "SELECT 2 AS written")] == [2]
        assert opened and seen[: len(opened)] == opened
        assert [s for s in seen if "written" in s] == []
        seen.clear()
        async with reading(db, tenant_id) as read:
            assert await fetch_all(read, "SELECT 1 AS one") == [{"one": 1}]
            assert await execute(read, "SELECT 1 AS one") == 1
        assert seen == []
    finally:
        event.remove(db.tenant_engine.sync_engine, "before_cursor_execute", record)


async def test_a_read_transaction_refuses_the_helpers_that_write(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, "notes")
    async with reading(db, tenant_id) as read:
        with pytest.raises(TypeError, match="read-only"):
            writer(read)
        with pytest.raises(TypeError, match="read-only"):
            await lock_forest(read, tenant_id, forest.forest_id)
        with pytest.raises(TypeError, match="read-only"):
            await execute_many(read, "SELECT :x", [{"x": 1}])
        assert await scalar(read, "SELECT count(*) FROM forests") == 1  # (the transaction is still usable)


async def test_a_constraint_violation_of_a_row_view_statement_is_sqlalchemys_integrity_error(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, "notes")
    with pytest.raises(IntegrityError):
        async with db.tenant(tenant_id) as conn:
            await fetch_rows(conn, _INSERT_FOREST, {"t": tenant_id, "n": "notes"})
