"""Ingest throughput on the shared LoCoMo conversations with the default backends (rule-based
extraction, extractive summaries, hashed embeddings): each conversation into its own forest, all
of them sent at once (a user each) and served by one worker at the shipped ``worker.concurrency``
and chat budget, as the service serves them (ADR 0148); ``--forest-concurrency N`` runs N forests
at a time instead, each by a worker of its own (lanes; 1: one after another). Turns/s over the wall
time from the first forest's accept to the last forest's end, sessions/s, per-stage wall time,
facts/trees/nodes, and the forest invariant check of each once all are ingested.

    python -m bench.ingest_throughput                  # ../shared/data/locomo/locomo_dev5.json
    python -m bench.ingest_throughput --repeat 3       # the median run of three, each in its own database
    python -m bench.ingest_throughput --data FILE --limit 2 --quick
    python -m bench.ingest_throughput --forest-concurrency 1   # one forest after another
    python -m bench.ingest_throughput --embedding local:DIR --against hashed --repeat 3   # paired runs

Statements and transactions are counted per ingest job (one session each; ``bench/statement_count.py``)
and the result's ``gates`` hold issue 49's floors: every session at most 40 statements and 5
transactions, at least 300 turns/s, every forest's check clean (``gate``: pass or fail). With
``--against EMBEDDING`` every run is paired with a run of that embedder (which goes second in the
first pair, first in the second, and so on), so both arms see the same machine load; ``against``
holds both arms' walls and load averages, the ratio of their medians and each pair's ratio, and the
gates add issue 53's: the median wall at most 2x the other arm's (its checks clean). The top-level
``gate`` also holds issue 49's turns/s floor, which a real embedder's run does not reach.

Stage times: ``accept`` is the wall time of accepting the forest's sessions; extract, embed, commit
and refresh are summed over the forest's jobs, which run alongside each other (and, by default,
beside the other forests' jobs), so their sum can exceed the forest's wall time (commit includes
waiting for older sessions' commits and for the forest lock, ADR 0014; refresh includes the
forest's coalesced refresh jobs, ADR 0013).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from tqdm import tqdm

from bench.args import add_embedding, bench_parser, embedding_label, embedding_overrides, embedding_spec
from bench.cpu_meter import CpuMeter, database_meter
from bench.env import BenchEnv, bench_env, check_verdict, extractor_ready, forest_counts, locomo_or_complain
from bench.report import machine_info, new_figure, publish, save_figure, stage_breakdown
from bench.statement_count import StatementCounter, distribution, forest_id_scope, scope, summarise
from memforest.formats import load_forests
from memforest.pipeline.service import ingest_forests, ingest_sessions

NAME = "ingest_throughput"
STAGES = ("accept", "extract", "embed", "commit", "refresh")
MAX_STATEMENTS, MAX_TRANSACTIONS, MIN_TURNS_PER_S = 40, 5, 300.0  # issue 49's floors
LANE_JOBS = 4  # a lane's worker: jobs of its forest at once
MAX_WALL_RATIO = 2.0  # issue 53: ingest with a real embedder within 2x of hashed ingest


def _parser() -> argparse.ArgumentParser:
    p = bench_parser("ingest_throughput", __doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=None, help="LoCoMo JSON (default: the shared locomo_dev5.json)")
    p.add_argument("--limit", type=int, default=None, help="only the first N conversations")
    p.add_argument("--sessions-limit", type=int, default=None, help="only the first N sessions of each")
    p.add_argument(
        "--job-concurrency",
        type=int,
        default=None,
        help="jobs at once: of the one worker (default: the shipped worker.concurrency and chat budget), "
        f"or with --forest-concurrency of each forest's worker (default {LANE_JOBS})",
    )
    p.add_argument(
        "--forest-concurrency",
        type=int,
        default=None,
        help="lanes: forests ingested at a time, each by a worker of its own (1: one after another); "
        "default: every forest at once, one worker (ADR 0148)",
    )
    p.add_argument("--no-check", action="store_true", help="skip the forest invariant check")
    p.add_argument("--embed-dim", type=int, default=None)
    p.add_argument("--database-url", default=None, help="external PostgreSQL (default: temporary embedded)")
    p.add_argument("--quick", action="store_true", help="smoke run: 1 conversation, 3 sessions")
    add_embedding(p)
    p.add_argument(
        "--against",
        type=embedding_spec,
        default=None,
        metavar="hashed|local:PATH|http:URL",
        help="pair every run with a run of this embedder (the order swapped every other pair; "
        f"the ratio of median walls is gated at {MAX_WALL_RATIO:g}x)",
    )
    return p


async def run(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    forests = load_forests(data, "locomo")
    if args.limit is not None:
        forests = forests[: args.limit]
    if args.sessions_limit is not None:
        forests = [type(f)(name=f.name, sessions=f.sessions[: args.sessions_limit]) for f in forests]
    overrides: dict[str, Any] = embedding_overrides(args.embedding, args.embed_dim or None)
    if getattr(args, "shipped_cells", False):  # the --against arm: cell vectors as shipped, whatever the environment
        overrides.setdefault("embedding", {})["cell_vectors"] = "text"
    t_all = time.perf_counter()
    load_at_start = os.getloadavg()
    total_sessions = sum(len(f.sessions) for f in forests)
    names = [forest.name or f"conversation-{i}" for i, forest in enumerate(forests)]
    async with bench_env(database_url=args.database_url, settings_overrides=overrides, home=args.home) as env:
        counter = StatementCounter()
        counter.install(env.db)
        bar = tqdm(
            total=total_sessions,
            unit="session",
            desc="ingest",
            disable=args.no_progress,
            file=sys.stderr,
            dynamic_ncols=True,
        )
        forest_concurrency = args.forest_concurrency
        await extractor_ready(env.backends)  # (as a running worker has them: started before the clock)
        meter = database_meter(env.settings.home, env.settings.database_url)
        cpu_before = meter.snapshot()
        t_ingest = time.perf_counter()
        if forest_concurrency is None:
            reports = await _one_worker(env, args, names, forests, bar)
        else:
            reports = await _lanes(env, args, names, forests, bar, forest_concurrency)
        ingest_wall = time.perf_counter() - t_ingest
        cpu = CpuMeter.spent(cpu_before, meter.snapshot(), ingest_wall)
        all_sent = counter.total()  # (before the counts and checks below)
        bar.close()
        counts = {
            name: counter.merged(name, forest_id_scope(d["forest_id"])) for name, d in zip(names, reports, strict=True)
        }
        rows = [await _forest_row(env, args, name, d, counts[name]) for name, d in zip(names, reports, strict=True)]
        ingest_jobs = [dict(c) for c in counter.jobs_of_kind("ingest")]
        database = env.database
        worker_jobs = env.settings.worker.concurrency
        embedder = env.backends.embedder.name
    wall = ingest_wall
    turns = sum(r["turns"] for r in rows)
    sessions = sum(r["sessions"] for r in rows)
    total = {
        "mode": _mode(forest_concurrency),
        "forests": len(rows),
        "sessions": sessions,
        "turns": turns,
        "facts": sum(r["facts"] for r in rows),
        "nodes": sum(r["nodes"] for r in rows),
        "wall_s": wall,
        "turns_per_s": turns / wall if wall else 0.0,
        "sessions_per_s": sessions / wall if wall else 0.0,
        "stage_s": {k: sum(r["stage_s"][k] for r in rows) for k in STAGES},
        "all_checks_ok": all(r["check"] in (None, "ok") for r in rows),
        # CPU of this process and the embedded database over the ingest (not the checks): the
        # work's floor on this machine is cpu.cpu_bound_s; 300 turns/s on 2 cores leaves 6.7 CPU-ms a turn
        "cpu": cpu,
        "cpu_ms_per_turn": round(1000 * float(cpu["total_s"]) / turns, 2) if turns else None,
        "per_session": {
            "statements": distribution([c.get("statements", 0) for c in ingest_jobs]),
            "transactions": distribution([c.get("transactions", 0) for c in ingest_jobs]),
        },
        # everything sent over the ingest (jobs, accepts, the worker's claims), per session
        "all_statements_per_session": round(all_sent["statements"] / sessions, 2) if sessions else 0.0,
        "all_transactions_per_session": round(all_sent["transactions"] / sessions, 2) if sessions else 0.0,
    }
    return {
        "bench": NAME,
        "quick": bool(args.quick),
        "config": {
            "data": str(data),
            "job_concurrency": _job_concurrency(args, worker_jobs),
            "forest_concurrency": forest_concurrency,
            "mode": _mode(forest_concurrency),
            "limit": args.limit,
            "sessions_limit": args.sessions_limit,
            "backends": f"rule-based + extractive + {embedder}",
            "embedding": args.embedding,
            "database": database,
        },
        "machine": machine_info(),
        "forests": rows,
        "total": total,
        "elapsed_s": time.perf_counter() - t_all,
        "load_avg": [round(x, 2) for x in load_at_start],  # 1, 5 and 15 minutes, as the run started
        "ingest_jobs": ingest_jobs,
    }


async def _one_worker(
    env: BenchEnv, args: argparse.Namespace, names: list[str], forests: list[Any], bar: tqdm[Any]
) -> list[dict[str, Any]]:
    """Every forest's sessions accepted at once (a user each) and ONE worker serving them, as the
    service does: the shipped ``worker.concurrency`` and chat budget, or ``--job-concurrency``."""

    def progress(done: int, _total: int) -> None:
        bar.update(done - bar.n)

    reports = await ingest_forests(
        env.db,
        env.settings,
        env.backends,
        env.tenant_id,
        [(name, forest.sessions) for name, forest in zip(names, forests, strict=True)],
        progress=progress,
        job_concurrency=args.job_concurrency,
    )
    return [r.as_dict() for r in reports]


async def _lanes(
    env: BenchEnv,
    args: argparse.Namespace,
    names: list[str],
    forests: list[Any],
    bar: tqdm[Any],
    forest_concurrency: int,
) -> list[dict[str, Any]]:
    """``forest_concurrency`` forests at a time, each with a worker of its own running
    ``--job-concurrency`` of its jobs (default 4): a forest waits for a lane."""
    gate = asyncio.Semaphore(forest_concurrency)

    async def ingest(name: str, forest: Any) -> dict[str, Any]:
        seen = [0]

        def progress(done: int, _total: int) -> None:
            bar.update(done - seen[0])
            seen[0] = done

        async with gate:
            with scope(name):
                report = await ingest_sessions(
                    env.db,
                    env.settings,
                    env.backends,
                    env.tenant_id,
                    name,
                    forest.sessions,
                    progress=progress,
                    job_concurrency=args.job_concurrency or LANE_JOBS,
                )
        return report.as_dict()

    return list(await asyncio.gather(*(ingest(n, f) for n, f in zip(names, forests, strict=True))))


def _job_concurrency(args: argparse.Namespace, worker_jobs: int) -> int:
    """The jobs at once the run used: of its one worker, or of each forest's in lanes."""
    if args.job_concurrency:
        return int(args.job_concurrency)
    return LANE_JOBS if args.forest_concurrency else worker_jobs


