"""Forest names starting with the import staging prefix (``~staging:``) are reserved for an import's
hidden staging forests (issue 54, review L4): creating one, explicitly or by writing to it, is a 422
naming the field, and nothing is created. Imports still stage under that prefix."""

from __future__ import annotations

import pytest
from support import admin_settings, app_client, session_body, tenant_key

from memforest.db.engine import Database
from memforest.settings import Settings
from memforest.store.sql import scalar
from memforest.store.tenants import STAGING_PREFIX

_FORESTS = "SELECT count(*) FROM forests"


@pytest.mark.parametrize("name", [f"{STAGING_PREFIX}abc", f"  {STAGING_PREFIX}x", STAGING_PREFIX])
async def test_a_forest_named_with_the_staging_prefix_is_refused(settings: Settings, db: Database, name: str) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):
        _, h = await tenant_key(c)
        async with db.system() as conn:
            before = await scalar(conn, _FORESTS)
        r = await c.post("/v1/forests", json={"name": name}, headers=h)
        assert r.status_code == 422, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert "reserved" in r.json()["detail"] and r.json()["location"] == "name", r.text
        body = session_body("s1", "2024-01-01T00:00:00Z", ["hi"])
        r = await c.post(f"/v1/forests/{name.strip()}/sessions", json=body, headers=h)
        assert r.status_code == 422, r.text
        async with db.system() as conn:
            assert await scalar(conn, _FORESTS) == before
        # a name that only contains the prefix elsewhere is an ordinary name
        assert (await c.post("/v1/forests", json={"name": f"x{STAGING_PREFIX}"}, headers=h)).status_code == 201
