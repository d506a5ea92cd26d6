"""Issue 54 item 4 (review M3): the shared database pools. A lock wait past
``request_lock_timeout_ms`` answers 503 with Retry-After (not a hung request; a pool timeout:
test_pool_busy.py); a tenant's
in-flight limit stays well under the pool; unknown keys are cheap: one key lookup per request, a
negative cache, and a token bucket per client address before any lookup."""

from __future__ import annotations

import asyncio
import secrets
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError
from support import ADMIN_AUTH, admin_settings, app_client, tenant_key
from support.sessions import session_body

from memforest.app import auth
from memforest.db.engine import Database
from memforest.settings import LimitSettings, Settings
from memforest.store import limits as store_limits
from memforest.store import tenants
from memforest.store.sql import lock_forest
from memforest.store.tenants import ensure_forest


def _busy(r: Any) -> None:
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert int(r.headers["retry-after"]) >= 1


async def test_a_lock_wait_past_the_request_lock_timeout_answers_503(settings: Settings, db: Database) -> None:
    s = admin_settings(settings, database={"request_lock_timeout_ms": 300})
    async with app_client(s, db) as (_, c):
        tid, h = await tenant_key(c, "t")
        assert (await c.post("/v1/forests", json={"name": "f"}, headers=h)).status_code == 201
        body = session_body("s1", "2024-05-01T10:00:00Z", ["Ann moved to Lisbon."])
        tenant = uuid.UUID(tid)
        async with db.tenant(tenant) as conn:  # a long lifecycle operation holds the forest
            forest = await ensure_forest(conn, tenant, "f")
            await lock_forest(conn, tenant, forest.forest_id)
            r = await asyncio.wait_for(c.post("/v1/forests/f/sessions", json=body, headers=h), 10)
        _busy(r)
        r = await c.post("/v1/forests/f/sessions", json=body, headers=h)
        assert r.status_code in (200, 201, 202), r.text


async def test_worker_transactions_keep_the_servers_lock_timeout(db: Database) -> None:
    async with db.tenant(uuid.uuid4()) as conn:  # outside a request: the server's own setting (none)
        from_server = (await conn.exec_driver_sql("SHOW lock_timeout")).scalar()
    assert from_server == "0"


def test_in_flight_limit_stays_well_under_the_pool() -> None:
    s = Settings()
    pool = s.database.pool_size + s.database.max_overflow
    assert 0 < s.limits.max_in_flight <= pool // 2
    with pytest.raises(ValidationError, match="max_in_flight"):
        Settings(limits=LimitSettings(max_in_flight=pool // 2 + 1))
    assert Settings(limits=LimitSettings(max_in_flight=0)).limits.max_in_flight == 0  # off, as before


@pytest.fixture
def key_lookups(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every lookup of a key by its hash (authentication's and the limiter's), by hash."""
    seen: list[str] = []
    by_hash, limits_by_hash = tenants.key_by_hash, store_limits.limits_by_key_hash

    async def counted(conn: Any, key_hash: str) -> Any:
        seen.append(key_hash)
        return await by_hash(conn, key_hash)

    async def counted_limits(conn: Any, key_hash: str) -> Any:
        seen.append(key_hash)
        return await limits_by_hash(conn, key_hash)

    monkeypatch.setattr(auth, "key_by_hash", counted)
    monkeypatch.setattr(store_limits, "limits_by_key_hash", counted_limits)
    yield seen


async def test_one_key_lookup_per_request(settings: Settings, db: Database, key_lookups: list[str]) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):
        _, h = await tenant_key(c, "t")
        key_lookups.clear()
        assert (await c.get("/v1/forests", headers=h)).status_code == 200
        assert len(key_lookups) == 1  # the limiter's lookup, handed to authentication
        assert (await c.get("/v1/forests", headers=h)).status_code == 200
        assert len(key_lookups) == 2  # limits cached; authentication looks the key up afresh


async def test_revocation_is_still_immediate(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):
        r = await c.post("/v1/tenants", json={"name": "t"}, headers=ADMIN_AUTH)
        tid = r.json()["id"]
        r = await c.post(f"/v1/tenants/{tid}/keys", json={"scopes": ["read"]}, headers=ADMIN_AUTH)
        key, key_id = r.json()["key"], r.json()["id"]
        h = {"Authorization": f"Bearer {key}"}
        assert (await c.get("/v1/forests", headers=h)).status_code == 200  # its limits are now cached
        r = await c.delete(f"/v1/tenants/{tid}/keys/{key_id}", headers=ADMIN_AUTH)
        assert r.status_code in (200, 204), r.text
        assert (await c.get("/v1/forests", headers=h)).status_code == 401


async def test_an_unknown_key_is_looked_up_once(settings: Settings, db: Database, key_lookups: list[str]) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):
        h = {"Authorization": "Bearer mf_" + secrets.token_urlsafe(32)}
        codes = [(await c.get("/v1/forests", headers=h)).status_code for _ in range(5)]
        assert codes == [401] * 5
        assert len(key_lookups) == 1  # then the negative cache answers


async def test_made_up_keys_are_limited_by_client_address(
    settings: Settings, db: Database, key_lookups: list[str]
) -> None:
    # one token per 20 s: the eight requests stay inside one refill on a slow machine too
    s = admin_settings(settings, limits={"client_rate_per_s": 0.05, "client_burst": 3, "key_cache_s": 0})
    async with app_client(s, db) as (_, c):
        _, h = await tenant_key(c, "t")
        _, new = await tenant_key(c, "u")
        assert (await c.get("/v1/forests", headers=h)).status_code == 200
        key_lookups.clear()
        codes = []
        for _ in range(8):
            made_up = {"Authorization": "Bearer mf_" + secrets.token_urlsafe(32)}
            r = await c.get("/v1/forests", headers=made_up)
            codes.append(r.status_code)
        assert codes == [401] * 3 + [429] * 5
        assert 1 <= int(r.headers["retry-after"]) <= 20
        assert r.json()["type"].endswith("/too-many-requests")
        assert len(key_lookups) == 3  # refused before any lookup
        # a key that was valid before is still looked up (no cached limits here): its tenant is charged
        assert (await c.get("/v1/forests", headers=h)).status_code == 200
        # a key this process has not seen waits for the address's bucket, like any other
        assert (await c.get("/v1/forests", headers=new)).status_code == 429
        assert (await c.get("/healthz")).status_code == 200  # no key: not charged


async def test_mcp_looks_its_key_up_once(settings: Settings, db: Database, key_lookups: list[str]) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
    accept = {"Accept": "application/json, text/event-stream"}
    async with app_client(admin_settings(settings), db) as (_, c):
        _, h = await tenant_key(c, "t")
        key_lookups.clear()
        assert (await c.post("/mcp", json=initialize, headers=h | accept)).status_code == 200
        assert len(key_lookups) == 1  # the limiter's lookup, handed to the endpoint's authentication
        assert (await c.post("/mcp", json=initialize, headers=h | accept)).status_code == 200
        assert len(key_lookups) == 2  # limits cached; authentication looks the key up afresh
        made_up = {"Authorization": "Bearer mf_" + secrets.token_urlsafe(32)}
        codes = [(await c.post("/mcp", json=initialize, headers=made_up | accept)).status_code for _ in range(3)]
        assert codes == [401] * 3
        assert len(key_lookups) == 3  # once, then the negative cache answers
