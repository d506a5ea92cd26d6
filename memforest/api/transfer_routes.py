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

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request, status
from fastapi.responses import StreamingResponse

from memforest.api.auth import Admin, Reader, Writer
from memforest.api.openapi import ERRORS, NdjsonResponse, problems
from memforest.api.paths import SegmentRoute
from memforest.app import transfer
from memforest.app.jobs import admin_job_view
from memforest.db.engine import Database
from memforest.errors import PermissionDeniedError
from memforest.schemas import AdminMergeAccepted, AdminMergeIn, ImportAccepted, Job, MergeAccepted, MergeIn
from memforest.settings import Settings

router = APIRouter(prefix="/v1", tags=["lifecycle"], route_class=SegmentRoute)

NDJSON = "application/x-ndjson"


def _db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


@router.post(
    "/forests/{forest}/merge", status_code=status.HTTP_202_ACCEPTED, response_model=MergeAccepted, responses=ERRORS
)
async def post_merge(forest: str, body: MergeIn, request: Request, caller: Writer) -> dict[str, Any]:
    """Queue a merge of forest ``from`` into ``forest`` (both of the caller's tenant; no extraction)."""
    if body.from_tenant is not None:
        raise PermissionDeniedError("a tenant key merges within its own tenant; cross-tenant merges need the admin key")
    settings: Settings = request.app.state.settings
    return await transfer.queue_merge(_db(request), caller.tenant_id, forest, body.from_, settings=settings)


@router.post(
    "/admin/merge",
    status_code=status.HTTP_202_ACCEPTED,
    tags=["admin"],
    response_model=AdminMergeAccepted,
    responses=ERRORS,
)
async def post_admin_merge(body: AdminMergeIn, request: Request, _: Admin) -> dict[str, Any]:
    """Queue a merge of a forest of one tenant into a forest of another (created when missing)."""
    return await transfer.queue_admin_merge(
        _db(request), body.from_tenant, body.from_forest, body.into_tenant, body.into_forest
    )


@router.get(
    "/admin/tenants/{tenant_id}/jobs/{job_id}",
    tags=["admin"],
    response_model=Job,
    response_model_exclude_unset=True,
    responses=ERRORS,
)
async def get_admin_job(tenant_id: str, job_id: str, request: Request, _: Admin) -> dict[str, Any]:
    """A job of any tenant (the admin polls the merges it queued)."""
    return await admin_job_view(_db(request), tenant_id, job_id)


@router.get(
    "/forests/{forest}/export",
    response_model=None,
    response_class=NdjsonResponse,
    responses=ERRORS,
)
async def get_export(forest: str, request: Request, caller: Reader, with_derived: bool = False) -> StreamingResponse:
    """The forest as versioned JSON Lines (header line, then one record per line), streamed."""
    settings: Settings = request.app.state.settings
    f, lines = await transfer.export_forest(_db(request), settings, caller.tenant_id, forest, with_derived=with_derived)
    return StreamingResponse(lines, media_type=NDJSON, headers={"Content-Disposition": _attachment(f"{f.name}.jsonl")})


def _attachment(filename: str) -> str:
    """``Content-Disposition`` of a download named ``filename``, whatever its characters (RFC 6266):
    the name itself as ``filename*`` (UTF-8, percent-encoded) and an ASCII ``filename`` for clients
    that read only that (anything but ASCII letters, digits and ``-_.`` becomes ``_``)."""
    stem, _, ext = filename.rpartition(".")
    ascii_stem = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in stem)
    if not any(c.isalnum() for c in ascii_stem):
        ascii_stem = "forest"
    return f"attachment; filename=\"{ascii_stem}.{ext}\"; filename*=UTF-8''{quote(filename, safe='')}"


@router.post(
    "/forests/{forest}/import",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=ImportAccepted,
    responses=ERRORS | problems(413),
)
async def post_import(forest: str, request: Request, caller: Writer) -> dict[str, Any]:
    """Import an export (the request body) into ``forest`` through the merge path, as an ``import`` job."""
    settings: Settings = request.app.state.settings
    body = await request.body()  # the body-size limit applies (413)
    return await transfer.import_body(_db(request), settings, caller.tenant_id, forest, body)
