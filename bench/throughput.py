"""Write throughput of MemForest and its baselines against ONE model server, on the same LoCoMo
sessions, users concurrent in every run, swept over the number of users (``--users 5,20,50``).

Arms (``--systems``, :mod:`bench.throughput_arms`): ``memforest`` (one process at its shipped
settings, its chat budget the server's ``max_num_seqs``), ``serial_pipeline`` (the same pipeline at
concurrency 1 inside each user), ``mem0_v1`` and ``mem0_v2`` (models of Mem0's ``add()`` of the
v1.0.x and v2.0 lines, :mod:`bench.sequential_memory`), and the opt-in ``memforest_burst``.
Users past the LoCoMo conversations given are copies with renamed speakers.

Each repetition runs every arm once per users setting (the order rotates), the server's prefix
cache emptied before each run. Reported per run: wall time, time until each session is queryable,
model calls, prompt / cached / completion tokens, and the server's own accounting (busy time, busy
overlap, queue wait, requests served over time). The simulated server also reports its lower bound
for the run's chat work (``memforest.testing.simulated_llm.bound``): ``efficiency`` = that bound /
wall time. The summary holds, per users setting, medians over repetitions with their spread;
speedups are ratios of median wall times. The gate (preset 4b, 20 users; docs/adr/0041) is
``"gate": "pass"`` or ``"fail"`` in the JSON.

``--simulate`` starts the SIMULATED vLLM-like server (``memforest.testing.simulated_llm``, preset
``--preset``, 4b by default); ``--chat-url`` / ``--embed-url`` run the same harness against a real
vLLM (docs/deploy.md; ``scripts/gpu_throughput.sh`` does it all on a GPU machine).

    python -m bench.throughput --simulate --sessions-limit 6
    python -m bench.throughput --simulate --preset 30b-a3b --users 20
    python -m bench.throughput --chat-url http://gpu:8000/v1 --embed-url http://gpu:8001/v1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
from tqdm import tqdm

from bench.args import add_simulation_timing, bench_parser, simulation_timing
from bench.cpu_meter import CpuMeter, postmaster_pid, simulator_pid
from bench.env import bench_env, locomo_or_complain
from bench.report import machine_info, provenance, publish
from bench.server_stats import ServerMonitor, reset_prefix_cache, server_root
from bench.throughput_arms import ARMS, DEFAULT_ARMS, run_arm, users_of
from bench.throughput_report import plot, render
from bench.throughput_summary import gate, summarise
from memforest.formats import load_forests
from memforest.settings import worker_chat_budget
from memforest.testing.simulated_llm import PRESETS, SimulationConfig, preset_config, run_server_in_process

NAME = "throughput"
# MemForest's chat budget against a real server when --concurrency is not given (set it to the
# server's --max-num-seqs: docs/deploy.md section 3)
REAL_SERVER_BUDGET = 64


def _users_list(value: str) -> list[int]:
    try:
        users = [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--users takes comma-separated counts, got {value!r}") from None
    if not users or min(users) < 1:
        raise argparse.ArgumentTypeError(f"--users takes counts >= 1, got {value!r}")
    return users


def _parser() -> argparse.ArgumentParser:
    p = bench_parser(NAME, __doc__, repeat=3)
    p.add_argument("--chat-url", default=None, help="OpenAI-compatible chat base URL (…/v1), e.g. vLLM")
    p.add_argument("--embed-url", default=None, help="OpenAI-compatible embeddings base URL (default: hashed)")
    p.add_argument("--model", default=None, help="chat model name (default: settings)")
    p.add_argument("--embed-model", default=None, help="embedding model name (default: settings)")
    p.add_argument("--embed-dim", type=int, default=None, help="embedding dimension (default: settings)")
    p.add_argument("--systems", default=",".join(DEFAULT_ARMS), help=f"comma-separated subset of {','.join(ARMS)}")
    p.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="MemForest's chat budget (in-flight calls); default: the simulated server's max_num_seqs with "
        f"--simulate (one process fills one server, docs/deploy.md section 3), else {REAL_SERVER_BUDGET}",
    )
    p.add_argument("--users", type=_users_list, default=[5, 20, 50], help="users (concurrent) per setting: 5,20,50")
    p.add_argument("--data", type=Path, default=None, help="LoCoMo JSON (default: the shared locomo_dev5.json)")
    p.add_argument("--sessions-limit", type=int, default=None, help="first N sessions per user (default: all)")
    p.add_argument("--database-url", default=None, help="external PostgreSQL (default: temporary embedded)")
    p.add_argument("--quick", action="store_true", help="smoke run: 2 users, 1 session, 1 repetition")
    sim = p.add_argument_group("simulation (--simulate)")
    sim.add_argument("--simulate", action="store_true", help="start the SIMULATED vLLM-like server in-process")
    add_simulation_timing(sim, sorted(PRESETS))
    sim.add_argument("--embed-latency-ms", type=float, default=5.0)
    sim.add_argument("--simulate-embed", action="store_true", help="embed via the simulated server too")
    return p


def default_budget(args: argparse.Namespace) -> int:
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
    # its own interpreter, as a real server; a loaded machine may take a while to start one
    with run_server_in_process(config, startup_timeout_s=300) as url:
        yield url, (url if args.simulate_embed else args.embed_url), config


def settings_overrides(args: argparse.Namespace, chat_url: str, embed_url: str | None) -> dict[str, Any]:
    """MemForest's settings for the run: its shipped defaults but for the endpoints, the chat budget
    (``--concurrency``: the server's ``max_num_seqs``), a database pool large enough for the serial
    arm's one worker per user, and no tenant quotas (hundreds of forests per run)."""
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
    database = {"pool_size": max(20, 2 * max(args.users) + 10)}
    limits = {"max_forests": 0, "max_queued_jobs": 0, "max_large_forests": 0}
    return {"llm": llm, "embedding": embedding, "database": database, "limits": limits}


async def _window(client: httpx.AsyncClient, chat_url: str) -> dict[str, Any] | None:
    """The simulated server's work window (its lower bound for the work since the last call); None
    from a server without one (vLLM)."""
    try:
        response = await client.post(f"{server_root(chat_url)}/stats/window")
    except httpx.HTTPError:
        return None
    return dict(response.json()) if response.status_code == 200 else None


async def run(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    arms = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = sorted(set(arms) - set(ARMS))
    if unknown:
        raise SystemExit(f"unknown --systems {unknown}; use {','.join(ARMS)}")
    conversations = load_forests(data, "locomo")
    settings = {n: users_of(conversations, n, args.sessions_limit) for n in args.users}
    total = sum(len(u.sessions) for users in settings.values() for u in users) * len(arms) * args.repeat
    runs: list[dict[str, Any]] = []
    t_all = time.perf_counter()
    with _endpoints(args) as (chat_url, embed_url, sim):
        overrides = settings_overrides(args, chat_url, embed_url)
        async with bench_env(database_url=args.database_url, settings_overrides=overrides, home=args.home) as env:
            monitor = ServerMonitor(chat_url, interval_s=0.1)
            pgdata = env.settings.home / "pgdata" if args.database_url is None else None
            meter = CpuMeter(simulator_pid() if sim is not None else None, postmaster_pid(pgdata) if pgdata else None)
            source = await monitor.detect()
            bar = tqdm(total=total, unit="session", disable=args.no_progress, file=sys.stderr, dynamic_ncols=True)

            def tick() -> None:
                bar.update(1)

            async with httpx.AsyncClient(timeout=10) as client:
                for n, users in settings.items():
                    for rep in range(args.repeat):
                        for i in range(len(arms)):
                            arm = arms[(i + rep) % len(arms)]  # rotate the order
                            bar.set_description(f"{n} users, rep {rep + 1}/{args.repeat} {arm}")
                            reset = await reset_prefix_cache(client, chat_url)
                            await _window(client, chat_url)
                            cpu_before = meter.snapshot()
                            async with monitor.measure() as server:
                                record = await run_arm(env, arm, users, f"{arm}-u{n}-r{rep}", tick)
                            record["cpu"] = meter.spent(cpu_before, meter.snapshot(), record["wall_s"])
                            bound = await _window(client, chat_url)
                            record.update(users=n, repetition=rep, order=i, prefix_cache_reset=reset, server=server)
                            record["bound"] = bound
                            lower = bound["lower_bound_s"] if bound else None
                            record["efficiency"] = lower / record["wall_s"] if lower and record["wall_s"] else None
                            runs.append(record)
            bar.close()
            await monitor.aclose()
            database, backends, env_settings = env.database, env.backends.describe(), env.settings
    summary = summarise(runs, arms, args.users)
    verdict = gate(summary, preset=args.preset if args.simulate else None)
    return {
        "bench": NAME,
        "quick": bool(args.quick),
        "simulated": bool(args.simulate),
        "config": {
            "data": str(data),
            "users": args.users,
            "sessions_per_user": {str(n): [len(u.sessions) for u in users] for n, users in settings.items()},
            "turns": {str(n): sum(len(s.turns) for u in users for s in u.sessions) for n, users in settings.items()},
            "systems": arms,
            "repeat": args.repeat,
            "concurrency": args.concurrency,
            "memforest_settings": {
                "llm_concurrency": env_settings.llm.concurrency,
                "worker_concurrency": env_settings.worker.concurrency,
                # jobs past the default start while their extraction calls leave room in the chat budget
                "admitted_by_chat_budget": worker_chat_budget(env_settings) is not None,
                "extract_concurrency": env_settings.pipeline.extract_concurrency,
                "refresh_concurrency": env_settings.pipeline.refresh_concurrency,
                "commit_overlap": env_settings.worker.commit_overlap,
            },
            "chat_url": "simulated (in-process)" if args.simulate else chat_url,
            "embed_url": embed_url if embed_url and not args.simulate else ("simulated" if embed_url else "hashed"),
            "server_accounting": source,
            "simulation": dataclasses.asdict(sim) if sim is not None else None,
            "backends": backends,
            "database": database,
        },
        "machine": machine_info(),
        "runs": runs,
        "summary": summary,
        "gate": verdict["gate"],
        "gate_detail": verdict,
        "elapsed_s": time.perf_counter() - t_all,
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    data = locomo_or_complain(args.data)
    if data is None:
        return 2
    if args.quick:
        args.users, args.repeat = [min(args.users[0], 2)], 1
        args.sessions_limit = 1 if args.sessions_limit is None else min(args.sessions_limit, 1)
    if args.concurrency is None:
        args.concurrency = default_budget(args)
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
