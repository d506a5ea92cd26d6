"""Load test of the HTTP API: N concurrent ``MemForestClient`` clients mix ingest (POST a session)
and query against one ``memforest serve`` process (with its in-process worker) for a fixed time.

The server runs as a subprocess on a free port against a fresh embedded PostgreSQL under a temporary
MEMFOREST_HOME (or ``--database-url`` / MEMFOREST_DATABASE_URL). A tenant and a key are created
through the admin endpoints, a forest is seeded with generated sessions (invented people and
events), then the clients run. Reported per operation: throughput, p50/p95/p99 latency, errors;
plus the ingest jobs the server completed (waited for after the run). Any error exits non-zero.

    python -m bench.load [--clients 8] [--duration 60] [--query-ratio 0.8]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from rich.console import Console
from rich.table import Table
from tqdm import tqdm

from bench.args import bench_parser, single_run
from bench.report import machine_info, new_figure, publish, save_figure
from bench.synthetic import SyntheticConversations
from memforest.client import JobWaitTimeout, MemForestClient
from memforest.errors import MemForestError

OPS = ("query", "ingest")
FOREST = "load"
_TEMPLATES = (
    "Where does {name} live now?",
    "What does {name} work as?",
    "Which company does {name} work for?",
    "When did {name} move?",
    "What pet did {name} adopt?",
    "Who did {name} go hiking with?",
    "How old is {name}?",
    "What is {name} planning to visit?",
)


# ---------------------------------------------------------------- the server subprocess


def free_port() -> int:
    """A TCP port that was free a moment ago on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass(slots=True)
class ServerProcess:
    """A running ``memforest serve``: its URL, admin key and log file."""

    url: str
    admin_key: str
    proc: subprocess.Popen[bytes]
    log_path: Path
    database: str

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


