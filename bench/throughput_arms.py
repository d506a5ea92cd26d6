"""The arms of ``bench.throughput``: how each write path is run for one repetition, and the record
each run leaves (wall time, time until each session is queryable, model usage, the server's work).

* ``memforest`` (and ``memforest_burst``): ONE MemForest process at its shipped settings, as a
  deployment serves many users: every user's sessions are accepted, then one worker runs the
  tenant's jobs, its chat budget the server's ``max_num_seqs`` (docs/deploy.md section 3: one
  process against one server); at most ``worker.concurrency`` jobs at once (half the database pool
  ``settings_overrides`` gives it), of which it admits as many as their extraction calls keep that
  budget busy (ADR 0099);
* ``serial_pipeline``: the same pipeline at concurrency 1 inside each user (one job, one extraction
  call and one summary call at a time, no commit overlap), users concurrent;
* ``mem0_v1`` / ``mem0_v2``: the models of Mem0's ``add()`` of :mod:`bench.sequential_memory`,
  one message pair per add, users concurrent.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench.env import BenchEnv
from bench.report import usage_totals
from bench.sequential_memory import ingest_user
from memforest.backends.base import UsageLedger
from memforest.domain import ForestInput, Job, JobState, SessionInput
from memforest.pipeline.service import WRITE_PATH_HANDLERS, accept_sessions, ingest_sessions
from memforest.pipeline.worker import run_worker
from memforest.settings import worker_chat_budget
from memforest.store import jobs as store_jobs

ARMS = ("memforest", "serial_pipeline", "mem0_v1", "mem0_v2", "memforest_burst")
DEFAULT_ARMS = ARMS[:4]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def users_of(conversations: Sequence[ForestInput], users: int, sessions_limit: int | None) -> list[ForestInput]:
    """``users`` users, the conversations in turn; past the first round each copy's speakers get a
    suffix (``Caroline 2``), so that no two users send the server the same prompts (which its prefix
    cache would serve for free)."""
    out = []
    for i in range(users):
        base = conversations[i % len(conversations)]
        copy = i // len(conversations)
        sessions = base.sessions[:sessions_limit]
        if copy:
            sessions = tuple(_renamed(s, f" {copy + 1}") for s in sessions)
        out.append(ForestInput(name=f"{base.name or 'conversation'}-u{i}", sessions=tuple(sessions)))
    return out


def _renamed(session: SessionInput, suffix: str) -> SessionInput:
    turns = tuple(dataclasses.replace(t, speaker=t.speaker + suffix) for t in session.turns)
    return dataclasses.replace(session, turns=turns)


def run_record(arm: str, wall: float, queryable: list[float], usage: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What every run records, whatever the arm."""
    tot = usage_totals(usage)
    return {
        "system": arm,
        "wall_s": wall,
        "sessions": len(queryable),
        "queryable_s": sorted(queryable),
        "queryable_p50_s": percentile(queryable, 0.5),
        "queryable_p95_s": percentile(queryable, 0.95),
        "model_calls": sum(int(u.get("calls", 0)) for stage, u in usage.items() if stage != "embed"),
        "embed_calls": int(usage.get("embed", {}).get("calls", 0)),
        "prompt_tokens": int(tot["prompt_tokens"]),
        "cached_prompt_tokens": int(tot["cached_prompt_tokens"]),
        "completion_tokens": int(tot["completion_tokens"]),
        "model_usage": usage,
    }


def _with_knobs(env: BenchEnv, *, pipeline: dict[str, Any], worker: dict[str, Any]) -> BenchEnv:
    settings = env.settings
    if pipeline:
        settings = settings.model_copy(update={"pipeline": settings.pipeline.model_copy(update=pipeline)})
    if worker:
        settings = settings.model_copy(update={"worker": settings.worker.model_copy(update=worker)})
    return dataclasses.replace(env, settings=settings)


