"""Shared helpers of the write-path benchmarks: a throwaway database, forest counters, result files,
a deterministic synthetic conversation generator, and a *step-wise* (eager / sequential) write path
composed from the pipeline's own functions.

Nothing here changes MemForest: the step-wise path calls the same extract / embed / canonicalise /
route / insert / refresh functions the worker uses, only at a finer granularity (one cell or one
fact per commit, a full refresh after each), which is how an eager, profile-rewriting memory works.
"""

from __future__ import annotations

import atexit
import json
import os
import platform
import random
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends, build_backends
from memforest.db.engine import Database
from memforest.db.runtime import open_database
from memforest.domain import JobState, SessionInput, TurnInput
from memforest.errors import MemForestError
from memforest.pipeline import jobs
from memforest.pipeline.ingest_job import (
    CellWork,
    IngestCounts,
    _commit,
    _load_cells,
    add_structure_counts,
    commit_candidates,
    embed_candidates,
    mark_cells,
)
from memforest.pipeline.refresh import refresh_forest
from memforest.pipeline.route import Router
from memforest.pipeline.service import accept_sessions
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.sql import fetch_all, lock_forest
from memforest.store.tenants import ensure_tenant, get_forest
from memforest.store.trees import InsertStats

REPO_ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = Path(__file__).resolve().parent / "results"
LOCOMO_CANDIDATES = (
    REPO_ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev5.json",
    Path("/work/shared/data/locomo/locomo_dev5.json"),
)


def default_locomo() -> Path | None:
    """The shared LoCoMo file (``../shared/data/locomo`` from the repo root, else /work/shared)."""
    for path in LOCOMO_CANDIDATES:
        if path.is_file():
            return path
    return None


def locomo_or_complain(data: Path | None) -> Path | None:
    """``data`` or the shared LoCoMo file; None (after one line on stderr) when neither exists."""
    path = data or default_locomo()
    if path is None or not Path(path).is_file():
        print("no LoCoMo data: pass --data FILE (looked for ../shared/data/locomo/locomo_dev5.json)", file=sys.stderr)
        return None
    return Path(path)


