"""Webhooks over HTTP against the real database and a receiver on 127.0.0.1 that checks the
signatures (Standard Webhooks, by the ``standardwebhooks`` reference package, and the deprecated
``MemForest-Signature``): registration rules, signed deliveries of the tenant's own jobs only,
``memory.changed`` deliveries of facts' changes, and a delivery that first fails and is delivered by
the next server after a restart (the outbox is in PostgreSQL)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import Response
from standardwebhooks import Webhook, WebhookVerificationError
from support import ADMIN_AUTH, admin_settings, app_client, serve_app, session_body, tenant_key

from memforest.app.webhooks import sign, standard_signature
from memforest.db.engine import Database
from memforest.settings import Settings
from memforest.store.jobs import job_view
from memforest.store.sql import scalar

MESSAGES = {"messages": [{"role": "user", "content": "I started learning the cello in March."}]}


@dataclass
class Receiver:
    """A webhook target: answers ``status``; keeps what it got and whether the signature held."""

    secret: str = ""
    status: int = 500
    got: list[tuple[int, dict[str, Any], bool]] = field(default_factory=list)  # (answer, event, signatures ok)
    ids: list[str] = field(default_factory=list)  # the webhook-id header of each delivery
    raw: list[bytes] = field(default_factory=list)  # each delivery's body as it came

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/hook")
        async def hook(request: Request) -> Response:
            raw = await request.body()
            self.ids.append(request.headers.get("webhook-id", ""))
            self.raw.append(raw)
            self.got.append(
                (
                    self.status,
                    json.loads(raw),
                    _standard_ok(self.secret, raw, request)
                    and _legacy_ok(self.secret, raw, request.headers.get("memforest-signature", "")),
                )
            )
            return Response(status_code=self.status)

        return app

    def events(self, job_id: str, answered: int | None = None) -> list[dict[str, Any]]:
        return [e for s, e, _ in self.got if e["data"].get("job_id") == job_id and (answered is None or s == answered)]


def _standard_ok(secret: str, raw: bytes, request: Request) -> bool:
    """The Standard Webhooks reference verifier accepts the delivery, and webhook-id is the event's id."""
    try:
        event = Webhook(secret).verify(raw, dict(request.headers))
    except WebhookVerificationError:
        return False
    return bool(event["id"] == request.headers["webhook-id"])


