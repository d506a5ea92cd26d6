"""A tenant's fairness limits (``/v1/admin/tenants/{tenant_id}/limits``, ADR 0019) and quotas
(``/v1/admin/tenants/{tenant_id}/quotas``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from memforest.schemas.base import WireModel


class LimitsIn(BaseModel):
    """``PUT /v1/admin/tenants/{tenant_id}/limits``: a field left out or null is the server's default; 0 = no limit."""

    model_config = ConfigDict(extra="forbid")

    rate_per_s: float | None = Field(default=None, ge=0, le=1_000_000)
    burst: int | None = Field(default=None, ge=0, le=1_000_000)
    max_in_flight: int | None = Field(default=None, ge=0, le=100_000)


class EffectiveLimits(WireModel):
    """The limits in force (0 = none)."""

    rate_per_s: float
    burst: int
    max_in_flight: int


class TenantLimits(WireModel):
    """A tenant's stored overrides (null = the server's default) and the limits in force."""

    tenant: str
    rate_per_s: float | None = None
    burst: int | None = None
    max_in_flight: int | None = None
    effective: EffectiveLimits


class QuotasIn(BaseModel):
    """``PUT /v1/admin/tenants/{tenant_id}/quotas``: a field left out or null is the server's default; 0 = no cap."""

    model_config = ConfigDict(extra="forbid")

    max_queued_jobs: int | None = Field(default=None, ge=0, le=2_000_000_000)
    max_facts: int | None = Field(default=None, ge=0, le=9_000_000_000_000_000_000)
    max_forests: int | None = Field(default=None, ge=0, le=2_000_000_000)
    max_large_forests: int | None = Field(default=None, ge=0, le=2_000_000_000)


class EffectiveQuotas(WireModel):
    """The quotas in force (0 = no cap)."""

    max_queued_jobs: int
    max_facts: int
    max_forests: int
    max_large_forests: int


class TenantQuotas(WireModel):
    """A tenant's stored quota overrides (null = the server's default) and the quotas in force."""

    tenant: str
    max_queued_jobs: int | None = None
    max_facts: int | None = None
    max_forests: int | None = None
    max_large_forests: int | None = None
    effective: EffectiveQuotas
