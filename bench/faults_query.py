"""Crafted 20 KB questions over ``POST /v1/query`` with 20 forests (review H1), measured inside the
API process: the event loop's time in callbacks while each request runs (``bench.faults_probe``),
its longest single callback, the API process's RSS against its idle size, and the worst
``/healthz`` wait meanwhile.

    python -m bench.faults_query            # 20 forests of 2 sessions each, every crafted question 3 times

Against a real ``memforest serve`` (through ``bench.faults_probe``) on 127.0.0.1 with the embedded
PostgreSQL and the SIMULATED model server (no failures), as ``bench.faults`` starts them; the same
measurement runs inside ``bench.faults`` as one of its attacks. Writes
``bench/results/faults_query.json`` and ``.md``. The gates (issue 54 item 1): each request's event
loop time under ``LOOP_GATE_S`` and the RSS peak within ``RSS_GATE_MB`` of idle; exits 1 when
one is missed. A request's loop time is the CPU time of the loop's thread in callbacks while it
ran, less the idle loop's rate over as long (the prober's /healthz calls, the worker's polls): on
a loaded machine the wall time in callbacks also counts waits for a CPU. Both are recorded.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import string
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from bench.args import bench_parser, single_run
from bench.faults_probe import loop_time, read_stats
from bench.faults_procs import Cluster, FaultSpec, cluster
from bench.faults_verify import wait_drained
from bench.report import git_commit, machine_info, provenance, write_json
from bench.synthetic import SyntheticConversations
from memforest.db.engine import Database
from memforest.errors import MemForestError
from memforest.schemas.session import session_to_json

LOOP_GATE_S = 0.5  # "well under a second" of event-loop time per request
RSS_GATE_MB = 100.0
QUESTION_CHARS = 20_000
FORESTS = 20
ORDINARY = "Where does Ana live now and who did she go hiking with?"  # the yardstick: a question as asked


def _cut(text: str) -> str:
    return (text * (QUESTION_CHARS // max(1, len(text)) + 1))[:QUESTION_CHARS]


def crafted_questions() -> dict[str, str]:
    """The review's slow shapes, each 20,000 characters: distinct three-letter words (every pair a
    tsquery term: H1), "between" over and over, "before" with thousands of capitalised names (the
    temporal parse: H1), unclosed image captions (M1's pattern), one endless word."""
    trigrams = " ".join("".join(t) for t in itertools.product(string.ascii_lowercase, repeat=3))
    names = " x ".join("A" + "".join(t) for t in itertools.product(string.ascii_lowercase, repeat=2))
    return {
        "distinct_words": _cut(trigrams),
        "between": _cut("between "),
        "before_names": _cut("before x " + names + " x "),
        "unclosed_captions": _cut("[image: "),
        "one_word": "a" * QUESTION_CHARS,
    }


def rss_kb(pid: int) -> int | None:
    """The resident set of process ``pid`` in KiB (None when it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


class RssSampler:
    """Samples a process's RSS every ``interval_s`` on its own thread: (monotonic time, KiB)."""

    def __init__(self, pid: int, interval_s: float = 0.02) -> None:
        self.pid, self.interval_s = pid, interval_s
        self.samples: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rss-sampler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            kb = rss_kb(self.pid)
            if kb is not None:
                self.samples.append((time.monotonic(), kb))
            self._stop.wait(self.interval_s)

    def peak_mb(self, start: float, end: float) -> float:
        """The largest RSS seen within ``[start, end]``, in MiB (0 when none was sampled)."""
        return round(max((kb for t, kb in self.samples if start <= t <= end), default=0) / 1024, 1)

    def median_mb(self, start: float, end: float) -> float:
        values = [kb for t, kb in self.samples if start <= t <= end]
        return round(statistics.median(values) / 1024, 1) if values else 0.0


async def make_forests(url: str, key: str, n: int, prefix: str = "crafted") -> list[str]:
    """Create ``n`` forests of the key's tenant; their names."""
    names = [f"{prefix}-{i:02d}" for i in range(n)]
    async with httpx.AsyncClient(base_url=url, timeout=60, headers={"Authorization": f"Bearer {key}"}) as http:
        for name in names:
            r = await http.post("/v1/forests", json={"name": name})
            if r.status_code not in (201, 409):
                r.raise_for_status()
    return names


async def crafted_request(
    http: httpx.AsyncClient, key: str, forests: Sequence[str], question: str
) -> tuple[int, float, float, float]:
    """POST one crafted question over ``forests``: status, start, end (monotonic), seconds."""
    body = {"query": question, "forests": list(forests), "top_k": 10}
    start = time.monotonic()
    r = await http.post("/v1/query", json=body, headers={"Authorization": f"Bearer {key}"})
    end = time.monotonic()
    return r.status_code, start, end, end - start


def healthz_worst_ms(samples: Sequence[tuple[float, float, int]], t0: float, start: float, end: float) -> float:
    """The longest ``/healthz`` wait among probes sent within ``[start, end]`` (prober times are since ``t0``)."""
    lo, hi = start - t0, end - t0
    return max((ms for t, ms, _ in samples if lo <= t - ms / 1000 <= hi), default=0.0)


async def measure(
    url: str,
    key: str,
    forests: Sequence[str],
    probe_file: Path,
    sampler: RssSampler,
    repeats: int = 3,
    *,
    prober: Any = None,
    t0: float = 0.0,
) -> dict[str, Any]:
    """Each crafted question ``repeats`` times, one request at a time; per request the loop's
    seconds in callbacks, its longest callback, the RSS peak over idle and the worst /healthz
    wait; the idle RSS (median of the 3 s before) and the verdict of the gates."""
    idle_start = time.monotonic()
    await asyncio.sleep(3.0)
    idle_end = time.monotonic()
    await asyncio.sleep(0.6)  # the probe file is rewritten every 0.25 s
    idle_mb = sampler.median_mb(idle_start, idle_end)
    idle_loop = loop_time(read_stats(probe_file), idle_start, idle_end)
    idle_cpu_rate = idle_loop["cpu_s"] / max(idle_loop["window_s"], 1e-9)
    rows: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=url, timeout=300) as http:
        for _ in range(repeats):
            for name, question in [("ordinary", ORDINARY), *crafted_questions().items()]:
                status, start, end, seconds = await crafted_request(http, key, forests, question)
                await asyncio.sleep(0.6)  # the probe file is rewritten every 0.25 s
                loop = loop_time(read_stats(probe_file), start, end)
                peak = sampler.peak_mb(start, end + 0.1)
                row: dict[str, Any] = {"question": name, "status": status, "seconds": round(seconds, 3)} | loop
                row["request_cpu_s"] = round(max(0.0, loop["cpu_s"] - idle_cpu_rate * loop["window_s"]), 4)
                row |= {"rss_peak_mb": peak, "rss_over_idle_mb": round(peak - idle_mb, 1)}
                if prober is not None:
                    row["healthz_worst_ms"] = healthz_worst_ms(prober.samples, t0, start, end)
                rows.append(row)
    crafted = [r for r in rows if r["question"] != "ordinary"]
    worst_loop = max(r["request_cpu_s"] for r in crafted)
    worst_rss = max(r["rss_over_idle_mb"] for r in rows)
    statuses = sorted({r["status"] for r in rows})
    return {
        "forests": len(forests),
        "question_chars": QUESTION_CHARS,
        "repeats": repeats,
        "idle_rss_mb": idle_mb,
        "idle_loop": idle_loop,
        "idle_loop_cpu_per_s": round(idle_cpu_rate, 4),
        "requests": rows,
        "worst_request_loop_cpu_s": worst_loop,
        "worst_loop_busy_s": max(r["busy_s"] for r in crafted),
        "worst_longest_callback_s": max(r["longest_callback_s"] for r in crafted),
        "worst_rss_over_idle_mb": worst_rss,
        "statuses": statuses,
        "loop_gate_s": LOOP_GATE_S,
        "rss_gate_mb": RSS_GATE_MB,
        "pass": worst_loop < LOOP_GATE_S and worst_rss < RSS_GATE_MB and all(s < 500 for s in statuses),
    }


