"""Merging forests without re-extraction (DESIGN.md 4, ADR 0008): dedup across forests, matched and
copied trees, provenance, forest invariants, the merge job, the API's tenant rules and the CLI."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import SecretStr

from memforest.app.jobs import run_worker
from memforest.backends.base import UsageLedger
from memforest.backends.factory import build_backends
from memforest.cli import main
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.errors import InputError, NotFoundError
from memforest.lifecycle.merge import merge_forests
from memforest.lifecycle.merge import trees as merge_trees
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest
from memforest.retrieval.service import query
from memforest.servers import create_app
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.sql import fetch_all, scalar
from memforest.store.stats import forest_stats
from memforest.store.tenants import ensure_forest, ensure_tenant, get_forest

ADMIN = "Adm1n-" + "q8Z3rT6vW1nK4pL7sX2yB5mC"
SHARED = "I keep a tortoise named Pebble in my greenhouse."

# Two small invented conversations; both say SHARED (same speaker), both use session ids s1/s2.
ALPHA = [
    (
        "s1",
        datetime(2022, 3, 4, 17, 0, tzinfo=UTC),
        [
            ("Odalys", "I work as a glassblower at the Harbor Studio."),
            ("Perrin", "That sounds hot. I started fencing lessons on Tuesday."),
            ("Odalys", SHARED),
            ("Perrin", "My cousin Ysolde breeds carrier pigeons in Tromso."),
        ],
    ),
    (
        "s2",
        datetime(2022, 4, 11, 9, 30, tzinfo=UTC),
        [
            ("Odalys", "Ysolde sent me a pigeon with a tiny letter."),
            ("Perrin", "I won my first fencing bout against a teacher."),
            ("Odalys", "I moved to Bergen for a new studio."),
        ],
    ),
]
BETA = [
    (
        "s1",
        datetime(2022, 5, 2, 12, 0, tzinfo=UTC),
        [
            ("Odalys", SHARED),
            ("Quill", "I repair antique clocks in a basement workshop."),
            ("Odalys", "My favorite composer is Hildegard these days."),
            ("Quill", "I visited the Lantern Museum with my sister Marit."),
        ],
    ),
    (
        "s9",
        datetime(2022, 6, 20, 19, 15, tzinfo=UTC),
        [
            ("Quill", "Marit bought a sailboat called Drift."),
            ("Odalys", "I painted the greenhouse door bright yellow."),
        ],
    ),
]


def sessions(spec: list[tuple[str, datetime, list[tuple[str, str]]]]) -> list[SessionInput]:
    return [
        SessionInput(
            external_id=ext,
            time=when,
            turns=tuple(
                TurnInput(speaker, text, role="user", external_id=f"{ext}:t{i}", time=when + timedelta(minutes=i))
                for i, (speaker, text) in enumerate(turns)
            ),
        )
        for ext, when, turns in spec
    ]


async def ingest(db: Database, settings: Settings, tenant_id: uuid.UUID, name: str, spec: Any) -> None:
    backends = build_backends(settings)
    try:
        report = await ingest_sessions(db, settings, backends, tenant_id, name, sessions(spec))
    finally:
        await backends.aclose()
    assert report.jobs_failed == 0


async def forest_id(db: Database, tenant_id: uuid.UUID, name: str) -> int:
    async with db.tenant(tenant_id) as conn:
        return (await get_forest(conn, tenant_id, name)).forest_id


async def stats(db: Database, tenant_id: uuid.UUID, name: str) -> dict[str, Any]:
    async with db.tenant(tenant_id) as conn:
        return await forest_stats(conn, tenant_id, await forest_id(db, tenant_id, name))


async def violations(db: Database, tenant_id: uuid.UUID, name: str) -> list[str]:
    fid = await forest_id(db, tenant_id, name)
    async with db.tenant(tenant_id) as conn:
        return (await check_forest(conn, tenant_id, fid)).violations


async def forest_rows(db: Database, tenant_id: uuid.UUID, name: str, sql: str) -> list[Any]:
    """The rows of ``sql`` run with ``:t`` the tenant and ``:f`` the forest ``name``."""
    fid = await forest_id(db, tenant_id, name)
    async with db.tenant(tenant_id) as conn:
        return list(await fetch_all(conn, sql, {"t": tenant_id, "f": fid}))


async def fact_texts(db: Database, tenant_id: uuid.UUID, name: str) -> list[str]:
    rows = await forest_rows(
        db, tenant_id, name, "SELECT text FROM facts WHERE tenant_id = :t AND forest_id = :f ORDER BY text"
    )
    return [str(r["text"]) for r in rows]


async def consistency(db: Database, tenant_id: uuid.UUID, name: str) -> dict[str, int]:
    """Cross-table properties the write path keeps (the same as tests/test_pipeline_ingest.py's)."""
    fid = await forest_id(db, tenant_id, name)
    q = {
        "dup_hashes": "SELECT count(*) - count(DISTINCT text_hash) FROM facts WHERE tenant_id = :t AND forest_id = :f",
        "placements_minus_leaves": "SELECT (SELECT count(*) FROM placements WHERE tenant_id = :t AND forest_id = :f) "
        "- (SELECT count(*) FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level = 0)",
        "sources_minus_count": "SELECT (SELECT count(*) FROM fact_sources WHERE tenant_id = :t AND forest_id = :f) "
        "- (SELECT coalesce(sum(source_count), 0) FROM facts WHERE tenant_id = :t AND forest_id = :f)",
        "facts_not_in_one_scene": "SELECT count(*) FROM facts x WHERE x.tenant_id = :t AND x.forest_id = :f AND "
        "(SELECT count(*) FROM placements p JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id "
        "WHERE p.tenant_id = :t AND tr.kind = 'scene' AND p.source_kind = 'fact' AND p.source_id = x.fact_id) <> 1",
        "scene_members_minus_facts": "SELECT (SELECT coalesce(sum(member_count), 0) FROM scene_clusters "
        "WHERE tenant_id = :t AND forest_id = :f) "
        "- (SELECT count(*) FROM facts WHERE tenant_id = :t AND forest_id = :f)",
        "entity_count_mismatch": "SELECT count(*) FROM entities e WHERE e.tenant_id = :t AND e.forest_id = :f "
        "AND e.fact_count <> (SELECT count(*) FROM entity_facts ef WHERE ef.tenant_id = :t "
        "AND ef.entity_id = e.entity_id)",
        "activated_links_without_leaf": "SELECT count(*) FROM entity_facts ef JOIN entities e ON e.tenant_id = "
        "ef.tenant_id AND e.entity_id = ef.entity_id WHERE ef.tenant_id = :t AND e.forest_id = :f AND e.activated "
        "AND NOT EXISTS (SELECT 1 FROM placements p JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = "
        "p.tree_id WHERE p.tenant_id = :t AND tr.forest_id = :f AND tr.kind = 'entity' AND tr.key = e.key "
        "AND p.source_kind = 'fact' AND p.source_id = ef.fact_id)",
    }
    async with db.tenant(tenant_id) as conn:
        return {k: int(await scalar(conn, sql, {"t": tenant_id, "f": fid})) for k, sql in q.items()}


@pytest.fixture
async def two_forests(db: Database, settings: Settings) -> uuid.UUID:
    tenant_id = await ensure_tenant(db, "acme")
    await ingest(db, settings, tenant_id, "alpha", ALPHA)
    await ingest(db, settings, tenant_id, "beta", BETA)
    return tenant_id


async def run_merge(
    db: Database, settings: Settings, src: tuple[uuid.UUID, str], dst: tuple[uuid.UUID, str], ledger: UsageLedger
) -> dict[str, Any]:
    backends = build_backends(settings)
    try:
        report = await merge_forests(
            db, settings, backends, src_tenant=src[0], src_forest_id=await forest_id(db, *src), dst_tenant=dst[0],
            dst_forest_id=await forest_id(db, *dst), ledger=ledger,
        )  # fmt: skip
    finally:
        await backends.aclose()
    return report.as_dict()


# ---------------------------------------------------------------- the merge itself


async def test_merge_dedups_shared_fact_copies_the_rest_and_checks(
    db: Database, settings: Settings, two_forests: uuid.UUID
) -> None:
    t = two_forests
    alpha_before, beta_before = await stats(db, t, "alpha"), await stats(db, t, "beta")
    alpha_facts, beta_facts = await fact_texts(db, t, "alpha"), await fact_texts(db, t, "beta")
    shared = sorted(set(alpha_facts) & set(beta_facts))
    assert any("Pebble" in x for x in shared), shared  # the invented overlap really is one fact in each

    ledger = UsageLedger()
    report = await run_merge(db, settings, (t, "alpha"), (t, "beta"), ledger)

    assert "extract" not in ledger.as_dict()  # no extraction replayed
    assert report["facts_exact"] == len(shared) and report["facts_new"] + report["facts_exact"] + report[
        "facts_near"
    ] == len(alpha_facts)
    merged = await fact_texts(db, t, "beta")
    assert sorted(set(merged)) == sorted(set(alpha_facts) | set(beta_facts)) or report["facts_near"] > 0
    assert len(merged) == len(beta_facts) + report["facts_new"]
    after = await stats(db, t, "beta")
    assert after["sessions"] == alpha_before["sessions"] + beta_before["sessions"]
    assert after["turns"] == alpha_before["turns"] + beta_before["turns"]
    assert after["dirty_nodes"] == 0
    assert after["fact_sources"] == alpha_before["fact_sources"] + beta_before["fact_sources"]
    assert report["trees_matched"] >= 1 and report["trees_copied"] >= 1  # the Odalys tree matched, others copied
    assert await violations(db, t, "beta") == []
    assert all(v == 0 for v in (await consistency(db, t, "beta")).values()), await consistency(db, t, "beta")
    assert await stats(db, t, "alpha") == alpha_before  # the source is left as it was

    # The shared fact: one row, sources from both forests' sessions (alpha's s1 was renamed).
    fid = await forest_id(db, t, "beta")
    async with db.tenant(t) as conn:
        rows = await fetch_all(
            conn,
            "SELECT x.fact_id, x.source_count, s.external_id, tu.external_id AS turn FROM facts x "
            "JOIN fact_sources fs ON fs.tenant_id = x.tenant_id AND fs.fact_id = x.fact_id "
            "JOIN sessions s ON s.tenant_id = fs.tenant_id AND s.session_id = fs.session_id "
            "JOIN turns tu ON tu.tenant_id = fs.tenant_id AND tu.turn_id = fs.turn_id "
            "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.text LIKE '%Pebble%'",
            {"t": t, "f": fid},
        )
        leaves = await scalar(
            conn,
            "SELECT count(*) FROM nodes n JOIN trees tr ON tr.tenant_id = n.tenant_id AND tr.tree_id = n.tree_id "
            "WHERE n.tenant_id = :t AND n.forest_id = :f AND tr.kind = 'scene' AND n.leaf_fact_id = :x",
            {"t": t, "f": fid, "x": rows[0]["fact_id"]},
        )
        meta = await scalar(
            conn,
            "SELECT metadata FROM sessions WHERE tenant_id = :t AND forest_id = :f AND external_id = 'alpha/s1'",
            {"t": t, "f": fid},
        )
    assert len({r["fact_id"] for r in rows}) == 1
    assert {(r["external_id"], r["turn"]) for r in rows} == {("s1", "s1:t0"), ("alpha/s1", "s1:t2")}
    assert rows[0]["source_count"] == 2
    assert leaves == 1  # merged into B's fact: a source, never a second leaf
    assert meta["merged_from"] == {"forest": "alpha", "session_id": "s1"}


async def test_a_copied_tree_loses_only_the_leaf_of_a_merged_fact(db: Database, settings: Settings) -> None:
    t = await ensure_tenant(db, "acme")
    await ingest(db, settings, t, "alpha", ALPHA)
    # Someone else states the same fact about Odalys: same text, but no Odalys tree in gamma.
    gamma = [
        (
            "g1",
            datetime(2021, 11, 5, 8, 0, tzinfo=UTC),
            [("Zed", "Odalys keeps a tortoise named Pebble in Odalys's greenhouse."), ("Wren", "I map old sea caves.")],
        )
    ]
    await ingest(db, settings, t, "gamma", gamma)

    async def odalys_tree(forest: str) -> list[str]:
        rows = await forest_rows(
            db,
            t,
            forest,
            "SELECT x.text FROM nodes n JOIN trees tr ON tr.tenant_id = n.tenant_id AND tr.tree_id = n.tree_id "
            "JOIN facts x ON x.tenant_id = n.tenant_id AND x.fact_id = n.leaf_fact_id WHERE n.tenant_id = :t "
            "AND tr.forest_id = :f AND tr.kind = 'entity' AND tr.key = 'odalys' AND n.level = 0 ORDER BY 1",
        )
        return [str(r["text"]) for r in rows]

    assert len(await odalys_tree("alpha")) >= 3 and await odalys_tree("gamma") == []
    report = await run_merge(db, settings, (t, "alpha"), (t, "gamma"), UsageLedger())
    # alpha's Odalys tree is copied; its leaf of the merged fact goes (gamma's fact keeps its own
    # leaves), and gamma's own link of that fact to Odalys then places it there once.
    assert report["facts_exact"] == 1 and report["leaves_removed"] >= 1 and report["trees_copied"] >= 1
    assert await odalys_tree("gamma") == await odalys_tree("alpha")
    assert await violations(db, t, "gamma") == []
    assert all(v == 0 for v in (await consistency(db, t, "gamma")).values()), await consistency(db, t, "gamma")
    assert (await stats(db, t, "gamma"))["dirty_nodes"] == 0


async def test_queries_on_the_target_find_the_sources_facts_with_original_turn_ids(
    db: Database, settings: Settings, two_forests: uuid.UUID
) -> None:
    t = two_forests
    await run_merge(db, settings, (t, "alpha"), (t, "beta"), UsageLedger())
    backends = build_backends(settings)
    try:
        result = await query(
            db, settings, backends, t, QueryRequest("beta", "Where does Ysolde breed carrier pigeons?")
        )
    finally:
        await backends.aclose()
    top = result.evidence[:3]
    assert any("Tromso" in e.text for e in top), [e.text for e in top]
    hit = next(e for e in top if "Tromso" in e.text)
    assert hit.session_id == "alpha/s1" and hit.turn_ids and all(x.startswith("s1:t") for x in hit.turn_ids)
    copied = await forest_id(db, t, "beta")
    async with db.tenant(t) as conn:
        s2 = await scalar(
            conn,
            "SELECT count(*) FROM sessions WHERE tenant_id = :t AND forest_id = :f AND external_id = 's2'",
            {"t": t, "f": copied},
        )
    assert s2 == 1  # no collision: kept its id


async def test_merging_twice_changes_nothing_more(db: Database, settings: Settings, two_forests: uuid.UUID) -> None:
    t = two_forests
    await run_merge(db, settings, (t, "alpha"), (t, "beta"), UsageLedger())
    once = await stats(db, t, "beta")
    again = await run_merge(db, settings, (t, "alpha"), (t, "beta"), UsageLedger())
    # alpha's sessions are recognised (also the renamed alpha/s1): shared, not copied again
    assert again["sessions_shared"] == 2 and again["sessions_copied"] == 0
    assert again["facts_new"] == 0 and again["sources_added"] == 0 and again["leaves_inserted"] == 0
    assert await stats(db, t, "beta") == once
    assert await violations(db, t, "beta") == []


async def test_merge_hangs_matched_trees_leaves_in_batches(
    db: Database, settings: Settings, two_forests: uuid.UUID, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A's leaves for B's matching trees go in through the batch insertion, full batches but the
    last of each call site, and the forest checks clean."""
    calls: list[int] = []
    hang = merge_trees.hang_leaves

    async def counting(conn: Any, t: uuid.UUID, items: Any, stats: Any) -> Any:
        calls.append(len(items))
        return await hang(conn, t, items, stats)

    monkeypatch.setattr(merge_trees, "hang_leaves", counting)
    monkeypatch.setattr(merge_trees, "LEAF_BATCH", 3)
    monkeypatch.setattr(merge_trees, "PROGRESS_STEPS", 1)  # batches as large as LEAF_BATCH allows
    t = two_forests
    report = await run_merge(db, settings, (t, "alpha"), (t, "beta"), UsageLedger())
    assert report["leaves_inserted"] > 3 and sum(calls) >= report["leaves_inserted"]
    assert max(calls) <= 3 and len(calls) <= sum(calls) // 3 + 2  # full batches, one short per call site
    assert await violations(db, t, "beta") == []
    assert (await stats(db, t, "beta"))["dirty_nodes"] == 0


async def _tree_shapes(db: Database, tenant_id: uuid.UUID, name: str) -> dict[tuple[str, str], list[tuple[Any, ...]]]:
    """Per tree (kind, label), its nodes in key order: level, interval, child count, version, dirty
    flag, text and the parent's start (ids and seqs left out: they differ between forests)."""
    rows = await forest_rows(
        db,
        tenant_id,
        name,
        "SELECT tr.kind, tr.label, n.level, n.t_start, n.t_end, n.n_children, n.version, n.dirty, n.summary, "
        "p.t_start AS parent_start FROM nodes n JOIN trees tr ON tr.tenant_id = n.tenant_id "
        "AND tr.tree_id = n.tree_id LEFT JOIN nodes p ON p.tenant_id = n.tenant_id AND p.node_id = n.parent_id "
        "WHERE n.tenant_id = :t AND n.forest_id = :f ORDER BY tr.kind, tr.label, n.level, n.t_start, n.seq",
    )
    shapes: dict[tuple[str, str], list[tuple[Any, ...]]] = {}
    for r in rows:
        key = (str(r["kind"]), str(r["label"]))
        shapes.setdefault(key, []).append(tuple(r[c] for c in list(r.keys())[2:]))
    return shapes


async def test_merge_in_batches_builds_what_one_leaf_at_a_time_builds(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With fan-out 2 (every tree splits), merging one forest into two identical ones, one leaf a
    call into the first and three a call into the second, leaves the two with the same trees, node
    for node: keys, intervals, child counts, versions, dirty flags and texts."""
    pipe = settings.pipeline.model_copy(update={"fanout_session": 2, "fanout_entity": 2, "fanout_scene": 2})
    s = settings.model_copy(update={"pipeline": pipe})
    t = await ensure_tenant(db, "acme")
    await ingest(db, s, t, "alpha", ALPHA)
    for name in ("one-by-one", "batched"):
        await ingest(db, s, t, name, BETA)
    monkeypatch.setattr(merge_trees, "PROGRESS_STEPS", 1)
    reports = {}
    for name, batch in (("one-by-one", 1), ("batched", 3)):
        monkeypatch.setattr(merge_trees, "LEAF_BATCH", batch)
        reports[name] = await run_merge(db, s, (t, "alpha"), (t, name), UsageLedger())
    assert reports["batched"]["leaves_inserted"] > 3
    drop = {"wall_s", "stage_wall_s", "dst_forest"}
    assert {k: v for k, v in reports["batched"].items() if k not in drop} == {
        k: v for k, v in reports["one-by-one"].items() if k not in drop
    }
    one, batched = await _tree_shapes(db, t, "one-by-one"), await _tree_shapes(db, t, "batched")
    assert max(len(v) for v in one.values()) > 3  # trees with inner nodes: splits happened
    assert batched == one
    assert await violations(db, t, "batched") == []


def test_merge_leaf_batches_keep_progress_moving() -> None:
    """A merge's leaves go in batches of at most 2,000, and small enough that its progress moves
    about 20 times (one leaf a call below 20)."""
    assert merge_trees.batch_size(5) == 1 and merge_trees.batch_size(20) == 1 and merge_trees.batch_size(2_053) == 103
    assert merge_trees.batch_size(100_000) == 2_000 and merge_trees.batch_size(0) == 1


async def test_merge_into_an_empty_forest_copies_every_tree(
    db: Database, settings: Settings, two_forests: uuid.UUID
) -> None:
    t = two_forests
    async with db.tenant(t) as conn:
        await ensure_forest(conn, t, "empty")
    report = await run_merge(db, settings, (t, "alpha"), (t, "empty"), UsageLedger())
    src, dst = await stats(db, t, "alpha"), await stats(db, t, "empty")
    for key in ("sessions", "turns", "cells", "facts", "fact_sources", "entities", "nodes", "leaves", "placements"):
        assert dst[key] == src[key], key
    assert dst["trees_by_kind"] == src["trees_by_kind"] and dst["max_height_by_kind"] == src["max_height_by_kind"]
    assert report["trees_matched"] == 0 and report["leaves_inserted"] == 0
    assert report["nodes_refreshed"] == 0  # copied clean: nothing to refresh
    assert await violations(db, t, "empty") == []


async def test_bad_merges_are_refused(db: Database, settings: Settings, two_forests: uuid.UUID) -> None:
    t = two_forests
    fid = await forest_id(db, t, "alpha")
    backends = build_backends(settings)
    with pytest.raises(InputError):
        await merge_forests(
            db, settings, backends, src_tenant=t, src_forest_id=fid, dst_tenant=t, dst_forest_id=fid,
            ledger=UsageLedger(),
        )  # fmt: skip
    with pytest.raises(NotFoundError):
        await merge_forests(
            db, settings, backends, src_tenant=t, src_forest_id=fid + 1000, dst_tenant=t, dst_forest_id=fid,
            ledger=UsageLedger(),
        )  # fmt: skip
    await backends.aclose()


# ---------------------------------------------------------------- API: jobs and tenant rules


@pytest.fixture
async def api(settings: Settings, db: Database) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    s = settings.model_copy(update={"admin_key": SecretStr(ADMIN)}, deep=True)
    app = create_app(s, db=db, start_worker=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield app, client


ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}


async def key_for(client: httpx.AsyncClient, tenant_id: uuid.UUID, scopes: list[str]) -> dict[str, str]:
    r = await client.post(f"/v1/tenants/{tenant_id}/keys", json={"scopes": scopes}, headers=ADMIN_AUTH)
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['key']}"}


async def run_jobs(db: Database, settings: Settings, tenant_id: uuid.UUID) -> None:
    backends = build_backends(settings)
    try:
        await run_worker(db, settings, backends, stop_when_idle=True, tenant_id=tenant_id)
    finally:
        await backends.aclose()


async def test_api_merge_job_within_a_tenant(
    db: Database, settings: Settings, two_forests: uuid.UUID, api: tuple[FastAPI, httpx.AsyncClient]
) -> None:
    t, (_, client) = two_forests, api
    writer, reader = await key_for(client, t, ["read", "write"]), await key_for(client, t, ["read"])
    assert (await client.post("/v1/forests/beta/merge", json={"from": "alpha"}, headers=reader)).status_code == 403
    assert (await client.post("/v1/forests/beta/merge", json={"from": "nope"}, headers=writer)).status_code == 404
    assert (await client.post("/v1/forests/beta/merge", json={"from": "beta"}, headers=writer)).status_code == 422
    assert (await client.post("/v1/forests/beta/merge", json={}, headers=writer)).status_code == 422
    expected = len(set(await fact_texts(db, t, "alpha")) | set(await fact_texts(db, t, "beta")))
    r = await client.post("/v1/forests/beta/merge", json={"from": "alpha"}, headers=writer)
    assert r.status_code == 202, r.text
    await run_jobs(db, settings, t)
    job = (await client.get(f"/v1/jobs/{r.json()['job_id']}", headers=reader)).json()
    assert job["state"] == "succeeded" and job["kind"] == "merge", job
    assert job["progress"]["stage"] == "refresh" and "extract" not in job["usage"]
    assert job["result"]["facts_exact"] >= 1
    assert len(await fact_texts(db, t, "beta")) <= expected and await violations(db, t, "beta") == []


async def test_cross_tenant_merge_needs_the_admin_key(
    db: Database, settings: Settings, api: tuple[FastAPI, httpx.AsyncClient]
) -> None:
    _, client = api
    t1, t2 = await ensure_tenant(db, "north"), await ensure_tenant(db, "south")
    await ingest(db, settings, t1, "alpha", ALPHA)
    await ingest(db, settings, t2, "beta", BETA)
    k1, k2 = (
        await key_for(client, t1, ["read", "write", "admin"]),
        await key_for(client, t2, ["read", "write", "admin"]),
    )
    before = (await stats(db, t1, "alpha"), await stats(db, t2, "beta"))

    r = await client.post("/v1/forests/beta/merge", json={"from": "alpha", "from_tenant": str(t1)}, headers=k2)
    assert r.status_code == 403 and r.headers["content-type"].startswith("application/problem+json")
    assert (await client.post("/v1/forests/beta/merge", json={"from": "alpha"}, headers=k2)).status_code == 404
    body = {"from_tenant": str(t1), "from_forest": "alpha", "into_tenant": str(t2), "into_forest": "beta"}
    assert (await client.post("/v1/admin/merge", json=body, headers=k2)).status_code == 403
    assert (await client.post("/v1/admin/merge", json=body, headers=k1)).status_code == 403
    await run_jobs(db, settings, t1)
    await run_jobs(db, settings, t2)
    assert (await stats(db, t1, "alpha"), await stats(db, t2, "beta")) == before  # nothing changed anywhere
    async with db.system() as conn:
        assert await scalar(conn, "SELECT count(*) FROM jobs WHERE kind = 'merge'") == 0

    r = await client.post("/v1/admin/merge", json=body, headers=ADMIN_AUTH)
    assert r.status_code == 202, r.text
    await run_jobs(db, settings, t2)
    job = (await client.get(f"/v1/admin/tenants/{t2}/jobs/{r.json()['job_id']}", headers=ADMIN_AUTH)).json()
    assert job["state"] == "succeeded", job
    assert job["result"]["cross_tenant"] is True and job["result"]["facts_exact"] >= 1
    after = await stats(db, t2, "beta")
    assert after["sessions"] == before[0]["sessions"] + before[1]["sessions"]
    assert after["facts"] == before[1]["facts"] + job["result"]["facts_new"]
    assert await stats(db, t1, "alpha") == before[0]  # the source tenant is untouched
    assert await violations(db, t2, "beta") == []
    # The merged memory answers for tenant 2 and stays invisible to tenant 1's key.
    r = await client.post("/v1/forests/beta/query", json={"query": "Where does Ysolde breed pigeons?"}, headers=k2)
    assert any("Tromso" in e["text"] for e in r.json()["evidence"][:3])
    assert (await client.get("/v1/forests/beta", headers=k1)).status_code == 404


# ---------------------------------------------------------------- CLI


@pytest.fixture
def cli_env(db_env: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path / "home"))


def test_cli_merge(two_forests: uuid.UUID, cli_env: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["merge", "--from", "alpha", "--into", "beta", "--tenant", "acme", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["src_forest"] == "alpha" and report["facts_exact"] >= 1 and "extract" not in report["model_calls"]
    assert main(["check", "--forest", "beta", "--tenant", "acme"]) == 0
    capsys.readouterr()
    # across tenants from the operator's command line; the target forest is created
    assert main(["merge", "--from", "alpha", "--from-tenant", "acme", "--into", "copy", "--tenant", "other"]) == 0
    assert "merge alpha -> copy" in capsys.readouterr().out
    assert main(["check", "--forest", "copy", "--tenant", "other"]) == 0
    capsys.readouterr()
    assert main(["merge", "--from", "beta", "--into", "beta", "--tenant", "acme"]) == 2
    assert "cannot merge a forest into itself" in capsys.readouterr().err
    assert main(["merge", "--from", "nope", "--into", "beta", "--tenant", "acme"]) == 2
    assert "no forest named 'nope'" in capsys.readouterr().err


async def test_merge_keeps_two_values_of_one_slot_apart(db: Database, settings: Settings) -> None:
    # rules.is_near_duplicate applied set-based: two pets of one person are two states, not one fact
    t = await ensure_tenant(db, "acme")
    when = datetime(2022, 3, 4, 17, 0, tzinfo=UTC)
    cat = "is our new cat, she loves the windowsill."
    await ingest(db, settings, t, "alpha", [("s1", when, [("Odalys", f"Cosmo {cat}")])])
    await ingest(db, settings, t, "beta", [("s1", when + timedelta(days=60), [("Odalys", f"Waffles {cat}")])])
    fid = await forest_id(db, t, "alpha")
    async with db.tenant(t) as conn:
        slot = await fetch_all(
            conn,
            "SELECT subject, attribute, value FROM facts WHERE tenant_id = :t AND forest_id = :f",
            {"t": t, "f": fid},
        )
    assert [(r["subject"], r["attribute"], r["value"]) for r in slot] == [("odalys", "pet", "Cosmo")]  # precondition
    settings.pipeline.near_duplicate_threshold = 0.3  # the two sentences pass any cosine threshold here
    report = await run_merge(db, settings, (t, "alpha"), (t, "beta"), UsageLedger())
    assert report["facts_near"] == 0 and report["facts_new"] == 1
    bid = await forest_id(db, t, "beta")
    async with db.tenant(t) as conn:
        rows = await fetch_all(
            conn,
            "SELECT value, superseded_by IS NOT NULL AS old FROM facts WHERE tenant_id = :t AND forest_id = :f "
            "ORDER BY valid_from",
            {"t": t, "f": bid},
        )
    assert [(r["value"], r["old"]) for r in rows] == [("Cosmo", True), ("Waffles", False)]
