"""The write path end to end (DESIGN.md 2): ingest_sessions with the default backends and with the
HTTP backend against the simulated server, re-ingest idempotency, and crash recovery of a worker
killed with SIGKILL in the middle of a job."""

from __future__ import annotations

import asyncio
import math
import os
import signal
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from support import session_input, tenant_url
from support.embedders import FactCellsCountingEmbedder
from support.vectors import facts_by_cell, weighted_unit_mean

from memforest.app.jobs import run_worker
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import IngestReport, accept_sessions, ingest_forests, ingest_sessions
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.jobs import insert_job
from memforest.store.sql import as_vector, fetch_all, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant
from memforest.testing.simulated_llm import SimulationConfig, run_server_in_thread

REPO = Path(__file__).resolve().parents[2]
TABLES = (
    "sessions", "turns", "cells", "facts", "fact_sources", "entities", "entity_facts", "scene_clusters", "trees",
    "nodes", "placements", "jobs",
)  # fmt: skip

CONVERSATION = [
    (
        "s1",
        datetime(2023, 1, 10, 18, 0, tzinfo=UTC),
        [
            "I live in Boston and I work as a nurse at the children's hospital.",
            "That sounds demanding. I started learning the violin last week.",
            "My friend Maria plays the cello in an orchestra.",
            "Maybe Maria could teach me some duets.",
            "I love painting landscapes with watercolors.",
        ],
    ),
    (
        "s2",
        datetime(2023, 3, 2, 19, 30, tzinfo=UTC),
        [
            "Yesterday I went hiking at Mount Tam with Maria.",
            "Nice! I adopted a dog named Rex two weeks ago.",
            "I love painting landscapes with watercolors.",
            "Rex chewed my violin case yesterday.",
        ],
    ),
    (
        "s3",
        datetime(2023, 5, 20, 9, 15, tzinfo=UTC),
        [
            "I moved to Davis last month for a new job at the university hospital.",
            "Congratulations! Rex and I go to the beach every Sunday.",
            "Maria is visiting me in Davis next week.",
            "I finally played my first concert on the violin.",
            "Maria said the cello part was hard.",
            "Let's celebrate with a dinner at the Italian place.",
        ],
    ),
]


def _sessions() -> list[SessionInput]:
    return [session_input(ext, when, texts, minutes=True) for ext, when, texts in CONVERSATION]


async def _table_counts(db: Database) -> dict[str, int]:
    async with db.system() as conn:
        return {t: int(await scalar(conn, f"SELECT count(*) FROM {t}")) for t in TABLES}


async def _check(db: Database, tenant_id: uuid.UUID, forest: str = "f") -> list[str]:
    async with db.tenant(tenant_id) as conn:
        forest_id = await scalar(conn, "SELECT forest_id FROM forests WHERE name = :n", {"n": forest})
        report = await check_forest(conn, tenant_id, int(forest_id))
    return report.violations


async def _consistency(db: Database, tenant_id: uuid.UUID) -> dict[str, Any]:
    """Cross-table facts that must hold after any complete ingest (and after any crash + retry)."""
    async with db.tenant(tenant_id) as conn:
        q = {
            "facts": "SELECT count(*) FROM facts",
            "distinct_hashes": "SELECT count(DISTINCT (forest_id, text_hash)) FROM facts",
            "fact_leaves": "SELECT count(*) FROM nodes WHERE leaf_fact_id IS NOT NULL",
            "dup_leaves": "SELECT count(*) FROM (SELECT 1 FROM nodes WHERE level = 0 "
            "GROUP BY tree_id, leaf_fact_id, leaf_cell_id HAVING count(*) > 1) d",
            "leaves": "SELECT count(*) FROM nodes WHERE level = 0",
            "placements": "SELECT count(*) FROM placements",
            "sources": "SELECT count(*) FROM fact_sources",
            "source_count_sum": "SELECT coalesce(sum(source_count), 0) FROM facts",
            "facts_without_source": "SELECT count(*) FROM facts f WHERE NOT EXISTS "
            "(SELECT 1 FROM fact_sources s WHERE s.fact_id = f.fact_id)",
            "scene_members": "SELECT coalesce(sum(member_count), 0) FROM scene_clusters",
            "facts_not_in_one_scene": "SELECT count(*) FROM facts f WHERE (SELECT count(*) FROM placements p "
            "JOIN trees t ON t.tree_id = p.tree_id WHERE t.kind = 'scene' AND p.source_kind = 'fact' "
            "AND p.source_id = f.fact_id) <> 1",
            "entity_count_mismatch": "SELECT count(*) FROM entities e WHERE e.fact_count <> "
            "(SELECT count(*) FROM entity_facts ef WHERE ef.entity_id = e.entity_id)",
            "pending_cells": "SELECT count(*) FROM cells WHERE extracted_at IS NULL",
            "dirty": "SELECT count(*) FROM nodes WHERE dirty",
            "vectorless_leaves": "SELECT count(*) FROM nodes WHERE level = 0 AND embedding IS NULL",
        }
        return {k: int(await scalar(conn, sql)) for k, sql in q.items()}


