"""Per-tenant fairness on the request path (issue 14, ADR 0019): a tenant over its request rate or
its concurrent requests gets 429 problem+json with Retry-After; other tenants are not affected;
the admin sets a tenant's own limits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from support import ADMIN_AUTH, admin_settings, app_client, tenant_key

from memforest.db.engine import Database
from memforest.settings import Settings


async def test_a_tenant_over_its_rate_gets_429_and_others_do_not(settings: Settings, db: Database) -> None:
    s = admin_settings(settings, limits={"rate_per_s": 0.5, "burst": 3, "max_in_flight": 0})
    async with app_client(s, db) as (_, c):
        _, noisy = await tenant_key(c, "noisy")
        _, quiet = await tenant_key(c, "quiet")
        codes = [(await c.get("/v1/forests", headers=noisy)).status_code for _ in range(3)]
        assert codes == [200, 200, 200]
        r = await c.get("/v1/forests", headers=noisy)
        assert r.status_code == 429, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["type"].endswith("/too-many-requests") and "rate" in r.json()["detail"]
        assert 1 <= int(r.headers["retry-after"]) <= 2
        assert (await c.get("/v1/forests", headers=quiet)).status_code == 200  # a bucket per tenant
        assert (await c.get("/healthz")).status_code == 200  # no tenant key: not charged


async def test_a_tenant_over_its_concurrent_requests_gets_429(settings: Settings, db: Database) -> None:
    s = admin_settings(settings, limits={"rate_per_s": 0, "max_in_flight": 1})
    async with app_client(s, db) as (_, c):
        _, h = await tenant_key(c, "t")
        _, other = await tenant_key(c, "u")
        release, reading = asyncio.Event(), asyncio.Event()

        async def slow_body() -> AsyncIterator[bytes]:
            yield b"{"
            reading.set()  # the route is reading the body
            await release.wait()  # the upload stalls: the request stays in flight
            yield b"}\n"

        first = asyncio.create_task(c.post("/v1/forests/f/import", content=slow_body(), headers=h))
        await asyncio.wait_for(reading.wait(), timeout=30)
        r = await c.get("/v1/forests", headers=h)
        assert r.status_code == 429 and "concurrent" in r.json()["detail"] and r.headers["retry-after"] == "1"
        assert (await c.get("/v1/forests", headers=other)).status_code == 200
        release.set()
        assert (await first).status_code == 422  # the stalled upload was not an export; its slot is free again
        assert (await c.get("/v1/forests", headers=h)).status_code == 200


async def test_the_admin_sets_a_tenants_own_limits(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):
        tid, h = await tenant_key(c, "t")
        r = await c.get(f"/v1/admin/tenants/{tid}/limits", headers=ADMIN_AUTH)
        assert r.status_code == 200 and r.json()["rate_per_s"] is None
        assert r.json()["effective"] == {"rate_per_s": 50.0, "burst": 100, "max_in_flight": 8}
        assert (await c.get("/v1/forests", headers=h)).status_code == 200  # the key's limits are now cached
        assert (await c.put(f"/v1/admin/tenants/{tid}/limits", json={}, headers=h)).status_code == 403
        r = await c.put(f"/v1/admin/tenants/{tid}/limits", json={"rate_per_s": 0.1, "burst": 1}, headers=ADMIN_AUTH)
        assert r.status_code == 200, r.text
        assert r.json()["effective"] == {"rate_per_s": 0.1, "burst": 1, "max_in_flight": 8}
        codes = [(await c.get("/v1/forests", headers=h)).status_code for _ in range(3)]
        assert codes.count(429) >= 2  # the new limits apply at once (the cached lookup was dropped)
        bad = await c.put(f"/v1/admin/tenants/{tid}/limits", json={"burst": -1}, headers=ADMIN_AUTH)
        assert bad.status_code == 422
        missing = "00000000-0000-0000-0000-000000000000"
        assert (await c.get(f"/v1/admin/tenants/{missing}/limits", headers=ADMIN_AUTH)).status_code == 404