def _legacy_ok(secret: str, raw: bytes, header: str) -> bool:
    """The deprecated MemForest-Signature header by its documented recipe."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    expected = hmac.new(secret.encode(), f"{parts.get('t')}.".encode() + raw, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts.get("v1", "")) and abs(time.time() - int(parts["t"])) < 300


async def _until(check: Callable[[], Awaitable[bool] | bool], within_s: float = 20.0) -> None:
    deadline = time.monotonic() + within_s
    while True:
        done = check()
        if not isinstance(done, bool):
            done = await done
        if done:
            return
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def _deliveries(c: httpx.AsyncClient, h: dict[str, str], hook_id: str) -> list[dict[str, Any]]:
    r = await c.get(f"/v1/webhooks/{hook_id}/deliveries", headers=h)
    assert r.status_code == 200, r.text
    items: list[dict[str, Any]] = r.json()["items"]
    return items


@pytest.fixture
def hook_settings(settings: Settings) -> Settings:
    return admin_settings(
        settings,
        worker={"poll_interval_s": 0.05},
        webhooks={"allow_private": True, "backoff_base_s": 0.5, "poll_interval_s": 0.05},
    )


@pytest.fixture
async def receiver() -> AsyncIterator[tuple[Receiver, str]]:
    rec = Receiver()
    async with serve_app(rec.app()) as base:
        yield rec, f"{base}/hook"


async def test_delivery_fails_then_is_retried_after_a_restart(
    hook_settings: Settings, db: Database, receiver: tuple[Receiver, str]
) -> None:
    rec, url = receiver
    async with app_client(hook_settings, db, start_worker=True) as (_, c):
        _, h = await tenant_key(c)
        r = await c.post("/v1/webhooks", json={"url": url, "events": ["job.succeeded"]}, headers=h)
        assert r.status_code == 201, r.text
        hook = r.json()
        rec.secret = hook["secret"]
        assert hook["secret"].startswith("whsec_") and hook["events"] == ["job.succeeded"]
        listed = (await c.get("/v1/webhooks", headers=h)).json()["items"]
        assert [w["id"] for w in listed] == [hook["id"]] and "secret" not in listed[0]
        job = (await c.post("/v1/forests/f/messages?wait=30", json=MESSAGES, headers=h)).json()
        assert job["state"] == "succeeded"
        await _until(lambda: bool(rec.events(job["job_id"])))  # the first attempt, answered 500

        async def failed_once() -> bool:  # recorded, so the next server retries after the backoff
            return any(d["last_status"] == 500 and d["state"] == "pending" for d in await _deliveries(c, h, hook["id"]))

        await _until(failed_once)
        # the server stops before the retry succeeds
    assert not rec.events(job["job_id"], answered=200)
    rec.status = 200
    async with app_client(hook_settings, db, start_worker=True) as (_, c):
        await _until(lambda: bool(rec.events(job["job_id"], answered=200)))
        event = rec.events(job["job_id"], answered=200)[0]
        assert event["type"] == "job.succeeded" and event["data"]["state"] == "succeeded"
        assert event["data"]["forest"] == "f" and set(event) == {"id", "type", "created_at", "data"}
        assert all(ok for _, _, ok in rec.got)  # every delivery carried a valid signature
        assert len({e["id"] for e in rec.events(job["job_id"])}) == 1  # retries resend the same event
        mine = next(x for x in await _deliveries(c, h, hook["id"]) if x["event_id"] == event["id"])
        assert mine["state"] == "delivered" and mine["attempts"] >= 2 and mine["last_status"] == 200


async def test_a_job_events_first_attempt_sends_the_jobs_view_and_keeps_those_bytes(
    hook_settings: Settings, db: Database, receiver: tuple[Receiver, str]
) -> None:
    """The first attempt's body is the job as ``job_view`` reads it, composed from the job the claim
    read; it is kept with the attempt's outcome, and the retry sends the same bytes."""
    rec, url = receiver
    async with app_client(hook_settings, db, start_worker=True) as (_, c):
        tid, h = await tenant_key(c)
        hook = (await c.post("/v1/webhooks", json={"url": url, "events": ["job.succeeded"]}, headers=h)).json()
        rec.secret = hook["secret"]
        job = (await c.post("/v1/forests/f/messages?wait=30", json=MESSAGES, headers=h)).json()

        async def failed_once() -> bool:
            return any(d["last_status"] == 500 for d in await _deliveries(c, h, hook["id"]))

        await _until(failed_once)
        rec.status = 200
        await _until(lambda: bool(rec.events(job["job_id"], answered=200)))
    async with db.tenant(uuid.UUID(tid)) as conn:
        view = json.loads(json.dumps(await job_view(conn, uuid.UUID(tid), uuid.UUID(job["job_id"])), default=str))
    first = rec.events(job["job_id"])[0]
    assert first["type"] == "job.succeeded" and first["data"] == view and view["forest"] == "f"
    sent = [raw for raw in rec.raw if json.loads(raw)["id"] == first["id"]]
    async with db.system() as conn:
        kept = await scalar(conn, "SELECT body FROM webhook_deliveries WHERE event_id = CAST(:e AS uuid)",
                            {"e": first["id"]})  # fmt: skip
    assert len(sent) >= 2 and set(sent) == {str(kept).encode()}  # the 500's bytes, then the retry's


async def test_only_the_tenants_own_jobs_reach_its_webhook(
    hook_settings: Settings, db: Database, receiver: tuple[Receiver, str]
) -> None:
    rec, url = receiver
    rec.status = 200
    async with app_client(hook_settings, db, start_worker=True) as (_, c):
        tid, h = await tenant_key(c)
        _, other = await tenant_key(c, "other")
        hook = (await c.post("/v1/webhooks", json={"url": url}, headers=h)).json()
        rec.secret = hook["secret"]
        theirs = (await c.post("/v1/forests/f/messages?wait=30", json=MESSAGES, headers=other)).json()
        mine = (await c.post("/v1/forests/f/messages?wait=30", json=MESSAGES, headers=h)).json()
        assert theirs["state"] == mine["state"] == "succeeded"
        await _until(lambda: bool(rec.events(mine["job_id"])))
        await asyncio.sleep(0.5)  # time for a stray delivery to arrive
        assert rec.events(theirs["job_id"]) == []
        # another tenant sees none of it: its webhooks list is empty, the hook's id is a 404
        assert (await c.get("/v1/webhooks", headers=other)).json()["items"] == []
        assert (await c.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=other)).status_code == 404
        assert (await c.delete(f"/v1/webhooks/{hook['id']}", headers=other)).status_code == 404
        # delete: 204, then 404; its deliveries go with it
        assert (await c.delete(f"/v1/webhooks/{hook['id']}", headers=h)).status_code == 204
        assert (await c.delete(f"/v1/webhooks/{hook['id']}", headers=h)).status_code == 404
        assert (await c.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=h)).status_code == 404
        assert (await c.get("/v1/webhooks/not-a-uuid/deliveries", headers=h)).status_code == 404
        # forgetting the tenant takes its webhooks and deliveries with it
        assert (await c.post("/v1/webhooks", json={"url": url}, headers=h)).status_code == 201
        assert (await c.delete(f"/v1/tenants/{tid}", headers=ADMIN_AUTH)).status_code == 200
        async with db.system() as conn:
            assert await scalar(conn, "SELECT count(*) FROM webhooks WHERE tenant_id = :t", {"t": tid}) == 0


