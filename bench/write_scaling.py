"""Write cost while one forest grows (DESIGN.md 2.5-2.6: maintenance is local, O(log N) per fact).

One forest grows from ~1K to ``--max-facts`` facts with deterministic synthetic sessions (recurring
speakers, friends, places, companies; states that change over time, so supersession happens; ~10
turns per session). Each time the fact count crosses a checkpoint, a probe batch of
``--probe-sessions`` new sessions is ingested one session at a time through the normal write path
(each session its own ingest job, as sessions arrive over the API), and we record per session:
wall time, summary calls, nodes touched (refreshed) and leaves inserted. The normal path is the
coalesced refresh of ADR 0013: each ingest job refreshes the lowest levels it dirtied, and one
refresh job per forest does the upper levels once ``--refresh-every`` commits are pending. Costs are
amortised honestly: the probe ends by flushing the forest (the last refresh job runs), and every
refresh job's calls, nodes and wall time are added to the probe's totals before dividing by the
number of sessions. The ratio last/first of each must stay <= 1.5 (wall time: the amortised mean),
both per session and per inserted leaf; ``pass`` needs both. The synthetic world does not saturate
(its speakers keep meeting new friends and places, ``bench.synthetic``), so a probe session brings
about as many new facts and leaves at 50K facts as at 1K: in a world that runs out of news, leaves
per session fall with size and per session alone would flatter the growth.
Before each probe the database is settled (VACUUM (ANALYZE) and CHECKPOINT, ``--no-settle`` skips
it), so autovacuum set off by the growth batch does not land inside one probe and not another.

The first and the last probe are ~15 minutes apart, and this machine's speed drifts by more than the
gate's margin within an hour (the extraction stage, the same CPU work at every size, took 6.9 and 7.6
ms a session at the first and last probe of one run and 8.9 and 11.5 in another). So each checkpoint
also measures the drift: right after the probe, a reference forest is grown afresh to the first
checkpoint's size (``--reference-facts``) from its own deterministic sessions, probed with the same
32 sessions of its own world every time, and deleted (``forget``; since migration 0019 that takes
well under a second beside 50K facts, ADR 0028), so the main forest's later probes see the database
as before. The reference probes are the same work at every checkpoint, so the last one over the
first is the machine's drift alone; the last/first ratios of the wall times divided by it (``ratios_drift_corrected``;
the work counts do not drift) are reported beside the last/first ratios, which stay the gate
(``pass``), and gate ``pass_drift_corrected``.

Then eager against lazy refresh over the same sessions (fresh forests): eager refreshes the forest
after every single fact insert ("fact") or after every cell ("cell"); lazy per session refreshes
every level at the end of each session's job (the pre-ADR-0013 path); lazy coalesced is the normal
path; lazy batch ingests all the sessions in one call.

Default backends: rule-based extraction, extractive summaries, hashed embeddings.

    python -m bench.write_scaling                      # the documented full run (to 50K facts, ~20 min on 2 cores)
    python -m bench.write_scaling --max-facts 10000    # ~4 minutes on 2 cores
    python -m bench.write_scaling --quick              # smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import text
from tqdm import tqdm

from bench.args import bench_parser, single_run
from bench.cpu_meter import CpuMeter, database_meter
from bench.env import BenchEnv, bench_env, forest_counts
from bench.report import machine_info, new_figure, publish, save_figure, stage_breakdown
from bench.stepwise import ingest_stepwise
from bench.synthetic import SyntheticConversations
from memforest.lifecycle.forget import forget_forest
from memforest.pipeline.service import ingest_sessions
from memforest.settings import Settings

SETTLE_SQL = ("VACUUM (ANALYZE)", "CHECKPOINT")

NAME = "write_scaling"
FULL_FACTS = 50_000  # the issue's gate is 1K -> 50K; a run that stops short gates nothing
DEFAULT_CHECKPOINTS = (1000, 2000, 5000, 10000, 20000, 50000)
RATIO_LIMIT = 1.5
GATE_PER_SESSION = ("wall_s_per_session_mean", "summary_calls_per_session", "nodes_touched_per_session")
GATE_PER_LEAF = ("wall_ms_per_leaf", "summary_calls_per_leaf", "nodes_touched_per_leaf")


def _parser() -> argparse.ArgumentParser:
    p = bench_parser("write_scaling", __doc__.split("\n\n")[0])
    p.add_argument("--max-facts", type=int, default=50_000, help="grow the forest to this many facts")
    p.add_argument(
        "--checkpoints",
        default=None,
        help="comma-separated fact counts to probe at (default 1K,2K,5K,10K,20K,50K up to --max-facts)",
    )
    p.add_argument("--probe-sessions", type=int, default=32, help="sessions in each probe batch")
    p.add_argument(
        "--refresh-every",
        type=int,
        default=None,
        help="ingest commits per coalesced upper-level refresh (default: settings, 16; 1 = every job refreshes all)",
    )
    p.add_argument(
        "--refresh-delay",
        type=float,
        default=3600.0,
        help="seconds before a pending refresh job runs anyway (default 3600, so the probe counts commits, "
        "not seconds, and is deterministic; the service default is 5)",
    )
    p.add_argument("--compare-sessions", type=int, default=30, help="sessions for eager vs lazy (0 skips)")
    p.add_argument("--growth-batch", type=int, default=50, help="max sessions per growth ingest call")
    p.add_argument("--job-concurrency", type=int, default=4, help="ingest jobs at once while growing")
    p.add_argument(
        "--no-settle",
        dest="settle",
        action="store_false",
        help="skip VACUUM (ANALYZE) + CHECKPOINT before each probe (then autovacuum may run inside a probe)",
    )
    p.add_argument(
        "--reference-facts",
        type=int,
        default=None,
        help="after each probe, grow a fresh reference forest to this many facts and probe it with the same "
        "sessions every time: the machine's drift (default: the first checkpoint; 0 skips)",
    )
    p.add_argument(
        "--exact-scan-max-rows",
        type=int,
        default=None,
        help="diagnosis: facts past which a forest gets its own indexes (default: settings, 5000; 0 = from the "
        "first refresh, so every probe pays their upkeep); a run with it set gates nothing",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--embed-dim", type=int, default=None, help="embedding dimension (default: settings)")
    p.add_argument("--database-url", default=None, help="external PostgreSQL (default: temporary embedded)")
    p.add_argument("--quick", action="store_true", help="small smoke run (~150 facts, 2 probe sessions)")
    return p


def _checkpoints(args: argparse.Namespace) -> list[int]:
    if args.checkpoints:
        points = sorted({int(x) for x in str(args.checkpoints).split(",") if x.strip()})
    else:
        points = [c for c in DEFAULT_CHECKPOINTS if c <= args.max_facts]
        if not points or points[-1] != args.max_facts:
            points.append(args.max_facts)
    return [c for c in points if c > 0]


def _summary_calls(report: dict[str, Any]) -> int:
    return int(report.get("model_usage", {}).get("summarize", {}).get("calls", 0))


async def _settle(env: BenchEnv) -> float:
    """VACUUM (ANALYZE) and CHECKPOINT the bench database before a probe, so the autovacuum and the
    dirty-buffer writes that a growth batch triggers do not run during the probe, and the planner
    sees current statistics: every checkpoint is measured on a settled database. Returns seconds."""
    t0 = time.perf_counter()
    async with env.db.engine.connect() as conn:
        auto = await conn.execution_options(isolation_level="AUTOCOMMIT")
        for sql in SETTLE_SQL:
            await auto.execute(text(sql))
    return time.perf_counter() - t0


_NODE_UPDATES = "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'nodes'"


async def _node_updates(env: BenchEnv) -> tuple[int, int]:
    """Row updates of ``nodes`` so far, and how many of them were HOT (the statistics of idle
    backends reach the server within a second, so this waits that long first)."""
    await asyncio.sleep(1.5)
    async with env.db.engine.connect() as conn:
        row = (await conn.execute(text(_NODE_UPDATES))).one()
    return int(row[0]), int(row[1])


def _probe_row(report: dict[str, Any]) -> dict[str, Any]:
    return {
        "wall_s": report["wall_s"],
        "summary_calls": _summary_calls(report),
        "nodes_refreshed": report["nodes_refreshed"],
        "leaves": report["leaves"],
        "splits": report["splits"],
        "facts_new": report["facts_new"],
        "facts_merged": report["facts_merged"],
        "candidates": report["candidates"],
        "refresh_jobs": report["refresh_jobs"],
        "stages": stage_breakdown(report["stage_wall_s"], report["accept_wall_s"]),
    }


def probe_meter(env: BenchEnv) -> CpuMeter:
    """The CPU meter of a probe: this process and the embedded database server."""
    return database_meter(env.settings.home, env.settings.database_url)


async def _probe(env: BenchEnv, forest: str, sessions: list[Any]) -> dict[str, Any]:
    """Ingest the probe sessions one at a time through the normal path (a coalesced refresh job runs
    whenever enough commits are pending), then flush the forest; costs per session, amortised. The
    probe's CPU seconds (this process and the database server's) are measured beside its wall: on a
    shared machine the wall grows with the other processes' load, the CPU much less."""
    meter = probe_meter(env)
    cpu_before = meter.snapshot()
    per: list[dict[str, Any]] = []
    for s in sessions:
        report = await ingest_sessions(
            env.db, env.settings, env.backends, env.tenant_id, forest, [s], job_concurrency=1, flush=False,
            count_forest=False,
        )  # fmt: skip
        per.append(_probe_row(report.as_dict()))
    flush = _probe_row(
        (
            await ingest_sessions(
                env.db, env.settings, env.backends, env.tenant_id, forest, [], job_concurrency=1, count_forest=False
            )
        ).as_dict()
    )
    cpu = CpuMeter.spent(cpu_before, meter.snapshot(), 1.0)
    n = len(per)
    walls = [p["wall_s"] for p in per]  # each session's own call (with a refresh job when one fell due)
    every = [*per, flush]
    candidates = sum(p["candidates"] for p in per)
    leaves = sum(p["leaves"] for p in per)
    stages = {k: sum(p["stages"][k] for p in every) / n for k in per[0]["stages"]}
    return {
        "sessions": n,
        "refresh_jobs": sum(p["refresh_jobs"] for p in every),
        "flush_wall_s": flush["wall_s"],
        "wall_s_per_session_median": statistics.median(walls),
        "wall_s_per_session_mean": sum(p["wall_s"] for p in every) / n,
        "summary_calls_per_session": sum(p["summary_calls"] for p in every) / n,
        "nodes_touched_per_session": sum(p["nodes_refreshed"] for p in every) / n,
        "leaves_per_session": sum(p["leaves"] for p in per) / n,
        "splits_per_session": sum(p["splits"] for p in per) / n,
        "facts_new_per_session": sum(p["facts_new"] for p in per) / n,
        "candidates_per_session": candidates / n,
        "wall_ms_per_candidate": 1000 * sum(p["wall_s"] for p in every) / max(1, candidates),
        # per inserted leaf: the same work divided by the leaves the probe inserted, which does not
        # fall when a saturating world yields fewer new facts per session
        "wall_ms_per_leaf": 1000 * sum(p["wall_s"] for p in every) / max(1, leaves),
        "summary_calls_per_leaf": sum(p["summary_calls"] for p in every) / max(1, leaves),
        "nodes_touched_per_leaf": sum(p["nodes_refreshed"] for p in every) / max(1, leaves),
        "stage_s_per_session": stages,
        # CPU seconds of this process (client) and the database server over the probe, per inserted
        # leaf and per session: not gated (the gate is the wall), reported as the load-robust view
        "cpu_ms_per_leaf": 1000 * float(cpu["total_s"]) / max(1, leaves),
        "cpu_s_per_session": {k: None if cpu[k] is None else float(cpu[k]) / n for k in ("client_s", "database_s")},
    }