@contextlib.contextmanager
def serve(
    *,
    database_url: str | None,
    embed_dim: int | None,
    ready_timeout: float = 240.0,
    home: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[ServerProcess]:
    """Start ``memforest serve`` on a free port in ``home`` (kept) or a temporary home (removed
    after), with ``env`` added to its environment (not to this process's); stop it (SIGINT) after."""
    temporary = home is None
    home = Path(tempfile.mkdtemp(prefix="memforest-load-")) if home is None else Path(home)
    home.mkdir(parents=True, exist_ok=True)
    admin_key = secrets.token_urlsafe(32)
    extra = dict(env or {})
    env = {k: v for k, v in os.environ.items() if k != "MEMFOREST_API_KEY"} | extra
    env |= {"MEMFOREST_HOME": str(home), "MEMFOREST_ADMIN_KEY": admin_key, "MEMFOREST_LOG_FORMAT": "text"}
    # one tenant's clients measure the server's throughput: no per-tenant limits (ADR 0019)
    env |= {"MEMFOREST_LIMITS__RATE_PER_S": "0", "MEMFOREST_LIMITS__MAX_IN_FLIGHT": "0"}
    if database_url:  # tenant work logs in as MEMFOREST_DATABASE_TENANT_URL from the environment (ADR 0018)
        env["MEMFOREST_DATABASE_URL"] = database_url
    else:  # the embedded server makes its own tenant login
        env.pop("MEMFOREST_DATABASE_URL", None)
        env.pop("MEMFOREST_DATABASE_TENANT_URL", None)
    if embed_dim is not None:
        env["MEMFOREST_EMBEDDING__DIM"] = str(embed_dim)
    port = free_port()
    log_path = home / "serve.log"
    where = "external" if database_url else "embedded (temporary)"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "memforest.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = ServerProcess(f"http://127.0.0.1:{port}", admin_key, proc, log_path, where)
    try:
        _wait_ready(server, ready_timeout)
        yield server
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if temporary:
            shutil.rmtree(home, ignore_errors=True)


def _wait_ready(server: ServerProcess, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if server.proc.poll() is not None:
            raise MemForestError(f"memforest serve exited with {server.proc.returncode}:\n{server.log_tail()}")
        try:
            if httpx.get(f"{server.url}/readyz", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise MemForestError(f"memforest serve not ready after {timeout:.0f}s:\n{server.log_tail()}")
        time.sleep(0.25)


# ---------------------------------------------------------------- the load


@dataclass(slots=True)
class Tally:
    """What the clients did: latencies (seconds) of successful operations, errors, submitted jobs."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: {op: [] for op in OPS})
    errors: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OPS, 0))
    error_samples: list[str] = field(default_factory=list)
    job_ids: list[str] = field(default_factory=list)
    evidence_items: int = 0

    @property
    def ops(self) -> int:
        return sum(len(v) for v in self.latencies.values()) + sum(self.errors.values())

    def error(self, op: str, exc: BaseException) -> None:
        self.errors[op] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{op}: {type(exc).__name__}: {exc}")


def _question(rng: random.Random, names: Sequence[str]) -> str:
    return rng.choice(_TEMPLATES).format(name=rng.choice(names))


async def _client_loop(
    n: int, url: str, key: str, args: argparse.Namespace, end: float, tally: Tally, names: Sequence[str]
) -> None:
    rng = random.Random(args.seed * 7919 + n)
    gen = SyntheticConversations(seed=args.seed * 1000 + n + 1, prefix=f"c{n}-")
    async with MemForestClient(url, key, timeout=args.request_timeout) as mf:
        while time.monotonic() < end:
            op = "query" if rng.random() < args.query_ratio else "ingest"
            t0 = time.perf_counter()
            try:
                if op == "query":
                    result = await mf.query(FOREST, _question(rng, names), top_k=args.top_k)
                    tally.evidence_items += len(result.evidence)
                else:
                    accepted = await mf.add_session(FOREST, gen.session())
                    if accepted.job_id is not None:
                        tally.job_ids.append(accepted.job_id)
            except MemForestError as exc:
                tally.error(op, exc)
                continue
            tally.latencies[op].append(time.perf_counter() - t0)


async def _wait_jobs(
    mf: MemForestClient, job_ids: Sequence[str], budget_s: float, desc: str, progress: bool
) -> dict[str, int]:
    """Wait for every job (at most ``budget_s`` seconds in all); count them by final state."""
    states = {"succeeded": 0, "failed": 0, "pending": 0}
    deadline = time.monotonic() + budget_s
    with tqdm(total=len(job_ids), desc=desc, unit="job", disable=not progress) as bar:
        for job_id in job_ids:
            try:
                job = await mf.wait_job(job_id, timeout=max(0.0, deadline - time.monotonic()), poll_interval=0.25)
                states[job.state] += 1
            except JobWaitTimeout:
                states["pending"] += 1
            bar.update(1)
    return states


def _op_stats(latencies: list[float], errors: int, duration: float) -> dict[str, Any]:
    ms = np.array(latencies, dtype=float) * 1000.0
    done = len(latencies)
    out: dict[str, Any] = {"count": done, "errors": errors, "ops_per_s": round(done / duration, 3)}
    if done:
        p50, p95, p99 = np.percentile(ms, [50, 95, 99])
        out |= {
            "p50_ms": round(float(p50), 2),
            "p95_ms": round(float(p95), 2),
            "p99_ms": round(float(p99), 2),
            "mean_ms": round(float(statistics.fmean(ms)), 2),
            "max_ms": round(float(ms.max()), 2),
            "percentiles_ms": [round(float(v), 3) for v in np.percentile(ms, list(range(101)))],
        }
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the server, seed, load, drain; the result dict."""
    progress = not args.no_progress
    with serve(database_url=args.database_url, embed_dim=args.embed_dim, home=args.home) as server:
        async with MemForestClient(server.url, server.admin_key) as admin:
            tenant = await admin.create_tenant("load-bench")
            key = (await admin.create_key(tenant.id, ["read", "write"])).key
        assert key is not None
        async with MemForestClient(server.url, key, timeout=args.request_timeout) as mf:
            await mf.create_forest(FOREST)
            seeder = SyntheticConversations(seed=args.seed, prefix="seed-")
            names = [p.name for p in seeder.people]
            t_seed = time.perf_counter()
            seed_jobs = []
            for session in tqdm(seeder.sessions(args.seed_sessions), desc="seed", unit="session", disable=not progress):
                accepted = await mf.add_session(FOREST, session)
                if accepted.job_id is not None:
                    seed_jobs.append(accepted.job_id)
            seeded = await _wait_jobs(mf, seed_jobs, args.drain_timeout, "seed jobs", progress)
            seed_s = time.perf_counter() - t_seed
            before = dict((await mf.get_forest(FOREST)).counts or {})

            tally = Tally()
            t0 = time.monotonic()
            end = t0 + args.duration
            clients = [
                asyncio.create_task(_client_loop(n, server.url, key, args, end, tally, names))
                for n in range(args.clients)
            ]
            with tqdm(total=round(args.duration), desc="load", unit="s", disable=not progress) as bar:
                while not all(c.done() for c in clients):
                    await asyncio.sleep(0.5)
                    bar.n = min(round(args.duration), round(time.monotonic() - t0))
                    bar.set_postfix(ops=tally.ops, errors=sum(tally.errors.values()), refresh=False)
                    bar.refresh()
            for c in clients:
                c.result()  # a bug in the loop itself surfaces here
            elapsed = time.monotonic() - t0
            t_drain = time.perf_counter()
            jobs = await _wait_jobs(mf, tally.job_ids, args.drain_timeout, "drain jobs", progress)
            drain_s = time.perf_counter() - t_drain
            after = dict((await mf.get_forest(FOREST)).counts or {})

    ops = {op: _op_stats(tally.latencies[op], tally.errors[op], elapsed) for op in OPS}
    errors = sum(tally.errors.values())
    total_done = sum(len(v) for v in tally.latencies.values())
    return {
        "config": {
            "clients": args.clients,
            "duration_s": args.duration,
            "query_ratio": args.query_ratio,
            "seed_sessions": args.seed_sessions,
            "top_k": args.top_k,
            "seed": args.seed,
            "database": server.database,
            "server": "one `memforest serve` process with its in-process worker, rule-based extractor, hashed embedder",
        },
        "machine": machine_info(),
        "elapsed_s": round(elapsed, 3),
        "ops": ops,
        "total": {"count": total_done, "errors": errors, "ops_per_s": round(total_done / elapsed, 3)},
        "errors": errors,
        "error_samples": tally.error_samples,
        "evidence_per_query": round(tally.evidence_items / max(1, len(tally.latencies["query"])), 2),
        "jobs": {
            "seeded": len(seed_jobs),
            "seed_succeeded": seeded["succeeded"],
            "seed_wall_s": round(seed_s, 3),
            "submitted": len(tally.job_ids),
            "succeeded": jobs["succeeded"],
            "failed": jobs["failed"] + seeded["failed"],
            "pending": jobs["pending"] + seeded["pending"],
            "drain_s": round(drain_s, 3),
        },
        "forest_before": before,
        "forest_after": after,
        "pass": errors == 0 and jobs["failed"] + seeded["failed"] == 0 and jobs["pending"] + seeded["pending"] == 0,
    }


# ---------------------------------------------------------------- output


def render(result: dict[str, Any], console: Console) -> None:
    cfg = result["config"]
    title = (
        f"HTTP load: {cfg['clients']} clients, {result['elapsed_s']:.1f}s, query ratio {cfg['query_ratio']} "
        f"({cfg['database']} database)"
    )
    table = Table(title=title)
    for col in ("operation", "count", "ops/s", "p50 ms", "p95 ms", "p99 ms", "mean ms", "max ms", "errors"):
        table.add_column(col, justify="left" if col == "operation" else "right")
    for op, s in result["ops"].items():
        table.add_row(
            op,
            str(s["count"]),
            f"{s['ops_per_s']:.1f}",
            *(f"{s[k]:.1f}" if k in s else "-" for k in ("p50_ms", "p95_ms", "p99_ms", "mean_ms", "max_ms")),
            str(s["errors"]),
        )
    t = result["total"]
    table.add_row("all", str(t["count"]), f"{t['ops_per_s']:.1f}", "", "", "", "", "", str(t["errors"]))
    console.print(table)
    j = result["jobs"]
    console.print(
        f"jobs: {j['seeded']} seed ({j['seed_wall_s']:.1f}s), {j['submitted']} submitted during the run: "
        f"{j['succeeded']} succeeded, {j['failed']} failed, {j['pending']} still pending "
        f"(drained in {j['drain_s']:.1f}s); facts {result['forest_before'].get('facts', 0)} -> "
        f"{result['forest_after'].get('facts', 0)}; evidence items per query {result['evidence_per_query']}"
    )
    for sample in result["error_samples"]:
        console.print(f"[red]error[/red] {sample}")
    console.print("[green]PASS[/green]" if result["pass"] else "[red]FAIL[/red]: errors, failed or pending jobs")


def plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    fig, (ax_cdf, ax_bar) = new_figure(2)
    for op, s in result["ops"].items():
        if "percentiles_ms" in s:
            ax_cdf.plot(s["percentiles_ms"], list(range(101)), label=f"{op} (n={s['count']})")
    ax_cdf.set_xscale("log")
    ax_cdf.set_xlabel("latency (ms, log)")
    ax_cdf.set_ylabel("percentile")
    ax_cdf.set_title("latency distribution per operation")
    ax_cdf.grid(True, alpha=0.3)
    ax_cdf.legend()
    ops = [op for op, s in result["ops"].items() if "p50_ms" in s]
    x = np.arange(len(ops))
    for i, q in enumerate(("p50_ms", "p95_ms", "p99_ms")):
        ax_bar.bar(x + (i - 1) * 0.27, [result["ops"][op][q] for op in ops], width=0.27, label=q[:3])
    ax_bar.set_xticks(x, [f"{op}\n{result['ops'][op]['ops_per_s']:.1f} ops/s" for op in ops])
    ax_bar.set_ylabel("ms")
    ax_bar.set_title(f"{result['config']['clients']} clients, {result['elapsed_s']:.0f}s")
    ax_bar.legend()
    return save_figure(fig, out_dir, name)


def _parser() -> argparse.ArgumentParser:
    p = bench_parser("load", (__doc__ or "").split("\n\n")[0])
    p.add_argument("--clients", type=int, default=8, help="concurrent clients")
    p.add_argument("--duration", type=float, default=60.0, help="seconds of load")
    p.add_argument("--query-ratio", type=float, default=0.8, help="share of operations that are queries (0..1)")
    p.add_argument("--seed-sessions", type=int, default=20, help="sessions ingested before the load starts")
    p.add_argument("--top-k", type=int, default=10)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--request-timeout", type=float, default=60.0, help="per request, seconds")
    p.add_argument("--drain-timeout", type=float, default=900.0, help="seconds to wait for queued jobs")
    p.add_argument(
        "--database-url",
        default=os.environ.get("MEMFOREST_DATABASE_URL"),
        help="external PostgreSQL (default: MEMFOREST_DATABASE_URL, else a temporary embedded one)",
    )
    p.add_argument("--embed-dim", type=int, default=None, help="MEMFOREST_EMBEDDING__DIM for the server")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load test; exit 1 on any error, failed or unfinished job."""
    parser = _parser()
    args = parser.parse_args(argv)
    single_run(parser, args)
    if args.clients < 1 or args.duration <= 0 or not 0 <= args.query_ratio <= 1 or args.seed_sessions < 0:
        print("bench.load: need --clients >= 1, --duration > 0, 0 <= --query-ratio <= 1, --seed-sessions >= 0")
        return 2
    try:
        result = asyncio.run(run(args))
    except MemForestError as exc:
        print(f"bench.load: error: {exc}", file=sys.stderr)
        return 1
    publish(args.out, "load", result, plot, render, args=args, argv=argv)
    return 0 if result["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
