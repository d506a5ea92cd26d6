"""The source tenant of a merge job queued by the admin endpoint (migration 0024). Only the owning
role reads and writes ``admin_merges`` (``Database.system``): the tenant role has no grant on it, so
no statement run as a tenant can name another tenant as a merge's source."""

from __future__ import annotations

import uuid

from memforest.store.sql import Conn, execute, scalar

_RECORD = "INSERT INTO admin_merges (tenant_id, job_id, src_tenant) VALUES (:t, :j, :s)"
_SOURCE = "SELECT src_tenant FROM admin_merges WHERE tenant_id = :t AND job_id = :j"


async def record_source(conn: Conn, tenant_id: uuid.UUID, job_id: uuid.UUID, src_tenant: uuid.UUID) -> None:
    """Record that the merge job ``job_id`` of ``tenant_id`` reads from ``src_tenant`` (a system
    connection, in the transaction that queued the job)."""
    await execute(conn, _RECORD, {"t": tenant_id, "j": job_id, "s": src_tenant})


async def source_tenant(conn: Conn, tenant_id: uuid.UUID, job_id: uuid.UUID) -> uuid.UUID | None:
    """The source tenant the admin endpoint recorded for the merge job, or None (a system connection)."""
    value = await scalar(conn, _SOURCE, {"t": tenant_id, "j": job_id})
    return None if value is None else uuid.UUID(str(value))