def _mode_row(reports: Sequence[dict[str, Any]], refreshes: int, wall_s: float) -> dict[str, Any]:
    """One row of the eager-vs-lazy table from the ingest reports of one mode."""
    return {
        "refreshes": refreshes,
        "summary_calls": sum(_summary_calls(d) for d in reports),
        "nodes_refreshed": sum(d["nodes_refreshed"] for d in reports),
        "facts_new": sum(d["facts_new"] for d in reports),
        "leaves": sum(d["leaves"] for d in reports),
        "wall_s": wall_s,
    }


async def _one_session_at_a_time(
    env: BenchEnv, settings: Settings, forest: str, sessions: Sequence[Any], tick: Callable[[], None]
) -> dict[str, Any]:
    """Each session its own ingest call without a flush, then one closing flush; every job that ran
    (ingest and refresh) counts as one refresh pass."""
    t0 = time.perf_counter()
    reports = []
    for s in [*sessions, None]:  # None: the closing flush
        reports.append(
            (
                await ingest_sessions(
                    env.db, settings, env.backends, env.tenant_id, forest, [s] if s else [], job_concurrency=1,
                    flush=s is None, count_forest=False,
                )
            ).as_dict()
        )  # fmt: skip
        if s is not None:
            tick()
    refreshes = sum(d["jobs_succeeded"] + d["refresh_jobs"] for d in reports)
    return _mode_row(reports, refreshes, time.perf_counter() - t0)