async def run_memforest(
    env: BenchEnv, users: list[ForestInput], tag: str, *, burst: bool, tick: Callable[[], None]
) -> dict[str, Any]:
    """One process serves every user: accept all sessions, then one worker runs the tenant's jobs."""
    if burst:
        env = _with_knobs(env, pipeline={"burst_refresh_handoff": True}, worker={})
    settings = env.settings
    started = time.perf_counter()
    await asyncio.gather(
        *(accept_sessions(env.db, settings, env.tenant_id, f"{u.name}-{tag}", u.sessions) for u in users)
    )
    accept_wall = time.perf_counter() - started
    queryable: list[float] = []
    done: list[Any] = []

    def on_done(job: Job, state: JobState) -> None:
        if state in (JobState.SUCCEEDED, JobState.FAILED):
            done.append(job.job_id)
            if job.kind != store_jobs.REFRESH_KIND:
                queryable.append(time.perf_counter() - started)  # the session's ingest job committed
                tick()

    for early in (False, True):  # then the coalesced refresh jobs, so no node is left dirty
        await run_worker(
            env.db,
            settings,
            env.backends,
            concurrency=settings.worker.concurrency,
            chat_budget=worker_chat_budget(settings),
            stop_when_idle=True,
            tenant_id=env.tenant_id,
            on_done=on_done,
            early=early,
            handlers=WRITE_PATH_HANDLERS,
        )
    wall = time.perf_counter() - started
    async with env.db.tenant(env.tenant_id) as conn:
        rows = await store_jobs.job_outcomes(conn, env.tenant_id, done)
    ledger = UsageLedger()
    stage_wall: dict[str, float] = {}
    counts = {"facts_new": 0, "nodes_refreshed": 0, "jobs_failed": 0, "refresh_jobs": 0}
    for row in rows:
        for stage, u in dict(row["usage"] or {}).items():
            ledger.record(stage, **u)
        result = dict(row["result"] or {})
        for k, v in dict(result.get("stage_wall_s") or {}).items():
            stage_wall[k] = stage_wall.get(k, 0.0) + float(v)
        counts["facts_new"] += int(result.get("facts_new", 0))
        counts["nodes_refreshed"] += int(result.get("nodes_refreshed", 0))
        counts["refresh_jobs"] += row["kind"] == store_jobs.REFRESH_KIND
        counts["jobs_failed"] += row["state"] != JobState.SUCCEEDED.value
    out = run_record("memforest_burst" if burst else "memforest", wall, queryable, ledger.as_dict())
    out.update(counts, accept_wall_s=accept_wall, worker_concurrency=settings.worker.concurrency)
    out["stage_wall_s"] = {k: round(v, 3) for k, v in sorted(stage_wall.items())}
    return out


async def run_serial(env: BenchEnv, users: list[ForestInput], tag: str, *, tick: Callable[[], None]) -> dict[str, Any]:
    """Each user its own worker at concurrency 1 (one job, one extraction and one summary call at a
    time, no commit overlap); users concurrent."""
    env = _with_knobs(
        env, pipeline={"extract_concurrency": 1, "refresh_concurrency": 1}, worker={"commit_overlap": False}
    )
    started = time.perf_counter()
    queryable: list[float] = []

    def progress(_done: int, _total: int) -> None:
        queryable.append(time.perf_counter() - started)
        tick()

    async def one(u: ForestInput) -> dict[str, Any]:
        rep = await ingest_sessions(
            env.db,
            env.settings,
            env.backends,
            env.tenant_id,
            f"{u.name}-{tag}",
            u.sessions,
            progress=progress,
            job_concurrency=1,
            count_forest=False,
        )
        return rep.as_dict()

    reports = await asyncio.gather(*(one(u) for u in users))
    wall = time.perf_counter() - started
    ledger = UsageLedger()
    for d in reports:
        for stage, u in d["model_usage"].items():
            ledger.record(stage, **u)
    out = run_record("serial_pipeline", wall, queryable, ledger.as_dict())
    for key in ("facts_new", "nodes_refreshed", "jobs_failed", "refresh_jobs"):
        out[key] = sum(d[key] for d in reports)
    return out


async def run_mem0(
    env: BenchEnv, users: list[ForestInput], version: str, *, tick: Callable[[], None]
) -> dict[str, Any]:
    """Every user's adds one after another, users concurrent (:mod:`bench.sequential_memory`)."""
    if env.backends.chat is None:
        raise SystemExit("the Mem0 models need a chat model (--chat-url or --simulate)")
    chat = env.backends.chat
    ledger = UsageLedger()
    started = time.perf_counter()
    reports = await asyncio.gather(
        *(
            ingest_user(
                version, chat, env.backends.embedder, u.sessions, ledger=ledger, started=started, on_session=tick
            )
            for u in users
        )
    )
    wall = time.perf_counter() - started
    out = run_record(f"mem0_{version}", wall, [t for r in reports for t in r.queryable_s], ledger.as_dict())
    out["adds"] = sum(r.adds for r in reports)
    out["facts_extracted"] = sum(r.facts_extracted for r in reports)
    out["memories"] = sum(r.memories for r in reports)
    events: dict[str, int] = {}
    for r in reports:
        for k, v in r.events.items():
            events[k] = events.get(k, 0) + v
    out["events"] = dict(sorted(events.items()))
    return out


async def run_arm(
    env: BenchEnv, arm: str, users: list[ForestInput], tag: str, tick: Callable[[], None]
) -> dict[str, Any]:
    """One run of ``arm`` over ``users``."""
    if arm in ("memforest", "memforest_burst"):
        return await run_memforest(env, users, tag, burst=arm == "memforest_burst", tick=tick)
    if arm == "serial_pipeline":
        return await run_serial(env, users, tag, tick=tick)
    if arm in ("mem0_v1", "mem0_v2"):
        return await run_mem0(env, users, arm.removeprefix("mem0_"), tick=tick)
    raise ValueError(f"unknown arm {arm!r}; use one of {ARMS}")
