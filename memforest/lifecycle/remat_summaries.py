"""Regenerating every internal-node summary of a forest (a new prompt version or model)."""

from __future__ import annotations

import time
import uuid

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.lifecycle.remat_report import Progress, RematReport, finish, notify, refresh
from memforest.settings import Settings
from memforest.store import rematerialize as store
from memforest.store.sql import lock_forest


async def _internal_hashes(db: Database, tenant_id: uuid.UUID, forest_id: int) -> dict[int, str | None]:
    async with db.tenant(tenant_id) as conn:
        return await store.internal_summary_hashes(conn, tenant_id, forest_id)


async def resummarize(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    ledger: UsageLedger | None = None,
    progress: Progress | None = None,
) -> RematReport:
    """Regenerate every internal-node summary (after a prompt-version or model change): every internal
    node is marked dirty with its ``summary_hash`` reset, and refresh rebuilds them level by level,
    re-embedding only the summaries whose text changed. ``summaries_changed`` counts real changes."""
    t0, local = time.perf_counter(), UsageLedger()
    before = await _internal_hashes(db, tenant_id, forest_id)
    notify(progress, "resummarize", 0, len(before))
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id)
        await store.reset_summaries(conn, tenant_id, forest_id)
    stats = await refresh(db, settings, backends, tenant_id, forest_id, local)
    after = await _internal_hashes(db, tenant_id, forest_id)
    report = RematReport(forests=1)
    report.add_refresh(stats)
    report.summaries_changed = sum(1 for node_id, h in after.items() if before.get(node_id) != h)
    notify(progress, "resummarize", len(after), len(after))
    return finish(report, local, ledger, t0)