async def _compare(env: BenchEnv, args: argparse.Namespace, bar: tqdm[Any] | None) -> dict[str, Any]:
    """Eager (per fact, per cell) against lazy (per session job, coalesced, one batch) over the same
    sessions."""
    sessions = SyntheticConversations(args.seed + 1, prefix="c").sessions(args.compare_sessions)
    modes: dict[str, dict[str, Any]] = {}

    def tick(n: int = 1) -> None:
        if bar is not None:
            bar.update(n)

    for granularity in ("fact", "cell"):
        rep = await ingest_stepwise(
            env,
            f"cmp-eager-{granularity}",
            sessions,
            granularity=granularity,
            refresh_concurrency=env.settings.pipeline.refresh_concurrency,
            progress=tick,
        )
        d = rep.as_dict()
        modes[f"eager_per_{granularity}"] = _mode_row([d], d["refreshes"], d["wall_s"])
    # every job refreshes every level itself: the path before ADR 0013
    per_job = env.settings.model_copy(
        update={"pipeline": env.settings.pipeline.model_copy(update={"refresh_coalesce_commits": 1})}
    )
    modes["lazy_per_session"] = await _one_session_at_a_time(env, per_job, "cmp-lazy-session", sessions, tick)
    modes["lazy_coalesced"] = await _one_session_at_a_time(env, env.settings, "cmp-lazy-coalesced", sessions, tick)
    d = (
        await ingest_sessions(
            env.db,
            env.settings,
            env.backends,
            env.tenant_id,
            "cmp-lazy-batch",
            sessions,
            job_concurrency=args.job_concurrency,
        )
    ).as_dict()
    tick(len(sessions))
    modes["lazy_batch"] = _mode_row([d], d["jobs_succeeded"] + d["jobs_failed"] + d["refresh_jobs"], d["wall_s"])
    lazy = max(1, modes["lazy_per_session"]["summary_calls"])
    return {
        "sessions": len(sessions),
        "turns": sum(len(s.turns) for s in sessions),
        "modes": modes,
        "eager_fact_over_lazy_summary_calls": modes["eager_per_fact"]["summary_calls"] / lazy,
        "eager_cell_over_lazy_summary_calls": modes["eager_per_cell"]["summary_calls"] / lazy,
        "lazy_per_session_over_coalesced_summary_calls": lazy / max(1, modes["lazy_coalesced"]["summary_calls"]),
    }


