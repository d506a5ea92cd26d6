"""Tenants, API keys, operations (``/healthz``, ``/readyz``) and the problem+json error body."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from memforest.schemas.base import Record, Timestamp, WireModel


class Tenant(WireModel):
    """A tenant. ``POST /v1/tenants`` answers ``id`` and ``name`` only; the listing adds ``created_at``."""

    id: str
    name: str
    created_at: Timestamp | None = Field(default=None, description="Absent in the answer to POST /v1/tenants.")


class TenantDeleted(WireModel):
    """What ``DELETE /v1/tenants/{tenant_id}`` removed: rows deleted per table."""

    id: str
    deleted: dict[str, int]


class ApiKey(WireModel):
    """A tenant API key.

    ``POST .../keys`` answers ``id``, ``key`` (the secret, shown only there) and ``scopes``; the listing
    answers ``id``, ``prefix``, ``scopes``, ``created_at`` and ``revoked_at``.
    """

    id: str
    key: str | None = Field(default=None, description="The secret; only in the answer to POST .../keys.")
    prefix: str | None = Field(default=None, description="The key's first characters; only in the listing.")
    scopes: tuple[str, ...]
    created_at: Timestamp | None = Field(default=None, description="Only in the listing.")
    revoked_at: Timestamp | None = Field(default=None, description="Only in the listing; null while valid.")

    @property
    def revoked(self) -> bool:
        """Whether the key was revoked."""
        return self.revoked_at is not None


class Health(WireModel):
    """``GET /healthz``."""

    status: str


class Readiness(WireModel):
    """``GET /readyz`` (200): ``checks`` per dependency (database, migrations, models, backends)."""

    status: str
    checks: dict[str, Any]


class Problem(Record):
    """An error answer (``application/problem+json``, RFC 9457)."""

    type: str
    title: str
    status: int
    detail: str
    location: str | None = Field(default=None, description="The offending field or parameter, when known.")
    errors: list[dict[str, Any]] | None = Field(default=None, description="Request validation errors (422).")
    checks: dict[str, Any] | None = Field(default=None, description="Readiness checks (503 from /readyz).")
