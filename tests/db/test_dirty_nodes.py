"""``dirty_nodes`` (migration 0026, ADR 0051) holds exactly the nodes whose ``dirty`` flag is set,
whatever writes them (inserts, appends, refresh, a rematerialisation's marks, forgetting), tenant
by tenant; and with no index on ``dirty`` and room on the pages, flipping the flag is mostly a HOT
update."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import text
from support import hobby_sessions

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.lifecycle.forget import forget_forest
from memforest.pipeline.service import ingest_sessions
from memforest.settings import Settings
from memforest.store.sql import fetch_all, scalar
from memforest.store.tenants import ensure_tenant

_FLAGGED = "SELECT forest_id, level, node_id FROM nodes WHERE tenant_id = :t AND dirty"
_MARKED = "SELECT forest_id, level, node_id FROM dirty_nodes WHERE tenant_id = :t"


def _small_trees(settings: Settings) -> Settings:
    knobs = {"fanout_session": 3, "fanout_entity": 3, "fanout_scene": 3}
    return settings.model_copy(update={"pipeline": settings.pipeline.model_copy(update=knobs)})


async def _ingest(db: Database, settings: Settings, tenant_id: uuid.UUID, forest: str, n: int, *, flush: bool) -> None:
    backends = build_backends(settings)
    try:
        sessions = hobby_sessions(n, datetime(2022, 3, 1, 9, 0, tzinfo=UTC), forest)
        for batch in [[s] for s in sessions] or [[]]:  # none: only the flush
            await ingest_sessions(db, settings, backends, tenant_id, forest, batch, job_concurrency=1, flush=flush)
    finally:
        await backends.aclose()


async def _sets(db: Database, tenant_id: uuid.UUID) -> tuple[set[tuple[int, ...]], set[tuple[int, ...]]]:
    """(nodes flagged dirty, rows of dirty_nodes) of the tenant, read as the tenant."""
    async with db.tenant(tenant_id) as conn:
        flagged = {tuple(int(v) for v in r.values()) for r in await fetch_all(conn, _FLAGGED, {"t": tenant_id})}
        marked = {tuple(int(v) for v in r.values()) for r in await fetch_all(conn, _MARKED, {"t": tenant_id})}
    return flagged, marked


async def test_dirty_nodes_mirror_the_flag_through_every_write(db: Database, settings: Settings) -> None:
    settings = _small_trees(settings)
    a, b = await ensure_tenant(db, "a"), await ensure_tenant(db, "b")
    await _ingest(db, settings, a, "f", 4, flush=False)  # upper levels left dirty for the refresh job
    await _ingest(db, settings, b, "f", 2, flush=False)
    flagged, marked = await _sets(db, a)
    assert flagged and flagged == marked
    assert any(level > 1 for _, level, _ in flagged)
    flagged_b, marked_b = await _sets(db, b)
    assert flagged_b == marked_b and not marked & marked_b
    async with db.tenant(a) as conn:  # row security: b's marks exist, and a reads none of them
        seen_of_b = await fetch_all(conn, "SELECT count(*) AS n FROM dirty_nodes WHERE tenant_id = :b", {"b": b})
    assert marked_b and int(seen_of_b[0]["n"]) == 0

    await _ingest(db, settings, a, "f", 0, flush=True)  # the refresh job: every node clean
    assert await _sets(db, a) == (set(), set())

    async with db.tenant(a) as conn:  # a rematerialisation's marks, then some cleared by hand
        await conn.execute(
            text("UPDATE nodes SET dirty = true, version = version + 1 WHERE tenant_id = :t AND level > 0"), {"t": a}
        )
        await conn.execute(
            text("UPDATE nodes SET dirty = false WHERE tenant_id = :t AND level > 0 AND node_id % 2 = 0"), {"t": a}
        )
    flagged, marked = await _sets(db, a)
    assert flagged and flagged == marked

    await forget_forest(db, a, "f")
    assert await _sets(db, a) == (set(), set())
    assert await _sets(db, b) == (flagged_b, marked_b)


async def test_flipping_the_dirty_flag_is_a_hot_update(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "a")
    await _ingest(db, settings, tenant_id, "f", 2, flush=True)
    async with db.system() as conn:
        n = await scalar(
            conn,
            "WITH u AS (UPDATE nodes SET dirty = true, version = version + 1 WHERE tenant_id = :t AND level > 0 "
            "RETURNING 1) SELECT count(*) FROM u",
            {"t": tenant_id},
        )
        row = (
            await conn.execute(
                text("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = 'nodes'")
            )
        ).one()
    assert n and row[0] == n
    # with ix_nodes_dirty none was; one whose page has no room left still moves
    assert row[1] >= n / 2, f"{row[1]} of {n} updates were HOT"