async def _grow(
    env: BenchEnv,
    gen: SyntheticConversations,
    forest: str,
    target: int,
    args: argparse.Namespace,
    on_facts: Callable[[int], None] | None = None,
) -> tuple[int, float]:
    """Ingest ``gen``'s sessions into ``forest`` in batches until it holds ``target`` facts; returns
    (sessions ingested, seconds). ``on_facts`` hears the fact count after each batch."""
    facts = start = (await forest_counts(env, forest))["facts"]
    sessions = 0
    wall = 0.0
    facts_per_session = 10.0
    while facts < target:
        need = max(1, int((target - facts) / max(1.0, facts_per_session)) + 1)
        batch = gen.sessions(min(args.growth_batch, need))
        t0 = time.perf_counter()
        await ingest_sessions(
            env.db, env.settings, env.backends, env.tenant_id, forest, batch, job_concurrency=args.job_concurrency
        )
        wall += time.perf_counter() - t0
        sessions += len(batch)
        now = (await forest_counts(env, forest))["facts"]
        facts_per_session = max(1.0, (now - start) / sessions)
        if on_facts is not None:
            on_facts(now)
        facts = now
    return sessions, wall


async def _reference_probe(env: BenchEnv, args: argparse.Namespace, index: int, target: int) -> dict[str, Any]:
    """The same work at every checkpoint: grow a fresh reference forest to ``target`` facts from its
    own world (the same sessions every time), settle, probe it with that world's next sessions (the
    same every time), then delete it so that the main forest's later probes see the database as
    before."""
    forest = f"write-scaling-reference-{index}"
    gen = SyntheticConversations(args.seed + 2, prefix="r")
    await _grow(env, gen, forest, target, args)
    before = await forest_counts(env, forest)
    settle_s = await _settle(env) if args.settle else None
    probe = await _probe(env, forest, gen.sessions(args.probe_sessions))
    t0 = time.perf_counter()
    await forget_forest(env.db, env.tenant_id, forest)
    return {"forest_before": before, "settle_s": settle_s, **probe, "delete_s": round(time.perf_counter() - t0, 3)}


