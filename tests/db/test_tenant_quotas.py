"""Per-tenant quotas (issue 54 item 5, review M3 "No quotas"): a tenant at its cap on queued jobs gets
429, at its cap on stored facts, forests or large forests 409, each a problem+json naming the cap;
other tenants are not affected; the admin overrides a tenant's caps. Delivered and failed webhook
deliveries are pruned by the worker's periodic maintenance after their retention."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
from sqlalchemy import text
from support import ADMIN_AUTH, admin_settings, app_client, session_body, tenant_key

from memforest.app.jobs import run_worker
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.pipeline.forest_indexes import ensure_forest_indexes
from memforest.settings import Settings


def _session(sid: str) -> dict[str, Any]:
    body: dict[str, Any] = session_body(sid, "2024-05-01T10:00:00Z", ["I moved to Lisbon last spring.", "Nice!"])
    return body


def _assert_cap(r: httpx.Response, status: int, cap: str) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["type"].endswith(f"/quota-exceeded/{cap}") and cap in body["detail"], body


async def _post(c: httpx.AsyncClient, h: dict[str, str], forest: str, sid: str) -> httpx.Response:
    return await c.post(f"/v1/forests/{forest}/sessions", json=_session(sid), headers=h)


async def test_queued_jobs_past_the_cap_get_429(settings: Settings, db: Database) -> None:
    s = admin_settings(settings, limits={"max_queued_jobs": 2})
    async with app_client(s, db) as (_, c):  # no worker: jobs stay queued
        _, h = await tenant_key(c, "busy")
        _, other = await tenant_key(c, "calm")
        assert [(await _post(c, h, "f", f"s{i}")).status_code for i in range(2)] == [202, 202]
        r = await _post(c, h, "f", "s2")
        _assert_cap(r, 429, "max_queued_jobs")
        assert int(r.headers["retry-after"]) >= 1
        _assert_cap(
            await c.post("/v1/forests/f/rematerialize", json={"embeddings": True}, headers=h), 429, "max_queued_jobs"
        )
        assert (await c.post("/v1/forests", json={"name": "g"}, headers=h)).status_code == 201  # queues nothing
        _assert_cap(await c.post("/v1/forests/f/merge", json={"from": "g"}, headers=h), 429, "max_queued_jobs")
        assert (await _post(c, other, "f", "s0")).status_code == 202  # a cap per tenant


async def test_forests_past_the_cap_get_409_and_the_admin_raises_it(settings: Settings, db: Database) -> None:
    s = admin_settings(settings, limits={"max_forests": 2})
    async with app_client(s, db) as (_, c):
        tid, h = await tenant_key(c, "t")
        for name in ("a", "b"):
            assert (await c.post("/v1/forests", json={"name": name}, headers=h)).status_code == 201
        _assert_cap(await c.post("/v1/forests", json={"name": "c"}, headers=h), 409, "max_forests")
        _assert_cap(await _post(c, h, "c", "s1"), 409, "max_forests")  # a first write would create it
        _assert_cap(await c.post("/v1/forests/c/import", content=b"{}\n", headers=h), 409, "max_forests")
        assert (await _post(c, h, "a", "s1")).status_code == 202  # an existing forest takes writes
        r = await c.put(f"/v1/admin/tenants/{tid}/quotas", json={"max_forests": 3}, headers=ADMIN_AUTH)
        assert r.status_code == 200 and r.json()["effective"]["max_forests"] == 3, r.text
        assert (await c.post("/v1/forests", json={"name": "c"}, headers=h)).status_code == 201


async def _add_facts(db: Database, tenant_id: str, forest: str, n: int) -> None:
    async with db.system() as conn:
        await conn.execute(
            text(
                "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, valid_from) "
                "SELECT f.tenant_id, f.forest_id, 'fact ' || i, md5(f.forest_id || ':' || i), 'event', now() "
                "FROM forests f, generate_series(1, :n) AS i WHERE f.tenant_id = :t AND f.name = :f"
            ),
            {"t": uuid.UUID(tenant_id), "f": forest, "n": n},
        )


async def test_stored_facts_past_the_cap_get_409(settings: Settings, db: Database) -> None:
    s = admin_settings(settings, limits={"max_facts": 3})
    async with app_client(s, db) as (_, c):
        tid, h = await tenant_key(c, "full")
        _, other = await tenant_key(c, "empty")
        assert (await c.post("/v1/forests", json={"name": "a"}, headers=h)).status_code == 201
        await _add_facts(db, tid, "a", 3)
        _assert_cap(await _post(c, h, "a", "s1"), 409, "max_facts")
        _assert_cap(await _post(c, h, "b", "s1"), 409, "max_facts")  # all forests together
        assert (await _post(c, other, "a", "s1")).status_code == 202
        r = await c.put(f"/v1/admin/tenants/{tid}/quotas", json={"max_facts": 0}, headers=ADMIN_AUTH)  # no cap
        assert r.status_code == 200 and r.json()["max_facts"] == 0
        assert (await _post(c, h, "a", "s1")).status_code == 202


async def test_large_forests_past_the_cap_get_no_indexes_and_409(settings: Settings, db: Database) -> None:
    s = admin_settings(settings, limits={"max_large_forests": 1}, retrieval={"exact_scan_max_rows": 2})
    async with app_client(s, db) as (_, c):
        tid, h = await tenant_key(c, "big")
        for name in ("a", "b", "small"):
            assert (await c.post("/v1/forests", json={"name": name}, headers=h)).status_code == 201
        await _add_facts(db, tid, "a", 3)
        await _add_facts(db, tid, "b", 3)
        async with db.system() as conn:
            rows = (await conn.execute(text("SELECT name, forest_id FROM forests"))).all()
        ids = {str(name): int(fid) for name, fid in rows}
        assert (await ensure_forest_indexes(db, s, uuid.UUID(tid), ids["a"])).built  # the first large forest
        report = await ensure_forest_indexes(db, s, uuid.UUID(tid), ids["b"])
        assert report.built == [] and report.skipped_quota == [ids["b"]]  # the second is over the cap
        _assert_cap(await _post(c, h, "b", "s1"), 409, "max_large_forests")
        assert (await _post(c, h, "a", "s1")).status_code == 202  # the indexed one takes writes
        assert (await _post(c, h, "small", "s1")).status_code == 202  # and so does a small one


async def test_the_admin_reads_and_sets_a_tenants_quotas(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):
        tid, h = await tenant_key(c, "t")
        r = await c.get(f"/v1/admin/tenants/{tid}/quotas", headers=ADMIN_AUTH)
        assert r.status_code == 200 and r.json()["max_facts"] is None
        defaults = settings.limits
        assert r.json()["effective"] == {
            "max_queued_jobs": defaults.max_queued_jobs,
            "max_facts": defaults.max_facts,
            "max_forests": defaults.max_forests,
            "max_large_forests": defaults.max_large_forests,
        }
        assert (await c.put(f"/v1/admin/tenants/{tid}/quotas", json={}, headers=h)).status_code == 403
        bad = await c.put(f"/v1/admin/tenants/{tid}/quotas", json={"max_forests": -1}, headers=ADMIN_AUTH)
        assert bad.status_code == 422
        missing = "00000000-0000-0000-0000-000000000000"
        assert (await c.get(f"/v1/admin/tenants/{missing}/quotas", headers=ADMIN_AUTH)).status_code == 404
        assert (await c.put(f"/v1/admin/tenants/{missing}/quotas", json={}, headers=ADMIN_AUTH)).status_code == 404


async def test_the_worker_prunes_finished_webhook_deliveries_after_their_retention(
    settings: Settings, db: Database
) -> None:
    tenant, hook = uuid.uuid4(), uuid.uuid4()
    rows = {  # delivery -> (state, hours since its last attempt)
        "old-delivered": ("delivered", 3),
        "old-failed": ("failed", 3),
        "old-pending": ("pending", 3),
        "new-delivered": ("delivered", 0),
    }
    ids = {name: uuid.uuid4() for name in rows}
    async with db.system() as conn:
        await conn.execute(text("INSERT INTO tenants (tenant_id, name) VALUES (:t, 'hooked')"), {"t": tenant})
        await conn.execute(
            text(
                "INSERT INTO webhooks (tenant_id, webhook_id, url, events, secret) "
                "VALUES (:t, :w, 'http://127.0.0.1:9/', '{}', 's')"
            ),
            {"t": tenant, "w": hook},
        )
        for name, (state, hours) in rows.items():
            await conn.execute(
                text(
                    "INSERT INTO webhook_deliveries (tenant_id, delivery_id, webhook_id, event_id, type, job_id, "
                    "state, next_attempt_at) VALUES (:t, :d, :w, gen_random_uuid(), 'job.succeeded', "
                    "gen_random_uuid(), :s, now() - make_interval(hours => :h))"
                ),
                {"t": tenant, "d": ids[name], "w": hook, "s": state, "h": hours},
            )
    s = settings.model_copy(
        update={"limits": settings.limits.model_copy(update={"webhook_delivery_retention_s": 3_600.0})}, deep=True
    )
    stop = asyncio.Event()
    worker = asyncio.create_task(run_worker(db, s, build_backends(s), stop=stop))

    async def left() -> set[uuid.UUID]:
        async with db.system() as conn:
            return set((await conn.execute(text("SELECT delivery_id FROM webhook_deliveries"))).scalars())

    try:
        for _ in range(100):
            if len(await left()) < len(rows):
                break
            await asyncio.sleep(0.1)
    finally:
        stop.set()
        await asyncio.wait_for(worker, timeout=30)
    assert await left() == {ids["old-pending"], ids["new-delivered"]}