def machine_info() -> dict[str, Any]:
    """Where the numbers were taken."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
    }


# ------------------------------------------------------------------------------------ database


@dataclass(slots=True)
class BenchEnv:
    """An open database with a tenant, the settings and the model backends of one bench run."""

    db: Database
    settings: Settings
    backends: Backends
    tenant_id: uuid.UUID
    database: str  # "embedded (temporary)" or the external URL's host part


@asynccontextmanager
async def bench_env(
    *, database_url: str | None = None, settings_overrides: dict[str, Any] | None = None
) -> AsyncIterator[BenchEnv]:
    """A migrated database for one bench run: ``database_url`` when given, else a temporary embedded
    PostgreSQL (deleted when this process's last user of it stops) under a temporary MEMFOREST_HOME."""
    overrides = dict(settings_overrides or {})
    home = Path(tempfile.mkdtemp(prefix="memforest-bench-"))
    where = "external"
    if database_url is None:
        from memforest.db.embedded import start_embedded

        # registered before the server's own exit hook, so it runs after the server stopped
        atexit.register(shutil.rmtree, home, True)

        server = start_embedded(home / "pgdata", delete_on_exit=True)
        server.handle.psql("CREATE DATABASE memforest_bench;")
        database_url = server.url("memforest_bench")
        where = "embedded (temporary)"
    settings = Settings(home=home, database_url=database_url, **overrides)
    backends = build_backends(settings)
    try:
        async with open_database(settings) as db:
            tenant_id = await ensure_tenant(db, "bench")
            yield BenchEnv(db=db, settings=settings, backends=backends, tenant_id=tenant_id, database=where)
    finally:
        await backends.aclose()
        if where == "external":
            shutil.rmtree(home, ignore_errors=True)


async def forest_counts(env: BenchEnv, forest_name: str) -> dict[str, Any]:
    """Facts, trees by kind, nodes, leaves and tree height of one forest (zeros when it is absent)."""
    t = env.tenant_id
    async with env.db.tenant(t) as conn:
        rows = await fetch_all(
            conn, "SELECT forest_id FROM forests WHERE tenant_id = :t AND name = :n", {"t": t, "n": forest_name}
        )
        if not rows:
            return {"facts": 0, "trees": {}, "nodes": 0, "leaves": 0, "height": 0, "superseded": 0}
        p = {"t": t, "f": int(rows[0]["forest_id"])}
        facts = await fetch_all(
            conn,
            "SELECT count(*) AS n, count(*) FILTER (WHERE superseded_by IS NOT NULL) AS sup FROM facts "
            "WHERE tenant_id = :t AND forest_id = :f",
            p,
        )
        trees = await fetch_all(
            conn, "SELECT kind, count(*) AS n FROM trees WHERE tenant_id = :t AND forest_id = :f GROUP BY kind", p
        )
        nodes = await fetch_all(
            conn,
            "SELECT count(*) AS n, count(*) FILTER (WHERE level = 0) AS leaves, coalesce(max(level), 0) AS h "
            "FROM nodes WHERE tenant_id = :t AND forest_id = :f",
            p,
        )
    return {
        "facts": int(facts[0]["n"]),
        "superseded": int(facts[0]["sup"]),
        "trees": {str(r["kind"]): int(r["n"]) for r in sorted(trees, key=lambda r: str(r["kind"]))},
        "nodes": int(nodes[0]["n"]),
        "leaves": int(nodes[0]["leaves"]),
        "height": int(nodes[0]["h"]),
    }


# ------------------------------------------------------------------------------------ results


def write_json(out_dir: Path, name: str, payload: dict[str, Any]) -> Path:
    """Write ``payload`` as ``out_dir/name.json`` (sorted keys, indented)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, sort_keys=True, default=str) + "\n")
    return path


def new_figure(ncols: int, width: float = 5.0, height: float = 3.8) -> tuple[Any, Any]:
    """A matplotlib figure with ``ncols`` axes (headless backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False)
    return fig, axes[0]


def save_figure(fig: Any, out_dir: Path, name: str) -> Path:
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.png"
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def publish(
    out_dir: Path,
    name: str,
    result: dict[str, Any],
    plot: Callable[[dict[str, Any], Path, str], Path],
    render: Callable[[dict[str, Any], Console], None],
    *,
    width: int = 170,
) -> None:
    """What every bench ends with: write the JSON, draw the PNG, print the tables, say where."""
    json_path = write_json(out_dir, name, result)
    png_path = plot(result, out_dir, name)
    console = Console(width=width)
    render(result, console)
    console.print(f"wrote {json_path} and {png_path}")


def usage_totals(usage: dict[str, dict[str, Any]]) -> dict[str, float]:
    """Calls, tokens and summed call latency over every stage of a ledger dict."""
    keys = ("calls", "prompt_tokens", "completion_tokens", "cached_prompt_tokens", "latency_s")
    return {k: sum(float(u.get(k, 0)) for u in usage.values()) for k in keys}


# ------------------------------------------------------------------------------------ synthetic data

_PEOPLE = ("Alice", "Bruno", "Carmen", "Deepak", "Elena", "Farid", "Greta", "Hiro")
_FRIENDS = ("Ines", "Jonas", "Kemal", "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tamsin")
_CITIES = (
    "Denver",
    "Lisbon",
    "Osaka",
    "Toronto",
    "Nairobi",
    "Austin",
    "Berlin",
    "Seattle",
    "Melbourne",
    "Boston",
    "Porto",
    "Krakow",
    "Valencia",
    "Montreal",
    "Dublin",
    "Santiago",
)
_VENUES = (
    "Lake Tahoe",
    "Central Park",
    "Griffith Observatory",
    "Mount Rainier",
    "Golden Gate Park",
    "Red Rocks",
    "Harbor Market",
    "Riverside Library",
    "Pine Ridge Trail",
    "Eastside Climbing Gym",
    "Blue Note Cafe",
    "Maple Community Garden",
)
_COMPANIES = (
    "Acme Labs",
    "Northwind",
    "Globex",
    "Blue Harbor Bank",
    "Initech",
    "Umbrella Health",
    "Vandelay Imports",
    "Stark Analytics",
    "Wayne Logistics",
    "Hooli",
)
_JOBS = (
    "nurse",
    "teacher",
    "software engineer",
    "chef",
    "architect",
    "photographer",
    "accountant",
    "data analyst",
    "physiotherapist",
    "graphic designer",
)
_ACTIVITIES = (
    "hiking",
    "painting",
    "pottery",
    "rock climbing",
    "baking sourdough",
    "running",
    "playing chess",
    "playing guitar",
    "birdwatching",
    "kayaking",
    "swimming",
    "gardening",
)
_FAVORITE = {
    "book": ("Dune", "Middlemarch", "The Hobbit", "Beloved", "Neuromancer", "Emma", "Ulysses"),
    "food": ("ramen", "tacos", "paella", "dumplings", "lasagna", "pho", "falafel"),
    "movie": ("Alien", "Amelie", "Heat", "Up", "Arrival", "Vertigo", "Parasite"),
    "band": ("Radiohead", "Abba", "Queen", "Blur", "Muse", "Oasis", "Pulp"),
}
_PETS = ("dog", "cat", "parrot", "rabbit", "hamster", "turtle")
_PET_NAMES = ("Biscuit", "Luna", "Pepper", "Milo", "Ziggy", "Nala", "Oreo", "Mochi", "Rocket", "Juniper")
_WHEN = (
    "yesterday",
    "last Friday",
    "two weeks ago",
    "last weekend",
    "on Monday",
    "three days ago",
    "last month",
    "this morning",
    "last Tuesday",
    "a week ago",
)
_NEXT = ("next week", "next month", "next Saturday", "in two weeks", "this summer")
_STATUSES = ("single", "engaged", "married")
_QUESTIONS = (
    "How was your week?",
    "What have you been up to lately?",
    "Any news on your side?",
    "How is everything going?",
    "Did anything fun happen recently?",
)
_REPLIES = (
    "That sounds wonderful!",
    "Oh wow, good for you.",
    "Haha, I can imagine.",
    "That is great to hear.",
    "Nice, tell me more next time.",
)


@dataclass(slots=True)
class _Person:
    name: str
    city: str
    job: str
    company: str
    status: str
    age: int
    favorites: dict[str, str] = field(default_factory=dict)


class SyntheticConversations:
    """A deterministic stream of ~10-turn sessions among recurring speakers whose states change over
    time (moves, new jobs, new favourites, birthdays, relationships), so the rule-based extractor finds
    slot facts and supersession happens; events carry relative dates ("last Friday") and recurring
    friends, places and companies, so entity and scene trees keep growing."""

    def __init__(self, seed: int = 0, *, prefix: str = "s", start: datetime | None = None) -> None:
        self.rng = random.Random(seed)
        self.prefix = prefix
        self.time = start or datetime(2020, 1, 6, 9, 0, tzinfo=UTC)
        self.count = 0
        r = self.rng
        self.people = [
            _Person(
                name=n,
                city=r.choice(_CITIES),
                job=r.choice(_JOBS),
                company=r.choice(_COMPANIES),
                status=r.choice(_STATUSES),
                age=r.randint(22, 60),
                favorites={k: r.choice(v) for k, v in _FAVORITE.items()},
            )
            for n in _PEOPLE
        ]

    def _statement(self, p: _Person) -> str:
        r = self.rng
        roll = r.random()
        if roll < 0.10:
            p.city = r.choice([c for c in _CITIES if c != p.city])
            return f"I moved to {p.city} {r.choice(_WHEN)}. The new apartment has {r.randint(2, 9)} windows."
        if roll < 0.17:
            p.job = r.choice([j for j in _JOBS if j != p.job])
            return f"I started working as a {p.job} {r.choice(_WHEN)}."
        if roll < 0.24:
            p.company = r.choice([c for c in _COMPANIES if c != p.company])
            return f"I got a new job at {p.company}. My team there has {r.randint(3, 30)} people."
        if roll < 0.31:
            thing = r.choice(list(_FAVORITE))
            p.favorites[thing] = r.choice(_FAVORITE[thing])
            return f"My favorite {thing} is {p.favorites[thing]} these days."
        if roll < 0.35:
            p.age += 1
            return f"I turned {p.age} {r.choice(_WHEN)} and we celebrated at {r.choice(_VENUES)}."
        if roll < 0.38:
            p.status = r.choice([s for s in _STATUSES if s != p.status])
            return f"I got {p.status} {r.choice(_WHEN)}!"
        if roll < 0.43:
            return (
                f"I adopted a {r.choice(_PETS)} named {r.choice(_PET_NAMES)} {r.choice(_WHEN)}. "
                f"It is {r.randint(1, 11)} months old."
            )
        if roll < 0.55:
            return f"I live in {p.city} and I work as a {p.job} at {p.company}."
        if roll < 0.75:
            return (
                f"I went {r.choice(_ACTIVITIES)} at {r.choice(_VENUES)} {r.choice(_WHEN)} with {r.choice(_FRIENDS)}. "
                f"We stayed for {r.randint(1, 8)} hours."
            )
        if roll < 0.85:
            return f"I am planning to visit {r.choice(_CITIES)} {r.choice(_NEXT)} with {r.choice(_FRIENDS)}."
        if roll < 0.93:
            friend, venue = r.choice(_FRIENDS), r.choice(_VENUES)
            return f"{friend} and I met at {venue} {r.choice(_WHEN)} for {r.randint(2, 40)} minutes."
        return f"I really love {r.choice(_ACTIVITIES)} because it helps me relax after work at {p.company}."

    def session(self) -> SessionInput:
        """The next session (~10 turns)."""
        r = self.rng
        self.time += timedelta(hours=r.randint(6, 40), minutes=r.randint(0, 59))
        a, b = r.sample(self.people, 2)
        n_turns = r.randint(8, 12)
        turns = []
        for i in range(n_turns):
            speaker, other = (a, b) if i % 2 == 0 else (b, a)
            if i == 0:
                text = f"Hi {other.name}! {r.choice(_QUESTIONS)}"
            elif r.random() < 0.2:
                text = f"{r.choice(_REPLIES)} {r.choice(_QUESTIONS)}"
            else:
                text = self._statement(speaker)
                if r.random() < 0.35:
                    text += " " + self._statement(speaker)
            turns.append(TurnInput(speaker=speaker.name, text=text, role="user", external_id=f"t{i}"))
        self.count += 1
        return SessionInput(external_id=f"{self.prefix}{self.count:06d}", time=self.time, turns=tuple(turns))

    def sessions(self, n: int) -> list[SessionInput]:
        return [self.session() for _ in range(n)]


# ------------------------------------------------------------------------------------ step-wise path


@dataclass(slots=True)
class StepwiseReport:
    """What :func:`ingest_stepwise` did."""

    sessions: int = 0
    turns: int = 0
    cells: int = 0
    refreshes: int = 0
    counts: IngestCounts = field(default_factory=IngestCounts)
    usage: UsageLedger = field(default_factory=UsageLedger)
    wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "turns": self.turns,
            "cells": self.cells,
            "refreshes": self.refreshes,
            **self.counts.as_dict(),
            "model_usage": self.usage.as_dict(),
            "wall_s": round(self.wall_s, 4),
        }


