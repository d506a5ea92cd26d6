"""Building a forest's own indexes (HNSW and full text) once it outgrows scans (ADR 0024).

The refresh job of a forest calls :func:`ensure_forest_indexes` when it is done, so a forest that
crossed ``exact_scan_max_rows`` facts gets its indexes within one refresh; ``memforest db
index-forests`` (:func:`ensure_all_indexes`) does every forest at once, after an upgrade or a bulk
load. Builds are ``CONCURRENTLY`` (writes to the forest go on) and one builder per forest at a time
(a session advisory lock; a second caller skips). Until a forest's indexes are all valid the read
path scans it exactly: slower, never wrong.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field

from memforest.db.engine import Database
from memforest.settings import Settings
from memforest.store import forest_indexes as store
from memforest.store import limits

log = logging.getLogger(__name__)


@dataclass(slots=True)
class IndexReport:
    """What one pass did: indexes built, invalid ones rebuilt, orphans of deleted forests dropped."""

    built: list[str] = field(default_factory=list)
    rebuilt: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    skipped_busy: list[int] = field(default_factory=list)  # forests another builder was building
    skipped_quota: list[int] = field(default_factory=list)  # large forests of a tenant at max_large_forests


async def _build(db: Database, settings: Settings, forest_id: int, report: IndexReport) -> None:
    """Build the missing or invalid indexes of one forest (skips when another builder holds it)."""
    async with db.autocommit() as conn:
        state = await store.index_state(conn, forest_id)
        if all(state.values()):
            return
        if not await store.try_lock_forest(conn, forest_id):
            report.skipped_busy.append(forest_id)
            return
        try:
            await store.set_build_memory(conn, settings.retrieval.forest_index_build_memory)
            state = await store.index_state(conn, forest_id)  # again, now that we hold the lock
            dim = await store.embedding_dim(conn)
            for spec in store.FOREST_INDEXES:
                name = spec.name(forest_id)
                if state[name]:
                    continue
                if state[name] is False:  # left invalid by an interrupted build, or built for other rows
                    await store.drop_index(conn, name)
                    report.rebuilt.append(name)
                else:
                    report.built.append(name)
                await store.create_index(conn, spec, forest_id, dim)
                log.info("built forest index %s", name)
        finally:
            await store.reset_build_memory(conn)
            await store.unlock_forest(conn, forest_id)


async def ensure_forest_indexes(db: Database, settings: Settings, tenant_id: uuid.UUID, forest_id: int) -> IndexReport:
    """Give the forest its own indexes if it has more than ``exact_scan_max_rows`` facts."""
    report = IndexReport()
    async with db.tenant(tenant_id) as conn:
        # the catalogue first: a forest with its own indexes as its specs ask needs no count (a
        # count filtered by the forest alone is planned as a full scan of the forest's GIN index,
        # ADR 0024); one with a stale index (an older release's, e.g. built by an old worker
        # during an upgrade) is large: it is rebuilt here, without waiting for `db index-forests`
        state = await store.index_state(conn, forest_id)
        if all(state.values()):
            return report
        stale = any(valid is False for valid in state.values())
        large = stale or await store.has_more_facts_than(
            conn, tenant_id, forest_id, settings.retrieval.exact_scan_max_rows
        )
        if large and all(valid is None for valid in state.values()):  # a new large forest: within the quota
            cap = (await limits.tenant_quotas(conn, tenant_id, settings.limits)).max_large_forests
            if cap and await limits.large_forests(conn, tenant_id) >= cap:
                log.warning(
                    "forest %s gets no indexes of its own: its tenant is at max_large_forests (%s)", forest_id, cap
                )
                report.skipped_quota.append(forest_id)
                return report
    if large:
        await _build(db, settings, forest_id, report)
    return report


async def drop_forest_indexes(db: Database, forest_id: int) -> list[str]:
    """Drop the indexes of a forest that was just forgotten; returns the names dropped."""
    async with db.autocommit() as conn:
        present = [name for name, valid in (await store.index_state(conn, forest_id)).items() if valid is not None]
        for name in present:
            await store.drop_index(conn, name)
    return present


async def drop_orphan_indexes(db: Database) -> IndexReport:
    """Drop the indexes of forests that were deleted (forget, tenant deletion)."""
    report = IndexReport()
    async with db.system() as conn:
        orphans = await store.orphan_indexes(conn)
    async with db.autocommit() as conn:
        for name in orphans:
            await store.drop_index(conn, name)
            report.dropped.append(name)
    return report


async def ensure_all_indexes(db: Database, settings: Settings) -> IndexReport:
    """Every large forest of every tenant gets its indexes; indexes of deleted forests are dropped."""
    report = await drop_orphan_indexes(db)
    async with db.system() as conn:
        forests = await store.large_forests(conn, settings.retrieval.exact_scan_max_rows)
    for row in forests:
        await _build(db, settings, int(row["forest_id"]), report)
    return report
