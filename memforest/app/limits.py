"""Per-tenant fairness on the request path (ADR 0019): a token bucket for the request rate and a
count of requests in flight, per tenant, in this process.

A request is charged to the tenant of its bearer key (admin, unknown and missing keys are left to
authentication and to the client address's bucket, ``memforest.app.key_checks``). The key -> tenant
lookup (with the tenant's limits: its own columns, else the settings' defaults) is cached for
``key_cache_s``, so a limited request costs no database work."""

from __future__ import annotations

import math
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database
from memforest.errors import NotFoundError
from memforest.settings import LimitSettings
from memforest.store import limits as store
from memforest.store.sql import Row

#: how many cached key lookups a process keeps at most (the oldest go first)
MAX_CACHED_KEYS = 10_000


@dataclass(frozen=True, slots=True)
class TenantLimits:
    """The limits in force for one tenant: 0 switches a limit off."""

    rate_per_s: float
    burst: int
    max_in_flight: int


def effective_limits(row: Row, defaults: LimitSettings) -> TenantLimits:
    """A tenant's stored overrides over the defaults."""
    rate, burst, in_flight = row["rate_limit_per_s"], row["rate_limit_burst"], row["max_in_flight"]
    return TenantLimits(
        rate_per_s=float(defaults.rate_per_s if rate is None else rate),
        burst=int(defaults.burst if burst is None else burst),
        max_in_flight=int(defaults.max_in_flight if in_flight is None else in_flight),
    )


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float
    in_flight: int = 0


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request was refused (429) and when to try again."""

    detail: str
    retry_after_s: int


@dataclass(slots=True)
class Limiter:
    """The per-tenant buckets and in-flight counts of one process."""

    defaults: LimitSettings
    clock: Any = time.monotonic
    _buckets: dict[uuid.UUID, _Bucket] = field(default_factory=dict)
    _keys: dict[str, tuple[float, uuid.UUID, TenantLimits]] = field(default_factory=dict)

    def cached(self, key_hash: str) -> tuple[uuid.UUID, TenantLimits] | None:
        """The tenant of a key and its limits from the cache (no database work), or None."""
        hit = self._keys.get(key_hash)
        if hit is None or hit[0] <= self.clock():
            return None
        return hit[1], hit[2]

    def remember(self, key_hash: str, tenant_id: uuid.UUID, limits: TenantLimits) -> None:
        """Cache a key's tenant and limits, looked up elsewhere, for ``key_cache_s``."""
        if key_hash not in self._keys and len(self._keys) >= MAX_CACHED_KEYS:
            self._keys.pop(next(iter(self._keys)))
        self._keys[key_hash] = (self.clock() + self.defaults.key_cache_s, tenant_id, limits)

    def acquire(self, tenant_id: uuid.UUID, limits: TenantLimits) -> Refusal | None:
        """Take one request token and one in-flight slot of the tenant (release it with
        :meth:`release`), or say why not."""
        now = self.clock()
        capacity = float(max(limits.burst, 1))
        bucket = self._buckets.get(tenant_id)
        if bucket is None:
            bucket = self._buckets[tenant_id] = _Bucket(tokens=capacity, stamp=now)
        bucket.tokens = min(capacity, bucket.tokens + (now - bucket.stamp) * limits.rate_per_s)
        bucket.stamp = now
        if limits.max_in_flight and bucket.in_flight >= limits.max_in_flight:
            return Refusal(f"too many concurrent requests for this tenant (limit {limits.max_in_flight})", 1)
        if limits.rate_per_s:
            if bucket.tokens < 1.0:
                wait = math.ceil((1.0 - bucket.tokens) / limits.rate_per_s)
                return Refusal(f"request rate limit of this tenant exceeded ({limits.rate_per_s:g}/s)", max(1, wait))
            bucket.tokens -= 1.0
        bucket.in_flight += 1
        return None

    def release(self, tenant_id: uuid.UUID) -> None:
        """Give back the in-flight slot of a finished request."""
        bucket = self._buckets.get(tenant_id)
        if bucket is not None and bucket.in_flight > 0:
            bucket.in_flight -= 1

    def forget(self, tenant_id: uuid.UUID) -> None:
        """Drop cached lookups of a tenant's keys (its limits changed)."""
        for digest in [d for d, (_, t, _) in self._keys.items() if t == tenant_id]:
            del self._keys[digest]


def _view(row: Row, defaults: LimitSettings) -> dict[str, Any]:
    eff = effective_limits(row, defaults)
    return {
        "tenant": str(row["tenant_id"]),
        "rate_per_s": row["rate_limit_per_s"],
        "burst": row["rate_limit_burst"],
        "max_in_flight": row["max_in_flight"],
        "effective": {"rate_per_s": eff.rate_per_s, "burst": eff.burst, "max_in_flight": eff.max_in_flight},
    }


async def set_limits(
    db: Database,
    defaults: LimitSettings,
    tenant_id: uuid.UUID,
    *,
    rate_per_s: float | None,
    burst: int | None,
    max_in_flight: int | None,
) -> dict[str, Any]:
    """Store a tenant's overrides (None = the default) and return them with the limits in force."""
    async with db.system() as conn:
        row = await store.set_tenant_limits(
            conn, tenant_id, rate_per_s=rate_per_s, burst=burst, max_in_flight=max_in_flight
        )
    if row is None:
        raise NotFoundError(f"no tenant {tenant_id}")
    return _view(row, defaults)


@retry_if_cut
async def get_limits(db: Database, defaults: LimitSettings, tenant_id: uuid.UUID) -> dict[str, Any]:
    """A tenant's overrides and the limits in force."""
    async with db.system() as conn:
        row = await store.tenant_limits(conn, tenant_id)
    if row is None:
        raise NotFoundError(f"no tenant {tenant_id}")
    return _view(row, defaults)