async def _extract_one(cell: CellWork, backends: Backends, settings: Settings, ledger: UsageLedger) -> None:
    for attempt in range(settings.pipeline.extract_max_attempts):
        try:
            cell.candidates = sorted(
                await backends.extractor.extract(cell.view, ledger=ledger),
                key=lambda c: (c.valid_from, c.source_turn_seqs),
            )
            cell.error = None
            return
        except MemForestError as exc:
            cell.error = str(exc)
            if attempt + 1 < settings.pipeline.extract_max_attempts:
                continue


async def _commit_fact(
    env: BenchEnv,
    forest_id: int,
    session_id: int,
    cell: CellWork,
    index: int | None,
    embedding: np.ndarray[Any, Any] | None,
    speakers: set[str],
    counts: IngestCounts,
) -> None:
    """One short transaction: canonicalise, route and insert ONE fact of ``cell`` (``index``), and mark
    the cell extracted when ``index`` is its last candidate (or None: a cell without candidates).
    The same steps as the worker's commit (ingest_job), one fact at a time."""
    settings, t = env.settings, env.tenant_id
    insert_stats = InsertStats()
    async with env.db.tenant(t) as conn:
        await lock_forest(conn, t, forest_id)
        router = Router(conn, t, forest_id, settings.pipeline, insert_stats)
        await router.register_speakers(speakers)
        if index is None or index == len(cell.candidates) - 1:
            await mark_cells(conn, t, [cell], counts)
        if index is not None and embedding is not None:
            picks = [(cell, index)]
            embeddings = {(cell.cell_id, index): embedding}
            await commit_candidates(conn, t, forest_id, session_id, router, picks, embeddings, settings, counts)
    add_structure_counts(counts, insert_stats, router)


