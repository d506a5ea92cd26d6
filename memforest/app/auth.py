"""Who is calling: the admin key from settings, or a hashed, scoped, revocable tenant key.

Shared by every adapter that authenticates (the HTTP API and the MCP endpoint on it)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database
from memforest.errors import AuthenticationError, ConfigurationError, InputError
from memforest.logs import bind
from memforest.settings import Settings
from memforest.store.sql import Conn
from memforest.store.tenants import key_by_hash

KEY_PREFIX = "mf_"
SCOPES = ("read", "write", "admin")
MIN_ADMIN_KEY_CHARS = 24
MIN_ADMIN_KEY_DISTINCT = 10
MAX_KEY_CHARS = 200
_CLASSES = (string.ascii_lowercase, string.ascii_uppercase, string.digits)


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


def local_principal(tenant_id: uuid.UUID) -> Principal:
    """The local tenant with every scope (the stdio MCP server, the CLI)."""
    return Principal(tenant_id=tenant_id, scopes=frozenset(SCOPES))


def check_admin_key(settings: Settings) -> str:
    """The admin key, or ConfigurationError when it is missing or trivially weak."""
    secret = settings.admin_key
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


def validate_scopes(scopes: list[str]) -> list[str]:
    """Known, non-empty, de-duplicated scopes in canonical order."""
    bad = sorted(set(scopes) - set(SCOPES))
    if bad or not scopes:
        raise InputError(f"scopes must be a non-empty subset of {', '.join(SCOPES)}", location="scopes")
    return [s for s in SCOPES if s in scopes]


def bearer_token(header: str | None) -> str:
    """The key of an ``Authorization: Bearer <key>`` header; AuthenticationError when missing or malformed."""
    if not header:
        raise AuthenticationError("missing Authorization: Bearer <key> header")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or " " in token:
        raise AuthenticationError("malformed Authorization header; expected 'Bearer <key>'")
    return token


def is_admin_key(token: str, admin_key: str) -> bool:
    """Whether ``token`` is the server's admin key (compared in constant time)."""
    return hmac.compare_digest(token.encode("utf-8"), admin_key.encode("utf-8"))


def could_be_tenant_key(token: str) -> bool:
    """Whether ``token`` has a tenant key's shape (anything else is refused without a lookup)."""
    return token.startswith(KEY_PREFIX) and len(token) <= MAX_KEY_CHARS


@dataclass(frozen=True, slots=True)
class KeyCheck:
    """A tenant key looked up earlier in the same request (by the limiter, before the body is
    read), for authentication to reuse: one key lookup per request. ``principal`` None: the key is
    unknown or revoked."""

    key_hash: str
    principal: Principal | None


#: where a request's :class:`KeyCheck` travels: this key of the ASGI scope's ``state`` (which is
#: ``request.state`` in Starlette), set by the limit middleware when it looked the key up
KEY_CHECK_STATE = "key_check"


def key_check_of(scope: Mapping[str, Any]) -> KeyCheck | None:
    """The key lookup made earlier in the request of this ASGI ``scope`` (None when none was made)."""
    state = scope.get("state")
    checked = state.get(KEY_CHECK_STATE) if isinstance(state, Mapping) else None
    return checked if isinstance(checked, KeyCheck) else None


async def lookup_key(conn: Conn, key_hash: str) -> Principal | None:
    """The principal of the live tenant key stored under ``key_hash`` (a system connection), or
    None for an unknown or revoked key."""
    key = await key_by_hash(conn, key_hash)
    if key is None or key.revoked_at is not None:
        return None
    return Principal(tenant_id=key.tenant_id, scopes=frozenset(key.scopes), key_id=key.key_id)


@retry_if_cut
async def authenticate(
    db: Database, admin_key: str, authorization: str | None, *, checked: KeyCheck | None = None
) -> Principal:
    """The caller of an ``Authorization`` header; AuthenticationError (401) for missing, malformed,
    unknown or revoked keys. ``checked``: this request's own lookup of the same key, used instead of
    looking it up again. A tenant key binds its tenant to the log context of the request."""
    token = bearer_token(authorization)
    if is_admin_key(token, admin_key):
        return Principal(tenant_id=None, scopes=frozenset(SCOPES), is_admin=True)
    if not could_be_tenant_key(token):
        raise AuthenticationError("invalid API key")
    key_hash = hash_key(token)
    if checked is not None and checked.key_hash == key_hash:
        principal = checked.principal
    else:
        async with db.system() as conn:
            principal = await lookup_key(conn, key_hash)
    if principal is None:
        raise AuthenticationError("invalid or revoked API key")
    bind(tenant_id=principal.tenant_id)  # log context: the access line and any log of this request carry it
    return principal
