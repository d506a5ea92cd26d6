"""The traffic of a fault-injection run (``bench.faults``): ingest and query clients, an adversarial
client (slow-to-process 20 KB turns and queries, deeply nested JSON, oversized bodies) and a
``/healthz`` prober on its own thread. Every loop is bounded by a deadline; every answer is counted
by status, every 5xx kept with its time, route and body.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.synthetic import SyntheticConversations
from memforest.schemas.session import session_to_json

QUESTIONS = (
    "Where does {name} live now?",
    "What does {name} work as?",
    "When did {name} move?",
    "Who did {name} go hiking with?",
)
MAX_TEXT = 20_000
SLOW_TEXTS = (  # built to be slow for naive text processing (issue 14), each cut to MAX_TEXT characters
    "a" * 1500 + " Dr. A" * 300,
    ". A" * 6666,
    "May 1 " * 1300,
    ("Dr. Smith met Mr. Jones on May 1, 2023. " * 600),
    "[image: " * 2600,  # unclosed captions (review M1): every start scanned to the end by a naive pattern
    "[image:" + " " * 19_990,
    "((((((((((a" * 2000 + "]" * 100,  # nested groups, unclosed brackets
)
RETRYABLE = (429, 502, 503, 504)


def slow_text(i: int) -> str:
    """The ``i``-th adversarial text, repeated up to 20,000 characters."""
    base = SLOW_TEXTS[i % len(SLOW_TEXTS)]
    return (base * (MAX_TEXT // len(base) + 1))[:MAX_TEXT]


def nested_json(depth: int) -> bytes:
    """A session-shaped body whose ``metadata`` nests ``depth`` levels deep."""
    inner = "[" * depth + "]" * depth
    return ('{"id": "nested", "time": "2024-01-01T00:00:00Z", "metadata": {"x": ' + inner + '}, "turns": []}').encode()


@dataclass(slots=True)
class Traffic:
    """What the clients saw: answers by kind and status, 5xx samples, accepted sessions."""

    t0: float
    statuses: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # transport errors (no HTTP answer)
    server_errors: list[dict[str, Any]] = field(default_factory=list)
    accepted: dict[str, dict[str, Any]] = field(default_factory=dict)  # "tenant/forest/external_id" -> info
    given_up: list[str] = field(default_factory=list)  # sessions never acknowledged after every retry
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"ingest": [], "query": [], "adversarial": []})
    # every acknowledged session post: (monotonic time answered, tenant, seconds it took)
    ingest_times: list[tuple[float, str, float]] = field(default_factory=list)

    def record(self, kind: str, response: httpx.Response, route: str) -> None:
        """Count an answer; keep a 5xx with when it was sent (``t_sent``) and answered (``t``), its
        route, body and ``Retry-After`` (``bench.faults.classify_5xx`` judges it by these)."""
        self.statuses[f"{kind} {response.status_code}"] += 1
        if response.status_code >= 500:
            now = time.monotonic() - self.t0
            sample = {
                "t": round(now, 3),
                "t_sent": round(now - response.elapsed.total_seconds(), 3),  # (the client's send to its answer)
                "kind": kind,
                "route": route,
                "status": response.status_code,
                "retry_after": response.headers.get("retry-after"),
                "body": response.text[:300],
            }
            self.server_errors.append(sample)

    def transport_error(self, kind: str, exc: Exception) -> None:
        self.errors[f"{kind} {type(exc).__name__}"] += 1


@dataclass(slots=True)
class Tenant:
    """One tenant of the run: its name, key and forest."""

    name: str
    key: str
    forest: str
    tenant_id: str = ""


async def _post_session(
    http: httpx.AsyncClient, tenant: Tenant, body: dict[str, Any], traffic: Traffic, kind: str, deadline: float
) -> None:
    """POST one session until it is acknowledged (2xx, then it must be in the forest) or refused (4xx);
    bounded retries on 429/5xx/transport errors, the same body each time (the server deduplicates)."""
    route = f"/v1/forests/{tenant.forest}/sessions"
    headers = {"Authorization": f"Bearer {tenant.key}"}
    key = f"{tenant.name}/{tenant.forest}/{body['id']}"
    for attempt in range(8):
        t = time.perf_counter()
        try:
            response = await http.post(route, json=body, headers=headers)
        except httpx.HTTPError as exc:
            traffic.transport_error(kind, exc)
        else:
            traffic.record(kind, response, route)
            if response.status_code < 300:
                took = time.perf_counter() - t
                traffic.latencies["ingest" if kind == "ingest" else "adversarial"].append(took)
                if kind == "ingest":
                    traffic.ingest_times.append((time.monotonic(), tenant.name, took))
                data = response.json()
                traffic.accepted[key] = {
                    "tenant": tenant.name,
                    "forest": tenant.forest,
                    "external_id": body["id"],
                    "turns": len(body["turns"]),
                    "job_id": data.get("job_id"),
                    "kind": kind,
                }
                return
            if response.status_code not in RETRYABLE and response.status_code < 500:
                return  # refused: not accepted, nothing to find in the forest
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(min(4.0, 0.25 * 2**attempt))
    traffic.given_up.append(key)


async def ingest_loop(url: str, tenant: Tenant, n: int, args: argparse.Namespace, end: float, traffic: Traffic) -> None:
    """Post generated sessions until ``end`` or ``args.max_sessions``, ``args.ingest_pause`` apart."""
    gen = SyntheticConversations(seed=args.seed * 1000 + n + 1, prefix=f"{tenant.name}-c{n}-")
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        for _ in range(args.max_sessions):
            if time.monotonic() >= end:
                return
            body = session_to_json(gen.session())
            await _post_session(http, tenant, body, traffic, "ingest", end + 60)
            await asyncio.sleep(args.ingest_pause)


async def query_loop(
    url: str, tenant: Tenant, n: int, seed: int, end: float, traffic: Traffic, names: list[str]
) -> None:
    """Ask short questions until ``end`` (a pause between calls keeps the machine for the others)."""
    rng = random.Random(seed * 31 + n)
    route = f"/v1/forests/{tenant.forest}/query"
    headers = {"Authorization": f"Bearer {tenant.key}"}
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        while time.monotonic() < end:
            body = {"query": rng.choice(QUESTIONS).format(name=rng.choice(names)), "top_k": 10}
            t = time.perf_counter()
            try:
                response = await http.post(route, json=body, headers=headers)
            except httpx.HTTPError as exc:
                traffic.transport_error("query", exc)
            else:
                traffic.record("query", response, route)
                if response.status_code < 300:
                    traffic.latencies["query"].append(time.perf_counter() - t)
            await asyncio.sleep(0.1)


async def adversarial_loop(url: str, tenant: Tenant, end: float, traffic: Traffic, pause_s: float) -> dict[str, int]:
    """Cycle through the hostile requests until ``end``; how many of each were sent."""
    sent: Counter[str] = Counter()
    headers = {"Authorization": f"Bearer {tenant.key}"}
    sessions = f"/v1/forests/{tenant.forest}/sessions"
    query = f"/v1/forests/{tenant.forest}/query"
    i = 0
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        while time.monotonic() < end:
            step = i % 4
            try:
                if step == 0:  # a session of 20 KB slow turns: accepted, must be ingested like any other
                    turns = [
                        {"id": f"t{j}", "speaker": "Ana", "role": "user", "text": slow_text(i // 4 + j)}
                        for j in range(2)
                    ]
                    body = {"id": f"slow-{i}", "time": "2024-05-01T10:00:00Z", "turns": turns}
                    await _post_session(http, tenant, body, traffic, "adversarial-session", end + 60)
                    sent["slow_session"] += 1
                elif step == 1:  # a 20 KB slow query
                    r = await http.post(query, json={"query": slow_text(i // 4), "top_k": 5}, headers=headers)
                    traffic.record("adversarial-query", r, query)
                    sent["slow_query"] += 1
                elif step == 2:  # deeply nested JSON: a 4xx, never a 5xx
                    h = headers | {"Content-Type": "application/json"}
                    r = await http.post(sessions, content=nested_json(100_000), headers=h)
                    traffic.record("nested-json", r, sessions)
                    sent["nested_json"] += 1
                else:  # a body over the limit: 413
                    big = b'{"id": "big", "turns": [{"speaker": "x", "text": "' + b"x" * 3_000_000 + b'"}]}'
                    h = headers | {"Content-Type": "application/json"}
                    r = await http.post(sessions, content=big, headers=h)
                    traffic.record("oversized", r, sessions)
                    sent["oversized"] += 1
            except httpx.HTTPError as exc:
                traffic.transport_error("adversarial", exc)
            i += 1
            await asyncio.sleep(pause_s)
    return dict(sent)


class Prober:
    """GET ``/healthz`` every ``interval_s`` on its own thread (its own client, so the bench's event
    loop does not colour the numbers); keeps (t, ms, status) per probe."""

    def __init__(self, url: str, t0: float, interval_s: float = 0.05, timeout_s: float = 10.0) -> None:
        self.url, self.t0, self.interval_s, self.timeout_s = url, t0, interval_s, timeout_s
        self.samples: list[tuple[float, float, int]] = []  # status 0 = no answer
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="healthz-prober", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self.timeout_s + 5)

    def _run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=self.timeout_s) as http:
            while not self._stop.is_set():
                t = time.perf_counter()
                try:
                    status = http.get("/healthz").status_code
                except httpx.HTTPError:
                    status = 0
                ms = (time.perf_counter() - t) * 1000
                self.samples.append((round(time.monotonic() - self.t0, 3), round(ms, 2), status))
                self._stop.wait(max(0.0, self.interval_s - ms / 1000))
