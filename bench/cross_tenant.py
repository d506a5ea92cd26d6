"""Cross-tenant isolation, end to end: tenant B's key against every tenant operation of the API,
aimed at tenant A's objects.

A real ``memforest serve`` runs as a subprocess on a free port (a fresh embedded PostgreSQL under a
temporary MEMFOREST_HOME, or ``--database-url``). Two tenants A and B, a key with every scope for
each, a forest and an ingested session each are created through the API; A's ids are collected
(forest name, session id, turn id, job id, fact ids, trees, a root and a leaf node). Then every
operation under ``/v1`` listed in the server's own OpenAPI schema is called with B's key, path
parameters filled with A's ids, in phases:

- ``foreign``: B has no forest of A's forest name: everything that names A's objects is 404;
- ``own-ns``: B creates a forest of that name and imports its own export into it (B's namespace);
- ``same-name``: B owns a forest named like A's: A's session, turn, fact, node and job ids are 404
  there, and B's listings, query and export carry none of A's ids or text;
- ``admin``: the admin-only operations (``/v1/tenants*``, ``/v1/admin/*``) answer 401/403;
- ``mcp``: the MCP tools at ``/mcp`` with B's key and A's job, session and node ids are tool errors,
  B's own searches carry none of A's text (``bench/cross_tenant_surfaces.py``);
- ``ops``: ``/metrics``, ``/readyz`` and ``/healthz`` (no key, B's key) leak none of A's text or ids.

Nothing may answer 5xx, no response may contain A's session text, and A's forest (counts,
sessions, facts, trees, job) must read the same with A's key before and after. Exits 1 on any
violation; writes ``bench/results/cross_tenant.json``.

    python -m bench.cross_tenant [--database-url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote

import httpx
from rich.console import Console
from rich.table import Table
from tqdm import tqdm

from bench.args import bench_parser, single_run
from bench.cross_tenant_setup import (
    FOREST_A,
    FOREST_B,
    AIds,
    BIds,
    Check,
    Probe,
    _absent,
    _disjoint,
    _empty_listing,
    _ids,
    _json,
    a_session,
    b_session,
    collect_a,
    snapshot,
    wait_succeeded,
)
from bench.cross_tenant_surfaces import probe_surfaces
from bench.load import serve
from bench.report import machine_info, provenance, write_json
from memforest.client import MemForestClient
from memforest.errors import MemForestError

__all__ = ["ADMIN_STATUSES", "PHASES", "AIds", "BIds", "Check", "Probe", "evaluate", "main", "operations", "plan"]

ALL_SCOPES = ["read", "write", "admin"]
HTTP_METHODS = ("get", "post", "put", "patch", "delete")
PHASES = ("foreign", "own-ns", "same-name", "admin")  # of the /v1 plan; then "mcp" and "ops" (cross_tenant_surfaces)
ADMIN_STATUSES = (401, 403)


# ---------------------------------------------------------------- what is probed


def is_admin_route(route: str) -> bool:
    """The admin-only operations: tenants, their keys, cross-tenant merges and jobs."""
    return route == "/v1/tenants" or route.startswith(("/v1/tenants/", "/v1/admin/"))


def operations(schema: dict[str, Any]) -> list[tuple[str, str]]:
    """Every (METHOD, path template) under ``/v1`` in an OpenAPI schema, in schema order."""
    out: list[tuple[str, str]] = []
    for route, item in schema.get("paths", {}).items():
        if route.startswith("/v1/") or route == "/v1":
            out.extend((m.upper(), route) for m in HTTP_METHODS if m in item)
    return out


def _seg(value: str) -> str:
    return quote(value, safe="")


def _fill(route: str, params: dict[str, str]) -> str:
    path = route
    for name, value in params.items():
        path = path.replace("{" + name + "}", _seg(value))
    return path


def _session_body(external_id: str, speaker: str, text: str) -> dict[str, Any]:
    return {
        "id": external_id,
        "time": "2024-03-02T10:00:00+00:00",
        "turns": [{"id": "t0", "speaker": speaker, "role": "user", "text": text}],
    }


def plan(ops: Sequence[tuple[str, str]], a: AIds, b: BIds) -> list[Probe]:
    """The probes for ``ops`` in running order: phase by phase (foreign, own-ns, same-name, admin), reads first."""
    f = a.forest
    base = {
        "forest": f,
        "session_id": a.session_id,
        "turn_id": a.turn_id,
        "job_id": a.job_id,
        "fact_id": a.fact_ids[0],
        "node_id": a.root_node_id,
        "tenant_id": a.tenant_id,
        "key_id": a.key_id,
    }
    query_body = {"query": "Where did Marisol move, and what is her locker code?", "top_k": 20}
    sneaky_session = _session_body("b-sneaky-1", "Yusuf", "I moved to Quito last week.")
    by_phase: dict[str, list[Probe]] = {p: [] for p in PHASES}

    def add(
        phase: str,
        method: str,
        route: str,
        expected: tuple[int, ...],
        note: str,
        *,
        query: str = "",
        check: Check | None = None,
        **params_and_body: Any,
    ) -> None:
        json_body = params_and_body.pop("json_body", None)
        content = params_and_body.pop("content", None)
        path = _fill(route, {**base, **params_and_body}) + query
        control = phase == "foreign" and expected == (404,) and (method == "GET" or route.endswith("/query"))
        probe = Probe(phase, method, route, path, expected, note, json_body, content, check, control)
        by_phase[phase].append(probe)

    for method, route in ops:
        key = (method, route)
        if is_admin_route(route):
            body: Any = None
            if key == ("POST", "/v1/tenants"):
                body = {"name": "b-made-this"}
            elif key == ("POST", "/v1/tenants/{tenant_id}/keys"):
                body = {"scopes": ALL_SCOPES}
            elif key == ("POST", "/v1/admin/merge"):
                body = {"from_tenant": a.tenant_id, "from_forest": f, "into_tenant": b.tenant_id, "into_forest": "loot"}
            elif method in ("POST", "PUT", "PATCH"):
                body = {}
            add("admin", method, route, ADMIN_STATUSES, "admin-only; A's tenant/key/job ids", json_body=body)
            continue
        if key == ("GET", "/v1/forests"):
            add("foreign", method, route, (200,), "B's own list: no A forest", check=_disjoint("forest", "name", [f]))
        elif key == ("POST", "/v1/forests"):
            add("own-ns", method, route, (201,), "B creates its own forest of A's name", json_body={"name": f})
        elif key == ("GET", "/v1/forests/{forest}"):
            add("foreign", method, route, (404,), "A's forest")
            add("same-name", method, route, (200,), "B's own same-named forest", check=_absent(a.session_id))
        elif key == ("DELETE", "/v1/forests/{forest}"):
            add("foreign", method, route, (404,), "A's forest")
        elif key == ("POST", "/v1/forests/{forest}/sessions"):
            # a write creates the caller's own forest of that name (ADR 0016): A's forest stays untouched
            note = "B's session into a forest of A's name: creates B's own"
            add("own-ns", method, route, (202,), note, json_body=sneaky_session)
        elif key == ("GET", "/v1/forests/{forest}/sessions"):
            add("foreign", method, route, (404,), "A's forest")
            check = _disjoint("session", "session_id", [a.session_id])
            add("same-name", method, route, (200,), "B's own listing", check=check)
        elif route == "/v1/forests/{forest}/sessions/{session_id}" or route.endswith("/turns/{turn_id}"):
            add("foreign", method, route, (404,), "A's session/turn in A's forest")
            add("same-name", method, route, (404,), "A's session/turn in B's same-named forest")
        elif key == ("GET", "/v1/jobs/{job_id}"):
            add("foreign", method, route, (404,), "A's job")
            add("same-name", method, route, (404,), "A's job (B owns a same-named forest)")
        elif key == ("POST", "/v1/forests/{forest}/query"):
            add("foreign", method, route, (404,), "A's forest", json_body=query_body)
            check = _absent(a.session_id)
            add("same-name", method, route, (200,), "B's own forest: no A evidence", json_body=query_body, check=check)
        elif key == ("GET", "/v1/forests/{forest}/facts"):
            add("foreign", method, route, (404,), "A's forest")
            add("foreign", method, route, (404,), "A's forest, A's session filter", query=f"?session={a.session_id}")
            add("same-name", method, route, (200,), "B's own listing", check=_disjoint("fact", "id", a.fact_ids))
            note = "B's own listing, A's session filter"
            add("same-name", method, route, (200,), note, query=f"?session={a.session_id}", check=_empty_listing)
        elif key == ("GET", "/v1/forests/{forest}/facts/{fact_id}"):
            for fid in a.fact_ids:
                add("foreign", method, route, (404,), f"A's fact {fid}", fact_id=fid)
                add("same-name", method, route, (404,), f"A's fact {fid} in B's same-named forest", fact_id=fid)
        elif key == ("GET", "/v1/forests/{forest}/trees"):
            add("foreign", method, route, (404,), "A's forest")
            add("same-name", method, route, (200,), "B's own listing", check=_disjoint("tree", "id", a.tree_ids))
        elif key == ("GET", "/v1/forests/{forest}/nodes/{node_id}"):
            for what, nid in (("root", a.root_node_id), ("leaf", a.leaf_node_id)):
                add("foreign", method, route, (404,), f"A's {what} node", node_id=nid)
                add("same-name", method, route, (404,), f"A's {what} node in B's same-named forest", node_id=nid)
        elif key == ("POST", "/v1/forests/{forest}/rematerialize"):
            add("foreign", method, route, (404,), "A's forest", json_body={"summaries": True})
        elif key == ("POST", "/v1/forests/{forest}/merge"):
            add("foreign", method, route, (404,), "A's forest into A's forest", json_body={"from": f})
            add("foreign", method, route, (404,), "A's forest into B's forest", forest=b.forest, json_body={"from": f})
            body = {"from": f, "from_tenant": a.tenant_id}
            add("foreign", method, route, (403,), "from_tenant=A into B's forest", forest=b.forest, json_body=body)
        elif key == ("GET", "/v1/forests/{forest}/export"):
            add("foreign", method, route, (404,), "A's forest")
            add("same-name", method, route, (200,), "B's own forest", check=_absent(a.session_id))
        elif key == ("POST", "/v1/forests/{forest}/import"):
            add("own-ns", method, route, (202,), "B's own export into B's forest of A's name", content=b.export)
        elif agent_probe(method, route, add, a, b, query_body) or browser_probe(method, route, add, a):
            pass
        else:  # an operation this bench does not know yet: still probed, generically
            body = {} if method in ("POST", "PUT", "PATCH") else None
            add("foreign", method, route, (404,), "generic probe (unknown operation)", json_body=body)
    return [p for phase in PHASES for p in sorted(by_phase[phase], key=_rank)]


# ---------------------------------------------------------------- the memory browser's reads, fact history


def browser_probe(method: str, route: str, add: Callable[..., None], a: AIds) -> bool:
    """Probes of a fact's history, the key's own scopes, the overview and the entity reads with B's
    key and A's ids; False for any other operation."""
    key = (method, route)
    if key == ("GET", "/v1/forests/{forest}/facts/{fact_id}/history"):
        for fid in a.fact_ids:
            add("foreign", method, route, (404,), f"A's fact {fid}'s history", fact_id=fid)
            add("same-name", method, route, (404,), f"A's fact {fid}'s history in B's same-named forest", fact_id=fid)
    elif key == ("GET", "/v1/key"):
        add("foreign", method, route, (200,), "B's own key: nothing of A", check=_absent(a.tenant_id, a.key_id))
    elif key == ("GET", "/v1/overview"):
        add("foreign", method, route, (200,), "B's own forests only", check=_disjoint("forest", "name", [a.forest]))
    elif key == ("GET", "/v1/forests/{forest}/entities"):
        add("foreign", method, route, (404,), "A's forest")
        add("same-name", method, route, (200,), "B's own forest: no A entity", check=_absent("Marisol"))
    elif key == ("GET", "/v1/forests/{forest}/entities/{entity}/timeline"):
        add("foreign", method, route, (404,), "A's entity in A's forest", entity="Marisol")
        add("same-name", method, route, (404,), "A's entity in B's same-named forest", entity="Marisol")
    else:
        return False
    return True


