"""Webhooks (ADR 0020): register, list, delete, show deliveries. The deliverer that POSTs the outbox's
due deliveries is in :mod:`memforest.app.webhook_delivery`, the target rules in
:mod:`memforest.app.webhook_target`.

A delivery is ``{"id", "type", "created_at", "data"}``: for ``job.succeeded`` and ``job.failed``
the job as ``GET /v1/jobs/{id}`` shows it; for ``memory.changed`` the changes to facts one
transaction made (``{"changes": [{"forest", "fact_id", "event", "related_fact_id", "at"}]}``: facts
created, superseded, corrected, restored or deleted, by a job or an API call; ADR 0045). It is
signed per Standard Webhooks (``webhook-id``, ``webhook-timestamp``, ``webhook-signature``) with
the webhook's ``whsec_`` secret, and also with the deprecated ``MemForest-Signature``.

Targets whose host resolves to a private, loopback or link-local address (an embedded IPv4 address
included), or on a port outside ``webhooks.ports`` and ``webhooks.min_port`` up, are refused at
registration and again on every connection, unless ``webhooks.allow_private`` (which admits the
addresses, not the ports).
"""

from __future__ import annotations

import base64
import secrets
import uuid
from typing import Any

from memforest.app.retry import retry_if_cut
from memforest.app.webhook_delivery import (
    SECRET_PREFIX,
    SIGNATURE_HEADER,
    running_deliverer,
    sign,
    standard_signature,
)
from memforest.app.webhook_target import check_target
from memforest.db.engine import Database
from memforest.errors import ConflictError, NotFoundError
from memforest.settings import Settings
from memforest.store import webhooks as q
from memforest.store.sql import Row

__all__ = [
    "SIGNATURE_HEADER",
    "create_webhook",
    "delete_webhook",
    "deliveries",
    "list_webhooks",
    "running_deliverer",
    "sign",
    "standard_signature",
]


def _parse_id(value: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise NotFoundError("no such webhook") from None


async def create_webhook(
    db: Database, settings: Settings, tenant_id: uuid.UUID, url: str, events: list[str]
) -> dict[str, Any]:
    """Register a webhook; the answer carries its secret (shown only here)."""
    await check_target(url, settings.webhooks)
    secret = SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()  # Standard Webhooks form
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