# the wall times a drift correction applies to (work counts do not drift with the machine)
DRIFTING = ("wall_ms_per_leaf", "wall_s_per_session_mean", "wall_s_per_session_median", "wall_ms_per_candidate")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    checkpoints = _checkpoints(args)
    pipeline: dict[str, Any] = {"refresh_coalesce_delay_s": args.refresh_delay}
    if args.refresh_every is not None:
        pipeline["refresh_coalesce_commits"] = args.refresh_every
    overrides: dict[str, Any] = {"pipeline": pipeline}
    if args.embed_dim:
        overrides["embedding"] = {"dim": args.embed_dim}
    if args.exact_scan_max_rows is not None:
        overrides["retrieval"] = {"exact_scan_max_rows": args.exact_scan_max_rows}
    gen = SyntheticConversations(args.seed, prefix="g")
    forest = "write-scaling"
    t_start = time.perf_counter()
    results: list[dict[str, Any]] = []
    growth_sessions = 0
    growth_wall = 0.0
    async with bench_env(database_url=args.database_url, settings_overrides=overrides, home=args.home) as env:
        bar = tqdm(
            total=checkpoints[-1],
            unit="fact",
            desc="growing forest",
            disable=args.no_progress,
            file=sys.stderr,
            dynamic_ncols=True,
        )
        reference_facts = checkpoints[0] if args.reference_facts is None else args.reference_facts

        def advance(now: int) -> None:
            bar.update(min(now, checkpoints[-1]) - min(bar.n, checkpoints[-1]))

        for index, target in enumerate(checkpoints):
            grown, wall = await _grow(env, gen, forest, target, args, advance)
            growth_sessions += grown
            growth_wall += wall
            before = await forest_counts(env, forest)
            bar.set_description(f"probe at {before['facts']} facts")
            settle_s = await _settle(env) if args.settle else None
            load_before, updates_before = os.getloadavg(), await _node_updates(env)
            probe = await _probe(env, forest, gen.sessions(args.probe_sessions))
            row: dict[str, Any] = {"checkpoint": target, "forest_before": before, "settle_s": settle_s, **probe}
            upd, hot = (a - b for a, b in zip(await _node_updates(env), updates_before, strict=True))
            row["node_updates"] = {"rows": upd, "hot": hot, "hot_share": hot / upd if upd else None}
            # the machine's load average (1, 5, 15 min) around the probe: wall times mean little on a busy machine
            row["load_average"] = {"before": list(load_before), "after": list(os.getloadavg())}
            if reference_facts > 0:
                bar.set_description(f"reference probe at {reference_facts} facts")
                ref = await _reference_probe(env, args, index, reference_facts)
                row["reference"] = ref
                first_ref = results[0]["reference"] if results else ref
                row["drift"] = {k: float(ref[k]) / float(first_ref[k]) for k in DRIFTING}
            results.append(row)
            tqdm.write(
                f"probe at {before['facts']:,} facts (height {before['height']}): "
                f"{1000 * probe['wall_s_per_session_mean']:.0f} ms/session amortised, "
                f"{probe['summary_calls_per_session']:.1f} summary calls/session, "
                f"{probe['nodes_touched_per_session']:.1f} nodes touched/session, "
                f"{probe['wall_ms_per_leaf']:.2f} ms/leaf wall, {probe['cpu_ms_per_leaf']:.2f} CPU"
                + (
                    f"; reference probe {1000 * row['reference']['wall_s_per_session_mean']:.0f} ms/session "
                    f"(drift since the first {row['drift']['wall_s_per_session_mean']:.2f}x)"
                    if "drift" in row
                    else ""
                ),
                file=sys.stderr,
            )
            bar.set_description("growing forest")
        bar.close()
        final = await forest_counts(env, forest)
        compare: dict[str, Any] | None = None
        if args.compare_sessions > 0:
            cbar = tqdm(
                total=5 * args.compare_sessions,
                unit="session",
                desc="eager vs lazy",
                disable=args.no_progress,
                file=sys.stderr,
                dynamic_ncols=True,
            )
            compare = await _compare(env, args, cbar)
            cbar.close()
        database = env.database
        env_pipeline = env.settings.pipeline.model_dump()
        env_exact_scan = env.settings.retrieval.exact_scan_max_rows
    first, last = results[0], results[-1]

    def ratio(key: str) -> float:
        return float(last[key]) / float(first[key]) if first[key] else float("inf") if last[key] else 1.0

    ratios = {
        "wall_s_per_session_median": ratio("wall_s_per_session_median"),
        "wall_s_per_session_mean": ratio("wall_s_per_session_mean"),
        "summary_calls_per_session": ratio("summary_calls_per_session"),
        "nodes_touched_per_session": ratio("nodes_touched_per_session"),
        "wall_ms_per_candidate": ratio("wall_ms_per_candidate"),
        "wall_ms_per_leaf": ratio("wall_ms_per_leaf"),
        "cpu_ms_per_leaf": ratio("cpu_ms_per_leaf"),
        "summary_calls_per_leaf": ratio("summary_calls_per_leaf"),
        "nodes_touched_per_leaf": ratio("nodes_touched_per_leaf"),
    }
    pass_session = all(ratios[k] <= RATIO_LIMIT for k in GATE_PER_SESSION)
    pass_leaf = all(ratios[k] <= RATIO_LIMIT for k in GATE_PER_LEAF)
    # the wall-time ratios over the reference probes' own last/first (the same work: the machine's
    # drift); the work counts as they are
    drift = last.get("drift")
    corrected: dict[str, float] | None = None
    if drift is not None:
        corrected = {k: v / drift[k] if k in DRIFTING else v for k, v in ratios.items()}
    return {
        "bench": NAME,
        "quick": bool(args.quick),
        "config": {
            "max_facts": args.max_facts,
            "checkpoints": checkpoints,
            "probe_sessions": args.probe_sessions,
            "compare_sessions": args.compare_sessions,
            "growth_batch": args.growth_batch,
            "job_concurrency": args.job_concurrency,
            "settle_before_probe": bool(args.settle),
            "refresh_coalesce_commits": env_pipeline["refresh_coalesce_commits"],
            "refresh_coalesce_delay_s": env_pipeline["refresh_coalesce_delay_s"],
            "refresh_eager_max_level": env_pipeline["refresh_eager_max_level"],
            "seed": args.seed,
            "reference_facts": reference_facts,
            "exact_scan_max_rows": env_exact_scan,
            "backends": "rule-based + extractive + hashed",
            "database": database,
        },
        "machine": machine_info(),
        "checkpoints": results,
        "final_forest": final,
        "growth": {"sessions": growth_sessions, "wall_s": growth_wall},
        "ratios_last_over_first": ratios,
        "ratio_limit": RATIO_LIMIT,
        "gated": {"per_session": list(GATE_PER_SESSION), "per_leaf": list(GATE_PER_LEAF)},
        "pass_per_session": pass_session,
        "pass_per_leaf": pass_leaf,
        "pass": pass_session and pass_leaf,
        # the same verdict in the words every gated result file uses (issue 49 item 4); a run that
        # stops before 50K facts measures the ratio over a shorter growth, so it gates nothing
        "gate": _gate(args, pass_session and pass_leaf),
        "gate_computed_by_bench": "pass" if pass_session and pass_leaf else "fail",
        "reference_facts": reference_facts,
        "drift_last_over_first": drift,
        "ratios_drift_corrected": corrected,
        "pass_drift_corrected": None
        if corrected is None
        else all(corrected[k] <= RATIO_LIMIT for k in (*GATE_PER_SESSION, *GATE_PER_LEAF)),
        "eager_vs_lazy": compare,
        "total_wall_s": time.perf_counter() - t_start,
        "load_average_at_end": list(os.getloadavg()),
    }


