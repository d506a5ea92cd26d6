"""Merge, export and import over HTTP (ADR 0008).

- ``POST /v1/forests/{forest}/merge`` ``{"from": "A"}``: merge forest A of the caller's tenant into
  ``forest`` (write scope) as a ``merge`` job. The tenant comes from the key only: a body naming
  ``from_tenant`` is refused with 403 and nothing is queued.
- ``POST /v1/admin/merge`` (admin key): the cross-tenant merge (a migration between tenants).
- ``GET /v1/admin/tenants/{tenant_id}/jobs/{job_id}`` (admin key): poll a job the admin queued.
- ``GET /v1/forests/{forest}/export?with_derived=`` (read scope): the JSON Lines export, streamed.
- ``POST /v1/forests/{forest}/import`` (write scope, the JSON Lines file as the body, under the
  body-size limit): validated in full first (422 naming the line, nothing written), then loaded into a
  hidden staging forest in one transaction together with an ``import`` job that merges it into
  ``forest`` (created when missing); 202 with the job id.
"""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Request, status
from fastapi.responses import StreamingResponse

from memforest.api.auth import Admin, Reader, Writer
from memforest.api.openapi import ERRORS, NdjsonResponse, problems
from memforest.db.engine import Database
from memforest.errors import InputError, NotFoundError, PermissionDeniedError
from memforest.lifecycle.export import export_lines
from memforest.lifecycle.importer import load_staging, parse_export
from memforest.pipeline import jobs
from memforest.schemas import AdminMergeAccepted, AdminMergeIn, ImportAccepted, Job, MergeAccepted, MergeIn
from memforest.settings import Settings
from memforest.store.sql import scalar
from memforest.store.tenants import ensure_forest, get_forest

router = APIRouter(prefix="/v1", tags=["lifecycle"])

NDJSON = "application/x-ndjson"


def _db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def _name(value: str) -> str:
    if "\x00" in value:
        raise NotFoundError(f"no forest named {value!r}")
    return value


@router.post(
    "/forests/{forest}/merge", status_code=status.HTTP_202_ACCEPTED, response_model=MergeAccepted, responses=ERRORS
)
async def post_merge(forest: str, body: MergeIn, request: Request, caller: Writer) -> dict[str, Any]:
    """Queue a merge of forest ``from`` into ``forest`` (both of the caller's tenant; no extraction)."""
    if body.from_tenant is not None:
        raise PermissionDeniedError("a tenant key merges within its own tenant; cross-tenant merges need the admin key")
    async with _db(request).tenant(caller.tenant_id) as conn:
        dst = await get_forest(conn, caller.tenant_id, _name(forest))
        src = await get_forest(conn, caller.tenant_id, _name(body.from_))
        if src.forest_id == dst.forest_id:
            raise InputError("cannot merge a forest into itself", location="from")
        payload = {"src_tenant": str(caller.tenant_id), "src_forest": src.name, "dst_forest": dst.name}
        job_id = await jobs.enqueue(conn, caller.tenant_id, dst.forest_id, "merge", payload)
    return {"job_id": str(job_id), "kind": "merge", "from": src.name, "forest": dst.name}


async def _tenant_exists(db: Database, tenant_id: uuid.UUID, field: str) -> None:
    async with db.system() as conn:
        if await scalar(conn, "SELECT 1 FROM tenants WHERE tenant_id = :t", {"t": tenant_id}) is None:
            raise NotFoundError(f"no tenant {tenant_id} ({field})")


@router.post(
    "/admin/merge",
    status_code=status.HTTP_202_ACCEPTED,
    tags=["admin"],
    response_model=AdminMergeAccepted,
    responses=ERRORS,
)
async def post_admin_merge(body: AdminMergeIn, request: Request, _: Admin) -> dict[str, Any]:
    """Queue a merge of a forest of one tenant into a forest of another (created when missing)."""
    db = _db(request)
    await _tenant_exists(db, body.from_tenant, "from_tenant")
    await _tenant_exists(db, body.into_tenant, "into_tenant")
    async with db.tenant(body.from_tenant) as conn:
        src = await get_forest(conn, body.from_tenant, _name(body.from_forest))
    async with db.tenant(body.into_tenant) as conn:
        dst = await ensure_forest(conn, body.into_tenant, _name(body.into_forest))
        if body.from_tenant == body.into_tenant and src.forest_id == dst.forest_id:
            raise InputError("cannot merge a forest into itself", location="into_forest")
        payload = {"src_tenant": str(body.from_tenant), "src_forest": src.name, "dst_forest": dst.name}
        job_id = await jobs.enqueue(conn, body.into_tenant, dst.forest_id, "merge", payload)
    return {"job_id": str(job_id), "kind": "merge", "tenant": str(body.into_tenant), "forest": dst.name}


@router.get(
    "/admin/tenants/{tenant_id}/jobs/{job_id}",
    tags=["admin"],
    response_model=Job,
    response_model_exclude_unset=True,
    responses=ERRORS,
)
async def get_admin_job(tenant_id: str, job_id: str, request: Request, _: Admin) -> dict[str, Any]:
    """A job of any tenant (the admin polls the merges it queued)."""
    try:
        tid, jid = uuid.UUID(tenant_id), uuid.UUID(job_id)
    except ValueError:
        raise NotFoundError("no such job") from None
    async with _db(request).tenant(tid) as conn:
        row = await jobs.get_job(conn, tid, jid)
    if row is None:
        raise NotFoundError("no such job")
    keys = ("kind", "state", "attempts", "progress", "result", "usage", "errors")
    return {"job_id": str(row["job_id"]), **{k: row[k] for k in keys}}


@router.get(
    "/forests/{forest}/export",
    response_model=None,
    response_class=NdjsonResponse,
    responses=ERRORS,
)
async def get_export(forest: str, request: Request, caller: Reader, with_derived: bool = False) -> StreamingResponse:
    """The forest as versioned JSON Lines (header line, then one record per line), streamed."""
    db = _db(request)
    settings: Settings = request.app.state.settings
    async with db.tenant(caller.tenant_id) as conn:
        f = await get_forest(conn, caller.tenant_id, _name(forest))  # 404 before streaming starts
    lines = export_lines(db, settings, caller.tenant_id, f.name, with_derived=with_derived)
    filename = "".join(c if c.isalnum() or c in "-_." else "_" for c in f.name) or "forest"
    return StreamingResponse(
        lines, media_type=NDJSON, headers={"Content-Disposition": f'attachment; filename="{filename}.jsonl"'}
    )


@router.post(
    "/forests/{forest}/import",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=ImportAccepted,
    responses=ERRORS | problems(413),
)
async def post_import(forest: str, request: Request, caller: Writer) -> dict[str, Any]:
    """Import an export (the request body) into ``forest`` through the merge path, as an ``import`` job."""
    settings: Settings = request.app.state.settings
    name = _name(forest)
    body = await request.body()  # the body-size limit applies (413)
    parsed = parse_export(body.split(b"\n"), source="body")
    staging = await load_staging(_db(request), settings, caller.tenant_id, parsed, name, enqueue_job=True)
    return {
        "job_id": str(staging.job_id),
        "kind": "import",
        "forest": staging.dst_forest,
        "records": parsed.counts,
        "derived": "reused" if staging.reused_vectors else "rebuilt",
    }
