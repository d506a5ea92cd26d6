"""The webhook deliverer (ADR 0020): POSTs the outbox's due deliveries, signed, and records each
attempt; failures are retried with exponential backoff for a bounded time.

Signatures follow the Standard Webhooks specification (ADR 0045): ``webhook-id`` (the event id,
the same on every retry), ``webhook-timestamp`` (unix seconds of the attempt) and
``webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`` keyed by the bytes
of the ``whsec_`` secret's base64 part, so any Standard Webhooks verifier accepts them. The
``MemForest-Signature`` header of the previous release is still sent, deprecated.

No receiver can hold it: an attempt reads at most ``response_cap_bytes`` of the response body (plus
what one socket read brings) and ends by ``deadline_s`` whatever the receiver does. Attempts run
concurrently, ``concurrency`` in a process and at most ``per_tenant`` of one tenant's, claimed
round-robin by tenant, so a slow or endless receiver delays another tenant's delivery by at most
one attempt's deadline. The bounds hold per process. A failed attempt records only "unreachable",
"timeout" or "HTTP <status>", never what the connection learned about the network.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import hmac
import json
import logging
import time
import uuid
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from dataclasses import dataclass
from typing import cast

import httpx

from memforest.app.webhook_target import delivery_client
from memforest.db.engine import Database
from memforest.pipeline.job_bell import DELIVERIES
from memforest.settings import Settings, WebhookSettings
from memforest.store import webhooks as q
from memforest.store.jobs import job_view_of
from memforest.store.sql import Row

__all__ = [
    "SECRET_PREFIX",
    "SIGNATURE_HEADER",
    "Outcome",
    "post_once",
    "running_deliverer",
    "sign",
    "standard_signature",
]

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "MemForest-Signature"  # deprecated: the previous release's signature
SECRET_PREFIX = "whsec_"
LEASE_S = 120.0  # a claimed delivery is retried after this when its deliverer went away


def sign(secret: str, body: bytes, timestamp: int) -> str:
    """The deprecated ``MemForest-Signature`` header value of ``body`` sent at ``timestamp``
    (hex HMAC-SHA256 of ``"<t>.<body>"`` keyed by the secret's text)."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def _secret_key(secret: str) -> bytes:
    """The HMAC key of a ``whsec_<base64>`` secret: its base64 part decoded as Standard Webhooks
    verifiers decode it (characters outside the alphabet skipped, padding added)."""
    encoded = secret.removeprefix(SECRET_PREFIX)
    try:
        return base64.b64decode(encoded + "==")
    except binascii.Error:  # a length no padding mends: the text itself, as the old signature used
        return encoded.encode()


def standard_signature(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` header value (Standard Webhooks ``v1``) of ``body``."""
    mac = hmac.new(_secret_key(secret), f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


@dataclass(frozen=True)
class Outcome:
    """One attempt: the HTTP status when one came back, and the error ("" on a 2xx)."""

    status: int | None
    error: str


async def _read_capped(response: httpx.Response, cap_bytes: int) -> None:
    """Read the raw (undecoded) body until ``cap_bytes`` have come or it ends; the rest stays unread."""
    received = 0
    async with contextlib.aclosing(cast(AsyncGenerator[bytes, None], response.aiter_raw())) as chunks:
        async for chunk in chunks:
            received += len(chunk)
            if received >= cap_bytes:
                return


def _by_status(status: int) -> Outcome:
    return Outcome(status, "" if 200 <= status < 300 else f"HTTP {status}")


async def post_once(
    client: httpx.AsyncClient, cfg: WebhookSettings, url: str, headers: Mapping[str, str], body: bytes
) -> Outcome:
    """POST ``body`` to ``url`` once, within ``cfg.deadline_s``. A status that came back counts even
    when its body is slow; without one the error is "timeout" or "unreachable"."""
    status: int | None = None
    error = ""
    try:
        async with asyncio.timeout(cfg.deadline_s):
            async with client.stream("POST", url, content=body, headers=dict(headers)) as response:
                status = response.status_code
                await _read_capped(response, cfg.response_cap_bytes)
    except (TimeoutError, httpx.TimeoutException):
        error = "timeout"
    except (httpx.HTTPError, httpx.InvalidURL, OSError) as exc:
        log.info("webhook attempt cut short: %s", type(exc).__name__)  # the class only: no network detail
        error = "unreachable"
    return _by_status(status) if status is not None else Outcome(None, error)


def _body(row: Row) -> str:
    """The delivery's JSON body: the stored one, or, on a job event's first attempt, composed from
    the job the claim read with it (a job already gone: its id and final state only)."""
    if row["body"] is not None:
        return str(row["body"])
    job = q.claimed_job(row)
    if job is None:
        data = {"job_id": str(row["job_id"]), "state": str(row["type"]).removeprefix("job.")}
    else:
        data = job_view_of(job, job["forest"])
    event = {"id": str(row["event_id"]), "type": row["type"], "created_at": row["created_at"].isoformat(),
             "data": data}  # fmt: skip
    return json.dumps(event, default=str, separators=(",", ":"))


def _headers(row: Row, body: bytes) -> dict[str, str]:
    secret, event_id, now = str(row["secret"]), str(row["event_id"]), int(time.time())
    return {
        "Content-Type": "application/json",
        "webhook-id": event_id,
        "webhook-timestamp": str(now),
        "webhook-signature": standard_signature(secret, event_id, now, body),
        SIGNATURE_HEADER: sign(secret, body, now),
        "MemForest-Event-Id": event_id,
        "MemForest-Delivery-Id": str(row["delivery_id"]),
    }


async def _deliver(db: Database, cfg: WebhookSettings, client: httpx.AsyncClient, row: Row) -> None:
    """Attempt one claimed delivery and record how it went, with the body it sent when the row had
    none (one transaction, after the attempt)."""
    tid, did = row["tenant_id"], row["delivery_id"]
    text = _body(row)
    body = text.encode()
    outcome = await post_once(client, cfg, str(row["url"]), _headers(row, body), body)
    unstored = text if row["body"] is None else None
    async with db.tenant(tid) as conn:
        if not outcome.error and outcome.status is not None:
            await q.mark_delivered(conn, tid, did, outcome.status, unstored)
            return
        state = await q.mark_failed(
            conn, tid, did, status=outcome.status, error=outcome.error, backoff_base_s=cfg.backoff_base_s,
            backoff_max_s=cfg.backoff_max_s, retry_for_s=cfg.retry_for_s, body=unstored,
        )  # fmt: skip
    log.warning("webhook delivery %s failed (%s); now %s", did, outcome.error, state)


class _Deliverer:
    """Keeps up to ``concurrency`` attempts in flight, claiming round-robin by tenant with at most
    ``per_tenant`` of one tenant's at a time."""

    def __init__(self, db: Database, cfg: WebhookSettings, client: httpx.AsyncClient) -> None:
        self._db, self._cfg, self._client = db, cfg, client
        self._tasks: set[asyncio.Task[None]] = set()
        self._in_flight: Counter[uuid.UUID] = Counter()  # attempts running per tenant
        self._changed = asyncio.Event()  # an attempt ended, or stop was asked
        self._stopping = False

    def stop(self) -> None:
        self._stopping = True
        self._changed.set()

    async def run(self) -> None:
        """Claim and start attempts until :meth:`stop`, then let the running ones finish."""
        while not self._stopping:
            self._changed.clear()
            rings = DELIVERIES.rings  # (read before the claim: a delivery queued after it rings again)
            if await self._claim_safely() == 0:
                await DELIVERIES.wait(rings, self._cfg.poll_interval_s, or_set=self._changed)
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=self._cfg.deadline_s + 5)
        for task in self._tasks:
            task.cancel()

    async def _claim_safely(self) -> int:
        try:
            return await self._claim()
        except Exception:  # a database hiccup must not end deliveries for the process's life
            log.exception("webhook deliverer failed to claim; retrying")
            return 0

    async def _claim(self) -> int:
        free = min(self._cfg.concurrency - len(self._tasks), self._cfg.batch)
        if free <= 0:
            return 0
        async with self._db.system() as conn:
            rows = await q.claim_due(conn, free, LEASE_S, per_tenant=self._cfg.per_tenant, busy=self._in_flight)
        for row in rows:
            self._start(row)
        return len(rows)

    def _start(self, row: Row) -> None:
        tenant_id: uuid.UUID = row["tenant_id"]
        self._in_flight[tenant_id] += 1
        task = asyncio.create_task(_deliver(self._db, self._cfg, self._client, row))
        self._tasks.add(task)
        task.add_done_callback(lambda done: self._finished(tenant_id, done))

    def _finished(self, tenant_id: uuid.UUID, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._in_flight[tenant_id] -= 1
        if self._in_flight[tenant_id] <= 0:
            del self._in_flight[tenant_id]
        self._changed.set()
        if not task.cancelled() and task.exception() is not None:  # left to the lease: retried later
            log.error("webhook delivery failed to record", exc_info=task.exception())


@contextlib.asynccontextmanager
async def running_deliverer(db: Database, settings: Settings, *, enabled: bool = True) -> AsyncIterator[None]:
    """Deliver due webhook deliveries in this process for the duration of the block."""
    if not enabled:
        yield
        return
    cfg = settings.webhooks
    async with delivery_client(cfg) as client:
        deliverer = _Deliverer(db, cfg, client)
        task = asyncio.create_task(deliverer.run())
        try:
            yield
        finally:
            deliverer.stop()
            try:
                await asyncio.wait_for(task, timeout=cfg.deadline_s + 10)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
