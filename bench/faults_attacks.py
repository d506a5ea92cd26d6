"""The attacks of the security review (2026-11-28) for ``bench.faults``, each with the answer it must
get: crafted 20 KB questions over ``POST /v1/query`` with 20 forests (H1; 200 or 4xx), webhook
receivers that drip one byte at a time or send an endless body (H2; other tenants' deliveries keep
their delay), made-up keys in a flood (M3; 401 or 429), a tenant at its quotas (M3; 409 or 429),
webhook targets on refused ports (M2; 422), and the address filter against NAT64, 6to4,
IPv4-compatible and rebinding names (M2), checked in this process with a resolver stub so that no
packet leaves 127.0.0.1.

Receivers listen on 127.0.0.1 only; every target registered with the server is one of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx

from bench.faults_load import Tenant, Traffic
from bench.faults_query import FORESTS, crafted_questions, make_forests
from memforest.app.webhook_target import check_target, delivery_client
from memforest.errors import InputError
from memforest.settings import WebhookSettings

# a window's p95 from fewer answers than this is no measurement: the victim gate needs this many per window
MIN_VICTIM_SAMPLES = 5
SLOW_DRIP_S = 2.0  # one byte of the slow receiver's body this often
ENDLESS_CHUNK = b"x" * 65_536


async def _read_request(reader: asyncio.StreamReader) -> bytes:
    """One HTTP request's body (by Content-Length) after its headers."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    return await reader.readexactly(length) if length else b""


