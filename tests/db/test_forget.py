"""Forget (DESIGN.md 4): a forest or a tenant is hard-deleted with exact counts, idempotently, and
nothing of any other forest or tenant is touched. Through the library and the HTTP API."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import text
from support import ADMIN_AUTH, admin_settings, app_client, session_input, tenant_key

from memforest.app.tenants import create_key
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput
from memforest.lifecycle.forget import FOREST_TABLES, TENANT_TABLES, forget_forest, forget_tenant
from memforest.pipeline.service import accept_sessions, ingest_sessions
from memforest.settings import Settings
from memforest.store.forget import delete_forest_rows
from memforest.store.sql import scalar
from memforest.store.tenants import ensure_tenant

COUNTED = tuple(t for t in FOREST_TABLES if t != "forests")


def _sessions(prefix: str) -> list[SessionInput]:
    when = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    texts = [
        "I adopted a grey cat named Pistachio last weekend.",
        "Nice, I repaired my old bicycle in the garage yesterday.",
        "Pistachio sleeps on the windowsill every afternoon.",
        "I plan to cycle along the river next Sunday.",
    ]
    return [
        session_input(f"{prefix}{n}", when + timedelta(days=7 * n), texts, ("Ilse", "Marek"), role=None)
        for n in range(2)
    ]


async def _rows(db: Database, tenant_id: uuid.UUID, forest_name: str | None = None) -> dict[str, int]:
    """Rows per table of one forest (or of the whole tenant), counted independently of forget."""
    out = {}
    async with db.system() as conn:
        fid = None
        if forest_name is not None:
            fid = await scalar(
                conn,
                "SELECT forest_id FROM forests WHERE tenant_id = :t AND name = :n",
                {"t": tenant_id, "n": forest_name},
            )
        for table in TENANT_TABLES:
            if forest_name is not None and table in ("api_keys", "tenants"):
                continue
            where = "tenant_id = :t" + (" AND forest_id = :f" if forest_name is not None else "")
            out[table] = int(
                await scalar(conn, f"SELECT count(*) FROM {table} WHERE {where}", {"t": tenant_id, "f": fid})
            )
    return out


async def _world(db: Database, settings: Settings) -> tuple[uuid.UUID, uuid.UUID]:
    backends = build_backends(settings)
    try:
        a, b = await ensure_tenant(db, "a"), await ensure_tenant(db, "b")
        for tenant in (a, b):
            for forest in ("f", "g"):
                report = await ingest_sessions(db, settings, backends, tenant, forest, _sessions(forest))
                assert report.jobs_failed == 0
        await create_key(db, a, ["read"])
    finally:
        await backends.aclose()
    return a, b


async def test_forget_forest_counts_exactly_and_touches_nothing_else(db: Database, settings: Settings) -> None:
    a, b = await _world(db, settings)
    await accept_sessions(db, settings, a, "f", [_sessions("late")[0]])  # a queued job too
    expected = await _rows(db, a, "f")
    others = {"a/g": await _rows(db, a, "g"), "b": await _rows(db, b)}
    assert all(expected[t] > 0 for t in COUNTED)  # every table has rows to delete
    assert expected["jobs"] == 4  # two ingest jobs, the forest's refresh job, the queued one

    counts = await forget_forest(db, a, "f")

    assert counts == {**{t: expected[t] for t in COUNTED}, "forests": 1}
    assert not any((await _rows(db, a, "f")).values())
    assert {"a/g": await _rows(db, a, "g"), "b": await _rows(db, b)} == others
    assert await forget_forest(db, a, "f") == dict.fromkeys(FOREST_TABLES, 0)  # idempotent
    assert await forget_forest(db, a, "never-was") == dict.fromkeys(FOREST_TABLES, 0)
    assert await forget_forest(db, b, "f") != dict.fromkeys(FOREST_TABLES, 0)  # b's own f was untouched


# Facts added beside the ingested ones, in slot chains of 3 (each supersedes the one before), so
# deleting them exercises both supersession links; the large forest makes a whole-table scan show.
_BULK_FACTS = """
INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, subject, attribute, value, valid_from)
SELECT :t, :f, 'bulk fact ' || i, md5(:h || i::text), 'state', 'bulk', 'slot ' || (i / 3), i::text,
       TIMESTAMPTZ '2024-01-01' + i * INTERVAL '1 minute'
