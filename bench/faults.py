"""Fault injection: the service keeps working and loses nothing under worker crashes, database
restarts, a failing model and a hostile tenant, and the hostile tenant does not slow the other.

Against a real ``memforest serve`` (with its in-process worker; its event loop timed by
``bench.faults_probe``) plus separate ``memforest worker`` processes, an embedded PostgreSQL
started by the bench under a temporary MEMFOREST_HOME (migrated with ``memforest db upgrade``) and
the SIMULATED model server failing ``--fail-rate`` of its calls (500, 429, stalls past the client
timeout, broken JSON), all on 127.0.0.1. Two tenants ingest generated sessions and query: for
``--calm`` seconds tenant A (the victim, with a webhook to a prompt receiver) and B alone; then B
attacks as well for ``--calm`` seconds; then for ``--duration`` seconds the attacks go on while
``--kills`` workers are SIGKILLed at random moments (and restarted) and the database is restarted
``--db-restarts`` times. B's attacks (``bench.faults_attacks``): slow-to-process 20 KB turns
(unclosed captions among them) and queries, deeply nested JSON, oversized bodies, crafted 20 KB
questions over ``POST /v1/query`` with 20 forests, 20 webhooks to receivers that drip one byte at
a time or send an endless body, made-up keys, forests past its quota, webhook targets on refused
ports, and (in this process, with a resolver stub) NAT64, 6to4, IPv4-compatible and rebinding
targets. A prober thread times ``/healthz`` every 50 ms. After a bounded drain it checks, from the
database: every acknowledged session in its forest exactly once and complete, no job stuck, every
failed job with a reason, ``memforest check`` ok for every forest; and counts the 5xx answers. The
victim's ingest p95 and webhook delivery delay p95 under attack must stay within 2x of the calm
window's; the attacks must get their refusals (401/429, 409, 422); the API process's RSS (idle and
peak) and event-loop time per window are recorded.

    python -m bench.faults            # full size: 60 s calm, 60 s attacked, 240 s of chaos on top
    python -m bench.faults --quick    # CI size

Writes ``bench/results/faults.json`` (arguments, git commit, figures), ``faults.md`` (the tables),
and ``faults.png`` (a timeline: /healthz latency, kills, restarts, 5xx). Exits 1 on any violation.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from rich.console import Console

from bench import report
from bench.args import bench_parser, single_run
from bench.faults_attacks import AttackRun, attack, attack_violations, prepare, victim_phases
from bench.faults_load import Prober, Tenant, Traffic, adversarial_loop, ingest_loop, query_loop
from bench.faults_probe import loop_time, read_stats
from bench.faults_procs import Cluster, FaultSpec, cluster
from bench.faults_query import RssSampler
from bench.faults_report import plot, render
from bench.faults_verify import check_forests, verify_jobs, verify_sessions, wait_drained
from bench.report import machine_info, publish
from bench.synthetic import SyntheticConversations
from memforest.db.engine import Database
from memforest.errors import MemForestError

HEALTHZ_P99_TARGET_MS = 250.0
QUICK = {"duration": 15.0, "kills": 2, "db_restarts": 1, "ingest_clients": 2, "query_clients": 1,
         "drain_timeout": 240.0, "ingest_pause": 1.5, "max_sessions": 8, "adversarial_pause": 2.0,
         "calm": 10.0}  # fmt: skip
FULL = {"duration": 240.0, "kills": 20, "db_restarts": 3, "ingest_clients": 3, "query_clients": 2,
        "drain_timeout": 540.0, "ingest_pause": 3.0, "max_sessions": 400, "adversarial_pause": 0.5,
        "calm": 60.0}  # fmt: skip


def git_commit() -> str:
    """The commit of the checkout as one string (``+dirty`` when tracked files changed), or ``unknown``."""
    info = report.git_commit()
    if not info["commit"]:
        return "unknown"
    return str(info["commit"]) + ("+dirty" if info["dirty"] else "")


def schedule(args: argparse.Namespace, rng: random.Random) -> list[tuple[float, str]]:
    """When (seconds into the load) each kill and each database restart happens, in order."""
    lo, hi = 0.1 * args.duration, 0.85 * args.duration
    events = [(rng.uniform(lo, hi), "kill") for _ in range(args.kills)]
    # restarts spread over the window (one per slice), so that the database is up between them
    for i in range(args.db_restarts):
        width = (hi - lo) / args.db_restarts
        events.append((rng.uniform(lo + i * width, lo + (i + 0.8) * width), "db_restart"))
    return sorted(events)


async def chaos(c: Cluster, plan: list[tuple[float, str]], start: float, end: float, rng: random.Random) -> None:
    """Run the planned kills and restarts at their times; restart workers that exit on their own."""
    pending = list(plan)
    while time.monotonic() < end or pending:
        now = time.monotonic() - start
        while pending and pending[0][0] <= now:
            _, what = pending.pop(0)
            if what == "kill":
                i = rng.randrange(len(c.workers))
                pid = c.kill_worker(i)
                c.note("kill", worker=c.workers[i].name, pid=pid)
                await asyncio.sleep(rng.uniform(0.2, 1.0))
                c.start_worker(i)
            else:
                c.note("db_restart_begin")
                try:
                    took = await asyncio.to_thread(c.restart_database)
                    c.note("db_restart_end", seconds=round(took, 3))
                except subprocess.SubprocessError as exc:
                    c.note("db_restart_failed", error=str(exc)[:300])
        c.restart_dead_workers()
        if c.serve is not None and not c.serve.alive():
            c.note("serve_exited", rc=c.serve.popen.returncode if c.serve.popen else None)
            raise MemForestError(f"memforest serve exited during the run:\n{c.serve.log_tail()}")
        if time.monotonic() > end and not pending:
            return
        await asyncio.sleep(0.2)


async def _tenants(c: Cluster) -> list[Tenant]:
    out = []
    headers = {"Authorization": f"Bearer {c.admin_key}"}
    async with httpx.AsyncClient(base_url=c.url, timeout=60, headers=headers) as http:
        for name in ("faults-a", "faults-b"):
            tenant = (await http.post("/v1/tenants", json={"name": name})).raise_for_status().json()
            key = (
                (await http.post(f"/v1/tenants/{tenant['id']}/keys", json={"scopes": ["read", "write"]}))
                .raise_for_status()
                .json()
            )
            forest = f"{name}-notes"
            auth = {"Authorization": f"Bearer {key['key']}"}
            (await http.post("/v1/forests", json={"name": forest}, headers=auth)).raise_for_status()
            out.append(Tenant(name, key["key"], forest, tenant["id"]))
    return out


def _percentiles(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {}
    p50, p95, p99 = np.percentile(np.array(values, dtype=float), [50, 95, 99])
    return {"n": len(values), "p50_ms": round(float(p50), 2), "p95_ms": round(float(p95), 2),
            "p99_ms": round(float(p99), 2), "max_ms": round(float(max(values)), 2)}  # fmt: skip


def exceptions_in(lines: Sequence[str]) -> Counter[str]:
    """The final exception line of every traceback in a log, counted."""
    found: Counter[str] = Counter()
    inside = False
    for line in lines:
        if line.startswith("Traceback (most recent call last)"):
            inside = True
        elif inside and line and not line[0].isspace() and not line.startswith(("During handling", "The above")):
            found[re.split(r" (?:request_id|job_id)=", line, maxsplit=1)[0][:200]] += 1
            inside = False
    return found


RESTART_503 = "the database is unavailable"  # the detail of a 503 whose database went away (not "busy")


def restart_windows(events: Sequence[dict[str, Any]]) -> list[tuple[float, float]]:
    """(begin, end) of each deliberate PostgreSQL restart on the run's timeline (a failed restart
    ends when it was noted)."""
    out: list[tuple[float, float]] = []
    begin = None
    for e in events:
        if e["kind"] == "db_restart_begin":
            begin = e["t"]
        elif e["kind"] in ("db_restart_end", "db_restart_failed") and begin is not None:
            out.append((begin, e["t"]))
            begin = None
    return out


def classify_5xx(
    samples: Sequence[dict[str, Any]], windows: Sequence[tuple[float, float]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The 5xx answers split in two: those that count against the gate, and those set apart as the
    honest answer to a deliberate restart (ADR 0049): a 503 problem with ``Retry-After`` saying the
    database is unavailable, for a request that was in flight while PostgreSQL restarted. Anything
    else (a 500, a 503 without ``Retry-After``, "database busy", a 503 outside every restart) counts."""
    counted: list[dict[str, Any]] = []
    excused: list[dict[str, Any]] = []
    for s in samples:
        sent, answered = s.get("t_sent", s["t"]), s["t"]
        in_restart = any(sent <= end and answered >= begin for begin, end in windows)
        honest = s["status"] == 503 and s.get("retry_after") and RESTART_503 in s["body"]
        (excused if in_restart and honest else counted).append(s)
    return counted, excused


