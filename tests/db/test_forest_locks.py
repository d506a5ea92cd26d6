"""The two forest locks: accepting a session never waits for an ingest commit or refresh (graph
lock), while lifecycle operations (``all``) wait for both."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.accept import accept_session
from memforest.store.sql import lock_forest
from memforest.store.tenants import ensure_forest, ensure_tenant

WHEN = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def _session(ext: str) -> SessionInput:
    turns = tuple(
        TurnInput(speaker="Iris", text=f"Iris planted {n} tulips.", role="user", external_id=f"{ext}:{n}", time=WHEN)
        for n in range(3)
    )
    return SessionInput(external_id=ext, time=WHEN, turns=turns)


async def test_accept_does_not_wait_for_graph_lock_but_lifecycle_does(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "locks")
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, "garden")

    holding = asyncio.Event()
    release = asyncio.Event()

    async def hold(part: str) -> None:
        async with db.tenant(tenant_id) as conn:
            await lock_forest(conn, tenant_id, forest.forest_id, part)  # type: ignore[arg-type]
            holding.set()
            await release.wait()

    async def accept(ext: str) -> None:
        async with db.tenant(tenant_id) as conn:
            await accept_session(conn, forest, _session(ext), cell_turns=2, fanout=4)

    async def lifecycle_lock() -> None:
        async with db.tenant(tenant_id) as conn:
            await lock_forest(conn, tenant_id, forest.forest_id)

    # a commit/refresh holds the graph lock: accept goes through, a lifecycle lock waits
    holder = asyncio.create_task(hold("graph"))
    await holding.wait()
    await asyncio.wait_for(accept("s1"), timeout=10)
    waiting = asyncio.create_task(lifecycle_lock())
    await asyncio.sleep(0.5)
    assert not waiting.done()
    release.set()
    await asyncio.wait_for(waiting, timeout=10)
    await holder

    # an accept holds the sessions lock: a lifecycle lock waits for it too
    holding.clear()
    release.clear()
    holder = asyncio.create_task(hold("sessions"))
    await holding.wait()
    waiting = asyncio.create_task(lifecycle_lock())
    await asyncio.sleep(0.5)
    assert not waiting.done()
    release.set()
    await asyncio.wait_for(waiting, timeout=10)
    await holder