# ---------------------------------------------------------------- issue 18: the agent operations


def agent_probe(method: str, route: str, add: Callable[..., None], a: AIds, b: BIds, query: dict[str, Any]) -> bool:
    """Probes of messages, fact corrections and deletions, the multi-forest query and webhooks with
    B's key and A's ids; False for any other operation."""
    key, f = (method, route), a.forest
    hook = {"webhook_id": a.webhook_id or "00000000-0000-4000-8000-000000000000"}
    if key == ("POST", "/v1/forests/{forest}/messages"):  # a write creates B's own forest: same-name phase only
        body = {"messages": [{"role": "user", "content": "I moved to Quito last week."}], "session_id": "b-msg-1"}
        add("same-name", method, route, (202,), "into B's own same-named forest", json_body=body,
            check=_absent(a.session_id))  # fmt: skip
    elif route == "/v1/forests/{forest}/facts/{fact_id}" and method in ("PATCH", "DELETE"):
        body = {"text": "B rewrote this."} if method == "PATCH" else None
        for fid in a.fact_ids:
            add("foreign", method, route, (404,), f"A's fact {fid}", fact_id=fid, json_body=body)
            add("same-name", method, route, (404,), f"A's fact {fid} in B's same-named forest", fact_id=fid,
                json_body=body)  # fmt: skip
    elif key == ("POST", "/v1/query"):
        add("foreign", method, route, (404,), "A's forest by name", json_body=query | {"forests": [f]})
        add("same-name", method, route, (200,), "B's own forests: no A evidence",
            json_body=query | {"forests": [f, b.forest]}, check=_absent(a.session_id))  # fmt: skip
    elif key == ("GET", "/v1/webhooks"):
        check = _disjoint_or_empty("webhook", [a.webhook_id])
        add("foreign", method, route, (200,), "B's own list: no A webhook", check=check)
    elif key == ("POST", "/v1/webhooks"):
        body = {"url": "http://127.0.0.1:1024/b-hook"}  # 201 where private targets are allowed, else 422
        add("foreign", method, route, (201, 422), "B's own hook", json_body=body, check=_absent(a.webhook_id or "-"))
    elif route.startswith("/v1/webhooks/{webhook_id}"):
        add("foreign", method, route, (404,), "A's webhook", **hook)
    else:
        return False
    return True


