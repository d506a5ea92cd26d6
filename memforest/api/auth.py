"""Bearer keys: the admin key from settings, and hashed, scoped, revocable tenant keys."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
import uuid
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request

from memforest.db.engine import Database
from memforest.errors import AuthenticationError, ConfigurationError, InputError, NotFoundError, PermissionDeniedError
from memforest.logs import bind
from memforest.settings import Settings
from memforest.store.sql import execute, fetch_all, fetch_one

KEY_PREFIX = "mf_"
SCOPES = ("read", "write", "admin")
MIN_ADMIN_KEY_CHARS = 24
MIN_ADMIN_KEY_DISTINCT = 10
_CLASSES = (string.ascii_lowercase, string.ascii_uppercase, string.digits)


def check_admin_key(settings: Settings) -> str:
    """The admin key, or ConfigurationError when it is missing or trivially weak."""
    secret = settings.effective_admin_key
    key = secret.get_secret_value() if secret is not None else ""
    if not key:
        raise ConfigurationError("MEMFOREST_ADMIN_KEY is not set; the API refuses to start without an admin key")
    classes = sum(1 for cls in _CLASSES if any(c in cls for c in key)) + (1 if any(not c.isalnum() for c in key) else 0)
    if len(key) < MIN_ADMIN_KEY_CHARS or len(set(key)) < MIN_ADMIN_KEY_DISTINCT or classes < 2:
        raise ConfigurationError(
            f"MEMFOREST_ADMIN_KEY is too weak: use at least {MIN_ADMIN_KEY_CHARS} random characters "
            "(e.g. `python -c 'import secrets; print(secrets.token_urlsafe(32))'`)"
        )
    return key


def new_tenant_key() -> str:
    """A fresh random tenant key (shown once)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    """What we store instead of the key."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: the server admin (no tenant) or one tenant's key with its scopes."""

    tenant_id: uuid.UUID | None
    scopes: frozenset[str]
    is_admin: bool = False
    key_id: uuid.UUID | None = None

    def allows(self, scope: str) -> bool:
        """A tenant key's ``admin`` scope implies ``read`` and ``write``."""
        return scope in self.scopes or "admin" in self.scopes


def validate_scopes(scopes: list[str]) -> list[str]:
    """Known, non-empty, de-duplicated scopes in canonical order."""
    bad = sorted(set(scopes) - set(SCOPES))
    if bad or not scopes:
        raise InputError(f"scopes must be a non-empty subset of {', '.join(SCOPES)}", location="scopes")
    return [s for s in SCOPES if s in scopes]


async def create_key(db: Database, tenant_id: uuid.UUID, scopes: list[str]) -> tuple[uuid.UUID, str, list[str]]:
    """Store a new key for the tenant; return (key id, the key itself, scopes)."""
    scopes = validate_scopes(scopes)
    key = new_tenant_key()
    key_id = uuid.uuid4()
    async with db.system() as conn:
        exists = await fetch_one(conn, "SELECT 1 AS x FROM tenants WHERE tenant_id = :t", {"t": tenant_id})
        if exists is None:
            raise NotFoundError("no such tenant")
        await execute(
            conn,
            "INSERT INTO api_keys (tenant_id, key_id, key_hash, key_prefix, scopes) VALUES (:t, :k, :h, :p, :s)",
            {"t": tenant_id, "k": key_id, "h": hash_key(key), "p": key[:10], "s": scopes},
        )
    return key_id, key, scopes


async def list_keys(db: Database, tenant_id: uuid.UUID) -> list[dict[str, Any]]:
    """Keys of a tenant (never the key itself)."""
    async with db.system() as conn:
        exists = await fetch_one(conn, "SELECT 1 AS x FROM tenants WHERE tenant_id = :t", {"t": tenant_id})
        if exists is None:
            raise NotFoundError("no such tenant")
        rows = await fetch_all(
            conn,
            "SELECT key_id, key_prefix, scopes, created_at, revoked_at FROM api_keys WHERE tenant_id = :t "
            "ORDER BY created_at, key_id",
            {"t": tenant_id},
        )
    return [
        {
            "id": str(r["key_id"]),
            "prefix": r["key_prefix"],
            "scopes": list(r["scopes"]),
            "created_at": r["created_at"].isoformat(),
            "revoked_at": r["revoked_at"].isoformat() if r["revoked_at"] else None,
        }
        for r in rows
    ]


async def revoke_key(db: Database, tenant_id: uuid.UUID, key_id: uuid.UUID) -> None:
    """Revoke a key (idempotent); NotFoundError when the tenant has no such key."""
    async with db.system() as conn:
        row = await fetch_one(
            conn, "SELECT revoked_at FROM api_keys WHERE tenant_id = :t AND key_id = :k", {"t": tenant_id, "k": key_id}
        )
        if row is None:
            raise NotFoundError("no such key")
        await execute(
            conn,
            "UPDATE api_keys SET revoked_at = now() WHERE tenant_id = :t AND key_id = :k AND revoked_at IS NULL",
            {"t": tenant_id, "k": key_id},
        )


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization")
    if not header:
        raise AuthenticationError("missing Authorization: Bearer <key> header")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or " " in token:
        raise AuthenticationError("malformed Authorization header; expected 'Bearer <key>'")
    return token


async def authenticate(request: Request) -> Principal:
    """The caller, from its bearer key; 401 for missing, malformed, unknown or revoked keys."""
    token = _bearer(request)
    admin_key: str = request.app.state.admin_key
    if hmac.compare_digest(token.encode("utf-8"), admin_key.encode("utf-8")):
        return Principal(tenant_id=None, scopes=frozenset(SCOPES), is_admin=True)
    if not token.startswith(KEY_PREFIX) or len(token) > 200:
        raise AuthenticationError("invalid API key")
    db: Database = request.app.state.db
    async with db.system() as conn:
        row = await fetch_one(
            conn,
            "SELECT tenant_id, key_id, scopes, revoked_at FROM api_keys WHERE key_hash = :h",
            {"h": hash_key(token)},
        )
    if row is None or row["revoked_at"] is not None:
        raise AuthenticationError("invalid or revoked API key")
    bind(tenant_id=row["tenant_id"])  # log context: the access line and any log of this request carry it
    return Principal(tenant_id=row["tenant_id"], scopes=frozenset(row["scopes"]), key_id=row["key_id"])


AuthPrincipal = Annotated[Principal, Depends(authenticate)]


def require_admin(principal: AuthPrincipal) -> Principal:
    """The server admin key only."""
    if not principal.is_admin:
        raise PermissionDeniedError("this endpoint needs the admin key")
    return principal


@dataclass(frozen=True, slots=True)
class TenantCaller:
    """A tenant key holding the scope an endpoint needs."""

    tenant_id: uuid.UUID
    principal: Principal


def _tenant_scope(scope: str) -> Any:
    def dep(principal: AuthPrincipal) -> TenantCaller:
        if principal.tenant_id is None:
            raise PermissionDeniedError("this endpoint needs a tenant API key")
        if not principal.allows(scope):
            raise PermissionDeniedError(f"this API key lacks the {scope!r} scope")
        return TenantCaller(principal.tenant_id, principal)

    return dep


Reader = Annotated[TenantCaller, Depends(_tenant_scope("read"))]
Writer = Annotated[TenantCaller, Depends(_tenant_scope("write"))]
TenantAdmin = Annotated[TenantCaller, Depends(_tenant_scope("admin"))]
Admin = Annotated[Principal, Depends(require_admin)]
