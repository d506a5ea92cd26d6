"""Merge, export and import (ADR 0008): queued for the API, in-process for the CLI."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

from memforest.app.quotas import check_quotas
from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.domain import Forest
from memforest.errors import InputError, NotFoundError
from memforest.lifecycle.export import spooled_export_lines
from memforest.lifecycle.importer import (
    import_parsed,
    load_staging,
    parse_export,
    read_export,
)
from memforest.lifecycle.merge import STAGES, MergeReport, Progress, merge_forests
from memforest.pipeline.job_bell import QUEUED
from memforest.settings import Settings
from memforest.store import admin_merges, jobs
from memforest.store.tenants import ensure_forest, get_forest, tenant_exists

__all__ = [
    "STAGES",
    "export_forest",
    "import_body",
    "import_parsed",
    "merge_now",
    "queue_admin_merge",
    "queue_merge",
    "read_export",
]


def _name(value: str) -> str:
    if "\x00" in value:
        raise NotFoundError(f"no forest named {value!r}")
    return value


def _merge_payload(src_tenant: uuid.UUID, src: Forest, dst: Forest) -> dict[str, Any]:
    return {"src_tenant": str(src_tenant), "src_forest": src.name, "dst_forest": dst.name}


async def queue_merge(
    db: Database, tenant_id: uuid.UUID, forest: str, src_forest: str, *, settings: Settings
) -> dict[str, Any]:
    """Queue a merge of ``src_forest`` into ``forest`` (both existing forests of the tenant), within
    the tenant's quotas."""
    async with db.tenant(tenant_id) as conn:
        dst = await get_forest(conn, tenant_id, _name(forest))
        src = await get_forest(conn, tenant_id, _name(src_forest))
        if src.forest_id == dst.forest_id:
            raise InputError("cannot merge a forest into itself", location="from")
        await check_quotas(conn, settings, tenant_id, dst.name)
        job_id = await jobs.insert_job(conn, tenant_id, dst.forest_id, "merge", _merge_payload(tenant_id, src, dst))
    QUEUED.ring()
    return {"job_id": str(job_id), "kind": "merge", "from": src.name, "forest": dst.name}


async def _tenant_exists(db: Database, tenant_id: uuid.UUID, field: str) -> None:
    async with db.system() as conn:
        if not await tenant_exists(conn, tenant_id):
            raise NotFoundError(f"no tenant {tenant_id} ({field})")


async def queue_admin_merge(
    db: Database, from_tenant: uuid.UUID, from_forest: str, into_tenant: uuid.UUID, into_forest: str
) -> dict[str, Any]:
    """Queue a merge of a forest of one tenant into a forest of another (created when missing)."""
    await _tenant_exists(db, from_tenant, "from_tenant")
    await _tenant_exists(db, into_tenant, "into_tenant")
    async with db.tenant(from_tenant) as conn:
        src = await get_forest(conn, from_tenant, _name(from_forest))
    async with db.tenant(into_tenant) as conn:
        dst = await ensure_forest(conn, into_tenant, _name(into_forest))
        if from_tenant == into_tenant and src.forest_id == dst.forest_id:
            raise InputError("cannot merge a forest into itself", location="into_forest")
    # as the owning role: the job's source tenant is recorded where the tenant role cannot write
    async with db.system() as conn:
        job_id = await jobs.insert_job(conn, into_tenant, dst.forest_id, "merge", _merge_payload(from_tenant, src, dst))
        await admin_merges.record_source(conn, into_tenant, job_id, from_tenant)
    QUEUED.ring()
    return {"job_id": str(job_id), "kind": "merge", "tenant": str(into_tenant), "forest": dst.name}


async def merge_now(
    db: Database,
    settings: Settings,
    backends: Backends,
    *,
    src_tenant: uuid.UUID,
    src_forest: str,
    dst_tenant: uuid.UUID,
    dst_forest: str,
    progress: Progress | None = None,
) -> MergeReport:
    """Merge ``src_forest`` into ``dst_forest`` (created when missing) in this process."""
    async with db.tenant(src_tenant) as conn:
        src = await get_forest(conn, src_tenant, src_forest)
    async with db.tenant(dst_tenant) as conn:
        dst = await ensure_forest(conn, dst_tenant, dst_forest)
    if src_tenant == dst_tenant and src.forest_id == dst.forest_id:
        raise InputError("cannot merge a forest into itself", location="--from")
    return await merge_forests(
        db, settings, backends, src_tenant=src_tenant, src_forest_id=src.forest_id, dst_tenant=dst_tenant,
        dst_forest_id=dst.forest_id, ledger=UsageLedger(), progress=progress,
    )  # fmt: skip


async def export_forest(
    db: Database, settings: Settings, tenant_id: uuid.UUID, forest: str, *, with_derived: bool
) -> tuple[Forest, AsyncIterator[str]]:
    """The forest (NotFoundError before any line is produced) and its JSON Lines export, spooled:
    read in full (one transaction) before the first line comes, so a slow reader holds no
    transaction or pooled connection (ADR 0019)."""
    async with db.tenant(tenant_id) as conn:
        f = await get_forest(conn, tenant_id, _name(forest))
    lines = spooled_export_lines(
        db, settings, tenant_id, f.name, with_derived=with_derived,
        max_memory_bytes=settings.limits.export_spool_memory_bytes,
    )  # fmt: skip
    return f, lines


async def import_body(
    db: Database, settings: Settings, tenant_id: uuid.UUID, forest: str, body: bytes
) -> dict[str, Any]:
    """Validate an export in full (InputError naming the line, nothing written), load it into a
    staging forest and queue the ``import`` job that merges it into ``forest`` (created when missing)."""
    name = _name(forest)
    async with db.tenant(tenant_id) as conn:
        await check_quotas(conn, settings, tenant_id, name)
    parsed = parse_export(body.split(b"\n"), source="body")
    staging = await load_staging(db, settings, tenant_id, parsed, name, enqueue_job=True)
    QUEUED.ring()
    return {
        "job_id": str(staging.job_id),
        "kind": "import",
        "forest": staging.dst_forest,
        "records": parsed.counts,
        "derived": "reused" if staging.reused_vectors else "rebuilt",
    }