def _disjoint_or_empty(what: str, forbidden: Sequence[str]) -> Check:
    """A listing with none of these ids (it may be empty)."""

    def check(response: httpx.Response) -> str | None:
        leaked = _ids("id")(response) & {x for x in forbidden if x}
        return f"listing holds A's {what}: {sorted(leaked)}" if leaked else None

    return check


def _rank(probe: Probe) -> int:
    """Within a phase: reads first, then writes, deleting a whole forest last (so that a leak found by a
    write does not hide what the reads would have shown)."""
    if probe.method == "GET" or probe.route.endswith("/query"):
        return 0
    return 2 if probe.method == "DELETE" and probe.route == "/v1/forests/{forest}" else 1


def evaluate(
    probe: Probe, response: httpx.Response, secret_texts: Sequence[str], control: httpx.Response | None = None
) -> None:
    """Judge one response: expected status, never 5xx, none of A's text, the probe's own check, and
    (for a control probe) the same request with A's key succeeded."""
    probe.status = response.status_code
    problems: list[str] = []
    if response.status_code >= 500:
        problems.append("server error")
    if response.status_code not in probe.expected:
        problems.append(f"expected {'/'.join(map(str, probe.expected))}")
    leaked = [s for s in secret_texts if s and s in response.text]
    if leaked:
        problems.append(f"body contains A's text ({len(leaked)} snippet(s))")
    if probe.check is not None and 200 <= response.status_code < 300:
        why = probe.check(response)
        if why:
            problems.append(why)
    if probe.control:
        probe.control_status = control.status_code if control is not None else None
        if probe.control_status is None or not 200 <= probe.control_status < 300:
            problems.append(f"control with A's key answered {probe.control_status}, so this path misses A's object")
    probe.ok = not problems
    probe.why = "; ".join(problems)