async def fill_forests(url: str, key: str, forests: Sequence[str], sessions: int, seed: int) -> int:
    """Post ``sessions`` generated sessions to each forest; how many were accepted."""
    gen = SyntheticConversations(seed=seed, prefix="crafted-")
    accepted = 0
    async with httpx.AsyncClient(base_url=url, timeout=120, headers={"Authorization": f"Bearer {key}"}) as http:
        for forest in forests:
            for _ in range(sessions):
                r = await http.post(f"/v1/forests/{forest}/sessions", json=session_to_json(gen.session()))
                accepted += r.status_code < 300
    return accepted


async def _tenant_key(c: Cluster, name: str) -> str:
    headers = {"Authorization": f"Bearer {c.admin_key}"}
    async with httpx.AsyncClient(base_url=c.url, timeout=60, headers=headers) as http:
        tenant = (await http.post("/v1/tenants", json={"name": name})).raise_for_status().json()
        r = await http.post(f"/v1/tenants/{tenant['id']}/keys", json={"scopes": ["read", "write"]})
        return str(r.raise_for_status().json()["key"])


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the cluster, fill 20 forests, wait for their jobs, measure; the result dict."""
    info = git_commit()  # of the code that runs, taken before it starts
    commit = f"{info['commit']}{'+dirty' if info['dirty'] else ''}"
    # serve without its in-process worker (a separate worker ingests): its idle loop then does
    # next to nothing, and what the loop does while a question is asked is that question's work
    spec = FaultSpec(workers=1, server_worker=False, fail_rate=0.0, seed=args.seed)
    load_before = [round(x, 2) for x in os.getloadavg()]
    with cluster(spec, parent=args.home) as c:
        assert c.probe_file is not None
        key = await _tenant_key(c, "crafted")
        forests = await make_forests(c.url, key, FORESTS)
        accepted = await fill_forests(c.url, key, forests, args.sessions, args.seed)
        db = Database(c.database_url, pool_size=1, max_overflow=0)
        try:
            drain_s = await wait_drained(db, 600)
        finally:
            await db.dispose()
        pid = c.serve_pid()
        if pid is None:
            raise MemForestError(f"memforest serve is not running:\n{c.serve.log_tail() if c.serve else ''}")
        sampler = RssSampler(pid)  # no /healthz prober: its calls would be most of the loop's idle work
        sampler.start()
        try:
            measured = await measure(c.url, key, forests, c.probe_file, sampler, args.rounds)
        finally:
            sampler.stop()
    load = {"before": load_before, "after": [round(x, 2) for x in os.getloadavg()]}
    head = {"git_commit": commit, "machine": machine_info(), "load_average": load}
    return head | {"sessions_accepted": accepted, "drain_s": drain_s} | measured


def markdown(result: dict[str, Any]) -> str:
    """The result as a Markdown table with its verdict."""
    lines = [
        f"crafted 20 KB questions over POST /v1/query, {result['forests']} forests (commit {result['git_commit']})",
        "",
        f"load average before / after: {result['load_average']['before']} / {result['load_average']['after']} "
        f"on {os.cpu_count()} CPUs; idle API RSS {result['idle_rss_mb']} MB, "
        f"idle loop CPU {result['idle_loop_cpu_per_s']} s/s; gates: "
        f"event-loop CPU per request < {result['loop_gate_s']} s, RSS within {result['rss_gate_mb']:.0f} MB of idle",
        "",
        "| question | status | request s | loop CPU s (over idle) | loop CPU s | loop wall in callbacks s "
        "| longest callback s | RSS peak MB | over idle MB | /healthz worst ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result["requests"]:
        lines.append(
            f"| {r['question']} | {r['status']} | {r['seconds']} | {r['request_cpu_s']} | {r['cpu_s']} | "
            f"{r['busy_s']} | {r['longest_callback_s']} | "
            f"{r['rss_peak_mb']} | {r['rss_over_idle_mb']} | {r.get('healthz_worst_ms', '-')} |"
        )
    lines += ["", f"verdict: {'PASS' if result['pass'] else 'FAIL'}"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run; exit 1 when a gate is missed."""
    parser = bench_parser("faults_query", (__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=2, help="generated sessions per forest")
    parser.add_argument("--rounds", type=int, default=3, help="times each crafted question is asked")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    single_run(parser, args)
    try:
        result = asyncio.run(run(args))
    except (MemForestError, httpx.HTTPError) as exc:
        print(f"bench.faults_query: error: {exc}", file=sys.stderr)
        return 1
    result["provenance"] = provenance(args, argv)
    path = write_json(args.out, "faults_query", result)
    text = markdown(result)
    (args.out / "faults_query.md").write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"wrote {path} and faults_query.md")
    return 0 if result["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
