"""The admin endpoints of a tenant's quotas (``/v1/admin/tenants/{tenant_id}/quotas``): caps on its
queued jobs, stored facts, forests and large forests (``memforest.app.quotas``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from memforest.api.auth import Admin
from memforest.api.limits import tenant_path_id
from memforest.api.openapi import ERRORS
from memforest.app import quotas
from memforest.schemas.limits import QuotasIn, TenantQuotas
from memforest.settings import Settings

router = APIRouter(prefix="/v1/admin", tags=["admin"])


@router.get("/tenants/{tenant_id}/quotas", response_model=TenantQuotas, responses=ERRORS)
async def get_tenant_quotas(tenant_id: str, request: Request, _: Admin) -> dict[str, Any]:
    """A tenant's quotas: its overrides (null = the server's default) and those in force."""
    settings: Settings = request.app.state.settings
    return await quotas.get_quotas(request.app.state.db, settings.limits, tenant_path_id(tenant_id))


@router.put("/tenants/{tenant_id}/quotas", response_model=TenantQuotas, responses=ERRORS)
async def put_tenant_quotas(tenant_id: str, body: QuotasIn, request: Request, _: Admin) -> dict[str, Any]:
    """Set a tenant's caps on queued jobs, stored facts, forests and large forests (null = the
    default, 0 = no cap)."""
    settings: Settings = request.app.state.settings
    return await quotas.set_quotas(request.app.state.db, settings.limits, tenant_path_id(tenant_id), body.model_dump())
