"""Write throughput against OpenAI-compatible endpoints (vLLM for chat and embeddings), driving the
full write path: accept, parallel extraction, embedding, commit, lazy level-parallel refresh.

Prints sessions/s, turns/s, model calls and prompt/completion tokens per stage, the prefix-cache
hit rate (cached/prompt tokens, where the server reports cached tokens), per-stage wall time, and the
critical path (wall time) against the sum of call latencies: parallelism = sum of latencies / wall.

``--simulate`` starts the SIMULATED OpenAI-compatible server of ``memforest.testing.simulated_llm`` in this
process (latency = ttft + tpot x completion tokens, at most ``--max-num-seqs`` sequences at once,
the rest queue; synthetic outputs, no model) and runs, over the same sessions, MemForest's parallel
write path AND a sequential baseline: one cell at a time (extraction concurrency 1, one job at a
time, one forest at a time) with a refresh of the forest after every cell, as profile-rewriting
memories do. It prints the speedup (baseline wall / parallel wall) and the achieved parallelism.

    python -m bench.throughput --simulate
    python -m bench.throughput --chat-url http://gpu:8000/v1 --embed-url http://gpu:8001/v1 --concurrency 64
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
from rich.console import Console
from rich.table import Table
from tqdm import tqdm

from bench.env import RESULTS_DIR, BenchEnv, bench_env, forest_counts, locomo_or_complain
from bench.report import machine_info, new_figure, publish, save_figure, usage_totals
from bench.stepwise import ingest_stepwise
from memforest.backends.base import UsageLedger
from memforest.domain import ForestInput
from memforest.ingest.formats import load_forests
from memforest.pipeline.service import ingest_sessions
from memforest.testing.simulated_llm import SimulationConfig, run_server_in_thread

NAME = "throughput"
STAGE_ORDER = ("accept", "extract", "embed", "commit", "refresh")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench.throughput", description=__doc__.split("\n\n")[0])
    p.add_argument("--chat-url", default=None, help="OpenAI-compatible chat base URL (…/v1)")
    p.add_argument("--embed-url", default=None, help="OpenAI-compatible embeddings base URL (default: hashed)")
    p.add_argument("--model", default=None, help="chat model name (default: settings)")
    p.add_argument("--embed-model", default=None, help="embedding model name (default: settings)")
    p.add_argument("--embed-dim", type=int, default=None, help="embedding dimension (default: settings)")
    p.add_argument("--concurrency", type=int, default=64, help="chat budget: in-flight calls, extract and refresh")
    p.add_argument("--cell-turns", type=int, default=2, help="turns per cell (b)")
    p.add_argument("--fanout", type=int, default=8, help="fan-out k of every tree kind")
    p.add_argument("--forests", type=int, default=5, help="forests (conversations) ingested at once")
    p.add_argument("--job-concurrency", type=int, default=4, help="ingest jobs at once per forest")
    p.add_argument("--data", type=Path, default=None, help="LoCoMo JSON (default: the shared locomo_dev5.json)")
    p.add_argument(
        "--sessions-limit",
        type=int,
        default=None,
        help="first N sessions of each conversation (default: all; 2 with --simulate)",
    )
    p.add_argument(
        "--baseline", action="store_true", help="also run the sequential baseline (always on with --simulate)"
    )
    p.add_argument("--no-baseline", action="store_true", help="skip the sequential baseline")
    p.add_argument(
        "--baseline-refresh-concurrency",
        type=int,
        default=1,
        help="summary calls at once inside the baseline's refresh (1: fully sequential)",
    )
    sim = p.add_argument_group("simulation (--simulate)")
    sim.add_argument("--simulate", action="store_true", help="start the SIMULATED LLM server in-process")
    sim.add_argument("--ttft-ms", type=float, default=40.0)
    sim.add_argument("--tpot-ms", type=float, default=4.0)
    sim.add_argument("--max-num-seqs", type=int, default=64)
    sim.add_argument("--embed-latency-ms", type=float, default=5.0)
    sim.add_argument("--simulate-embed", action="store_true", help="embed via the simulated server too")
    p.add_argument("--database-url", default=None, help="external PostgreSQL (default: temporary embedded)")
    p.add_argument("--out", type=Path, default=RESULTS_DIR)
    p.add_argument("--quick", action="store_true", help="smoke run: 1 forest, 1 session")
    p.add_argument("--no-progress", action="store_true")
    return p


@contextlib.contextmanager
def _endpoints(args: argparse.Namespace) -> Iterator[tuple[str, str | None, SimulationConfig | None]]:
    if not args.simulate:
        if not args.chat_url:
            raise SystemExit("give --chat-url (an OpenAI-compatible server) or --simulate")
        yield args.chat_url, args.embed_url, None
        return
    config = SimulationConfig(
        ttft_ms=args.ttft_ms,
        tpot_ms=args.tpot_ms,
        max_num_seqs=args.max_num_seqs,
        embed_dim=args.embed_dim or 384,
        embed_latency_ms=args.embed_latency_ms,
    )
    with run_server_in_thread(config) as url:
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
    return {"llm": llm, "embedding": embedding, "pipeline": pipeline}


async def _server_stats(chat_url: str) -> dict[str, Any] | None:
    """The simulated server's /stats (None for servers without it)."""
    base = chat_url.rstrip("/")
    base = base[: -len("/v1")] if base.endswith("/v1") else base
    try:
        async with httpx.AsyncClient(timeout=5) as client:
            r = await client.get(f"{base}/stats")
        return dict(r.json()) if r.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None


