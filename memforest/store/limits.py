"""A tenant's fairness limits (ADR 0019) and quotas: the overrides stored on ``tenants`` (NULL = the
default), and the bounded counts the quotas are checked against."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from memforest.settings import LimitSettings
from memforest.store.forest_indexes import FOREST_INDEXES
from memforest.store.sql import Conn, Row, fetch_one, scalar

FOREST_INDEX_PREFIXES = tuple(spec.prefix for spec in FOREST_INDEXES)

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


# ---------------------------------------------------------------- quotas (migration 0024)

_QUOTA_COLUMNS = ("max_queued_jobs", "max_facts", "max_forests", "max_large_forests")
_GET_QUOTAS = f"SELECT tenant_id, {', '.join(_QUOTA_COLUMNS)} FROM tenants WHERE tenant_id = :t"
_SET_QUOTAS = f"""
UPDATE tenants SET max_queued_jobs = :max_queued_jobs, max_facts = :max_facts, max_forests = :max_forests,
    max_large_forests = :max_large_forests
WHERE tenant_id = :t RETURNING tenant_id, {", ".join(_QUOTA_COLUMNS)}
"""
# Each count reads at most :n rows (the cap): past it, the exact number does not matter.
_QUEUED_JOBS = "SELECT count(*) FROM (SELECT 1 FROM jobs WHERE tenant_id = :t AND state = 'queued' LIMIT :n) s"
_FACTS = "SELECT count(*) FROM (SELECT 1 FROM facts WHERE tenant_id = :t LIMIT :n) s"
_FORESTS = "SELECT count(*) FROM (SELECT 1 FROM forests WHERE tenant_id = :t AND name NOT LIKE '~staging:%' LIMIT :n) s"
_FOREST_ID = "SELECT forest_id FROM forests WHERE tenant_id = :t AND name = :name"
# forests with any index of their own (built, being built or left invalid: each costs planning)
_LARGE_FORESTS = (
    "SELECT count(*) FROM forests f WHERE f.tenant_id = :t AND EXISTS "
    "(SELECT 1 FROM unnest(CAST(:prefixes AS text[])) AS p(prefix) "
    "WHERE to_regclass(p.prefix || f.forest_id) IS NOT NULL)"
)
_HAS_OWN_INDEX = (
    "SELECT EXISTS (SELECT 1 FROM unnest(CAST(:prefixes AS text[])) AS p(prefix) "
    "WHERE to_regclass(p.prefix || CAST(:f AS bigint)) IS NOT NULL)"
)


@dataclass(frozen=True, slots=True)
class Quotas:
    """The caps in force for one tenant (its own columns over the defaults); 0 = no cap."""

    max_queued_jobs: int
    max_facts: int
    max_forests: int
    max_large_forests: int


def effective_quotas(row: Row | None, defaults: LimitSettings) -> Quotas:
    """A tenant's stored quota overrides (None: none) over the defaults."""
    picked = {c: getattr(defaults, c) if row is None or row[c] is None else row[c] for c in _QUOTA_COLUMNS}
    return Quotas(**{c: int(v) for c, v in picked.items()})


async def tenant_quotas_row(conn: Conn, tenant_id: uuid.UUID) -> Row | None:
    """A tenant's stored quota overrides (None when there is no such tenant, or none visible)."""
    return await fetch_one(conn, _GET_QUOTAS, {"t": tenant_id})


async def tenant_quotas(conn: Conn, tenant_id: uuid.UUID, defaults: LimitSettings) -> Quotas:
    """The quotas in force for the tenant (a tenant or system connection)."""
    return effective_quotas(await tenant_quotas_row(conn, tenant_id), defaults)


async def set_tenant_quotas(conn: Conn, tenant_id: uuid.UUID, values: dict[str, int | None]) -> Row | None:
    """Store a tenant's quota overrides (each None = the default; a system connection); the row, or
    None when there is no such tenant."""
    return await fetch_one(conn, _SET_QUOTAS, {"t": tenant_id, **{c: values.get(c) for c in _QUOTA_COLUMNS}})


async def queued_jobs(conn: Conn, tenant_id: uuid.UUID, up_to: int) -> int:
    """The tenant's queued jobs, counted up to ``up_to``."""
    return int(await scalar(conn, _QUEUED_JOBS, {"t": tenant_id, "n": up_to}) or 0)


async def stored_facts(conn: Conn, tenant_id: uuid.UUID, up_to: int) -> int:
    """The tenant's facts (all forests), counted up to ``up_to``."""
    return int(await scalar(conn, _FACTS, {"t": tenant_id, "n": up_to}) or 0)


async def forest_count(conn: Conn, tenant_id: uuid.UUID, up_to: int) -> int:
    """The tenant's forests (an import's hidden staging forests left out), counted up to ``up_to``."""
    return int(await scalar(conn, _FORESTS, {"t": tenant_id, "n": up_to}) or 0)


async def forest_id(conn: Conn, tenant_id: uuid.UUID, name: str) -> int | None:
    """The id of the tenant's forest ``name``, or None."""
    value = await scalar(conn, _FOREST_ID, {"t": tenant_id, "name": name})
    return None if value is None else int(value)


async def large_forests(conn: Conn, tenant_id: uuid.UUID) -> int:
    """How many of the tenant's forests have indexes of their own (ADR 0024)."""
    return int(await scalar(conn, _LARGE_FORESTS, {"t": tenant_id, "prefixes": list(FOREST_INDEX_PREFIXES)}) or 0)


async def has_own_index(conn: Conn, forest_id: int) -> bool:
    """Whether the forest has any index of its own."""
    return bool(await scalar(conn, _HAS_OWN_INDEX, {"f": forest_id, "prefixes": list(FOREST_INDEX_PREFIXES)}))