# ---------------------------------------------------------------- setup and snapshots


# ---------------------------------------------------------------- the run


async def _call(http: httpx.AsyncClient, probe: Probe, key: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}"}
    if probe.content is not None:
        headers["Content-Type"] = "application/x-ndjson"
    return await http.request(probe.method, probe.path, json=probe.json_body, content=probe.content, headers=headers)


async def probe_server(
    base_url: str,
    admin_key: str,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    job_timeout: float = 120.0,
    progress: bool = True,
) -> dict[str, Any]:
    """Set up A and B on a running server, probe every /v1 operation with B's key; the result dict."""
    tag = secrets.token_hex(4)
    canary = f"quokka-canary-{secrets.token_hex(8)}"
    session_a, session_b = a_session(canary, tag), b_session(tag)

    def client(key: str) -> MemForestClient:
        return MemForestClient(base_url, key, transport=transport, timeout=120)

    async with client(admin_key) as admin:
        ta = await admin.create_tenant(f"cross-tenant-A-{tag}")
        tb = await admin.create_tenant(f"cross-tenant-B-{tag}")
        key_a, key_b = await admin.create_key(ta.id, ALL_SCOPES), await admin.create_key(tb.id, ALL_SCOPES)
    assert key_a.key is not None and key_b.key is not None
    async with client(key_a.key) as mfa, client(key_b.key) as mfb:
        await mfa.create_forest(FOREST_A)
        await mfb.create_forest(FOREST_B)
        job_a = (await mfa.add_session(FOREST_A, session_a)).job_id
        job_b = (await mfb.add_session(FOREST_B, session_b)).job_id
        await wait_succeeded(mfa, job_a, job_timeout, "A's ingest")
        await wait_succeeded(mfb, job_b, job_timeout, "B's ingest")
        assert job_a is not None
        a = await collect_a(mfa, {"tenant": ta.id, "key": key_a.id, "job": job_a}, canary, session_a)
        b_export = "".join(json.dumps(r) + "\n" for r in await mfb.export_forest(FOREST_B)).encode()
        b = BIds(tenant_id=tb.id, forest=FOREST_B, export=b_export)
        before = await snapshot(mfa, FOREST_A, job_a)

        headers = {"Accept": "application/json"}
        async with httpx.AsyncClient(base_url=base_url, headers=headers, transport=transport, timeout=120) as http:
            schema = (await http.get("/openapi.json")).raise_for_status().json()
            ops = operations(schema)
            probes = plan(ops, a, b)
            with tqdm(total=len(probes), desc="probes", unit="call", disable=not progress) as bar:
                for probe in probes:
                    t0 = time.perf_counter()
                    response = await _call(http, probe, key_b.key)
                    probe.ms = (time.perf_counter() - t0) * 1000
                    control = await _call(http, probe, key_a.key) if probe.control else None
                    evaluate(probe, response, a.secrets, control)
                    if probe.route.endswith("/import") and response.status_code == 202:
                        try:
                            await wait_succeeded(mfb, _json(response)["job_id"], job_timeout, "B's import")
                        except MemForestError as exc:
                            probe.ok, probe.why = False, f"B's import job: {exc}"
                    bar.update(1)
            probes += await probe_surfaces(http, key_b.key, a)
        try:
            after = await snapshot(mfa, FOREST_A, job_a)
        except MemForestError as exc:  # e.g. A's forest or key is gone: a violation, reported, not a crash
            after = {"error": f"{type(exc).__name__}: {exc}"}
        async with client(admin_key) as admin:
            tenants = sorted(t.name for t in (await admin.list_tenants()).items if tag in t.name or "b-made" in t.name)

    return _result(ops, probes, a, before, after, tenants, tag)


