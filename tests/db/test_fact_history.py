"""``GET /v1/forests/{forest}/facts/{fact_id}/history`` over HTTP against the real database (ADR 0044):
the triggers of migration 0025 keep every event of a fact, a deleted fact's included; row-level
security confines the events to their tenant; forgetting the forest removes them."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from support import ADMIN_AUTH, admin_settings, app_client, bearer, session_body, tenant_key

from memforest.client import ApiNotFoundError, MemForestClient
from memforest.db.engine import Database
from memforest.settings import Settings
from memforest.store.sql import fetch_all, scalar

TEXTS = [
    "I moved to Lisbon last spring.",
    "My brother Tomas teaches maths in Braga.",
    "I adopted a beagle named Rufus in June.",
]


@pytest.fixture
async def api(settings: Settings, db: Database) -> AsyncIterator[httpx.AsyncClient]:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05})
    async with app_client(s, db, start_worker=True) as (_, client):
        yield client


async def _ingest(c: httpx.AsyncClient, h: dict[str, str], sid: str, texts: list[str]) -> list[dict[str, Any]]:
    body = session_body(sid, "2024-05-01T10:00:00Z", texts, ("dana", "dana"))
    r = await c.post("/v1/forests/f/sessions?wait=30", json=body, headers=h)
    assert r.status_code == 200 and r.json()["state"] == "succeeded", r.text
    facts: list[dict[str, Any]] = (await c.get("/v1/forests/f/facts?limit=200", headers=h)).json()["items"]
    assert facts
    return facts


async def _history(c: httpx.AsyncClient, h: dict[str, str], fact_id: str) -> dict[str, Any]:
    r = await c.get(f"/v1/forests/f/facts/{fact_id}/history", headers=h)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


async def _key_id(c: httpx.AsyncClient, tid: str) -> str:
    keys = (await c.get(f"/v1/tenants/{tid}/keys", headers=ADMIN_AUTH)).json()
    items = keys["items"] if isinstance(keys, dict) else keys
    return str(items[0]["id"])


async def test_corrected_then_deleted_fact_lists_every_event_in_order(api: httpx.AsyncClient) -> None:
    c = api
    tid, h = await tenant_key(c)
    rufus = next(f for f in await _ingest(c, h, "s1", TEXTS) if "Rufus" in f["text"])
    first = await _history(c, h, rufus["id"])
    assert first["status"] == "current" and [e["event"] for e in first["events"]] == ["extracted"]
    extracted = first["events"][0]
    assert extracted["text"] == rufus["text"] and extracted["sessions"] == ["s1"] and extracted["turn_ids"]
    assert extracted["actor"] is None  # the worker

    body = {"text": "I adopted a beagle named Rocket in June", "valid_from": "2024-06-01T00:00:00Z"}
    new = (await c.patch(f"/v1/forests/f/facts/{rufus['id']}", json=body, headers=h)).json()
    r = await c.delete(f"/v1/forests/f/facts/{rufus['id']}", headers=h)
    assert r.status_code == 200, r.text
    assert (await c.get(f"/v1/forests/f/facts/{rufus['id']}", headers=h)).status_code == 404

    hist = await _history(c, h, rufus["id"])
    assert hist["status"] == "deleted" and hist["fact_id"] == rufus["id"] and not hist["truncated"]
    events = hist["events"]
    assert [e["event"] for e in events] == ["extracted", "corrected", "sources_removed", "deleted"]
    corrected, removed, deleted = events[1:]
    assert corrected["related_fact_id"] == new["id"] and corrected["related_text"] == new["text"]
    assert removed["sessions"] == ["s1"] and removed["turn_ids"] == extracted["turn_ids"]
    assert deleted["text"] == rufus["text"]  # the tombstone keeps the text
    actor = f"key:{await _key_id(c, tid)}"
    assert corrected["actor"] == actor and deleted["actor"] == actor
    times = [e["at"] for e in events]
    assert times == sorted(times)

    correction = await _history(c, h, new["id"])
    assert correction["status"] == "current"
    assert [e["event"] for e in correction["events"]] == ["created", "supersedes"]
    assert correction["events"][0]["kind"] == "correction" and correction["events"][1]["related_fact_id"] == rufus["id"]
    assert correction["events"][1]["related_text"] is None  # that fact is gone; its own history keeps it


async def test_restatement_and_retraction(api: httpx.AsyncClient) -> None:
    c = api
    _, h = await tenant_key(c)
    lisbon = next(f for f in await _ingest(c, h, "s1", TEXTS) if "moved to Lisbon" in f["text"])
    await _ingest(c, h, "s2", [TEXTS[0]])  # the same statement in a later session
    events = (await _history(c, h, lisbon["id"]))["events"]
    assert [e["event"] for e in events] == ["extracted", "restated"]
    assert events[1]["sessions"] == ["s2"]

    r = await c.delete("/v1/forests/f/sessions/s1", headers=h)
    assert r.status_code == 200, r.text
    events = (await _history(c, h, lisbon["id"]))["events"]  # it keeps its source in s2
    assert [e["event"] for e in events] == ["extracted", "restated", "sources_removed"]
    assert events[2]["sessions"] == ["s1"]
    r = await c.delete("/v1/forests/f/sessions/s2", headers=h)
    assert r.status_code == 200, r.text
    hist = await _history(c, h, lisbon["id"])
    assert hist["status"] == "deleted"
    assert [e["event"] for e in hist["events"]][-2:] == ["sources_removed", "deleted"]
    assert hist["events"][-2]["sessions"] == ["s2"]


async def test_history_is_the_tenants_own_and_goes_with_the_forest(api: httpx.AsyncClient, db: Database) -> None:
    c = api
    tid, h = await tenant_key(c, "a", ("read", "write", "admin"))
    other_tid, other = await tenant_key(c, "b")
    fact = (await _ingest(c, h, "s1", TEXTS))[0]
    await _ingest(c, other, "s1", TEXTS[:1])
    for path in (f"/v1/forests/f/facts/{fact['id']}/history", "/v1/forests/f/facts/999999/history"):
        r = await c.get(path, headers=other)
        assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json")
    assert (await c.get(f"/v1/forests/nope/facts/{fact['id']}/history", headers=h)).status_code == 404
    assert (await c.get("/v1/forests/f/facts/x1/history", headers=h)).status_code == 404
    assert (await c.get(f"/v1/forests/f/facts/{fact['id']}/history", headers=bearer("mf_nope"))).status_code == 401

    a = uuid.UUID(tid)
    async with db.tenant(uuid.UUID(other_tid)) as conn:  # row-level security: b sees only b's events
        seen = await fetch_all(conn, "SELECT DISTINCT tenant_id FROM fact_events", {})
        assert [r["tenant_id"] for r in seen] == [uuid.UUID(other_tid)]
        with pytest.raises(Exception, match="row-level security"):
            await conn.execute(
                text("INSERT INTO fact_events (tenant_id, forest_id, fact_id, event) VALUES (:t, 1, 1, 'deleted')"),
                {"t": a},
            )
    async with db.system() as conn:
        assert int(await scalar(conn, "SELECT count(*) FROM fact_events WHERE tenant_id = :t", {"t": a})) > 0
    assert (await c.delete("/v1/forests/f", headers=h)).status_code in (200, 204)
    async with db.system() as conn:
        assert int(await scalar(conn, "SELECT count(*) FROM fact_events WHERE tenant_id = :t", {"t": a})) == 0
        assert int(await scalar(conn, "SELECT count(*) FROM webhook_deliveries WHERE tenant_id = :t", {"t": a})) == 0
    b = uuid.UUID(other_tid)
    async with db.system() as conn:  # a tenant's cascade: its forests' facts and their events go
        await conn.execute(text("DELETE FROM tenants WHERE tenant_id = :t"), {"t": b})
        assert int(await scalar(conn, "SELECT count(*) FROM fact_events WHERE tenant_id = :t", {"t": b})) == 0


async def test_the_client_reads_a_history(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings, worker={"poll_interval_s": 0.05}), db, start_worker=True) as (
        app,
        c,
    ):
        _, h = await tenant_key(c)
        fact = (await _ingest(c, h, "s1", TEXTS))[0]
        key = h["Authorization"].removeprefix("Bearer ")
        async with MemForestClient("http://test", key, transport=httpx.ASGITransport(app=app)) as mf:
            history = await mf.fact_history("f", fact["id"])
            assert history.status == "current" and [e.event for e in history.events] == ["extracted"]
            assert history.events[0].sessions == ["s1"] and history.events[0].text == fact["text"]
            with pytest.raises(ApiNotFoundError):
                await mf.fact_history("f", "999999")


async def test_a_deletion_can_forget_the_text(api: httpx.AsyncClient) -> None:
    c = api
    _, h = await tenant_key(c)
    facts = await _ingest(c, h, "s1", TEXTS)
    kept, forgotten = facts[0], facts[1]
    assert (await c.delete(f"/v1/forests/f/facts/{kept['id']}", headers=h)).status_code == 200
    r = await c.delete(f"/v1/forests/f/facts/{forgotten['id']}?forget_text=true", headers=h)
    assert r.status_code == 200, r.text
    tomb = (await _history(c, h, kept["id"]))["events"][-1]
    assert tomb["event"] == "deleted" and tomb["text"] == kept["text"] and tomb["text_dropped"] is False
    events = (await _history(c, h, forgotten["id"]))["events"]
    assert [e["event"] for e in events] == ["extracted", "sources_removed", "deleted"]
    assert all(e["text"] is None and e["text_dropped"] is True for e in events)
    assert forgotten["text"] not in json.dumps(events)
    assert (await c.delete("/v1/forests/f/facts/1?forget_text=maybe", headers=h)).status_code == 422