@dataclass(slots=True)
class Receivers:
    """Three webhook receivers on 127.0.0.1: ``fair`` answers at once and records when each delivery
    came (wall clock) with its event's ``created_at``; ``drip`` answers 200 and then one byte every
    ``SLOW_DRIP_S`` for as long as the connection stays open; ``endless`` answers 200 and a body
    that never ends."""

    received: list[tuple[float, str]] = field(default_factory=list)  # (unix time received, created_at)
    hits: Counter[str] = field(default_factory=Counter)
    servers: list[asyncio.Server] = field(default_factory=list)
    ports: dict[str, int] = field(default_factory=dict)

    async def start(self) -> None:
        for name, handler in (("fair", self._fair), ("drip", self._drip), ("endless", self._endless)):
            server = await asyncio.start_server(handler, "127.0.0.1", 0)
            self.servers.append(server)
            self.ports[name] = server.sockets[0].getsockname()[1]

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.ports[name]}/hook"

    async def close(self) -> None:
        for server in self.servers:
            server.close()
        for server in self.servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 5)

    async def _fair(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.hits["fair"] += 1
        with contextlib.suppress(Exception):
            body = await _read_request(reader)
            self.received.append((time.time(), str(json.loads(body).get("created_at", ""))))
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            await writer.drain()
        writer.close()

    async def _drip(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.hits["drip"] += 1
        with contextlib.suppress(Exception):
            await _read_request(reader)
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")
            while True:
                await writer.drain()
                await asyncio.sleep(SLOW_DRIP_S)
                writer.write(b"x")
        writer.close()

    async def _endless(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.hits["endless"] += 1
        with contextlib.suppress(Exception):
            await _read_request(reader)
            writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = f"{len(ENDLESS_CHUNK):x}\r\n".encode() + ENDLESS_CHUNK + b"\r\n"
            while True:
                writer.write(chunk)
                await writer.drain()
        writer.close()

    def delays(self) -> list[tuple[float, float]]:
        """Per delivery to ``fair``: (unix time of its event, seconds from the event to its arrival)."""
        out = []
        for received, created in self.received:
            with contextlib.suppress(ValueError):
                made = datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp()
                out.append((made, received - made))
        return out


async def register_webhooks(http: httpx.AsyncClient, key: str, urls: list[str], traffic: Traffic, kind: str) -> int:
    """Register each URL as a webhook of the key's tenant; how many were created."""
    made = 0
    for url in urls:
        r = await http.post("/v1/webhooks", json={"url": url}, headers={"Authorization": f"Bearer {key}"})
        traffic.record(kind, r, "/v1/webhooks")
        made += r.status_code == 201
    return made


async def refused_ports(http: httpx.AsyncClient, key: str, traffic: Traffic) -> dict[str, int]:
    """Targets on ports the filter refuses whatever the address rules (25, 0): each must be a 422."""
    out = {}
    for url in ("http://127.0.0.1:25/hook", "http://127.0.0.1:0/hook", "http://127.0.0.1:99999/hook"):
        r = await http.post("/v1/webhooks", json={"url": url}, headers={"Authorization": f"Bearer {key}"})
        traffic.record("webhook-refused-port", r, "/v1/webhooks")
        out[url] = r.status_code
    return out


async def address_filter(receiver_port: int, hits: Counter[str]) -> dict[str, Any]:
    """The address filter as the server runs it (``webhooks.allow_private`` off), in this process:
    translated IPv6 forms of 127.0.0.1 must be refused at registration, and a name that answers a
    public address when checked and 127.0.0.1 when connected to (rebinding) must not reach the
    loopback receiver. The stub resolver answers these names; nothing is sent to a public address."""
    cfg = WebhookSettings(allow_private=False, timeout_s=2.0, deadline_s=3.0)
    forms = [f"http://[{a}]:{receiver_port}/hook" for a in ("64:ff9b::7f00:1", "2002:7f00:1::", "::127.0.0.1")]
    forms += [f"http://[::ffff:127.0.0.1]:{receiver_port}/hook", f"http://2130706433:{receiver_port}/hook"]
    refused = {}
    for url in forms:
        try:
            await check_target(url, cfg)
            refused[url] = False
        except InputError:
            refused[url] = True
    answers = iter(["93.184.215.14"])  # a public address: answered once, to the check, and never dialled

    async def rebinding(host: str, port: int) -> list[str]:
        return [next(answers, "127.0.0.1")]

    url = f"http://rebind.test:{receiver_port}/hook"
    await check_target(url, cfg, rebinding)  # the first answer passes the check
    before = hits["fair"]
    async with delivery_client(cfg, rebinding) as client:
        try:
            await client.post(url, content=b"{}")
            rebind_reached = True
        except httpx.HTTPError:
            rebind_reached = False
    reached = rebind_reached or hits["fair"] != before
    ok = all(refused.values()) and not reached
    return {"translated_forms_refused": refused, "rebinding_reached_loopback": reached, "pass": ok}


async def crafted_query_loop(
    url: str, tenant: Tenant, forests: list[str], end: float, traffic: Traffic, pause_s: float
) -> list[tuple[float, float, str, int]]:
    """Crafted 20 KB questions over ``forests`` until ``end``: (start, end, question, status) each."""
    done: list[tuple[float, float, str, int]] = []
    questions = list(crafted_questions().items())
    async with httpx.AsyncClient(base_url=url, timeout=300) as http:
        i = 0
        while time.monotonic() < end:
            name, question = questions[i % len(questions)]
            body = {"query": question, "forests": forests, "top_k": 10}
            start = time.monotonic()
            try:
                r = await http.post("/v1/query", json=body, headers={"Authorization": f"Bearer {tenant.key}"})
            except httpx.HTTPError as exc:
                traffic.transport_error("crafted-query", exc)
            else:
                traffic.record("crafted-query", r, "/v1/query")
                done.append((start, time.monotonic(), name, r.status_code))
            i += 1
            await asyncio.sleep(pause_s)
    return done


async def unknown_key_loop(url: str, end: float, traffic: Traffic, rate_per_s: float = 20.0) -> int:
    """Made-up tenant keys until ``end``, ``rate_per_s`` a second: each a 401 or a 429."""
    sent = 0
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while time.monotonic() < end:
            headers = {"Authorization": "Bearer mf_" + secrets.token_urlsafe(32)}
            try:
                r = await http.get("/v1/forests", headers=headers)
            except httpx.HTTPError as exc:
                traffic.transport_error("unknown-key", exc)
            else:
                traffic.record("unknown-key", r, "/v1/forests")
            sent += 1
            await asyncio.sleep(1.0 / rate_per_s)
    return sent


async def quota_loop(url: str, tenant: Tenant, end: float, traffic: Traffic, pause_s: float = 1.0) -> int:
    """Forests past the tenant's ``max_forests`` until ``end``: each a 409 naming the cap."""
    sent = 0
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        while time.monotonic() < end:
            name = f"over-quota-{sent}"
            try:
                r = await http.post(
                    "/v1/forests", json={"name": name}, headers={"Authorization": f"Bearer {tenant.key}"}
                )
            except httpx.HTTPError as exc:
                traffic.transport_error("over-quota", exc)
            else:
                traffic.record("over-quota-forest", r, "/v1/forests")
            sent += 1
            await asyncio.sleep(pause_s)
    return sent


@dataclass(slots=True)
class AttackRun:
    """The attacker's setup and what its attacks got."""

    receivers: Receivers
    forests: list[str]
    crafted: list[tuple[float, float, str, int]] = field(default_factory=list)
    sent: dict[str, int] = field(default_factory=dict)
    refused_ports: dict[str, int] = field(default_factory=dict)
    address_filter: dict[str, Any] = field(default_factory=dict)


async def prepare(url: str, admin_key: str, victim: Tenant, attacker: Tenant, traffic: Traffic) -> AttackRun:
    """The receivers, the victim's webhook (to ``fair``), the attacker's 20 forests, and the attacker
    held at its forest quota (every further forest a 409)."""
    receivers = Receivers()
    await receivers.start()
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        await register_webhooks(http, victim.key, [receivers.url("fair")], traffic, "webhook-register")
        forests = await make_forests(url, attacker.key, FORESTS, "crafted")
        quotas = {"max_forests": FORESTS + 1}  # its notes forest and the crafted ones
        r = await http.put(
            f"/v1/admin/tenants/{attacker.tenant_id}/quotas", json=quotas,
            headers={"Authorization": f"Bearer {admin_key}"},
        )  # fmt: skip
        r.raise_for_status()
    return AttackRun(receivers, forests)


async def attack(run: AttackRun, url: str, attacker: Tenant, end: float, traffic: Traffic, pause_s: float) -> None:
    """From now until ``end``: 20 hostile webhooks (10 slow-drip, 10 endless), refused ports, the
    address filter, then crafted queries, made-up keys and forests over the quota side by side."""
    hostile = [
        u for i in range(10) for u in (f"{run.receivers.url('drip')}/{i}", f"{run.receivers.url('endless')}/{i}")
    ]

    async def targets() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            made = await register_webhooks(http, attacker.key, hostile, traffic, "webhook-hostile")
            run.sent["hostile_webhooks"] = made
            run.refused_ports = await refused_ports(http, attacker.key, traffic)
        run.address_filter = await address_filter(run.receivers.ports["fair"], run.receivers.hits)

    _, crafted, unknown, quota = await asyncio.gather(
        targets(),
        crafted_query_loop(url, attacker, run.forests, end, traffic, pause_s),
        unknown_key_loop(url, end, traffic),
        quota_loop(url, attacker, end, traffic),
    )
    run.crafted = crafted
    run.sent |= {"crafted_queries": len(crafted), "unknown_keys": unknown, "over_quota_forests": quota}


def _p95(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3)


def victim_phases(
    traffic: Traffic, receivers: Receivers, victim: str, calm: tuple[float, float], attacked: tuple[float, float],
    wall_offset: float,
) -> dict[str, Any]:  # fmt: skip
    """The victim's ingest answer time (p95, seconds) and webhook delivery delay (p95, seconds from
    its event to its arrival) in the calm window and in the window under attack (monotonic times;
    ``wall_offset`` turns them into unix times), and their ratios (attacked / calm)."""
    out: dict[str, Any] = {}
    for name, (lo, hi) in (("calm", calm), ("attacked", attacked)):
        ingest = [s for t, who, s in traffic.ingest_times if who == victim and lo <= t < hi]
        delays = [d for made, d in receivers.delays() if lo + wall_offset <= made < hi + wall_offset]
        out[name] = {"ingest_n": len(ingest), "ingest_p95_s": _p95(ingest), "webhook_n": len(delays),
                     "webhook_delay_p95_s": _p95(delays)}  # fmt: skip
    for metric in ("ingest_p95_s", "webhook_delay_p95_s"):
        calm_v, hit_v = out["calm"][metric], out["attacked"][metric]
        out[f"{metric}_ratio"] = round(hit_v / calm_v, 2) if calm_v and hit_v is not None else None
    return out


def attack_violations(
    run: AttackRun, statuses: Counter[str], phases: dict[str, Any], *, need_samples: bool = True
) -> list[str]:
    """What the attacks got that they must not: a 2xx where a refusal is due, a filter that let a
    translated or rebinding address through, the victim slowed more than twice (or, with
    ``need_samples``, a window without samples to tell)."""
    out = []
    for kind, allowed in (("unknown-key", {401, 429}), ("over-quota-forest", {409, 429}),
                          ("webhook-refused-port", {422})):  # fmt: skip
        bad = {k: v for k, v in statuses.items() if k.startswith(kind + " ") and int(k.split()[-1]) not in allowed}
        out += [f"{k}: {v} answers (expected {sorted(allowed)})" for k, v in bad.items()]
    if run.address_filter and not run.address_filter["pass"]:
        out.append(f"address filter let a translated or rebinding target through: {run.address_filter}")
    for metric, n in (("ingest_p95_s_ratio", "ingest_n"), ("webhook_delay_p95_s_ratio", "webhook_n")):
        ratio = phases.get(metric)
        fewest = min(phases.get(w, {}).get(n, 0) for w in ("calm", "attacked"))
        if need_samples and fewest < MIN_VICTIM_SAMPLES:
            out.append(f"victim {metric}: not measured ({fewest} samples in a window, {MIN_VICTIM_SAMPLES} needed)")
        elif ratio is not None and ratio > 2.0:
            out.append(f"victim {metric} {ratio} > 2 under attack")
    return out
