"""Webhooks and their delivery outbox (ADR 0020). Registration reads and writes run as the tenant;
the deliverer claims due rows across tenants as the owning role (``Database.system``)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from memforest.store.sql import Conn, Row, execute, fetch_all, fetch_one, scalar

_INSERT = """
INSERT INTO webhooks (tenant_id, webhook_id, url, events, secret) VALUES (:t, :id, :u, :e, :s)
RETURNING webhook_id, url, events, created_at
"""
_COUNT = "SELECT count(*) FROM webhooks WHERE tenant_id = :t"
_LIST = "SELECT webhook_id, url, events, created_at FROM webhooks WHERE tenant_id = :t ORDER BY created_at, webhook_id"
_GET = "SELECT webhook_id FROM webhooks WHERE tenant_id = :t AND webhook_id = :id"
_DELETE = "DELETE FROM webhooks WHERE tenant_id = :t AND webhook_id = :id"
_DELIVERIES = """
SELECT delivery_id, event_id, type, state, attempts, last_status, last_error, created_at, next_attempt_at,
       delivered_at FROM webhook_deliveries WHERE tenant_id = :t AND webhook_id = :id
ORDER BY created_at DESC, delivery_id LIMIT :n
"""
# Due deliveries of any tenant, claimed round-robin by tenant: every tenant's oldest due delivery,
# then every tenant's second, and so on. A tenant's turns count after the deliveries the claiming
# process already has in flight for it (:busy_t, :busy_n), up to :per_tenant. Claimed by moving
# next_attempt_at past a lease, so a deliverer that dies mid-send leaves them to be retried when the
# lease runs out; a row another deliverer claimed meanwhile fails the re-checked condition and is skipped.
# The rows are locked with SKIP LOCKED before the update: a row another deliverer's claim holds is left
# to it, so concurrent claims never wait on each other (an update locking the joined rows in its own
# order deadlocked two claimers, each holding a row the other wanted).
# A delivery without a body yet (a job event's first attempt) comes with its job's columns (job_*)
# and forest's name: the deliverer composes the body from them, with no transaction of its own
# before the attempt. The joins filter by the delivery's tenant, as the outbox trigger does.
_CLAIM = """
WITH due AS (
    SELECT tenant_id, delivery_id, next_attempt_at,
           row_number() OVER (PARTITION BY tenant_id ORDER BY next_attempt_at, delivery_id) AS turn
    FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= now()
), picked AS (
    SELECT due.tenant_id, due.delivery_id FROM due
    LEFT JOIN unnest(CAST(:busy_t AS uuid[]), CAST(:busy_n AS integer[])) AS busy(tenant_id, n) USING (tenant_id)
    WHERE due.turn + coalesce(busy.n, 0) <= :per_tenant
    ORDER BY due.turn + coalesce(busy.n, 0), due.next_attempt_at, due.delivery_id
    LIMIT :n
), locked AS (
    SELECT d.tenant_id, d.delivery_id, d.job_id, d.body IS NULL AS unwritten
    FROM webhook_deliveries d JOIN picked USING (tenant_id, delivery_id)
    WHERE d.state = 'pending' AND d.next_attempt_at <= now()
    FOR UPDATE OF d SKIP LOCKED
)
UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => :lease)
FROM locked p
    LEFT JOIN jobs j ON p.unwritten AND j.tenant_id = p.tenant_id AND j.job_id = p.job_id
    LEFT JOIN forests f ON f.tenant_id = j.tenant_id AND f.forest_id = j.forest_id,
    webhooks w
WHERE d.tenant_id = p.tenant_id AND d.delivery_id = p.delivery_id AND d.state = 'pending'
  AND d.next_attempt_at <= now() AND w.tenant_id = d.tenant_id AND w.webhook_id = d.webhook_id
RETURNING d.tenant_id, d.delivery_id, d.event_id, d.type, d.job_id, d.body, d.attempts, d.created_at, w.url, w.secret,
    j.job_id AS job_job_id, j.forest_id AS job_forest_id, j.kind AS job_kind, j.state AS job_state,
    j.attempts AS job_attempts, j.progress AS job_progress, j.result AS job_result, j.usage AS job_usage,
    j.errors AS job_errors, j.created_at AS job_created_at, j.started_at AS job_started_at,
    j.finished_at AS job_finished_at, f.name AS job_forest
"""
_DELIVERED = """
UPDATE webhook_deliveries SET state = 'delivered', attempts = attempts + 1, last_status = :st, last_error = NULL,
    delivered_at = now(), body = coalesce(body, :b) WHERE tenant_id = :t AND delivery_id = :id
"""
# A failed attempt: retry after base * 2^attempts (capped), or give up once the retry window closed.
# The body the attempt sent is kept (``:b``, when the row had none), so every retry sends the same bytes.
_FAILED = """
UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = :st, last_error = :err, body = coalesce(body, :b),
    state = CASE WHEN now() + make_interval(secs => LEAST(:base * power(2, attempts), :cap)) > created_at
                 + make_interval(secs => :window) THEN 'failed' ELSE 'pending' END,
    next_attempt_at = now() + make_interval(secs => LEAST(:base * power(2, attempts), :cap))