def _assert_consistent(c: dict[str, Any]) -> None:
    assert c["facts"] > 0
    assert c["distinct_hashes"] == c["facts"]  # no duplicate fact
    assert c["dup_leaves"] == 0  # no source with two leaves in one tree
    assert c["placements"] == c["leaves"]  # one placement per leaf, one leaf per placement
    assert c["sources"] == c["source_count_sum"] and c["facts_without_source"] == 0
    assert c["scene_members"] == c["facts"] and c["facts_not_in_one_scene"] == 0
    assert c["entity_count_mismatch"] == 0
    assert c["pending_cells"] == 0 and c["dirty"] == 0 and c["vectorless_leaves"] == 0


async def _ingest(db: Database, settings: Settings, tenant_id: uuid.UUID) -> IngestReport:
    backends = build_backends(settings)
    try:
        return await ingest_sessions(db, settings, backends, tenant_id, "f", _sessions())
    finally:
        await backends.aclose()


async def test_ingest_end_to_end_then_reingest_changes_nothing(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "t")
    report = await _ingest(db, settings, tenant_id)
    n_turns = [len(t) for _, _, t in CONVERSATION]
    assert (report.sessions_accepted, report.sessions_unchanged) == (3, 0)
    assert (report.turns, report.cells) == (sum(n_turns), sum(math.ceil(n / 2) for n in n_turns))
    assert (report.jobs_succeeded, report.jobs_failed, report.errors) == (3, 0, [])
    c = report.counts
    assert (c.sessions, c.cells_extracted, c.cells_failed) == (3, report.cells, 0)
    assert c.candidates == c.facts_new + c.facts_merged + c.facts_duplicate
    assert c.facts_merged >= 1  # the watercolor sentence is said in s1 and s2
    assert c.facts_superseded >= 1  # Boston -> Davis
    assert report.as_dict()["model_usage"]["summarize"]["calls"] >= 3

    assert await _check(db, tenant_id) == []
    consistency = await _consistency(db, tenant_id)
    _assert_consistent(consistency)
    counts = await _table_counts(db)
    assert counts["facts"] == c.facts_new
    assert consistency["fact_leaves"] == c.leaves
    assert counts["nodes"] == report.nodes
    async with db.tenant(tenant_id) as conn:
        by_kind = await fetch_all(conn, "SELECT kind, count(*) AS n FROM trees GROUP BY kind")
        superseded = await scalar(conn, "SELECT count(*) FROM facts WHERE supersedes IS NOT NULL")
        speakers = await fetch_all(conn, "SELECT key FROM trees WHERE kind = 'entity' ORDER BY key")
    assert report.trees_by_kind == {str(r["kind"]): int(r["n"]) for r in by_kind}
    assert report.trees_by_kind["session"] == 3
    assert superseded == c.facts_superseded
    assert {"alice", "bob"} <= {r["key"] for r in speakers}

    again = await _ingest(db, settings, tenant_id)
    assert (again.sessions_accepted, again.sessions_unchanged, again.jobs_succeeded) == (0, 3, 0)
    assert (again.turns, again.cells, again.counts.facts_new) == (0, 0, 0)
    assert await _table_counts(db) == counts
    assert again.nodes == report.nodes and again.trees_by_kind == report.trees_by_kind


