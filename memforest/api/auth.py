"""Bearer-key dependencies of the endpoints: who calls (``app.auth``) and which scope it holds."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request

from memforest.app import auth
from memforest.app.auth import Principal
from memforest.db.engine import Database
from memforest.errors import PermissionDeniedError


async def authenticate(request: Request) -> Principal:
    """The caller, from its bearer key; 401 for missing, malformed, unknown or revoked keys."""
    db: Database = request.app.state.db
    admin_key: str = request.app.state.admin_key
    checked = auth.key_check_of(request.scope)  # the limit middleware's lookup of this request's key
    return await auth.authenticate(db, admin_key, request.headers.get("authorization"), checked=checked)


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
