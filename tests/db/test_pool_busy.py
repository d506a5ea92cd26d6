"""Issue 54 item 4 (review M3): a request that finds no free connection of the tenant pool within
the pool's wait answers 503 problem+json with Retry-After, never 500."""

from __future__ import annotations

import asyncio
from typing import Any

from support import admin_settings, app_client, tenant_key
from support.db import tenant_url

from memforest.db.engine import Database
from memforest.settings import Settings


def busy(r: Any) -> None:
    """``r`` is the 503 of a busy database, with ``Retry-After``."""
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert int(r.headers["retry-after"]) >= 1


async def test_a_pool_timeout_answers_503_with_retry_after(settings: Settings, db_url: str) -> None:
    narrow = Database(db_url, tenant_url=tenant_url(db_url), pool_size=1, max_overflow=0)
    narrow.tenant_engine.pool._timeout = 0.3  # type: ignore[attr-defined]  # (the pool's wait; 30 s by default)
    try:
        async with app_client(admin_settings(settings), narrow) as (_, c):
            _, h = await tenant_key(c, "t")
            assert (await c.get("/v1/forests", headers=h)).status_code == 200
            async with narrow.tenant_engine.connect():  # the tenant pool's only connection
                r = await asyncio.wait_for(c.get("/v1/forests", headers=h), 10)
            busy(r)
            assert (await c.get("/v1/forests", headers=h)).status_code == 200
    finally:
        await narrow.dispose()
