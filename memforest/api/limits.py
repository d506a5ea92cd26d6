"""Per-tenant request-rate and in-flight limits (ADR 0019): an ASGI middleware answering 429
problem+json with ``Retry-After`` before the request reaches a route, and the admin endpoints that
set a tenant's limits (``/v1/admin/tenants/{tenant_id}/limits``)."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from fastapi import APIRouter, FastAPI, Request

from memforest.api.auth import Admin
from memforest.api.openapi import ERRORS
from memforest.app import limits
from memforest.app.auth import bearer_token
from memforest.app.problems import ASGIApp, Receive, Scope, Send, problem_response
from memforest.db.engine import Database
from memforest.errors import AuthenticationError, NotFoundError
from memforest.schemas.limits import LimitsIn, TenantLimits
from memforest.settings import Settings

log = logging.getLogger(__name__)


def _authorization(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            return bytes(value).decode("latin-1")
    return None


class TenantLimitMiddleware:
    """Charge each request with a tenant key to its tenant: one token of its rate bucket and one
    in-flight slot (held until the response is sent, a streamed export included)."""

    def __init__(self, app: ASGIApp, limiter: limits.Limiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        tenant = await self._tenant(scope)
        if tenant is None:  # no tenant key: authentication answers
            await self.app(scope, receive, send)
            return
        tenant_id, tenant_limits = tenant
        refusal = self.limiter.acquire(tenant_id, tenant_limits)
        if refusal is not None:
            headers = {"Retry-After": str(refusal.retry_after_s)}
            await problem_response(429, "too-many-requests", refusal.detail, headers=headers)(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.limiter.release(tenant_id)

    async def _tenant(self, scope: Scope) -> tuple[uuid.UUID, limits.TenantLimits] | None:
        header = _authorization(scope)
        app = scope.get("app")
        db: Database | None = getattr(getattr(app, "state", None), "db", None)
        if header is None or db is None:
            return None
        try:
            return await self.limiter.tenant_of(db, bearer_token(header))
        except AuthenticationError:
            return None
        except Exception:  # the database is down: authentication will answer for it
            log.warning("limits: could not look up the caller's tenant", exc_info=True)
            return None


router = APIRouter(prefix="/v1/admin", tags=["admin"])


def _tenant_id(value: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise NotFoundError(f"no tenant {value}") from None


@router.get("/tenants/{tenant_id}/limits", response_model=TenantLimits, responses=ERRORS)
async def get_tenant_limits(tenant_id: str, request: Request, _: Admin) -> dict[str, Any]:
    """A tenant's fairness limits: its overrides (null = the server's default) and those in force."""
    settings: Settings = request.app.state.settings
    return await limits.get_limits(request.app.state.db, settings.limits, _tenant_id(tenant_id))


@router.put("/tenants/{tenant_id}/limits", response_model=TenantLimits, responses=ERRORS)
async def put_tenant_limits(tenant_id: str, body: LimitsIn, request: Request, _: Admin) -> dict[str, Any]:
    """Set a tenant's request rate, burst and concurrent requests (null = the default, 0 = none)."""
    settings: Settings = request.app.state.settings
    tid = _tenant_id(tenant_id)
    view = await limits.set_limits(
        request.app.state.db, settings.limits, tid,
        rate_per_s=body.rate_per_s, burst=body.burst, max_in_flight=body.max_in_flight,
    )  # fmt: skip
    request.app.state.limiter.forget(tid)
    return view


def install_limits(app: FastAPI, settings: Settings) -> limits.Limiter:
    """The per-tenant limit middleware (inside the telemetry middleware, so 429s are counted) and
    the admin limit endpoints."""
    limiter = limits.Limiter(settings.limits)
    app.state.limiter = limiter
    app.add_middleware(TenantLimitMiddleware, limiter=limiter)
    app.include_router(router)
    return limiter