def render(result: dict[str, Any], console: Console) -> None:
    cfg = result["config"]
    t = Table(
        title="write scaling: cost per ingested session while the forest grows (normal path: coalesced refresh "
        f"of levels > {cfg['refresh_eager_max_level']} every {cfg['refresh_coalesce_commits']} commits, amortised)"
    )
    for col in (
        "facts before",
        "height",
        "nodes",
        "ms/session (median)",
        "ms/session (amortised)",
        "summary calls/sess",
        "nodes touched/sess",
        "leaves/sess",
        "candidates/sess",
        "ms/candidate",
    ):
        t.add_column(col, justify="right")
    for c in result["checkpoints"]:
        fb = c["forest_before"]
        t.add_row(
            f"{fb['facts']:,}",
            str(fb["height"]),
            f"{fb['nodes']:,}",
            f"{1000 * c['wall_s_per_session_median']:.0f}",
            f"{1000 * c['wall_s_per_session_mean']:.0f}",
            f"{c['summary_calls_per_session']:.1f}",
            f"{c['nodes_touched_per_session']:.1f}",
            f"{c['leaves_per_session']:.1f}",
            f"{c['candidates_per_session']:.1f}",
            f"{c['wall_ms_per_candidate']:.1f}",
        )
    r = result["ratios_last_over_first"]
    t.add_section()
    t.add_row(
        "ratio last/first",
        "",
        "",
        f"{r['wall_s_per_session_median']:.2f}",
        f"{r['wall_s_per_session_mean']:.2f}",
        f"{r['summary_calls_per_session']:.2f}",
        f"{r['nodes_touched_per_session']:.2f}",
        "",
        "",
        f"{r['wall_ms_per_candidate']:.2f}",
    )
    console.print(t)

    def verdict(ok: bool) -> str:
        return "[green]PASS[/green]" if ok else "[red]FAIL[/red]"

    console.print(
        "per inserted leaf, ratio last/first: "
        f"wall {r['wall_ms_per_leaf']:.2f}, summary calls {r['summary_calls_per_leaf']:.2f}, "
        f"nodes touched {r['nodes_touched_per_leaf']:.2f}: {verdict(result['pass_per_leaf'])}; "
        f"CPU (client + database, not gated) {r['cpu_ms_per_leaf']:.2f}"
    )
    console.print(
        f"ratio limit {result['ratio_limit']} on wall/session (amortised), summary calls/session, "
        f"nodes touched/session: {verdict(result['pass_per_session'])}; per leaf: "
        f"{verdict(result['pass_per_leaf'])}   (growth: {result['growth']['sessions']} sessions in "
        f"{result['growth']['wall_s']:.0f} s; "
        f"final forest {result['final_forest']['facts']:,} facts, {result['final_forest']['nodes']:,} nodes)"
    )
    corrected = result.get("ratios_drift_corrected")
    if corrected:
        d = result["drift_last_over_first"]
        console.print(
            f"machine drift (a {result['reference_facts']:,}-fact reference forest probed after each probe, the same "
            f"work each time; last/first): wall per leaf {d['wall_ms_per_leaf']:.2f}x. Drift-corrected ratios: wall "
            f"per leaf {corrected['wall_ms_per_leaf']:.2f}, per session {corrected['wall_s_per_session_mean']:.2f}: "
            f"{verdict(bool(result['pass_drift_corrected']))}"
        )
    cmp = result.get("eager_vs_lazy")
    if cmp:
        t2 = Table(title=f"eager vs lazy refresh over the same {cmp['sessions']} sessions ({cmp['turns']} turns)")
        for col in ("mode", "refreshes", "summary calls", "nodes refreshed", "new facts", "leaves", "wall s"):
            t2.add_column(col, justify="right")
        for mode, m in cmp["modes"].items():
            t2.add_row(
                mode,
                str(m["refreshes"]),
                str(m["summary_calls"]),
                str(m["nodes_refreshed"]),
                str(m["facts_new"]),
                str(m["leaves"]),
                f"{m['wall_s']:.1f}",
            )
        console.print(t2)
        console.print(
            f"summary calls, eager/lazy (per session job): per fact {cmp['eager_fact_over_lazy_summary_calls']:.2f}x, "
            f"per cell {cmp['eager_cell_over_lazy_summary_calls']:.2f}x"
        )


def plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    fig, ax = new_figure(3)
    xs = [c["forest_before"]["facts"] for c in result["checkpoints"]]
    medians = [1000 * c["wall_s_per_session_median"] for c in result["checkpoints"]]
    ax[0].plot(xs, medians, "o-", label="median (own call)")
    ax[0].plot(
        xs, [1000 * c["wall_s_per_session_mean"] for c in result["checkpoints"]], "s--", label="amortised (gated)"
    )
    ax[0].set_title("wall time per session (ms)")
    ax[1].plot(xs, [c["summary_calls_per_session"] for c in result["checkpoints"]], "o-", label="summary calls")
    ax[1].plot(xs, [c["nodes_touched_per_session"] for c in result["checkpoints"]], "s-", label="nodes touched")
    ax[1].plot(xs, [c["leaves_per_session"] for c in result["checkpoints"]], "^:", label="leaves inserted")
    ax[1].set_title("work per session")
    for a in ax[:2]:
        a.set_xscale("log")
        a.set_xlabel("facts in forest")
        a.set_ylim(bottom=0)
        a.legend()
    cmp = result.get("eager_vs_lazy")
    if cmp:
        modes = list(cmp["modes"])
        colors = ["#c44", "#e94", "#49c", "#2a6", "#6a4"]
        ax[2].bar(modes, [cmp["modes"][m]["summary_calls"] for m in modes], color=colors[: len(modes)])
        ax[2].set_title(f"summary calls, {cmp['sessions']} sessions")
        ax[2].tick_params(axis="x", rotation=20)
    else:
        ax[2].axis("off")
    return save_figure(fig, out_dir, name)


