"""A tenant's quotas (issue 54, review M3): caps on its queued jobs, stored facts, forests and
forests large enough to get indexes of their own (ADR 0024), checked in the transaction of a request
that would add to them. The defaults are ``MEMFOREST_LIMITS__MAX_*``; a tenant's own columns
override them (``/v1/admin/tenants/{tenant_id}/quotas``, NULL = the default, 0 = no cap). A count
reads at most the cap's number of rows. Concurrent requests of one tenant may pass a cap by the
few that were checked at once."""

from __future__ import annotations

import uuid
from typing import Any

from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database
from memforest.errors import MemForestError, NotFoundError
from memforest.settings import LimitSettings, Settings
from memforest.store import limits as store
from memforest.store.forest_indexes import has_more_facts_than
from memforest.store.sql import Conn, Row


class QuotaExceededError(MemForestError):
    """A request would take the tenant past one of its quotas: 409, its problem type and detail
    naming the cap (``max_facts``, ``max_forests``, ``max_large_forests``)."""

    status_code = 409
    type_slug = "quota-exceeded"

    def __init__(self, cap: str, limit: int, what: str) -> None:
        self.cap = cap
        self.type_slug = f"quota-exceeded/{cap}"
        super().__init__(f"{what}: this tenant's {cap} quota is {limit}")


class QueueQuotaExceededError(QuotaExceededError):
    """The tenant's queued jobs are at its ``max_queued_jobs`` cap: 429 with ``Retry-After`` (the
    queue drains as the worker runs them)."""

    status_code = 429
    retry_after_s = 5


async def check_quotas(
    conn: Conn,
    settings: Settings,
    tenant_id: uuid.UUID,
    forest: str | None,
    *,
    queues_job: bool = True,
    adds_facts: bool = True,
) -> None:
    """Refuse a request of the tenant (inside its transaction) that would queue a job
    (``queues_job``), add facts (``adds_facts``) to ``forest`` or create it (a name it does not have
    yet), when the tenant is at the matching quota: QueueQuotaExceededError (429) or
    QuotaExceededError (409), naming the cap."""
    q = await store.tenant_quotas(conn, tenant_id, settings.limits)
    if (
        queues_job
        and q.max_queued_jobs
        and await store.queued_jobs(conn, tenant_id, q.max_queued_jobs) >= q.max_queued_jobs
    ):
        raise QueueQuotaExceededError("max_queued_jobs", q.max_queued_jobs, "too many queued jobs; retry later")
    if adds_facts and q.max_facts and await store.stored_facts(conn, tenant_id, q.max_facts) >= q.max_facts:
        raise QuotaExceededError("max_facts", q.max_facts, "this tenant stores as many facts as it may")
    if forest is None:
        return
    fid = await store.forest_id(conn, tenant_id, forest.strip())
    if fid is None:
        if q.max_forests and await store.forest_count(conn, tenant_id, q.max_forests) >= q.max_forests:
            raise QuotaExceededError("max_forests", q.max_forests, "this tenant has as many forests as it may")
        return
    if adds_facts and q.max_large_forests and not await store.has_own_index(conn, fid):
        # a forest past the size that earns it indexes of its own, while the tenant has its cap of those
        large = await has_more_facts_than(conn, tenant_id, fid, settings.retrieval.exact_scan_max_rows)
        if large and await store.large_forests(conn, tenant_id) >= q.max_large_forests:
            raise QuotaExceededError(
                "max_large_forests", q.max_large_forests,
                f"forest {forest.strip()!r} outgrew {settings.retrieval.exact_scan_max_rows} facts and this tenant "
                "has as many forests with indexes of their own as it may",
            )  # fmt: skip


def _quota_view(row: Row, defaults: LimitSettings) -> dict[str, Any]:
    eff = store.effective_quotas(row, defaults)
    fields = ("max_queued_jobs", "max_facts", "max_forests", "max_large_forests")
    return {
        "tenant": str(row["tenant_id"]),
        **{f: row[f] for f in fields},
        "effective": {f: getattr(eff, f) for f in fields},
    }


async def set_quotas(
    db: Database, defaults: LimitSettings, tenant_id: uuid.UUID, values: dict[str, int | None]
) -> dict[str, Any]:
    """Store a tenant's quota overrides (None = the default) and return them with the quotas in force."""
    async with db.system() as conn:
        row = await store.set_tenant_quotas(conn, tenant_id, values)
    if row is None:
        raise NotFoundError(f"no tenant {tenant_id}")
    return _quota_view(row, defaults)


@retry_if_cut
async def get_quotas(db: Database, defaults: LimitSettings, tenant_id: uuid.UUID) -> dict[str, Any]:
    """A tenant's quota overrides and the quotas in force."""
    async with db.system() as conn:
        row = await store.tenant_quotas_row(conn, tenant_id)
    if row is None:
        raise NotFoundError(f"no tenant {tenant_id}")
    return _quota_view(row, defaults)
