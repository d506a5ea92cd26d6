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
from memforest.app.auth import KeyCheck, bearer_token, could_be_tenant_key, hash_key, is_admin_key
from memforest.app.key_checks import KeyChecks
from memforest.app.problems import ASGIApp, Receive, Scope, Send, problem_response
from memforest.db.engine import Database
from memforest.db.lock_wait import TENANT_LOCK_TIMEOUT_MS
from memforest.errors import AuthenticationError, NotFoundError
from memforest.schemas.limits import LimitsIn, TenantLimits
from memforest.settings import Settings

log = logging.getLogger(__name__)


def _authorization(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            return bytes(value).decode("latin-1")
    return None


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else ""


def _state(scope: Scope) -> dict[str, Any]:
    state: dict[str, Any] = scope.setdefault("state", {})
    return state


class TenantLimitMiddleware:
    """Charge each request with a tenant key to its tenant: one token of its rate bucket and one
    in-flight slot (held until the response is sent, a streamed export included). A request with
    any other bearer key (unknown, revoked, malformed; not the admin key) is charged to its client
    address instead, before its key is looked up (``memforest.app.key_checks``). A key looked up here
    is handed to authentication (``request.state.key_check``): one lookup per request. The
    request's tenant transactions wait at most ``lock_timeout_ms`` for a lock (0: the server's
    lock_timeout)."""

    def __init__(
        self, app: ASGIApp, limiter: limits.Limiter, checks: KeyChecks | None = None, lock_timeout_ms: int = 0
    ) -> None:
        self.app = app
        self.limiter = limiter
        self.checks = checks if checks is not None else KeyChecks(limiter.defaults)
        self.lock_timeout_ms = lock_timeout_ms or None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lock_timeout = TENANT_LOCK_TIMEOUT_MS.set(self.lock_timeout_ms)
        try:
            await self._limited(scope, receive, send)
        finally:
            TENANT_LOCK_TIMEOUT_MS.reset(lock_timeout)

    async def _limited(self, scope: Scope, receive: Receive, send: Send) -> None:
        charged = await self._charge(scope)
        if isinstance(charged, limits.Refusal):
            await self._refuse(charged, scope, receive, send)
            return
        if charged is None:  # no tenant key: authentication answers
            await self.app(scope, receive, send)
            return
        tenant_id, tenant_limits = charged
        refusal = self.limiter.acquire(tenant_id, tenant_limits)
        if refusal is not None:
            await self._refuse(refusal, scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.limiter.release(tenant_id)

    @staticmethod
    async def _refuse(refusal: limits.Refusal, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {"Retry-After": str(refusal.retry_after_s)}
        await problem_response(429, "too-many-requests", refusal.detail, headers=headers)(scope, receive, send)

    async def _charge(self, scope: Scope) -> tuple[uuid.UUID, limits.TenantLimits] | limits.Refusal | None:
        """The tenant (and limits) to charge the request to; a refusal of its client address; or
        None: no key, or one for authentication alone to answer (the admin key, the database down)."""
        header = _authorization(scope)
        state = getattr(scope.get("app"), "state", None)
        db: Database | None = getattr(state, "db", None)
        admin_key = getattr(state, "admin_key", None)
        if header is None or db is None:
            return None
        client = _client(scope)
        try:
            token = bearer_token(header)
        except AuthenticationError:
            return self.checks.charge_client(client)
        if isinstance(admin_key, str) and admin_key and is_admin_key(token, admin_key):
            return None
        if not could_be_tenant_key(token):
            return self.checks.charge_client(client)
        key_hash = hash_key(token)
        if self.checks.is_unknown(key_hash):
            _state(scope)["key_check"] = KeyCheck(key_hash, None)
            return self.checks.charge_client(client)
        cached = self.limiter.cached(key_hash)
        if cached is not None:
            return cached
        refusal = None if self.checks.was_valid(key_hash) else self.checks.charge_client(client, take=False)
        if refusal is not None:  # before any database work
            return refusal
        try:
            check, tenant_limits = await self.checks.look_up(db, key_hash)
        except Exception:  # the database is down: authentication will answer for it
            log.warning("limits: could not look up the caller's tenant", exc_info=True)
            return None
        _state(scope)["key_check"] = check
        tenant_id = check.principal.tenant_id if check.principal is not None else None
        if tenant_id is None or tenant_limits is None:
            return self.checks.charge_client(client)
        self.limiter.remember(key_hash, tenant_id, tenant_limits)
        return tenant_id, tenant_limits


router = APIRouter(prefix="/v1/admin", tags=["admin"])


def tenant_path_id(value: str) -> uuid.UUID:
    """The tenant id of an admin path (404 naming it when it is not a UUID)."""
    try:
        return uuid.UUID(value)
    except ValueError:
        raise NotFoundError(f"no tenant {value}") from None


@router.get("/tenants/{tenant_id}/limits", response_model=TenantLimits, responses=ERRORS)
async def get_tenant_limits(tenant_id: str, request: Request, _: Admin) -> dict[str, Any]:
    """A tenant's fairness limits: its overrides (null = the server's default) and those in force."""
    settings: Settings = request.app.state.settings
    return await limits.get_limits(request.app.state.db, settings.limits, tenant_path_id(tenant_id))


@router.put("/tenants/{tenant_id}/limits", response_model=TenantLimits, responses=ERRORS)
async def put_tenant_limits(tenant_id: str, body: LimitsIn, request: Request, _: Admin) -> dict[str, Any]:
    """Set a tenant's request rate, burst and concurrent requests (null = the default, 0 = none)."""
    settings: Settings = request.app.state.settings
    tid = tenant_path_id(tenant_id)
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
    checks = KeyChecks(settings.limits)
    app.state.key_checks = checks
    lock_timeout_ms = settings.database.request_lock_timeout_ms
    app.add_middleware(TenantLimitMiddleware, limiter=limiter, checks=checks, lock_timeout_ms=lock_timeout_ms)
    app.include_router(router)
    return limiter