def _reduced(args: argparse.Namespace) -> bool:
    """A run that grows the forest less far than the gate's 50K facts."""
    return bool(args.max_facts < FULL_FACTS)


def _gate(args: argparse.Namespace, passed: bool) -> str:
    if args.quick or _reduced(args) or args.exact_scan_max_rows is not None:
        return "not applicable"
    return "pass" if passed else "fail"


def _result_name(args: argparse.Namespace) -> str:
    """The result file's name: a quick or reduced run never overwrites the full run's file."""
    if args.quick:
        return f"{NAME}_quick"
    suffix = "" if args.exact_scan_max_rows is None else f"_scan{args.exact_scan_max_rows}"
    if _reduced(args):
        return f"{NAME}_reduced_{args.max_facts // 1000}k{suffix}"
    return NAME + suffix


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    single_run(parser, args)
    if args.quick:
        args.max_facts = min(args.max_facts, 120)
        args.checkpoints = args.checkpoints or "40,120"
        args.probe_sessions = min(args.probe_sessions, 2)
        args.compare_sessions = min(args.compare_sessions, 2)
        args.growth_batch = min(args.growth_batch, 6)
    result = asyncio.run(run(args))
    name = _result_name(args)
    publish(args.out, name, result, plot, render, args=args, argv=argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
