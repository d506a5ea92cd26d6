"""Webhooks (ADR 0020): register, list, delete, show deliveries; and the deliverer that POSTs the
outbox's due deliveries, signed, retrying failures with exponential backoff for a bounded time.

A delivery is ``{"id", "type", "created_at", "data": <the job as GET /v1/jobs/{id} shows it>}`` with
``MemForest-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`` keyed by the
webhook's secret. Targets on private, loopback or link-local addresses are refused (at registration
and again before every attempt) unless ``webhooks.allow_private``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import httpx

from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database
from memforest.errors import ConflictError, InputError, NotFoundError
from memforest.settings import Settings, WebhookSettings
from memforest.store import webhooks as q
from memforest.store.jobs import job_view
from memforest.store.sql import Row

__all__ = [
    "SIGNATURE_HEADER",
    "create_webhook",
    "delete_webhook",
    "deliver_due",
    "deliveries",
    "list_webhooks",
    "running_deliverer",
    "sign",
]

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "MemForest-Signature"
LEASE_S = 120.0


def sign(secret: str, body: bytes, timestamp: int) -> str:
    """The ``MemForest-Signature`` header value of ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def _parse_id(value: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise NotFoundError("no such webhook") from None


async def check_target(url: str, allow_private: bool) -> None:
    """InputError unless ``url`` is http(s) with a host that resolves only to public addresses
    (any address when ``allow_private``)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError("url must be an http or https URL with a host", location="url")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise InputError("url has an invalid port", location="url") from None
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(parts.hostname, port)
    except (OSError, UnicodeError):
        raise InputError(f"cannot resolve host {parts.hostname!r}", location="url") from None
    if allow_private:
        return
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if not address.is_global:
            raise InputError(f"url resolves to a private or loopback address ({address}); not allowed", location="url")


async def create_webhook(
    db: Database, settings: Settings, tenant_id: uuid.UUID, url: str, events: list[str]
) -> dict[str, Any]:
    """Register a webhook; the answer carries its secret (shown only here)."""
    await check_target(url, settings.webhooks.allow_private)
    secret = "whsec_" + secrets.token_urlsafe(32)
    async with db.tenant(tenant_id) as conn:
        if await q.count_webhooks(conn, tenant_id) >= settings.webhooks.max_per_tenant:
            raise ConflictError(f"a tenant has at most {settings.webhooks.max_per_tenant} webhooks")
        row = await q.insert_webhook(conn, tenant_id, uuid.uuid4(), url, sorted(set(events)), secret)
    return _webhook(row) | {"secret": secret}


def _webhook(row: Row) -> dict[str, Any]:
    return {"id": str(row["webhook_id"]), "url": row["url"], "events": list(row["events"]),
            "created_at": row["created_at"]}  # fmt: skip


@retry_if_cut
async def list_webhooks(db: Database, tenant_id: uuid.UUID) -> list[dict[str, Any]]:
    """The tenant's webhooks (no secrets)."""
    async with db.tenant(tenant_id) as conn:
        return [_webhook(r) for r in await q.list_webhooks(conn, tenant_id)]


async def delete_webhook(db: Database, tenant_id: uuid.UUID, webhook_id: str) -> None:
    """Remove a webhook and its pending deliveries; NotFoundError when absent (or another tenant's)."""
    wid = _parse_id(webhook_id)
    async with db.tenant(tenant_id) as conn:
        if not await q.delete_webhook(conn, tenant_id, wid):
            raise NotFoundError("no such webhook")


@retry_if_cut
async def deliveries(db: Database, tenant_id: uuid.UUID, webhook_id: str, limit: int) -> list[dict[str, Any]]:
    """The webhook's latest deliveries, newest first; NotFoundError when absent."""
    wid = _parse_id(webhook_id)
    async with db.tenant(tenant_id) as conn:
        if not await q.webhook_exists(conn, tenant_id, wid):
            raise NotFoundError("no such webhook")
        rows = await q.list_deliveries(conn, tenant_id, wid, limit)
    return [
        {"id": str(r["delivery_id"]), "event_id": str(r["event_id"])}
        | {k: r[k] for k in ("type", "state", "attempts", "last_status", "last_error", "created_at")}
        | {
            "next_attempt_at": r["next_attempt_at"] if r["state"] == "pending" else None,
            "delivered_at": r["delivered_at"],
        }
        for r in rows
    ]


async def _body(db: Database, row: Row) -> bytes:
    """The delivery's JSON body, composed (and stored) on its first attempt."""
    if row["body"] is not None:
        return str(row["body"]).encode()
    tenant_id = row["tenant_id"]
    async with db.tenant(tenant_id) as conn:
        data = await job_view(conn, tenant_id, row["job_id"])
    if data is None:  # the job went with its forest before the first attempt
        data = {"job_id": str(row["job_id"]), "state": str(row["type"]).removeprefix("job.")}
    event = {"id": str(row["event_id"]), "type": row["type"], "created_at": row["created_at"].isoformat(),
             "data": data}  # fmt: skip
    body = json.dumps(event, default=str, separators=(",", ":"))
    async with db.tenant(tenant_id) as conn:
        await q.set_body(conn, tenant_id, row["delivery_id"], body)
    return body.encode()


async def _attempt(client: httpx.AsyncClient, cfg: WebhookSettings, row: Row, body: bytes) -> tuple[int | None, str]:
    """POST one delivery; (status, error) where error is empty on a 2xx."""
    try:
        await check_target(str(row["url"]), cfg.allow_private)
        headers = {
            "Content-Type": "application/json",
            SIGNATURE_HEADER: sign(str(row["secret"]), body, int(time.time())),
            "MemForest-Event-Id": str(row["event_id"]),
            "MemForest-Delivery-Id": str(row["delivery_id"]),
        }
        r = await client.post(str(row["url"]), content=body, headers=headers, timeout=cfg.timeout_s)
    except (httpx.HTTPError, InputError, OSError) as exc:
        return None, f"{type(exc).__name__}: {exc}"
    if 200 <= r.status_code < 300:
        return r.status_code, ""
    return r.status_code, f"HTTP {r.status_code}"


async def deliver_due(db: Database, settings: Settings, client: httpx.AsyncClient) -> int:
    """Claim and attempt the due deliveries once; returns how many were attempted."""
    cfg = settings.webhooks
    async with db.system() as conn:
        rows = await q.claim_due(conn, cfg.batch, LEASE_S)
    for row in rows:
        tid, did = row["tenant_id"], row["delivery_id"]
        status, error = await _attempt(client, cfg, row, await _body(db, row))
        async with db.tenant(tid) as conn:
            if not error and status is not None:
                await q.mark_delivered(conn, tid, did, status)
                continue
            state = await q.mark_failed(
                conn, tid, did, status=status, error=error, backoff_base_s=cfg.backoff_base_s,
                backoff_max_s=cfg.backoff_max_s, retry_for_s=cfg.retry_for_s,
            )  # fmt: skip
        log.warning("webhook delivery %s failed (%s); now %s", did, error, state)
    return len(rows)


async def _loop(db: Database, settings: Settings, stop: asyncio.Event) -> None:
    async with httpx.AsyncClient(follow_redirects=False) as client:
        while not stop.is_set():
            try:
                n = await deliver_due(db, settings, client)
            except Exception:  # a database hiccup must not end deliveries for the process's life
                log.exception("webhook deliverer failed; retrying")
                n = 0
            if n == 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=settings.webhooks.poll_interval_s)


@contextlib.asynccontextmanager
async def running_deliverer(db: Database, settings: Settings, *, enabled: bool = True) -> AsyncIterator[None]:
    """Deliver due webhook deliveries in this process for the duration of the block."""
    if not enabled:
        yield
        return
    stop = asyncio.Event()
    task = asyncio.create_task(_loop(db, settings, stop))
    try:
        yield
    finally:
        stop.set()
        try:
            await asyncio.wait_for(task, timeout=settings.webhooks.timeout_s + 5)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()