def _log_findings(c: Cluster) -> dict[str, Any]:
    """Per process log: starts, tracebacks, the exceptions they end with, and the ERROR lines' sources."""
    out: dict[str, Any] = {}
    for proc in [p for p in (c.serve, *c.workers) if p is not None]:
        try:
            lines = proc.log_path.read_text(errors="replace").splitlines()
        except OSError:
            continue
        errors = Counter(ln.split(" ERROR ", 1)[1][:120] for ln in lines if " ERROR " in ln)
        out[proc.name] = {
            "starts": proc.starts,
            "tracebacks": sum(ln.startswith("Traceback") for ln in lines),
            "exceptions": dict(exceptions_in(lines).most_common(8)),
            "error_lines": dict(errors.most_common(8)),
        }
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the cluster, load it while breaking things, drain, verify; the result dict."""
    rng = random.Random(args.seed)
    commit = git_commit()  # of the code that runs, taken before it starts
    spec = FaultSpec(
        workers=args.workers, fail_rate=args.fail_rate, seed=args.seed, server_worker=not args.no_server_worker,
        extra_env={"MEMFOREST_WEBHOOKS__ALLOW_PRIVATE": "true"},  # the receivers are on 127.0.0.1
    )  # fmt: skip
    with cluster(spec, keep_logs=args.keep_logs, parent=args.home) as c:
        tenants = await _tenants(c)
        traffic = Traffic(t0=c.t0)
        attacks = await prepare(c.url, c.admin_key, tenants[0], tenants[1], traffic)
        names = [p.name for p in SyntheticConversations(seed=args.seed).people]
        plan = schedule(args, rng)
        serve_pid = c.serve_pid()
        sampler = RssSampler(serve_pid) if serve_pid is not None else None
        if sampler is not None:
            sampler.start()
        await asyncio.sleep(2.0)  # the API process's idle size
        prober = Prober(c.url, c.t0)
        prober.start()
        start = time.monotonic()
        wall_offset = time.time() - start
        attack_at, chaos_at = start + args.calm, start + 2 * args.calm
        end = chaos_at + args.duration
        c.note("load_begin")
        tasks = [ingest_loop(c.url, tenants[n % 2], n, args, end, traffic) for n in range(args.ingest_clients)]
        tasks += [
            query_loop(c.url, tenants[n % 2], n, args.seed, end, traffic, names) for n in range(args.query_clients)
        ]

        async def attacker() -> None:  # the victim alone for args.calm seconds, then the attacker too
            await asyncio.sleep(max(0.0, attack_at - time.monotonic()))
            c.note("attack_begin")
            await asyncio.gather(
                adversarial_loop(c.url, tenants[1], end, traffic, args.adversarial_pause),
                attack(attacks, c.url, tenants[1], end, traffic, args.adversarial_pause),
            )

        try:
            await asyncio.gather(chaos(c, plan, chaos_at, end, rng), *tasks, attacker())
        finally:
            c.note("load_end")
            await attacks.receivers.close()
            if sampler is not None:
                sampler.stop()
        load_s = time.monotonic() - start
        phases = victim_phases(
            traffic, attacks.receivers, tenants[0].name, (start, attack_at), (attack_at, chaos_at), wall_offset
        )
        measured = _measured(c, sampler, attacks, (start, attack_at, chaos_at, end))
        db = Database(c.database_url, pool_size=2, max_overflow=0)
        try:
            drain_s = await wait_drained(db, args.drain_timeout)
            c.restart_dead_workers()
            c.note("drained", seconds=drain_s)
            prober.stop()
            jobs = await verify_jobs(db)
            sessions = await verify_sessions(db, traffic.accepted, jobs.pop("state_of"))
        finally:
            prober.stop()
            await db.dispose()
        checks = await check_forests(c.memforest, [(t.name, t.forest) for t in tenants])
        try:
            async with httpx.AsyncClient(timeout=10) as http:
                sim_stats = (await http.get(f"{c.sim_url}/stats")).json()
        except (httpx.HTTPError, ValueError):
            sim_stats = {}
        logs = _log_findings(c)
        events = list(c.events)
    counted, excused = classify_5xx(traffic.server_errors, restart_windows(events))
    result = _result(args, traffic, prober, jobs, sessions, checks, sim_stats, logs, events, load_s, drain_s, plan)
    result |= _five_xx(counted, excused)
    if counted:
        result["violations"].append(f"{len(counted)} answers were 5xx (not counting {len(excused)} restart 503s)")
    statuses = traffic.statuses - Counter(f"{s['kind']} {s['status']}" for s in excused)
    result["violations"] += attack_violations(attacks, statuses, phases, need_samples=not args.quick)
    result["pass"] = not result["violations"]
    result["gate"] = "pass" if result["pass"] else "fail"
    return result | {"git_commit": commit, "victim": phases} | measured


def _measured(
    c: Cluster, sampler: RssSampler | None, attacks: AttackRun, marks: tuple[float, float, float, float]
) -> dict[str, Any]:
    """Inside the API process: its RSS (idle, peak per phase) and its event loop per phase (CPU and
    wall seconds in callbacks, longest callback), and each crafted query's loop time."""
    start, attack_at, chaos_at, end = marks
    windows = {"calm": (start, attack_at), "attacked": (attack_at, chaos_at), "chaos_and_attacked": (chaos_at, end)}
    stats = read_stats(c.probe_file) if c.probe_file is not None else None
    rss: dict[str, Any] = {}
    if sampler is not None:
        rss = {"idle_mb": sampler.median_mb(start - 2.0, start), "peak_mb": sampler.peak_mb(start, end)}
        rss |= {f"peak_{k}_mb": sampler.peak_mb(lo, hi) for k, (lo, hi) in windows.items()}
    loop = {k: loop_time(stats, lo, hi) for k, (lo, hi) in windows.items()} if stats else {}
    crafted = [
        {"question": q, "status": st, "seconds": round(e - s, 3)} | (loop_time(stats, s, e) if stats else {})
        for s, e, q, st in attacks.crafted
    ]
    return {
        "api_rss": rss,
        "event_loop": loop,
        "attacks": {
            "sent": attacks.sent,
            "refused_ports": attacks.refused_ports,
            "address_filter": attacks.address_filter,
            "hostile_receiver_connections": dict(attacks.receivers.hits),
            "victim_deliveries": [[round(made, 3), round(d, 3)] for made, d in attacks.receivers.delays()],
            "crafted_queries": crafted,
        },
    }