def _result(
    ops: Sequence[tuple[str, str]],
    probes: Sequence[Probe],
    a: AIds,
    before: dict[str, Any],
    after: dict[str, Any],
    tenants: list[str],
    tag: str,
) -> dict[str, Any]:
    covered = {(p.method, p.route) for p in probes}
    missing = [f"{m} {r}" for m, r in ops if (m, r) not in covered]
    expected_tenants = sorted([f"cross-tenant-A-{tag}", f"cross-tenant-B-{tag}"])
    violations = [f"{p.method} {p.path} [{p.phase}]: {p.status} ({p.why})" for p in probes if not p.ok]
    violations += [f"operation not probed: {m}" for m in missing]
    if before != after:
        violations.append("A's forest changed while B probed it")
    if tenants != expected_tenants:
        violations.append(f"tenants changed: {tenants}")
    refs_a = [p for p in probes if p.phase in ("foreign", "same-name") and p.expected == (404,)]
    return {
        "config": {
            "forest_a": a.forest,
            "forest_b": FOREST_B,
            "a_ids": {
                "session_id": a.session_id,
                "turn_id": a.turn_id,
                "job_id": a.job_id,
                "fact_ids": a.fact_ids,
                "tree_ids": a.tree_ids,
                "root_node_id": a.root_node_id,
                "leaf_node_id": a.leaf_node_id,
            },
            "server": "one `memforest serve` process with its in-process worker, rule-based extractor, hashed embedder",
        },
        "machine": machine_info(),
        "operations": len(ops),
        "tenant_operations": sum(1 for _, r in ops if not is_admin_route(r)),
        "admin_operations": sum(1 for _, r in ops if is_admin_route(r)),
        "calls": len(probes),
        "calls_on_a_objects": len(refs_a),
        "calls_on_a_objects_404": sum(1 for p in refs_a if p.status == 404),
        "admin_calls_refused": sum(1 for p in probes if p.phase == "admin" and p.status in ADMIN_STATUSES),
        "mcp_calls": sum(1 for p in probes if p.phase == "mcp"),
        "mcp_calls_ok": sum(1 for p in probes if p.phase == "mcp" and p.ok),
        "ops_calls": sum(1 for p in probes if p.phase == "ops"),
        "ops_calls_ok": sum(1 for p in probes if p.phase == "ops" and p.ok),
        "server_errors": sum(1 for p in probes if p.status is not None and p.status >= 500),
        "a_unchanged": before == after,
        "a_before": before,
        "a_after": after,
        "probes": [p.as_dict() for p in probes],
        "violations": violations,
        "pass": not violations,
    }