FROM generate_series(0, :n - 1) i
"""
_CHAIN_BULK_FACTS = """
UPDATE facts x SET supersedes = c.prev FROM (
    SELECT fact_id, lag(fact_id) OVER (PARTITION BY attribute ORDER BY valid_from) AS prev
    FROM facts WHERE tenant_id = :t AND forest_id = :f AND subject = 'bulk') c
WHERE x.tenant_id = :t AND x.fact_id = c.fact_id AND c.prev IS NOT NULL
"""
_BACK_LINKS = """
UPDATE facts p SET superseded_by = x.fact_id FROM facts x
WHERE x.tenant_id = :t AND x.forest_id = :f AND p.tenant_id = :t AND p.fact_id = x.supersedes
"""


async def test_forgetting_a_small_forest_beside_a_large_one_scans_no_whole_table(
    db: Database, settings: Settings
) -> None:
    """Migration 0019: a deleted fact's successors are found by index. Before it every deleted fact
    ran two sequential scans of the tenant's facts (ON DELETE SET NULL on unindexed link columns)."""
    a, _ = await _world(db, settings)
    async with db.system() as conn:
        forests = {
            str(r[0]): int(r[1])
            for r in await conn.exec_driver_sql(f"SELECT name, forest_id FROM forests WHERE tenant_id = '{a}'")
        }
        for name, n in (("g", 6000), ("f", 300)):
            p = {"t": a, "f": forests[name], "n": n, "h": f"{name}/"}
            await conn.execute(text(_BULK_FACTS), p)
            await conn.execute(text(_CHAIN_BULK_FACTS), p)
            await conn.execute(text(_BACK_LINKS), p)
        await conn.exec_driver_sql("ANALYZE facts")
        links = await scalar(
            conn,
            "SELECT count(*) FROM facts WHERE tenant_id = :t AND forest_id = :f AND supersedes IS NOT NULL",
            {"t": a, "f": forests["f"]},
        )
        assert links == 200  # the small forest's chains are linked both ways
    g_before = await _rows(db, a, "g")

    async with db.system() as conn:
        counts = await delete_forest_rows(conn, a, forests["f"])
        seq_scans = await scalar(conn, "SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'facts'")

    assert counts["facts"] >= 300
    assert seq_scans <= 2, f"{seq_scans} sequential scans of facts to delete {counts['facts']} facts"
    assert await _rows(db, a, "g") == g_before


async def test_forget_tenant_counts_exactly_and_is_idempotent(db: Database, settings: Settings) -> None:
    a, b = await _world(db, settings)
    async with db.system() as conn:  # a job outside any forest
        await conn.exec_driver_sql(
            f"INSERT INTO jobs (tenant_id, job_id, kind) VALUES ('{a}', '{uuid.uuid4()}', 'maintenance')"
        )
    expected = await _rows(db, a)
    other = await _rows(db, b)
    assert expected["forests"] == 2 and expected["api_keys"] == 1 and expected["tenants"] == 1

    counts = await forget_tenant(db, a)

    assert counts == expected
    assert not any((await _rows(db, a)).values())
    assert await _rows(db, b) == other
    assert await forget_tenant(db, a) == dict.fromkeys(TENANT_TABLES, 0)


async def test_api_forget_forest_and_tenant(db: Database, settings: Settings) -> None:
    admin = ADMIN_AUTH
    async with app_client(admin_settings(settings), db) as (_, c):
        tid, key = await tenant_key(c, "acme", ["read", "write", "admin"])
        backends = build_backends(settings)
        try:
            await ingest_sessions(db, settings, backends, uuid.UUID(tid), "f", _sessions("s"))
        finally:
            await backends.aclose()
        expected = await _rows(db, uuid.UUID(tid), "f")

        r = await c.delete("/v1/forests/f", headers=key)
        assert r.status_code == 200, r.text
        assert r.json() == {"name": "f", "deleted": {**{t: expected[t] for t in COUNTED}, "forests": 1}}
        assert (await c.delete("/v1/forests/f", headers=key)).status_code == 404

        assert (await c.post("/v1/forests", json={"name": "g"}, headers=key)).status_code == 201
        r = await c.delete(f"/v1/tenants/{tid}", headers=admin)
        assert r.status_code == 200, r.text
        deleted = r.json()["deleted"]
        assert (deleted["tenants"], deleted["forests"], deleted["api_keys"]) == (1, 1, 1)
        assert (await c.delete(f"/v1/tenants/{tid}", headers=admin)).status_code == 404
        assert (await c.get("/v1/forests", headers=key)).status_code == 401  # its key is gone