def _five_xx(counted: list[dict[str, Any]], excused: list[dict[str, Any]]) -> dict[str, Any]:
    """The 5xx figures of the result: those counted against the gate and those set apart."""
    return {
        "server_errors": len(counted),
        "server_error_samples": counted[:50],
        "restart_503s": len(excused),
        "restart_503_samples": excused[:50],
        "five_xx_rule": "0 5xx counted. Set apart, and listed here (ADR 0049): a 503 problem with Retry-After "
        f"saying '{RESTART_503}', for a request in flight while the bench restarted PostgreSQL. Counted: every "
        "other 5xx (any 500, 'database busy', a 503 without Retry-After or outside every restart).",
    }


def _result(
    args: argparse.Namespace,
    traffic: Traffic,
    prober: Prober,
    jobs: dict[str, Any],
    sessions: dict[str, Any],
    checks: dict[str, str],
    sim_stats: dict[str, Any],
    logs: dict[str, Any],
    events: list[dict[str, Any]],
    load_s: float,
    drain_s: float,
    plan: list[tuple[float, str]],
) -> dict[str, Any]:
    begin = next((e["t"] for e in events if e["kind"] == "load_begin"), 0.0)
    finish = next((e["t"] for e in events if e["kind"] == "load_end"), float("inf"))
    under_load = [ms for t, ms, _ in prober.samples if begin <= t <= finish]
    healthz = _percentiles(under_load) | {
        "failed": sum(1 for t, _, s in prober.samples if begin <= t <= finish and s != 200)
    }
    violations = [f"lost session {x['session']}: {'; '.join(x['problems'])}" for x in sessions["lost"]]
    violations += [f"duplicated session {x['session']} ({x['copies']} copies)" for x in sessions["duplicated"]]
    violations += [f"stuck job {x['job_id']} ({x['kind']}, {x['state']})" for x in jobs["stuck"]]
    violations += [f"failed job without a reason {x['job_id']}" for x in jobs["failed_without_reason"]]
    violations += [f"memforest check {f}: {v}" for f, v in checks.items() if v != "ok"]
    violations += [f"session never acknowledged: {k}" for k in traffic.given_up]
    healthz_ok = bool(healthz.get("p99_ms", float("inf")) < HEALTHZ_P99_TARGET_MS) and healthz["failed"] == 0
    return {
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "git_commit": git_commit(),
        "machine": machine_info(),
        "config": {
            "server": f"memforest serve (in-process worker: {'no' if args.no_server_worker else 'yes'}) "
            f"+ {args.workers} memforest worker processes",
            "model": f"SIMULATED OpenAI-compatible server, {args.fail_rate:.0%} of calls fail "
            "(500/429/timeout/invalid JSON)",
            "database": "embedded PostgreSQL started by the bench, restarted with pg_ctl restart -m fast",
            "planned": [{"t": round(t, 3), "kind": k} for t, k in plan],
        },
        "load_s": round(load_s, 3),
        "drain_s": drain_s,
        "requests": dict(sorted(traffic.statuses.items())),
        "transport_errors": dict(sorted(traffic.errors.items())),
        "latency": {k: _percentiles([v * 1000 for v in vs]) for k, vs in traffic.latencies.items()},
        "healthz": healthz,
        "healthz_target_ms": HEALTHZ_P99_TARGET_MS,
        "healthz_ok": healthz_ok,
        "healthz_samples": prober.samples,
        "jobs": jobs,
        "sessions": sessions,
        "checks": checks,
        "model_server": sim_stats,
        "process_logs": logs,
        "events": events,
        "kills": sum(1 for e in events if e["kind"] == "kill"),
        "db_restarts": sum(1 for e in events if e["kind"] == "db_restart_end"),
        "worker_exits": sum(1 for e in events if e["kind"] == "worker_exited"),
        "violations": violations,
        "pass": not violations,
    }


