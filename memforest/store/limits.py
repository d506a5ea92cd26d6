"""A tenant's fairness limits (ADR 0019): the overrides stored on ``tenants`` (NULL = the default)."""

from __future__ import annotations

import uuid

from memforest.store.sql import Conn, Row, fetch_one

_LIMITS_BY_KEY_HASH = """
SELECT k.tenant_id, t.rate_limit_per_s, t.rate_limit_burst, t.max_in_flight
FROM api_keys k JOIN tenants t ON t.tenant_id = k.tenant_id
WHERE k.key_hash = :h AND k.revoked_at IS NULL
"""

_SET_LIMITS = """
UPDATE tenants SET rate_limit_per_s = :rate, rate_limit_burst = :burst, max_in_flight = :in_flight
WHERE tenant_id = :t
RETURNING tenant_id, rate_limit_per_s, rate_limit_burst, max_in_flight
"""

_GET_LIMITS = "SELECT tenant_id, rate_limit_per_s, rate_limit_burst, max_in_flight FROM tenants WHERE tenant_id = :t"


async def limits_by_key_hash(conn: Conn, key_hash: str) -> Row | None:
    """``tenant_id`` and its stored limits for a live key (a system connection), or None."""
    return await fetch_one(conn, _LIMITS_BY_KEY_HASH, {"h": key_hash})


async def tenant_limits(conn: Conn, tenant_id: uuid.UUID) -> Row | None:
    """A tenant's stored limits (None when there is no such tenant)."""
    return await fetch_one(conn, _GET_LIMITS, {"t": tenant_id})


async def set_tenant_limits(
    conn: Conn, tenant_id: uuid.UUID, *, rate_per_s: float | None, burst: int | None, max_in_flight: int | None
) -> Row | None:
    """Store a tenant's limits (None = the server's default); the row, or None when there is no such tenant."""
    params = {"t": tenant_id, "rate": rate_per_s, "burst": burst, "in_flight": max_in_flight}
    return await fetch_one(conn, _SET_LIMITS, params)