async def _forest_row(
    env: BenchEnv, args: argparse.Namespace, name: str, d: dict[str, Any], counter: StatementCounter
) -> dict[str, Any]:
    """One forest's line of the result: its report, its statement counts, its size and its check."""
    db_counts = summarise(counter, int(d["sessions_accepted"]))
    counts = await forest_counts(env, name)
    verdict = None if args.no_check else await check_verdict(env, name)
    wall = float(d["wall_s"])
    return {
        "forest": name,
        "sessions": d["sessions_accepted"],
        "turns": d["turns"],
        "cells": d["cells"],
        "candidates": d["candidates"],
        "facts_new": d["facts_new"],
        "facts_merged": d["facts_merged"],
        "facts_superseded": d["facts_superseded"],
        "facts": counts["facts"],
        "trees": counts["trees"],
        "nodes": counts["nodes"],
        "height": counts["height"],
        "nodes_refreshed": d["nodes_refreshed"],
        "model_calls": {k: v["calls"] for k, v in d["model_usage"].items()},
        "wall_s": wall,
        "turns_per_s": d["turns"] / wall if wall else 0.0,
        "sessions_per_s": d["sessions_accepted"] / wall if wall else 0.0,
        "stage_s": stage_breakdown(d["stage_wall_s"], d["accept_wall_s"]),
        "jobs_failed": d["jobs_failed"],
        "check": verdict,
        "db": db_counts,
    }