def _parser() -> argparse.ArgumentParser:
    p = bench_parser("faults", (__doc__ or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help=f"CI size: {QUICK}")
    p.add_argument("--duration", type=float, default=None, help="seconds of load (full: 240)")
    p.add_argument("--kills", type=int, default=None, help="worker SIGKILLs (full: 20)")
    p.add_argument("--db-restarts", type=int, default=None, help="PostgreSQL restarts (full: 3)")
    p.add_argument("--ingest-clients", type=int, default=None)
    p.add_argument("--query-clients", type=int, default=None)
    p.add_argument("--drain-timeout", type=float, default=None, help="seconds to wait for every job to finish")
    p.add_argument("--workers", type=int, default=2, help="separate memforest worker processes")
    p.add_argument("--no-server-worker", action="store_true", help="serve without its in-process worker")
    p.add_argument("--fail-rate", type=float, default=0.2, help="share of model calls that fail")
    p.add_argument("--max-sessions", type=int, default=None, help="sessions per ingest client at most")
    p.add_argument("--adversarial-pause", type=float, default=None, help="seconds between hostile requests")
    p.add_argument("--ingest-pause", type=float, default=None, help="seconds between one client's sessions")
    p.add_argument("--calm", type=float, default=None, help="seconds of the victim alone, then as long under attack "
                   "before the chaos begins (full: 60)")  # fmt: skip
    p.add_argument("--keep-logs", type=Path, default=None, help="copy the processes' logs to this folder")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--name", default=None, help="result file name (default: faults, or faults_quick)")
    return p


def resolve_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse; fill the size knobs from --quick or the full size."""
    parser = _parser()
    args = parser.parse_args(argv)
    single_run(parser, args)
    size = QUICK if args.quick else FULL
    for k, v in size.items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    args.name = args.name or ("faults_quick" if args.quick else "faults")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run; exit 1 on any violation, 2 on bad arguments."""
    args = resolve_args(argv)
    bad = args.calm <= 0 or args.duration <= 0 or args.kills < 0 or args.db_restarts < 0 or args.workers < 1
    if bad or not 0 <= args.fail_rate <= 1:
        print(
            "bench.faults: need --calm > 0, --duration > 0, --kills >= 0, --db-restarts >= 0, --workers >= 1, "
            "0 <= --fail-rate <= 1"
        )
        return 2
    try:
        result = asyncio.run(run(args))
    except (MemForestError, httpx.HTTPError) as exc:
        print(f"bench.faults: error: {exc}", file=sys.stderr)
        return 1
    publish(args.out, args.name, result, plot, render, width=200, args=args, argv=argv)
    console = Console(record=True, width=200, file=io.StringIO())
    render(result, console)
    head = (
        f"# bench.faults (commit {result['git_commit']})\n\nargv: `{' '.join(result['provenance'].get('argv') or [])}`"
    )
    (args.out / f"{args.name}.md").write_text(f"{head}\n\n```\n{console.export_text()}```\n", encoding="utf-8")
    return 0 if result["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
