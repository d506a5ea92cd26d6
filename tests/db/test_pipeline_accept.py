"""Accept (DESIGN.md 2.1): one transaction stores the session, turns, cells and session-tree leaves,
marks ancestors dirty and enqueues a job; idempotent on content and on the Idempotency-Key."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from support import session_input

from memforest.db.engine import Database
from memforest.domain import Forest, SessionInput
from memforest.errors import ConflictError
from memforest.pipeline.accept import accept_session
from memforest.pipeline.service import accept_sessions
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.sql import fetch_all, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant

BASE = datetime(2023, 1, 10, 9, 0, tzinfo=UTC)
TABLES = ("sessions", "turns", "cells", "facts", "trees", "nodes", "placements", "jobs")


def _session(ext: str, texts: list[str], when: datetime = BASE) -> SessionInput:
    return session_input(ext, when, texts, minutes=True)


def _texts(n: int) -> list[str]:
    return [f"Turn number {i} talks about topic {i}." for i in range(n)]


async def _counts(db: Database) -> dict[str, int]:
    async with db.system() as conn:
        return {t: int(await scalar(conn, f"SELECT count(*) FROM {t}")) for t in TABLES}


async def _forest(db: Database, name: str = "f") -> tuple[uuid.UUID, Forest]:
    tenant_id = await ensure_tenant(db, "t")
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, name)
    return tenant_id, forest


async def _cells(db: Database, tenant_id: uuid.UUID) -> list[dict[str, Any]]:
    async with db.tenant(tenant_id) as conn:
        return await fetch_all(
            conn,
            "SELECT c.cell_id, c.seq, c.turn_from, c.turn_to, c.text, c.t_start, c.t_end FROM cells c "
            "WHERE c.tenant_id = :t ORDER BY c.seq",
            {"t": tenant_id},
        )


async def test_accept_b2_stores_cells_leaves_dirty_path_and_job(db: Database, settings: Settings) -> None:
    tenant_id, _ = await _forest(db)
    texts = _texts(5)
    forest, results = await accept_sessions(db, settings, tenant_id, "f", [_session("s1", texts)])
    (res,) = results
    assert (res.created, res.turns, res.cells, res.external_id) == (True, 5, 3, "s1")
    assert res.job_id is not None

    cells = await _cells(db, tenant_id)
    assert [(c["seq"], c["turn_from"], c["turn_to"]) for c in cells] == [(0, 0, 1), (1, 2, 3), (2, 4, 4)]
    assert cells[0]["text"] == f"Alice: {texts[0]}\nBob: {texts[1]}"
    assert cells[2]["text"] == f"Alice: {texts[4]}"
    assert (cells[1]["t_start"], cells[1]["t_end"]) == (BASE + timedelta(minutes=2), BASE + timedelta(minutes=3))

    async with db.tenant(tenant_id) as conn:
        trees = await fetch_all(conn, "SELECT tree_id, kind, key, n_leaves, height, root_node_id FROM trees")
        nodes = await fetch_all(
            conn, "SELECT node_id, level, parent_id, n_children, dirty, leaf_cell_id, summary FROM nodes"
        )
        placements = await fetch_all(conn, "SELECT source_kind, source_id, node_id FROM placements")
        job = await fetch_all(conn, "SELECT job_id, kind, state, payload, forest_id FROM jobs")
        report = await check_forest(conn, tenant_id, forest.forest_id, allow_dirty=True)
    assert [(t["kind"], t["key"], t["n_leaves"], t["height"]) for t in trees] == [("session", "s1", 3, 1)]
    leaves = [n for n in nodes if n["level"] == 0]
    internal = [n for n in nodes if n["level"] > 0]
    assert sorted(int(n["leaf_cell_id"]) for n in leaves) == [int(c["cell_id"]) for c in cells]
    assert {n["summary"] for n in leaves} == {c["text"] for c in cells}  # raw cells are recallable at once
    assert len(internal) == 1
    root = internal[0]
    assert root["node_id"] == trees[0]["root_node_id"] and root["n_children"] == 3 and root["dirty"] is True
    assert all(n["parent_id"] == root["node_id"] for n in leaves)
    assert sorted((p["source_kind"], p["source_id"]) for p in placements) == [
        ("cell", int(c["cell_id"])) for c in cells
    ]
    assert [(j["job_id"], j["kind"], j["state"], j["forest_id"]) for j in job] == [
        (res.job_id, "ingest", "queued", forest.forest_id)
    ]
    assert job[0]["payload"] == {"session_id": res.session_id}
    assert report.violations == []


async def test_accept_b3_from_settings(db: Database, settings: Settings) -> None:
    settings.pipeline.cell_turns = 3
    tenant_id, _ = await _forest(db)
    _, (res,) = await accept_sessions(db, settings, tenant_id, "f", [_session("s1", _texts(7))])
    assert (res.turns, res.cells) == (7, 3)
    cells = await _cells(db, tenant_id)
    assert [(c["turn_from"], c["turn_to"]) for c in cells] == [(0, 2), (3, 5), (6, 6)]
    assert cells[0]["text"].count("\n") == 2


async def test_accept_many_cells_splits_and_marks_every_ancestor_dirty(db: Database, settings: Settings) -> None:
    settings.pipeline.cell_turns = 1
    settings.pipeline.fanout_session = 4
    tenant_id, _ = await _forest(db)
    forest, (res,) = await accept_sessions(db, settings, tenant_id, "f", [_session("s1", _texts(20))])
    assert res.cells == 20
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn, "SELECT level, count(*) AS n, bool_and(dirty) AS all_dirty FROM nodes GROUP BY level ORDER BY level"
        )
        height = await scalar(conn, "SELECT height FROM trees")
        report = await check_forest(conn, tenant_id, forest.forest_id, allow_dirty=True)
    assert report.violations == []
    assert rows[0]["n"] == 20
    assert height >= 2 and [r["level"] for r in rows] == list(range(height + 1))
    assert all(r["all_dirty"] for r in rows[1:]), rows


async def test_same_session_twice_is_a_no_op_with_the_same_job(db: Database, settings: Settings) -> None:
    tenant_id, _ = await _forest(db)
    s1 = _session("s1", _texts(4))
    _, (first,) = await accept_sessions(db, settings, tenant_id, "f", [s1])
    before = await _counts(db)
    _, (again,) = await accept_sessions(db, settings, tenant_id, "f", [_session("s1", _texts(4))])
    assert again.created is False
    assert (again.job_id, again.session_id, again.turns, again.cells) == (
        first.job_id,
        first.session_id,
        4,
        2,
    )
    assert await _counts(db) == before


async def test_same_id_other_content_conflicts_and_changes_nothing(db: Database, settings: Settings) -> None:
    tenant_id, _ = await _forest(db)
    texts = _texts(4)
    await accept_sessions(db, settings, tenant_id, "f", [_session("s1", texts)])
    before = await _counts(db)
    changed = _session("s1", [*texts[:3], "A different last turn."])
    with pytest.raises(ConflictError, match="s1"):
        await accept_sessions(db, settings, tenant_id, "f", [changed])
    with pytest.raises(ConflictError):  # other session time, same turns
        await accept_sessions(db, settings, tenant_id, "f", [_session("s1", texts, BASE + timedelta(days=1))])
    assert await _counts(db) == before
    async with db.tenant(tenant_id) as conn:
        stored = await fetch_all(conn, "SELECT text FROM turns ORDER BY seq")
    assert [r["text"] for r in stored] == texts


async def test_idempotency_key_reuse(db: Database, settings: Settings) -> None:
    tenant_id, forest = await _forest(db)
    s1, s2 = _session("s1", _texts(3)), _session("s2", _texts(2))
    async with db.tenant(tenant_id) as conn:
        first = await accept_session(conn, forest, s1, cell_turns=2, fanout=8, idempotency_key="key-1")
    async with db.tenant(tenant_id) as conn:
        again = await accept_session(conn, forest, s1, cell_turns=2, fanout=8, idempotency_key="key-1")
    assert first.created and not again.created
    assert again.job_id == first.job_id
    before = await _counts(db)
    with pytest.raises(ConflictError, match="Idempotency-Key"):
        async with db.tenant(tenant_id) as conn:
            await accept_session(conn, forest, s2, cell_turns=2, fanout=8, idempotency_key="key-1")
    assert await _counts(db) == before
    async with db.tenant(tenant_id) as conn:
        assert await scalar(conn, "SELECT count(*) FROM sessions WHERE external_id = 's2'") == 0
        keyed = await fetch_all(conn, "SELECT job_id FROM jobs WHERE idempotency_key = 'key-1'")
    assert [r["job_id"] for r in keyed] == [first.job_id]


async def test_idempotency_key_reused_for_another_forest_is_a_conflict(db: Database, settings: Settings) -> None:
    tenant_id, forest_a = await _forest(db, "a")
    async with db.tenant(tenant_id) as conn:
        forest_b = await ensure_forest(conn, tenant_id, "b")
    s1 = _session("s1", _texts(3))
    async with db.tenant(tenant_id) as conn:
        await accept_session(conn, forest_a, s1, cell_turns=2, fanout=8, idempotency_key="key-1")
    before = await _counts(db)
    with pytest.raises(ConflictError):
        async with db.tenant(tenant_id) as conn:
            await accept_session(conn, forest_b, s1, cell_turns=2, fanout=8, idempotency_key="key-1")
    assert await _counts(db) == before