def _summarise(usage: dict[str, dict[str, Any]], wall: float, sessions: int, turns: int) -> dict[str, Any]:
    tot = usage_totals(usage)
    return {
        "wall_s": wall,
        "sessions": sessions,
        "turns": turns,
        "sessions_per_s": sessions / wall if wall else 0.0,
        "turns_per_s": turns / wall if wall else 0.0,
        "model_usage": usage,
        "model_calls": int(tot["calls"]),
        "prompt_tokens": int(tot["prompt_tokens"]),
        "completion_tokens": int(tot["completion_tokens"]),
        "cached_prompt_tokens": int(tot["cached_prompt_tokens"]),
        "prefix_cache_hit_rate": tot["cached_prompt_tokens"] / tot["prompt_tokens"] if tot["prompt_tokens"] else None,
        "sum_call_latency_s": tot["latency_s"],
        "parallelism": tot["latency_s"] / wall if wall else 0.0,
    }


async def _run_parallel(
    env: BenchEnv, forests: list[ForestInput], args: argparse.Namespace, bar: tqdm
) -> dict[str, Any]:
    seen: dict[str, int] = {}

    def progress_for(name: str) -> Any:
        def progress(done: int, _total: int) -> None:
            bar.update(done - seen.get(name, 0))
            seen[name] = done

        return progress

    async def one(f: ForestInput) -> dict[str, Any]:
        name = f"{f.name}-parallel"
        rep = await ingest_sessions(
            env.db,
            env.settings,
            env.backends,
            env.tenant_id,
            name,
            f.sessions,
            progress=progress_for(name),
            job_concurrency=args.job_concurrency,
        )
        return rep.as_dict()

    t0 = time.perf_counter()
    reports = await asyncio.gather(*(one(f) for f in forests))
    wall = time.perf_counter() - t0
    ledger = UsageLedger()
    stage: dict[str, float] = dict.fromkeys(STAGE_ORDER, 0.0)
    for d in reports:
        for name, u in d["model_usage"].items():
            ledger.record(name, **u)
        stage["accept"] += d["accept_wall_s"]
        for k, v in d["stage_wall_s"].items():
            stage[k] = stage.get(k, 0.0) + v
    out = _summarise(
        ledger.as_dict(), wall, sum(d["sessions_accepted"] for d in reports), sum(d["turns"] for d in reports)
    )
    out["stage_s_summed_over_jobs"] = stage
    out["facts_new"] = sum(d["facts_new"] for d in reports)
    out["nodes_refreshed"] = sum(d["nodes_refreshed"] for d in reports)
    out["jobs_failed"] = sum(d["jobs_failed"] for d in reports)
    out["forests"] = [
        {
            "forest": d["forest"],
            "wall_s": d["wall_s"],
            "sessions": d["sessions_accepted"],
            "turns": d["turns"],
            "facts_new": d["facts_new"],
        }
        for d in reports
    ]
    return out