async def test_forests_sent_at_once_are_served_by_one_worker_as_each_alone(db: Database, settings: Settings) -> None:
    """``ingest_forests``: two forests accepted at once and run by one worker end as the same
    conversation ingested alone ends, each with its own report, and nothing is left dirty; a job
    of the tenant's other forest is not the run's to take."""
    alone = await _ingest(db, settings, await ensure_tenant(db, "alone"))
    tenant_id = await ensure_tenant(db, "t")
    async with db.tenant(tenant_id) as conn:
        other = await ensure_forest(conn, tenant_id, "other")
        foreign = await insert_job(conn, tenant_id, other.forest_id, "rematerialize", {})
    backends = build_backends(settings)
    try:
        with pytest.raises(ValueError, match="named once"):
            await ingest_forests(db, settings, backends, tenant_id, [("a", _sessions()), ("a", _sessions())])
        run = ingest_forests(db, settings, backends, tenant_id, [("a", _sessions()), ("b", _sessions())])
        reports = await asyncio.wait_for(run, 120)
    finally:
        await backends.aclose()
    assert [r.forest for r in reports] == ["a", "b"] and reports[0].forest_id != reports[1].forest_id
    for report in reports:
        assert (report.sessions_accepted, report.jobs_succeeded, report.jobs_failed) == (3, 3, 0)
        assert (report.turns, report.cells, report.nodes) == (alone.turns, alone.cells, alone.nodes)
        assert report.counts.facts_new == alone.counts.facts_new and report.trees_by_kind == alone.trees_by_kind
        assert report.refresh_jobs >= 1 and report.wall_s > 0
        assert [e["state"] for e in report.timeline if e["kind"] == "ingest"] == ["succeeded"] * 3
        assert await _check(db, tenant_id, report.forest) == []
    async with db.tenant(tenant_id) as conn:
        assert await scalar(conn, "SELECT count(*) FROM dirty_nodes") == 0
        assert await scalar(conn, "SELECT count(*) FROM forests") == 3  # the refused call wrote nothing
        assert await scalar(conn, "SELECT state FROM jobs WHERE job_id = :j", {"j": foreign}) == "queued"


def _llm_settings(db_url: str, home: Path, url: str) -> Settings:
    return Settings(
        home=home,
        database_url=db_url,
        database_tenant_url=tenant_url(db_url),
        embedding={"dim": 64},  # type: ignore[arg-type]
        llm={"base_url": url, "max_attempts": 3, "backoff_base_s": 0.01, "backoff_max_s": 0.05},  # type: ignore[arg-type]
    )


async def test_http_backend_in_the_pipeline(db: Database, db_url: str, tmp_path: Path) -> None:
    tenant_id = await ensure_tenant(db, "t")
    config = SimulationConfig(ttft_ms=5, tpot_ms=0.2, embed_dim=64, fail_plan=["500", "429"])
    with run_server_in_thread(config) as url:
        settings = _llm_settings(db_url, tmp_path / "home", url)
        backends = build_backends(settings)
        assert backends.describe()["chat"] != "none"
        try:
            report = await ingest_sessions(db, settings, backends, tenant_id, "f", _sessions()[:1])
        finally:
            await backends.aclose()
    n_cells = math.ceil(len(CONVERSATION[0][2]) / 2)
    assert (report.jobs_succeeded, report.jobs_failed, report.errors) == (1, 0, [])
    usage = report.as_dict()["model_usage"]
    extract = usage["extract"]
    # One call per cell; the two scripted failures (first requests = extraction) were retried.
    assert (extract["calls"], extract["failures"], extract["retries"]) == (n_cells, 0, 2)
    assert extract["prompt_tokens"] > 0 and extract["completion_tokens"] > 0
    assert usage["summarize"]["calls"] >= 1 and usage["summarize"]["failures"] == 0
    assert report.counts.cells_extracted == n_cells and report.counts.facts_new > 0
    assert await _check(db, tenant_id) == []
    _assert_consistent(await _consistency(db, tenant_id))