async def test_registration_rules(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):  # private targets not allowed here
        _, h = await tenant_key(c)
        for body in (
            {"url": "http://127.0.0.1:9/hook"},
            {"url": "http://localhost/hook"},
            {"url": "http://10.1.2.3/hook"},
            {"url": "http://[::1]/hook"},
            {"url": "ftp://example.com/hook"},
            {"url": "http:///nohost"},
            {"url": "https://example.com/hook", "events": ["job.exploded"]},
            {"url": "https://example.com/hook", "events": []},
            {"url": "https://example.com/hook", "extra": 1},
        ):
            r = await c.post("/v1/webhooks", json=body, headers=h)
            assert r.status_code == 422, (body, r.text)
            assert r.headers["content-type"].startswith("application/problem+json")
        assert (await c.get("/v1/webhooks", headers=h)).json()["items"] == []
        _, ro = await tenant_key(c, "reader", scopes=("read",))
        assert (await c.post("/v1/webhooks", json={"url": "http://127.0.0.1/x"}, headers=ro)).status_code == 403


def test_signature_matches_the_documented_recipe() -> None:
    body = b'{"id":"e1"}'
    expected = hmac.new(b"whsec_x", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert sign("whsec_x", body, 1_700_000_000) == f"t=1700000000,v1={expected}"


def test_standard_signature_matches_the_specifications_example() -> None:
    """The example of the Standard Webhooks specification, and a tampered body that no longer verifies."""
    secret, msg_id, body = (
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        b'{"test": 2432232314}',
    )
    assert standard_signature(secret, msg_id, 1614265330, body) == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    now = int(time.time())
    headers = {"webhook-id": msg_id, "webhook-timestamp": str(now),
               "webhook-signature": standard_signature(secret, msg_id, now, body)}  # fmt: skip
    assert Webhook(secret).verify(body, headers) == {"test": 2432232314}
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(body.replace(b"2", b"3"), headers)


async def test_registration_refusals_name_no_address(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):  # private targets not allowed here
        _, h = await tenant_key(c)
        for url in (
            "http://[64:ff9b::7f00:1]/hook",  # NAT64 of 127.0.0.1
            "http://[64:ff9b::a00:1]/hook",  # NAT64 of 10.0.0.1
            "http://[2002:7f00:1::]/hook",  # 6to4 of 127.0.0.1
            "http://[::127.0.0.1]/hook",  # IPv4-compatible 127.0.0.1
            "http://localhost:8080/hook",
        ):
            r = await c.post("/v1/webhooks", json={"url": url}, headers=h)
            assert r.status_code == 422, (url, r.text)
            detail = r.json()["detail"]
            assert "not allowed" in detail and not any(a in detail for a in ("127.0.0.1", "::1", "10.0.0.1")), detail
    async with app_client(admin_settings(settings, webhooks={"allow_private": True}), db) as (_, c):
        _, h = await tenant_key(c, "ports")
        for port in (0, 22, 25, 1023):  # ports stay limited when private addresses are allowed
            r = await c.post("/v1/webhooks", json={"url": f"http://127.0.0.1:{port}/hook"}, headers=h)
            assert r.status_code == 422 and "port not allowed" in r.json()["detail"], (port, r.text)
            assert r.headers["content-type"].startswith("application/problem+json")
        assert (await c.post("/v1/webhooks", json={"url": "http://127.0.0.1:8080/hook"}, headers=h)).status_code == 201


async def test_memory_changed_names_the_facts_each_change_touched(
    hook_settings: Settings, db: Database, receiver: tuple[Receiver, str]
) -> None:
    """One memory.changed delivery per transaction that changed facts: the job's creations, a
    correction (the new fact created, the old one corrected), a deletion (the deleted fact, and the
    one it superseded current again); every delivery verifies with the reference package."""
    rec, url = receiver
    rec.status = 200
    async with app_client(hook_settings, db, start_worker=True) as (_, c):
        _, h = await tenant_key(c)
        hook = (await c.post("/v1/webhooks", json={"url": url, "events": ["memory.changed"]}, headers=h)).json()
        rec.secret = hook["secret"]
        assert hook["events"] == ["memory.changed"]
        job = (await c.post("/v1/forests/f/messages?wait=30", json=MESSAGES, headers=h)).json()
        assert job["state"] == "succeeded"
        facts = (await c.get("/v1/forests/f/facts", headers=h)).json()["items"]
        assert facts

        def changes() -> list[dict[str, Any]]:
            return [ch for _, e, _ in rec.got for ch in e["data"]["changes"]]

        await _until(lambda: {f["id"] for f in facts} <= {ch["fact_id"] for ch in changes()})
        assert all(ch["event"] == "created" and ch["forest"] == "f" for ch in changes())
        old = facts[0]["id"]
        new = (await c.patch(f"/v1/forests/f/facts/{old}", json={"text": "I learn the viola."}, headers=h)).json()
        await _until(lambda: any(ch["event"] == "corrected" for ch in changes()))
        assert next(ch for ch in changes() if ch["event"] == "corrected")["related_fact_id"] == new["id"]
        corrected = next(e for _, e, _ in rec.got if any(ch["event"] == "corrected" for ch in e["data"]["changes"]))
        assert [(ch["event"], ch["fact_id"]) for ch in corrected["data"]["changes"]] == [
            ("created", new["id"]),
            ("corrected", old),
        ]  # one transaction, one delivery, in order
        assert (await c.delete(f"/v1/forests/f/facts/{new['id']}", headers=h)).status_code == 200
        await _until(lambda: any(ch["event"] == "deleted" for ch in changes()))
        deleted = next(e for _, e, _ in rec.got if any(ch["event"] == "deleted" for ch in e["data"]["changes"]))
        assert sorted((ch["event"], ch["fact_id"]) for ch in deleted["data"]["changes"]) == [
            ("deleted", new["id"]),
            ("restored", old),
        ]
        assert all(e["type"] == "memory.changed" for _, e, _ in rec.got)
        assert all(ok for _, _, ok in rec.got)  # every delivery verified (Standard Webhooks and the old header)
        assert len(set(rec.ids)) == len(rec.ids) and rec.ids == [e["id"] for _, e, _ in rec.got]


async def test_deliveries_queued_in_this_process_go_out_without_waiting_for_a_poll(
    settings: Settings, db: Database, receiver: tuple[Receiver, str]
) -> None:
    """A finished job, a client's correction and a retraction ring this process's deliverer (ADR
    0106): with its poll a minute away, each delivery still arrives within seconds."""
    rec, url = receiver
    rec.status = 200
    slow_poll = admin_settings(
        settings,
        worker={"poll_interval_s": 0.05},
        webhooks={"allow_private": True, "poll_interval_s": 60.0},
        pipeline={"refresh_coalesce_delay_s": 3_600.0},  # (no later job's end to ring the bell meanwhile)
    )
    async with app_client(slow_poll, db, start_worker=True) as (_, c):
        _, h = await tenant_key(c)
        await asyncio.sleep(0.3)  # the deliverer's first claim (empty) is behind it: it now waits for its poll
        # the job's event alone (a memory.changed attempt of its commit would wake the deliverer too)
        hook = (await c.post("/v1/webhooks", json={"url": url, "events": ["job.succeeded"]}, headers=h)).json()
        rec.secret = hook["secret"]
        job = (await c.post("/v1/forests/f/messages?wait=30", json=MESSAGES, headers=h)).json()
        assert job["state"] == "succeeded"
        await _until(lambda: bool(rec.events(job["job_id"])), within_s=10)
        assert (await c.delete(f"/v1/webhooks/{hook['id']}", headers=h)).status_code == 204
        hook = (await c.post("/v1/webhooks", json={"url": url, "events": ["memory.changed"]}, headers=h)).json()
        rec.secret = hook["secret"]
        fact = (await c.get("/v1/forests/f/facts", headers=h)).json()["items"][0]["id"]
        r = await c.patch(f"/v1/forests/f/facts/{fact}", json={"text": "I learn the viola."}, headers=h)
        assert r.status_code == 200, r.text

        def corrected() -> bool:
            return any(ch["event"] == "corrected" for _, e, _ in rec.got if e["type"] == "memory.changed"
                       for ch in e["data"]["changes"])  # fmt: skip

        await _until(corrected, within_s=10)
        body = session_body("s2", "2024-05-01T10:00:00Z", ["I joined a rowing club in May.", "Nice."])
        second = (await c.post("/v1/forests/f/sessions?wait=30", json=body, headers=h)).json()
        assert second["state"] == "succeeded"
        await asyncio.sleep(0.5)  # (the deliveries its job queued go out; then the deliverer waits for its poll)
        r = await c.delete("/v1/forests/f/sessions/s2", headers=h)
        assert r.status_code == 200 and r.json()["facts_removed"] >= 1, r.text

        def retracted() -> bool:
            return any(ch["event"] == "deleted" for _, e, _ in rec.got if e["type"] == "memory.changed"
                       for ch in e["data"]["changes"])  # fmt: skip

        await _until(retracted, within_s=10)
        assert all(ok for _, _, ok in rec.got)