async def _run_baseline(
    env: BenchEnv, forests: list[ForestInput], args: argparse.Namespace, bar: tqdm
) -> dict[str, Any]:
    pipeline = env.settings.pipeline.model_copy(update={"extract_concurrency": 1, "refresh_concurrency": 1})
    seq_env = dataclasses.replace(env, settings=env.settings.model_copy(update={"pipeline": pipeline}))
    ledger = UsageLedger()
    stage: dict[str, float] = dict.fromkeys(STAGE_ORDER, 0.0)
    sessions = turns = facts = nodes = refreshes = 0
    t0 = time.perf_counter()
    for f in forests:  # one forest, one session, one cell at a time
        rep = await ingest_stepwise(
            seq_env,
            f"{f.name}-sequential",
            f.sessions,
            granularity="cell",
            refresh_concurrency=args.baseline_refresh_concurrency,
            progress=lambda n: bar.update(n),
        )
        ledger.merge(rep.usage)
        for k, v in rep.counts.stage_wall_s.items():
            stage[k] = stage.get(k, 0.0) + v
        sessions += rep.sessions
        turns += rep.turns
        facts += rep.counts.facts_new
        nodes += rep.counts.nodes_refreshed
        refreshes += rep.refreshes
    wall = time.perf_counter() - t0
    out = _summarise(ledger.as_dict(), wall, sessions, turns)
    out["stage_s_summed_over_jobs"] = stage
    out["facts_new"] = facts
    out["nodes_refreshed"] = nodes
    out["refreshes"] = refreshes
    return out