N_SESSIONS = 4
WORKER = """
import asyncio
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.app.jobs import run_worker
from memforest.settings import Settings

async def main():
    settings = Settings()
    db = Database(settings.database_url, tenant_url=settings.database_tenant_url)
    await run_worker(db, settings, build_backends(settings), stop_when_idle=True, early=True)

asyncio.run(main())
"""


def _many_sessions(n: int) -> list[SessionInput]:
    base = datetime(2023, 1, 1, 12, 0, tzinfo=UTC)
    topics = ["violin", "hiking", "pottery", "sourdough", "chess", "kayaking", "gardening", "astronomy"]
    out = []
    for s in range(n):
        when = base + timedelta(days=7 * s)
        t = topics[s % len(topics)]
        texts = [
            f"I spent the weekend on {t} with Maria near Lake Tahoe.",
            f"Nice, I tried {t} once in Denver, session {s}.",
            f"My sister Emma gave me a book about {t} for my birthday.",
            f"Emma and I want to go {t} together in session {s}.",
            f"I also bought new gear for {t} yesterday.",
            f"We should plan a {t} trip for next month, note {s}.",
        ]
        out.append(
            SessionInput(
                external_id=f"w{s}",
                time=when,
                turns=tuple(TurnInput(("Alice", "Bob")[i % 2], x) for i, x in enumerate(texts)),
            )
        )
    return out


async def _job_states(db: Database) -> list[dict[str, Any]]:
    async with db.system() as conn:
        return await fetch_all(
            conn,
            "SELECT job_id, kind, state, attempts, leased_until < now() AS expired FROM jobs ORDER BY created_at",
        )


async def _running_job_committed(db: Database) -> bool:
    """Whether the running job's session has every cell extracted (its commit is done; refresh is under way)."""
    async with db.system() as conn:
        pending = await scalar(
            conn,
            "SELECT count(*) FROM jobs j JOIN cells c ON c.tenant_id = j.tenant_id "
            "AND c.session_id = (j.payload->>'session_id')::bigint WHERE j.state = 'running' "
            "AND j.kind = 'ingest' AND c.extracted_at IS NULL",
        )
        running = await scalar(conn, "SELECT count(*) FROM jobs WHERE state = 'running' AND kind = 'ingest'")
    return bool(running) and pending == 0


async def _stage_reached(db: Database, kill_during: str) -> bool:
    """Whether the worker is at the stage to kill it in: an ingest job extracting, an ingest job
    refreshing its own lowest levels, or the forest's coalesced refresh job summarising."""
    jobs = await _job_states(db)
    if kill_during == "coalesced":
        return any(j["kind"] == "refresh" and j["state"] == "running" for j in jobs)
    if kill_during == "overlap":  # two sessions at once: one past its model calls, the next extracting
        return sum(j["kind"] == "ingest" and j["state"] == "running" for j in jobs) == 2
    states = [j["state"] for j in jobs if j["kind"] == "ingest"]
    if not ("succeeded" in states and "running" in states):
        return False
    return await _running_job_committed(db) is (kill_during == "refresh")


