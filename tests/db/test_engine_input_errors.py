"""``db.engine`` (issue 54): a data exception of the server (SQLSTATE class 22: a value out of its
type's range, NaN in a vector, division by zero of a value) is the client's bad input, a 422
InputError, not a 500; and ``Database.tenant`` refuses knobs that would set the role or the tenant,
as ``Database.reading`` does, before anything runs."""

from __future__ import annotations

import uuid

import pytest
from support.db import log_statements

from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.store.sql import scalar
from memforest.store.tenants import ensure_forest, ensure_tenant

# (statement, parameters): each fails on the server with a class 22 SQLSTATE
_DATA_EXCEPTIONS = {
    "integer out of range": ("SELECT CAST(:v AS integer)", {"v": "99999999999"}),
    "NaN in a vector": ("SELECT CAST(:v AS vector)", {"v": "[NaN,1]"}),
    "bad time": ("SELECT CAST(:v AS timestamptz)", {"v": "not a time"}),
    "division by zero": ("SELECT 1 / CAST(:v AS integer)", {"v": "0"}),
}


@pytest.mark.parametrize("name", list(_DATA_EXCEPTIONS))
async def test_a_data_exception_is_input_error_in_every_transaction(db: Database, name: str) -> None:
    tenant_id = await ensure_tenant(db, "a")
    sql, params = _DATA_EXCEPTIONS[name]
    for label, transaction in (("tenant", db.tenant(tenant_id)), ("system", db.system())):
        with pytest.raises(InputError) as info:
            async with transaction as conn:
                await scalar(conn, sql, params)
        assert info.value.status_code == 422, label
        assert "SQLSTATE 22" in str(info.value) and "99999999999" not in str(info.value), label


async def test_other_server_errors_are_not_input_errors(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "a")
    with pytest.raises(Exception) as info:
        async with db.tenant(tenant_id) as conn:
            await scalar(conn, "SELECT no_such_column FROM forests")
    assert not isinstance(info.value, InputError)


@pytest.mark.parametrize(
    "knobs",
    [
        {"role": "postgres"},
        {"memforest.tenant_id": "other"},
        {"ROLE": "postgres"},
        {"Memforest.Tenant_Id": "other"},
        {"hnsw.ef_search": "40", "role": "memforest_app"},
    ],
)
async def test_tenant_and_reading_refuse_knobs_that_set_the_role_or_the_tenant(
    db: Database, knobs: dict[str, str]
) -> None:
    a, b = await ensure_tenant(db, "a"), await ensure_tenant(db, "b")
    async with db.tenant(b) as conn:
        await ensure_forest(conn, b, "notes-b")
    knobs = {k: str(b) if v == "other" else v for k, v in knobs.items()}
    log = log_statements(db)
    for opened in (db.tenant, db.reading):
        with pytest.raises(ValueError, match="cannot set the role or the tenant"):
            async with opened(a, knobs=knobs) as conn:
                # (without the refusal: tenant b's forests, seen from a transaction of tenant a)
                await scalar(conn, "SELECT count(*) FROM forests")
    assert not any("set_config" in sql or "forests" in sql for _, sql in log)


async def test_plain_knobs_still_apply(db: Database) -> None:
    a = await ensure_tenant(db, "a")
    async with db.tenant(a, knobs={"hnsw.ef_search": "77"}) as conn:
        assert await scalar(conn, "SELECT current_setting('hnsw.ef_search')") == "77"
        assert await scalar(conn, "SELECT current_setting('memforest.tenant_id')") == str(a)
    assert isinstance(a, uuid.UUID)