async def run(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    forests = load_forests(data, "locomo")[: args.forests]
    if args.sessions_limit is not None:
        forests = [ForestInput(name=f.name, sessions=f.sessions[: args.sessions_limit]) for f in forests]
    forests = [ForestInput(name=f.name or f"conversation-{i}", sessions=f.sessions) for i, f in enumerate(forests)]
    n_sessions = sum(len(f.sessions) for f in forests)
    baseline = (args.simulate or args.baseline) and not args.no_baseline
    t_all = time.perf_counter()
    with _endpoints(args) as (chat_url, embed_url, sim):
        overrides = _settings_overrides(args, chat_url, embed_url)
        async with bench_env(database_url=args.database_url, settings_overrides=overrides) as env:
            bar = tqdm(
                total=n_sessions * (2 if baseline else 1),
                unit="session",
                desc="parallel write path",
                disable=args.no_progress,
                file=sys.stderr,
                dynamic_ncols=True,
            )
            s0 = await _server_stats(chat_url)
            parallel = await _run_parallel(env, forests, args, bar)
            s1 = await _server_stats(chat_url)
            seq: dict[str, Any] | None = None
            if baseline:
                bar.set_description("sequential baseline")
                seq = await _run_baseline(env, forests, args, bar)
            s2 = await _server_stats(chat_url)
            bar.close()
            counts = {f.name: await forest_counts(env, f"{f.name}-parallel") for f in forests}
            database = env.database
            backends = env.backends.describe()

    def server_delta(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any] | None:
        if a is None or b is None:
            return None
        return {
            "requests": b["requests"] - a["requests"],
            "prompt_tokens": b["prompt_tokens"] - a["prompt_tokens"],
            "completion_tokens": b["completion_tokens"] - a["completion_tokens"],
            "prefix_cache_hits": b["prefix_cache"]["hits"] - a["prefix_cache"]["hits"],
            "prefix_cache_queries": b["prefix_cache"]["queries"] - a["prefix_cache"]["queries"],
            "max_concurrent_seen_so_far": b["max_concurrent_seen"],
            "max_waiting_seen_so_far": b["max_waiting_seen"],
        }

    parallel["server"] = server_delta(s0, s1)
    if seq is not None:
        seq["server"] = server_delta(s1, s2)
    return {
        "bench": NAME,
        "quick": bool(args.quick),
        "simulated": bool(args.simulate),
        "config": {
            "data": str(data),
            "forests": len(forests),
            "sessions": n_sessions,
            "sessions_limit": args.sessions_limit,
            "concurrency": args.concurrency,
            "cell_turns": args.cell_turns,
            "fanout": args.fanout,
            "job_concurrency": args.job_concurrency,
            "baseline_refresh_concurrency": args.baseline_refresh_concurrency,
            "chat_url": "simulated (in-process)" if args.simulate else chat_url,
            "embed_url": embed_url if embed_url and not args.simulate else ("simulated" if embed_url else "hashed"),
            "simulation": dataclasses.asdict(sim) if sim is not None else None,
            "backends": backends,
            "database": database,
        },
        "machine": machine_info(),
        "parallel": parallel,
        "baseline": seq,
        "speedup": (seq["wall_s"] / parallel["wall_s"]) if seq and parallel["wall_s"] else None,
        "forest_counts": counts,
        "elapsed_s": time.perf_counter() - t_all,
    }


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def render(result: dict[str, Any], console: Console) -> None:
    cfg = result["config"]
    if result["simulated"]:
        sim = cfg["simulation"]
        console.print(
            f"[bold]SIMULATED LLM server[/bold] (no model): ttft {sim['ttft_ms']} ms, tpot {sim['tpot_ms']} ms, "
            f"max_num_seqs {sim['max_num_seqs']}; embeddings: {cfg['embed_url']}"
        )
    console.print(
        f"{cfg['forests']} forests, {cfg['sessions']} sessions; concurrency {cfg['concurrency']}, "
        f"b={cfg['cell_turns']}, k={cfg['fanout']}, {cfg['job_concurrency']} jobs/forest"
    )
    runs = [("MemForest parallel", result["parallel"])]
    if result["baseline"]:
        runs.append(("sequential baseline", result["baseline"]))
    t = Table(title="write throughput")
    for col in (
        "run",
        "sessions",
        "turns",
        "wall s",
        "sessions/s",
        "turns/s",
        "model calls",
        "prompt tok",
        "completion tok",
        "prefix-cache hit",
        "sum call latency s",
        "parallelism",
    ):
        t.add_column(col, justify="right", no_wrap=col == "run")
    for name, r in runs:
        t.add_row(
            name,
            str(r["sessions"]),
            str(r["turns"]),
            f"{r['wall_s']:.1f}",
            f"{r['sessions_per_s']:.2f}",
            f"{r['turns_per_s']:.1f}",
            str(r["model_calls"]),
            f"{r['prompt_tokens']:,}",
            f"{r['completion_tokens']:,}",
            _pct(r["prefix_cache_hit_rate"]),
            f"{r['sum_call_latency_s']:.1f}",
            f"{r['parallelism']:.1f}x",
        )
    console.print(t)
    for name, r in runs:
        st = Table(title=f"per stage: {name}")
        for col in ("stage", "calls", "prompt tok", "completion tok", "cached tok", "sum latency s", "stage wall s"):
            st.add_column(col, justify="right")
        stages = list(dict.fromkeys([*STAGE_ORDER, "summarize", *r["model_usage"]]))
        for s in stages:
            u = r["model_usage"].get(s, {})
            wall = r["stage_s_summed_over_jobs"].get(s)
            if not u and wall is None:
                continue
            st.add_row(
                s,
                str(u.get("calls", "")),
                f"{u.get('prompt_tokens', 0):,}" if u else "",
                f"{u.get('completion_tokens', 0):,}" if u else "",
                f"{u.get('cached_prompt_tokens', 0):,}" if u else "",
                f"{u.get('latency_s', 0):.2f}" if u else "",
                f"{wall:.2f}" if wall is not None else "",
            )
        console.print(st)
    console.print("stage wall = summed over jobs (summaries run inside refresh); critical path = wall s of the run")
    if result["speedup"] is not None:
        p, b = result["parallel"], result["baseline"]
        console.print(
            f"[bold]speedup over the sequential baseline: {result['speedup']:.1f}x[/bold] "
            f"({b['wall_s']:.1f} s -> {p['wall_s']:.1f} s); achieved parallelism {p['parallelism']:.1f}x "
            f"(baseline {b['parallelism']:.1f}x)"
        )


def plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    fig, ax = new_figure(2)
    runs = [("parallel", result["parallel"])] + ([("sequential", result["baseline"])] if result["baseline"] else [])
    labels = [n for n, _ in runs]
    ax[0].bar(labels, [r["wall_s"] for _, r in runs], color=["#2a6", "#c44"][: len(runs)])
    ax[0].set_title("wall time (s)" + (f", speedup {result['speedup']:.1f}x" if result["speedup"] else ""))
    width = 0.8 / len(runs)
    stages = sorted({s for _, r in runs for s in r["model_usage"]})
    for i, (n, r) in enumerate(runs):
        xs = [j + i * width for j in range(len(stages))]
        ax[1].bar(xs, [r["model_usage"].get(s, {}).get("latency_s", 0.0) for s in stages], width, label=n)
    ax[1].set_xticks([j + width * (len(runs) - 1) / 2 for j in range(len(stages))], stages)
    ax[1].set_title("sum of call latencies per stage (s)")
    ax[1].legend()
    return save_figure(fig, out_dir, name)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    data = locomo_or_complain(args.data)
    if data is None:
        return 2
    if args.simulate and args.sessions_limit is None:
        args.sessions_limit = 2
    if args.quick:
        args.forests = min(args.forests, 1)
        args.sessions_limit = 1 if args.sessions_limit is None else min(args.sessions_limit, 1)
    result = asyncio.run(run(args, data))
    name = f"{NAME}_quick" if args.quick else (f"{NAME}_simulated" if args.simulate else NAME)
    publish(args.out, name, result, plot, render)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
