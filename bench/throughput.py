"""Write throughput of three write paths against ONE model server, on the same sessions, with the
users (conversations) served concurrently in every run.

Systems (``--systems``):

* ``memforest``: MemForest's write path as deployed (parallel extraction, several ingest jobs
  per forest, lazy level-parallel refresh);
* ``memforest_burst``: the same with ``pipeline.burst_refresh_handoff`` (opt-in, ADR 0025: in a
  burst of one user's sessions, level-1 summaries wait for the burst's last session);
* ``serial_pipeline``: the same pipeline at concurrency 1 inside each user (one job, one
  extraction call and one summary call at a time): the ablation of in-session parallelism;
* ``sequential_memory``: a MODEL of a Mem0-style write path (``bench/sequential_memory.py``):
  one extraction call per message pair, then per fact a similarity search and one update decision.

Each repetition runs every system once (the order rotates), the server's prefix cache emptied
before each run. Reported per run: wall time, time until each session is queryable, model calls,
prompt / cached / completion tokens, and the server's own accounting (busy time, busy overlap,
queue wait). The summary holds medians over repetitions with their spread; speedups are ratios of
median wall times.

MemForest's chat budget (``--concurrency``, its in-flight calls) defaults to the simulated server's
``max_num_seqs``: the bench is one MemForest process against one server, and the deploy guide sizes
a process's budget to the capacity it has (docs/deploy.md, section 3). Against a real server give
its ``--max-num-seqs``. The sequential memory and the serial pipeline cannot use a budget: they
have at most one call in flight per user.

``--simulate`` starts the SIMULATED vLLM-like server (``memforest.testing.simulated_llm``, preset
``--preset``, 4b by default); ``--chat-url`` / ``--embed-url`` run the same harness against a real
vLLM (docs/deploy.md).

    python -m bench.throughput --simulate
    python -m bench.throughput --simulate --preset 30b-a3b
    python -m bench.throughput --chat-url http://gpu:8000/v1 --embed-url http://gpu:8001/v1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
from tqdm import tqdm

from bench.args import add_simulation_timing, bench_parser, simulation_timing
from bench.env import BenchEnv, bench_env, locomo_or_complain
from bench.report import machine_info, provenance, publish, usage_totals
from bench.sequential_memory import ingest_user
from bench.server_stats import ServerMonitor, reset_prefix_cache
from bench.throughput_report import plot, render
from memforest.backends.base import UsageLedger
from memforest.domain import ForestInput
from memforest.formats import load_forests
from memforest.pipeline.service import ingest_sessions
from memforest.testing.simulated_llm import PRESETS, SimulationConfig, preset_config, run_server_in_process

NAME = "throughput"
SYSTEMS = ("memforest", "memforest_burst", "serial_pipeline", "sequential_memory")
# MemForest's chat budget against a real server when --concurrency is not given (set it to the
# server's --max-num-seqs: docs/deploy.md section 3)
REAL_SERVER_BUDGET = 64


def _parser() -> argparse.ArgumentParser:
    p = bench_parser(NAME, __doc__, repeat=3)
    p.add_argument("--chat-url", default=None, help="OpenAI-compatible chat base URL (…/v1), e.g. vLLM")
    p.add_argument("--embed-url", default=None, help="OpenAI-compatible embeddings base URL (default: hashed)")
    p.add_argument("--model", default=None, help="chat model name (default: settings)")
    p.add_argument("--embed-model", default=None, help="embedding model name (default: settings)")
    p.add_argument("--embed-dim", type=int, default=None, help="embedding dimension (default: settings)")
    p.add_argument("--systems", default=",".join(SYSTEMS), help=f"comma-separated subset of {','.join(SYSTEMS)}")
    p.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="MemForest's chat budget (in-flight calls); default: the simulated server's max_num_seqs with "
        f"--simulate (one process fills one server, docs/deploy.md section 3), else {REAL_SERVER_BUDGET}",
    )
    p.add_argument("--cell-turns", type=int, default=2, help="turns per cell (b)")
    p.add_argument("--fanout", type=int, default=8, help="fan-out k of every tree kind")
    p.add_argument("--forests", type=int, default=5, help="users (conversations), served concurrently")
    p.add_argument("--job-concurrency", type=int, default=4, help="MemForest ingest jobs at once per user")
    p.add_argument("--data", type=Path, default=None, help="LoCoMo JSON (default: the shared locomo_dev5.json)")
    p.add_argument("--sessions-limit", type=int, default=None, help="first N sessions per user (default: all)")
    p.add_argument("--database-url", default=None, help="external PostgreSQL (default: temporary embedded)")
    p.add_argument("--quick", action="store_true", help="smoke run: 1 user, 1 session, 1 repetition")
    sim = p.add_argument_group("simulation (--simulate)")
    sim.add_argument("--simulate", action="store_true", help="start the SIMULATED vLLM-like server in-process")
    add_simulation_timing(sim, sorted(PRESETS))
    sim.add_argument("--embed-latency-ms", type=float, default=5.0)
    sim.add_argument("--simulate-embed", action="store_true", help="embed via the simulated server too")
    return p


def _default_budget(args: argparse.Namespace) -> int:
    """MemForest's chat budget when ``--concurrency`` is not given: the simulated server's batch
    (``--max-num-seqs`` or the preset's), since the bench is one MemForest process against one
    server and the deploy guide sizes a process's budget to the capacity it has; against a real
    server, whose batch the bench cannot know, :data:`REAL_SERVER_BUDGET`."""
    if not args.simulate:
        return REAL_SERVER_BUDGET
    return int(args.max_num_seqs or PRESETS[args.preset]["max_num_seqs"])


@contextlib.contextmanager
def _endpoints(args: argparse.Namespace) -> Iterator[tuple[str, str | None, SimulationConfig | None]]:
    if not args.simulate:
        if not args.chat_url:
            raise SystemExit("give --chat-url (an OpenAI-compatible server) or --simulate")
        yield args.chat_url, args.embed_url, None
        return
    config = preset_config(
        args.preset, **simulation_timing(args), embed_dim=args.embed_dim or 384, embed_latency_ms=args.embed_latency_ms
    )
    with run_server_in_process(config) as url:  # its own interpreter, as a real server
        yield url, (url if args.simulate_embed else args.embed_url), config


def _settings_overrides(args: argparse.Namespace, chat_url: str, embed_url: str | None) -> dict[str, Any]:
    llm: dict[str, Any] = {"base_url": chat_url, "concurrency": args.concurrency}
    if args.model:
        llm["model"] = args.model
    embedding: dict[str, Any] = {}
    if embed_url:
        embedding.update(backend="http", base_url=embed_url)
        if args.embed_model:
            embedding["model"] = args.embed_model
    if args.embed_dim:
        embedding["dim"] = args.embed_dim
    k = args.fanout
    pipeline = {
        "extract_concurrency": args.concurrency,
        "refresh_concurrency": args.concurrency,
        "cell_turns": args.cell_turns,
        "fanout_session": k,
        "fanout_entity": k,
        "fanout_scene": k,
    }
    # every user's ingest jobs hold connections at once: size the pool so none waits on another
    database = {"pool_size": max(10, args.forests * args.job_concurrency + 10)}
    return {"llm": llm, "embedding": embedding, "pipeline": pipeline, "database": database}


def _percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _run_record(system: str, wall: float, queryable: list[float], usage: dict[str, dict[str, Any]]) -> dict[str, Any]:
    tot = usage_totals(usage)
    chat_calls = sum(int(u.get("calls", 0)) for stage, u in usage.items() if stage != "embed")
    return {
        "system": system,
        "wall_s": wall,
        "sessions": len(queryable),
        "queryable_s": sorted(queryable),
        "queryable_p50_s": _percentile(queryable, 0.5),
        "queryable_p95_s": _percentile(queryable, 0.95),
        "model_calls": chat_calls,
        "embed_calls": int(usage.get("embed", {}).get("calls", 0)),
        "prompt_tokens": int(tot["prompt_tokens"]),
        "cached_prompt_tokens": int(tot["cached_prompt_tokens"]),
        "completion_tokens": int(tot["completion_tokens"]),
        "model_usage": usage,
    }


async def _run_pipeline(
    env: BenchEnv, forests: list[ForestInput], tag: str, *, system: str, job_concurrency: int, tick: Callable[[], None]
) -> dict[str, Any]:
    serial = system == "serial_pipeline"
    knobs: dict[str, Any] = {"extract_concurrency": 1, "refresh_concurrency": 1} if serial else {}
    if system == "memforest_burst":
        knobs["burst_refresh_handoff"] = True
    if knobs:
        pipeline = env.settings.pipeline.model_copy(update=knobs)
        env = dataclasses.replace(env, settings=env.settings.model_copy(update={"pipeline": pipeline}))
    if serial:  # one job of a user at a time, also past its model calls (no commit overlap)
        worker = env.settings.worker.model_copy(update={"commit_overlap": False})
        env = dataclasses.replace(env, settings=env.settings.model_copy(update={"worker": worker}))
    started = time.perf_counter()
    queryable: list[float] = []

    def progress(_done: int, _total: int) -> None:
        queryable.append(time.perf_counter() - started)  # one session's ingest job committed
        tick()

    async def one(f: ForestInput) -> dict[str, Any]:
        rep = await ingest_sessions(
            env.db,
            env.settings,
            env.backends,
            env.tenant_id,
            f"{f.name}-{tag}",
            f.sessions,
            progress=progress,
            job_concurrency=1 if serial else job_concurrency,
            count_forest=False,
        )
        return rep.as_dict()

    reports = await asyncio.gather(*(one(f) for f in forests))
    wall = time.perf_counter() - started
    ledger = UsageLedger()
    for d in reports:
        for stage, u in d["model_usage"].items():
            ledger.record(stage, **u)
    out = _run_record(system, wall, queryable, ledger.as_dict())
    out["facts_new"] = sum(d["facts_new"] for d in reports)
    out["nodes_refreshed"] = sum(d["nodes_refreshed"] for d in reports)
    out["jobs_failed"] = sum(d["jobs_failed"] for d in reports)
    # where each user's wall went: per job its start, end and stages (its critical path)
    out["stage_wall_s"] = {k: round(sum(d["stage_wall_s"].get(k, 0.0) for d in reports), 3)
                           for k in sorted({k for d in reports for k in d["stage_wall_s"]})}  # fmt: skip
    out["forests"] = [
        {"accept_wall_s": d["accept_wall_s"], "wall_s": d["wall_s"], "timeline": d["timeline"]} for d in reports
    ]
    return out


async def _run_sequential(env: BenchEnv, forests: list[ForestInput], tick: Callable[[], None]) -> dict[str, Any]:
    if env.backends.chat is None:
        raise SystemExit("the sequential memory needs a chat model (--chat-url or --simulate)")
    chat = env.backends.chat
    ledger = UsageLedger()
    started = time.perf_counter()
    reports = await asyncio.gather(
        *(
            ingest_user(chat, env.backends.embedder, f.sessions, ledger=ledger, started=started, on_session=tick)
            for f in forests
        )
    )
    wall = time.perf_counter() - started
    out = _run_record("sequential_memory", wall, [t for r in reports for t in r.queryable_s], ledger.as_dict())
    out["pairs"] = sum(r.pairs for r in reports)
    out["facts_extracted"] = sum(r.facts_extracted for r in reports)
    out["memories"] = sum(r.memories for r in reports)
    events: dict[str, int] = {}
    for r in reports:
        for k, v in r.events.items():
            events[k] = events.get(k, 0) + v
    out["events"] = events
    return out


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summarise(runs: list[dict[str, Any]], systems: Sequence[str]) -> dict[str, Any]:
    """Per system: medians over repetitions (with min/max), and speedups as ratios of medians."""
    summary: dict[str, Any] = {}
    for system in systems:
        mine = [r for r in runs if r["system"] == system]
        if not mine:
            continue
        row: dict[str, Any] = {"repetitions": len(mine)}
        for key in ("wall_s", "queryable_p50_s", "queryable_p95_s"):
            row[key] = statistics.median(r[key] for r in mine)
            row[f"{key}_spread"] = _spread([r[key] for r in mine])
        for key in ("model_calls", "prompt_tokens", "cached_prompt_tokens", "completion_tokens"):
            row[key] = statistics.median(r[key] for r in mine)
        server = [r["server"] for r in mine if r["server"].get("source")]
        for key in ("busy_s", "busy_overlap", "queue_wait_s"):
            row[f"server_{key}"] = statistics.median(s[key] for s in server) if server else None
        summary[system] = row
    base = summary.get("memforest")
    for other in ("sequential_memory", "serial_pipeline"):
        key = f"speedup_vs_{other}"
        ref = summary.get(other)
        summary[key] = ref["wall_s"] / base["wall_s"] if base and ref and base["wall_s"] else None
    burst, ref = summary.get("memforest_burst"), summary.get("sequential_memory")
    summary["burst_speedup_vs_sequential_memory"] = (
        ref["wall_s"] / burst["wall_s"] if burst and ref and burst["wall_s"] else None
    )
    return summary


async def run(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = sorted(set(systems) - set(SYSTEMS))
    if unknown:
        raise SystemExit(f"unknown --systems {unknown}; use {','.join(SYSTEMS)}")
    forests = load_forests(data, "locomo")[: args.forests]
    forests = [
        ForestInput(name=f.name or f"conversation-{i}", sessions=f.sessions[: args.sessions_limit])
        for i, f in enumerate(forests)
    ]
    n_sessions = sum(len(f.sessions) for f in forests)
    runs: list[dict[str, Any]] = []
    t_all = time.perf_counter()
    with _endpoints(args) as (chat_url, embed_url, sim):
        overrides = _settings_overrides(args, chat_url, embed_url)
        async with bench_env(database_url=args.database_url, settings_overrides=overrides, home=args.home) as env:
            monitor = ServerMonitor(chat_url, interval_s=0.1)
            source = await monitor.detect()
            bar = tqdm(
                total=n_sessions * len(systems) * args.repeat,
                unit="session",
                disable=args.no_progress,
                file=sys.stderr,
                dynamic_ncols=True,
            )

            def tick() -> None:
                bar.update(1)

            async with httpx.AsyncClient(timeout=10) as client:
                for rep in range(args.repeat):
                    for i in range(len(systems)):
                        system = systems[(i + rep) % len(systems)]  # rotate the order
                        bar.set_description(f"rep {rep + 1}/{args.repeat} {system}")
                        reset = await reset_prefix_cache(client, chat_url)
                        async with monitor.measure() as server:
                            if system == "sequential_memory":
                                record = await _run_sequential(env, forests, tick)
                            else:
                                record = await _run_pipeline(
                                    env,
                                    forests,
                                    f"{system}-r{rep}",
                                    system=system,
                                    job_concurrency=args.job_concurrency,
                                    tick=tick,
                                )
                        record.update(repetition=rep, order=i, prefix_cache_reset=reset, server=server)
                        runs.append(record)
            bar.close()
            await monitor.aclose()
            database, backends = env.database, env.backends.describe()
    return {
        "bench": NAME,
        "quick": bool(args.quick),
        "simulated": bool(args.simulate),
        "config": {
            "data": str(data),
            "users": len(forests),
            "sessions": n_sessions,
            "turns": sum(len(s.turns) for f in forests for s in f.sessions),
            "systems": systems,
            "repeat": args.repeat,
            "concurrency": args.concurrency,
            "job_concurrency": args.job_concurrency,
            "cell_turns": args.cell_turns,
            "fanout": args.fanout,
            "chat_url": "simulated (in-process)" if args.simulate else chat_url,
            "embed_url": embed_url if embed_url and not args.simulate else ("simulated" if embed_url else "hashed"),
            "server_accounting": source,
            "simulation": dataclasses.asdict(sim) if sim is not None else None,
            "backends": backends,
            "database": database,
        },
        "machine": machine_info(),
        "runs": runs,
        "summary": summarise(runs, systems),
        "elapsed_s": time.perf_counter() - t_all,
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    data = locomo_or_complain(args.data)
    if data is None:
        return 2
    if args.quick:
        args.forests, args.repeat = min(args.forests, 1), 1
        args.sessions_limit = 1 if args.sessions_limit is None else min(args.sessions_limit, 1)
    if args.concurrency is None:
        args.concurrency = _default_budget(args)
    made = provenance(args, argv)  # the commit as the run starts, not as it ends
    result = asyncio.run(run(args, data))
    result["provenance"] = made
    name = f"{NAME}_quick" if args.quick else (f"{NAME}_simulated" if args.simulate else NAME)
    if args.simulate and args.preset != "4b" and not args.quick:
        name = f"{name}_{args.preset.replace('-', '_')}"
    publish(args.out, name, result, plot, render, args=args, argv=argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