# ---------------------------------------------------------------- output


def render(result: dict[str, Any], console: Console) -> None:
    """The per-call table and the summary line."""
    table = Table(title="tenant B's key against tenant A's objects")
    for col in ("phase", "method", "route", "note", "status", "expected", "A's key", "ok"):
        table.add_column(col, justify="right" if col in ("status", "expected", "A's key") else "left")
    for p in result["probes"]:
        ok = "[green]ok[/green]" if p["ok"] else f"[red]FAIL[/red] {p['why']}"
        expected = "/".join(str(s) for s in p["expected"])
        control = str(p["control_status"]) if p["control_status"] is not None else ""
        table.add_row(p["phase"], p["method"], p["route"], p["note"], str(p["status"]), expected, control, ok)
    console.print(table)
    console.print(summary(result))
    for v in result["violations"]:
        console.print(f"[red]violation[/red] {v}")
    console.print("[green]PASS[/green]" if result["pass"] else "[red]FAIL[/red]")


def summary(result: dict[str, Any]) -> str:
    """One line: operations, calls, 404s on A's objects, admin refusals, 5xx, A unchanged."""
    return (
        f"{result['operations']} operations ({result['tenant_operations']} tenant, {result['admin_operations']} "
        f"admin), {result['calls']} calls with B's key: {result['calls_on_a_objects_404']}/"
        f"{result['calls_on_a_objects']} calls on A's objects 404, {result['admin_calls_refused']}/"
        f"{sum(1 for p in result['probes'] if p['phase'] == 'admin')} admin calls refused, "
        f"{result['mcp_calls_ok']}/{result['mcp_calls']} MCP tool calls and {result['ops_calls_ok']}/"
        f"{result['ops_calls']} /metrics, /readyz, /healthz calls clean, "
        f"{result['server_errors']} 5xx, A's forest {'unchanged' if result['a_unchanged'] else 'CHANGED'}, "
        f"{len(result['violations'])} violations"
    )


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the server, probe, stop it (also on failure)."""
    private_ok = {"MEMFOREST_WEBHOOKS__ALLOW_PRIVATE": "true"}  # A's webhook targets 127.0.0.1 (server only)
    with serve(database_url=args.database_url, embed_dim=args.embed_dim, home=args.home, env=private_ok) as server:
        result = await probe_server(
            server.url, server.admin_key, job_timeout=args.job_timeout, progress=not args.no_progress
        )
        result["config"]["database"] = server.database
    return result


def _parser() -> argparse.ArgumentParser:
    p = bench_parser("cross_tenant", (__doc__ or "").split("\n\n")[0])
    p.add_argument(
        "--database-url",
        default=os.environ.get("MEMFOREST_DATABASE_URL"),
        help="external PostgreSQL (default: MEMFOREST_DATABASE_URL, else a temporary embedded one)",
    )
    p.add_argument("--embed-dim", type=int, default=None, help="MEMFOREST_EMBEDDING__DIM for the server")
    p.add_argument("--job-timeout", type=float, default=180.0, help="seconds to wait for each setup job")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the probe; exit 1 on any violation (or when the setup fails)."""
    parser = _parser()
    args = parser.parse_args(argv)
    single_run(parser, args)
    if args.job_timeout <= 0:
        print("bench.cross_tenant: need --job-timeout > 0", file=sys.stderr)
        return 2
    try:
        result = asyncio.run(run(args))
    except (MemForestError, httpx.HTTPError) as exc:
        print(f"bench.cross_tenant: error: {exc}", file=sys.stderr)
        return 1
    result["provenance"] = provenance(args, argv)
    path = write_json(args.out, "cross_tenant", result)
    console = Console(width=200)
    render(result, console)
    console.print(f"wrote {path}")
    return 0 if result["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