async def ingest_stepwise(
    env: BenchEnv,
    forest_name: str,
    sessions: Sequence[SessionInput],
    *,
    granularity: str = "cell",
    refresh_concurrency: int = 1,
    progress: Callable[[int], None] | None = None,
) -> StepwiseReport:
    """The sequential / eager write path over ``sessions`` (one at a time, in order).

    ``granularity="cell"``: extract one cell, commit its facts, refresh the forest, next cell.
    ``granularity="fact"``: extract one cell, then commit ONE fact and refresh the forest, next fact
    (refresh after every single insert). Extraction is never parallel here; each session's queued job
    is claimed and finished like a worker would, so the forest ends in the same state kinds as the
    normal path (no dirty node, no queued job)."""
    if granularity not in {"cell", "fact"}:
        raise ValueError("granularity must be 'cell' or 'fact'")
    report = StepwiseReport()
    ledger = report.usage
    t0 = time.perf_counter()
    worker_id = f"bench-stepwise-{uuid.uuid4().hex[:8]}"

    async def refresh(forest_id: int, counts: IngestCounts) -> None:
        t_r = time.perf_counter()
        stats = await refresh_forest(
            env.db,
            env.tenant_id,
            forest_id,
            summarizer=env.backends.summarizer,
            embedder=env.backends.embedder,
            concurrency=refresh_concurrency,
            ledger=ledger,
        )
        counts.nodes_refreshed += stats.nodes_refreshed
        counts.summaries_changed += stats.summaries_changed
        counts.embedded += stats.embedded
        counts.stage_wall_s["refresh"] = counts.stage_wall_s.get("refresh", 0.0) + time.perf_counter() - t_r
        report.refreshes += 1

    def add_stage(counts: IngestCounts, stage: str, since: float) -> None:
        counts.stage_wall_s[stage] = counts.stage_wall_s.get(stage, 0.0) + time.perf_counter() - since

    for session in sessions:
        ta = time.perf_counter()
        forest, accepted = await accept_sessions(env.db, env.settings, env.tenant_id, forest_name, [session])
        report.counts.stage_wall_s["accept"] = report.counts.stage_wall_s.get("accept", 0.0) + time.perf_counter() - ta
        result = accepted[0]
        if not result.created:
            continue
        report.sessions += 1
        report.turns += result.turns
        report.cells += result.cells
        job = await jobs.claim(env.db, worker_id, lease_s=3600, tenant_id=env.tenant_id, forest_id=forest.forest_id)
        counts = IngestCounts(sessions=1)
        forest_id, work, speakers = await _load_cells(env.db, env.tenant_id, result.session_id)
        for cell in work:
            ts = time.perf_counter()
            await _extract_one(cell, env.backends, env.settings, ledger)
            add_stage(counts, "extract", ts)
            ts = time.perf_counter()
            embeddings = await embed_candidates([cell], env.backends, ledger)
            add_stage(counts, "embed", ts)
            if cell.error is not None or granularity == "cell":
                ts = time.perf_counter()
                await _commit(
                    env.db,
                    env.tenant_id,
                    forest_id,
                    result.session_id,
                    [cell],
                    speakers,
                    embeddings,
                    env.settings,
                    counts,
                )
                add_stage(counts, "commit", ts)
                await refresh(forest_id, counts)
                continue
            indexes: list[int | None] = list(range(len(cell.candidates))) or [None]
            for i in indexes:
                ts = time.perf_counter()
                emb = embeddings.get((cell.cell_id, i)) if i is not None else None
                await _commit_fact(env, forest_id, result.session_id, cell, i, emb, speakers, counts)
                add_stage(counts, "commit", ts)
                await refresh(forest_id, counts)
        errors = [{"cell_id": c.cell_id, "error": c.error} for c in work if c.error is not None]
        if job is not None:
            await jobs.finish(
                env.db,
                job,
                JobState.FAILED if errors else JobState.SUCCEEDED,
                result=counts.as_dict(),
                usage={},
                errors=errors,
            )
        report.counts.add(counts)
        if progress is not None:
            progress(1)
    report.wall_s = time.perf_counter() - t0
    return report


def stage_breakdown(stage_wall_s: dict[str, float], accept_wall_s: float | None = None) -> dict[str, float]:
    """Per-stage seconds in the fixed order accept, extract, embed, commit, refresh."""
    out = {"accept": float(accept_wall_s if accept_wall_s is not None else stage_wall_s.get("accept", 0.0))}
    for k in ("extract", "embed", "commit", "refresh"):
        out[k] = float(stage_wall_s.get(k, 0.0))
    return out


async def check_verdict(env: BenchEnv, forest: str) -> str:
    """``ok`` when every tree invariant of the forest holds, else the first violation."""
    async with env.db.tenant(env.tenant_id) as conn:
        f = await get_forest(conn, env.tenant_id, forest)
        report = await check_forest(conn, env.tenant_id, f.forest_id)
    return "ok" if report.ok else report.violations[0]