WHERE tenant_id = :t AND delivery_id = :id RETURNING state
"""


async def insert_webhook(
    conn: Conn, tenant_id: uuid.UUID, webhook_id: uuid.UUID, url: str, events: list[str], secret: str
) -> Row:
    """Register a webhook; returns webhook_id, url, events, created_at."""
    row = await fetch_one(conn, _INSERT, {"t": tenant_id, "id": webhook_id, "u": url, "e": events, "s": secret})
    assert row is not None
    return row


async def count_webhooks(conn: Conn, tenant_id: uuid.UUID) -> int:
    """How many webhooks the tenant has."""
    return int(await scalar(conn, _COUNT, {"t": tenant_id}) or 0)


async def list_webhooks(conn: Conn, tenant_id: uuid.UUID) -> list[Row]:
    """The tenant's webhooks, oldest first (no secrets)."""
    return await fetch_all(conn, _LIST, {"t": tenant_id})


async def webhook_exists(conn: Conn, tenant_id: uuid.UUID, webhook_id: uuid.UUID) -> bool:
    """Whether the tenant has this webhook."""
    return await fetch_one(conn, _GET, {"t": tenant_id, "id": webhook_id}) is not None


async def delete_webhook(conn: Conn, tenant_id: uuid.UUID, webhook_id: uuid.UUID) -> bool:
    """Remove the webhook with its deliveries; False when there was none."""
    return await execute(conn, _DELETE, {"t": tenant_id, "id": webhook_id}) > 0


async def list_deliveries(conn: Conn, tenant_id: uuid.UUID, webhook_id: uuid.UUID, limit: int) -> list[Row]:
    """The webhook's latest deliveries, newest first."""
    return await fetch_all(conn, _DELIVERIES, {"t": tenant_id, "id": webhook_id, "n": limit})


async def claim_due(
    conn: Conn, batch: int, lease_s: float, *, per_tenant: int, busy: Mapping[uuid.UUID, int]
) -> list[Row]:
    """Claim up to ``batch`` due deliveries of any tenant, round-robin by tenant, with their webhook's
    url and secret; a tenant with ``busy[tenant]`` in flight gets at most ``per_tenant`` minus that."""
    params = {"n": batch, "lease": lease_s, "per_tenant": per_tenant, "busy_t": list(busy),
              "busy_n": list(busy.values())}  # fmt: skip
    return await fetch_all(conn, _CLAIM, params)


def claimed_job(row: Row) -> dict[str, Any] | None:
    """The job columns a claimed delivery came with (as :func:`memforest.store.jobs.get_job` names
    them), None when the row had its body or its job is gone."""
    if row["job_job_id"] is None:
        return None
    return {name.removeprefix("job_"): row[name] for name in row if name.startswith("job_") and name != "job_id"}


async def mark_delivered(
    conn: Conn, tenant_id: uuid.UUID, delivery_id: uuid.UUID, status: int, body: str | None = None
) -> None:
    """Record a successful attempt; ``body``: what it sent, kept when the row had no body."""
    await execute(conn, _DELIVERED, {"t": tenant_id, "id": delivery_id, "st": status, "b": body})


async def mark_failed(
    conn: Conn,
    tenant_id: uuid.UUID,
    delivery_id: uuid.UUID,
    *,
    status: int | None,
    error: str,
    backoff_base_s: float,
    backoff_max_s: float,
    retry_for_s: float,
    body: str | None = None,
) -> str:
    """Record a failed attempt and schedule the next one (or give up); returns the new state.
    ``body``: what the attempt sent, kept when the row had none (retries send the same bytes)."""
    params = {"t": tenant_id, "id": delivery_id, "st": status, "err": error[:500], "base": backoff_base_s,
              "cap": backoff_max_s, "window": retry_for_s, "b": body}  # fmt: skip
    return str(await scalar(conn, _FAILED, params))


# Delivered and failed deliveries whose last attempt is older than :keep (next_attempt_at is at most
# a claim lease or a backoff after it), oldest rows first by the partial index (migration 0024).
_PRUNE = """
DELETE FROM webhook_deliveries d USING (
    SELECT tenant_id, delivery_id FROM webhook_deliveries
    WHERE state <> 'pending' AND next_attempt_at < now() - make_interval(secs => :keep)
    LIMIT :batch FOR UPDATE SKIP LOCKED
) old
WHERE d.tenant_id = old.tenant_id AND d.delivery_id = old.delivery_id
"""


async def prune_finished(conn: Conn, *, retention_s: float, batch: int) -> int:
    """Delete up to ``batch`` delivered or failed deliveries (all tenants) whose last attempt is more
    than ``retention_s`` old (a system connection). Returns how many went."""
    return await execute(conn, _PRUNE, {"keep": retention_s, "batch": batch})