@pytest.mark.parametrize("kill_during", ["extract", "refresh", "coalesced", "overlap"])
async def test_worker_killed_mid_job_is_recovered_without_duplicates(
    db: Database, db_url: str, tmp_path: Path, kill_during: str
) -> None:
    tenant_id = await ensure_tenant(db, "t")
    config = SimulationConfig(ttft_ms=80, tpot_ms=0.2, embed_dim=64)
    with run_server_in_thread(config) as url:
        settings = _llm_settings(db_url, tmp_path / "home", url)
        _, accepted = await accept_sessions(db, settings, tenant_id, "f", _many_sessions(N_SESSIONS))
        assert all(a.created for a in accepted)
        env = {
            **os.environ,
            "MEMFOREST_DATABASE_URL": db_url,
            "MEMFOREST_DATABASE_TENANT_URL": tenant_url(db_url),
            "MEMFOREST_HOME": str(tmp_path / "worker-home"),
            "MEMFOREST_EMBEDDING__DIM": "64",
            "MEMFOREST_WORKER__LEASE_S": "2",
            "MEMFOREST_WORKER__POLL_INTERVAL_S": "0.1",
            # the forest's refresh job is due after 2 commits, so it can be killed mid-way too
            "MEMFOREST_PIPELINE__REFRESH_COALESCE_COMMITS": "2",
            "MEMFOREST_LLM__BASE_URL": url,
            "MEMFOREST_LLM__MAX_ATTEMPTS": "3",
            # one job at a time (a job's slot held to its end), but for the kill with two alive (ADR 0027)
            "MEMFOREST_WORKER__COMMIT_OVERLAP": str(kill_during == "overlap").lower(),
        }
        with (tmp_path / "worker.log").open("wb") as log:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-c", WORKER, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        try:
            for _ in range(3000):  # wait for the chosen stage: model calls in flight there
                if await _stage_reached(db, kill_during):
                    break
                assert proc.returncode is None, (tmp_path / "worker.log").read_text()[-3000:]
                await asyncio.sleep(0.02)
            else:
                raise AssertionError(f"worker never reached the {kill_during} stage: {await _job_states(db)}")
            proc.send_signal(signal.SIGKILL)
            await asyncio.wait_for(proc.wait(), 10)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        assert proc.returncode == -signal.SIGKILL

        at_kill = await _job_states(db)
        killed = [j["job_id"] for j in at_kill if j["state"] == "running"]
        # the kill left a job half done (at the stage chosen above), or two with the overlap
        assert len(killed) == (2 if kill_during == "overlap" else 1), at_kill
        for _ in range(100):  # the dead worker's lease (2 s) runs out
            if all(j["expired"] for j in await _job_states(db) if j["state"] == "running"):
                break
            await asyncio.sleep(0.1)

        backends = build_backends(settings)
        try:
            await run_worker(db, settings, backends, stop_when_idle=True, early=True)
        finally:
            await backends.aclose()

    final = {j["job_id"]: j for j in await _job_states(db)}
    assert {j["state"] for j in final.values()} == {"succeeded"}
    assert sum(j["kind"] == "ingest" for j in final.values()) == N_SESSIONS
    for job_id in killed:  # claimed by the dead worker, then retried to completion
        assert final[job_id]["attempts"] == 2
        assert final[job_id]["kind"] == ("refresh" if kill_during == "coalesced" else "ingest")
    assert await _check(db, tenant_id) == []
    _assert_consistent(await _consistency(db, tenant_id))
    async with db.tenant(tenant_id) as conn:
        assert await scalar(conn, "SELECT count(*) FROM cells") == N_SESSIONS * 3
        assert await scalar(conn, "SELECT count(*) FROM trees WHERE kind = 'session'") == N_SESSIONS


async def test_cell_vectors_from_facts_give_each_cell_its_facts_mean(db: Database, settings: Settings) -> None:
    """With ``cell_vectors = facts``, the sessions accepted together and committed one job at a time
    leave every cell leaf a vector: the length-weighted mean of the facts drawn from its turns,
    whose text never reaches the model; only a cell no fact came from is embedded."""
    settings.embedding.node_vectors = "children"
    settings.embedding.cell_vectors = "facts"
    tenant_id = await ensure_tenant(db, "t")
    backends = build_backends(settings)
    assert getattr(backends.embedder, "cell_vectors", None) == "facts"  # the factory carries the setting
    seen = FactCellsCountingEmbedder(settings.embedding.dim)
    backends.embedder = seen
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "f", _sessions())
    finally:
        await backends.aclose()
    _assert_consistent(await _consistency(db, tenant_id))
    async with db.tenant(tenant_id) as conn:
        leaves = await fetch_all(
            conn,
            "SELECT n.leaf_cell_id, n.embedding, c.text FROM nodes n JOIN cells c ON c.cell_id = n.leaf_cell_id",
        )
        facts_of = await facts_by_cell(conn)
    assert leaves and facts_of
    for leaf in leaves:
        vector = as_vector(leaf["embedding"])
        if int(leaf["leaf_cell_id"]) in facts_of:
            np.testing.assert_allclose(vector, weighted_unit_mean(facts_of[int(leaf["leaf_cell_id"])]), atol=1e-5)
            assert str(leaf["text"]) not in seen.texts
        else:
            assert seen.texts.count(str(leaf["text"])) == 1
    assert await _check(db, tenant_id) == []