async def repeated(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    """``args.repeat`` runs, each in a database of its own; the result is the run of median turns/s
    (its forests and totals), with every run's totals under ``runs`` and the per-session statement
    and transaction counts of all runs pooled under ``total.per_session_all_runs``. With
    ``args.against``, each run is paired with one of that embedder, which goes second in the first
    pair, first in the second and so on (``against``)."""
    results: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    other_args = argparse.Namespace(**{**vars(args), "embedding": args.against, "shipped_cells": True})
    for i in range(args.repeat):
        if args.against and i % 2:
            others.append(await run(other_args, data))
        results.append(await run(args, data))
        if args.against and not i % 2:
            others.append(await run(other_args, data))
    ranked = sorted(results, key=lambda r: float(r["total"]["turns_per_s"]))
    median = ranked[(len(ranked) - 1) // 2]
    jobs = [c for r in results for c in r.pop("ingest_jobs")]
    median["runs"] = [
        {
            k: r["total"][k]
            for k in ("wall_s", "turns_per_s", "sessions_per_s", "stage_s", "all_checks_ok", "cpu", "cpu_ms_per_turn")
        }
        | {"per_session": r["total"]["per_session"], "elapsed_s": r["elapsed_s"], "load_avg": r["load_avg"]}
        for r in results
    ]
    median["total"]["per_session_all_runs"] = {
        "statements": distribution([c.get("statements", 0) for c in jobs]),
        "transactions": distribution([c.get("transactions", 0) for c in jobs]),
    }
    median["total"]["turns_per_s_runs"] = [round(float(r["total"]["turns_per_s"]), 2) for r in results]
    median["repeat"] = args.repeat
    median["gates"] = _gates(median["total"])
    if args.against:
        median["against"] = paired_walls(args.against, results, others)
        paired = median["against"]
        median["gates"][f"wall_le_{MAX_WALL_RATIO:g}x_{paired['label']}"] = (
            paired["ratio_of_medians"] <= MAX_WALL_RATIO and paired["against_checks_ok"]
        )
    median["gate"] = "pass" if all(median["gates"].values()) else "fail"
    return median


def paired_walls(spec: str, runs: list[dict[str, Any]], others: list[dict[str, Any]]) -> dict[str, Any]:
    """Both arms' walls, run by run (each run followed by its pair), the ratio of the median walls
    and each pair's ratio (its spread); the other arm ran with cell vectors as shipped (text)."""
    walls = [float(r["total"]["wall_s"]) for r in runs]
    other_walls = [float(r["total"]["wall_s"]) for r in others]
    return {
        "embedding": spec,
        "label": embedding_label(spec, cells="text"),
        "wall_s_runs": [round(w, 3) for w in walls],
        "against_wall_s_runs": [round(w, 3) for w in other_walls],
        "median_wall_s": round(statistics.median(walls), 3),
        "against_median_wall_s": round(statistics.median(other_walls), 3),
        "ratio_of_medians": round(statistics.median(walls) / statistics.median(other_walls), 3),
        "pair_ratios": [round(a / b, 3) for a, b in zip(walls, other_walls, strict=True)],
        "order": "pairs 1, 3, 5, ...: this embedder first; pairs 2, 4, ...: the other first",
        "load_avg": [r["load_avg"] for r in runs],
        "against_load_avg": [r["load_avg"] for r in others],
        "against_checks_ok": all(r["total"]["all_checks_ok"] for r in others),
    }


def _mode(forest_concurrency: int | None) -> str:
    """What the headline turns/s measures."""
    if forest_concurrency is None:
        return "one worker: every forest at once, served by one shipped worker"
    if forest_concurrency <= 1:
        return "sequential: one forest after another"
    return f"lanes: up to {forest_concurrency} forests at once, a worker each"


def _gates(total: dict[str, Any]) -> dict[str, bool]:
    """Issue 49's floors for rule-based ingest of the LoCoMo conversations."""
    pooled = total["per_session_all_runs"]
    return {
        "statements_per_session_max_le_40": pooled["statements"]["max"] <= MAX_STATEMENTS,
        "transactions_per_session_max_le_5": pooled["transactions"]["max"] <= MAX_TRANSACTIONS,
        "turns_per_s_ge_300": float(total["turns_per_s"]) >= MIN_TURNS_PER_S,
        "checks_ok": bool(total["all_checks_ok"]),
    }


def render(result: dict[str, Any], console: Console) -> None:
    mode = result["total"]["mode"]
    t = Table(title=f"ingest throughput (default backends), one forest per LoCoMo conversation; {mode}")
    for col in (
        "forest",
        "sessions",
        "turns",
        "facts",
        "trees s/e/sc",
        "nodes",
        "wall s",
        "turns/s",
        "sessions/s",
        *(f"{s} s" for s in STAGES),
        "check",
    ):
        t.add_column(col, justify="right")

    def add(r: dict[str, Any], name: str, trees: str, check: str) -> None:
        t.add_row(
            name,
            str(r["sessions"]),
            str(r["turns"]),
            f"{r['facts']:,}",
            trees,
            f"{r['nodes']:,}",
            f"{r['wall_s']:.1f}",
            f"{r['turns_per_s']:.1f}",
            f"{r['sessions_per_s']:.2f}",
            *(f"{r['stage_s'][s]:.2f}" for s in STAGES),
            check,
        )

    for r in result["forests"]:
        tr = r["trees"]
        add(r, r["forest"], f"{tr.get('session', 0)}/{tr.get('entity', 0)}/{tr.get('scene', 0)}", str(r["check"]))
    t.add_section()
    tot = result["total"]
    add(tot, "total", "", "ok" if tot["all_checks_ok"] else "FAILED")
    console.print(t)
    ps = tot["per_session"]
    console.print(
        "per ingest job (one session): statements median {median} p90 {p90} max {max}; ".format(**ps["statements"])
        + "transactions median {median} p90 {p90} max {max}; ".format(**ps["transactions"])
        + f"everything sent per session: {tot['all_statements_per_session']} statements, "
        + f"{tot['all_transactions_per_session']} transactions"
    )
    console.print("stage seconds: accept = wall of accepting; the others are summed over concurrent jobs")
    cpu = tot["cpu"]
    console.print(
        f"CPU over the ingest: this process {cpu['client_s']} s, its extraction processes "
        f"{cpu.get('text_processes_s')} s, database {cpu['database_s']} s; "
        f"{tot['cpu_ms_per_turn']} CPU-ms a turn; busy share of {cpu['cpus']} cores {cpu['busy_share']} "
        f"(the CPU alone allows a wall of {cpu['cpu_bound_s']} s)"
    )
    if "against" in result:
        a = result["against"]
        console.print(
            f"paired with {a['label']} (paired runs): median wall {a['median_wall_s']:.1f} s against "
            f"{a['against_median_wall_s']:.1f} s, ratio {a['ratio_of_medians']:.2f} (pairs {a['pair_ratios']})"
        )


def plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    fig, ax = new_figure(2)
    names = [r["forest"] for r in result["forests"]]
    bottom = [0.0] * len(names)
    for stage in STAGES:
        vals = [r["stage_s"][stage] for r in result["forests"]]
        ax[0].bar(names, vals, bottom=bottom, label=stage)
        bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
    ax[0].set_title("stage seconds per forest (summed over jobs)")
    ax[0].legend()
    ax[0].tick_params(axis="x", rotation=20)
    ax[1].bar(names, [r["turns_per_s"] for r in result["forests"]], color="#49c")
    ax[1].set_title("turns/s")
    ax[1].tick_params(axis="x", rotation=20)
    return save_figure(fig, out_dir, name)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1 (got {args.repeat})")
    if args.forest_concurrency is not None and args.forest_concurrency < 1:
        parser.error(f"--forest-concurrency must be at least 1 (got {args.forest_concurrency})")
    if args.job_concurrency is not None and args.job_concurrency < 1:
        parser.error(f"--job-concurrency must be at least 1 (got {args.job_concurrency})")
    data = locomo_or_complain(args.data)
    if data is None:
        return 2
    if args.quick:
        args.limit = 1 if args.limit is None else args.limit
        args.sessions_limit = 3 if args.sessions_limit is None else args.sessions_limit
    result = asyncio.run(repeated(args, data))
    label = embedding_label(args.embedding)
    name = (f"{NAME}_quick" if args.quick else NAME) + ("" if label == "hashed" else f"_{label}")
    if args.forest_concurrency is not None:  # a chosen mode never overwrites the default run's file
        name += f"_forests{args.forest_concurrency}"
    publish(args.out, name, result, plot, render, width=190, args=args, argv=argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
