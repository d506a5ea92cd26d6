"""The surfaces of ``bench.cross_tenant`` outside ``/v1``: the MCP tools at ``/mcp`` called with B's
key and A's ids (phase ``mcp``), and the operations endpoints ``/metrics``, ``/readyz`` and
``/healthz`` without a key and with B's key (phase ``ops``). Nothing may answer 5xx or carry A's
text or ids; every MCP call that names A's session, job or node must be a tool error."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import httpx

from bench.cross_tenant_setup import AIds, Probe

MCP_ACCEPT = "application/json, text/event-stream"


def _leaks(text: str, a: AIds, named: Sequence[str] = ()) -> list[str]:
    """A's secrets and ids found in ``text``; ids the call itself ``named`` may be echoed back."""
    found = [s for s in a.secrets if s and s in text]
    for ident in (a.tenant_id, a.session_id, a.job_id, a.key_id):
        if ident and ident in text and ident not in named:
            found.append(ident)
    return found


def mcp_calls(a: AIds) -> list[tuple[str, dict[str, Any], bool, str]]:
    """(tool, arguments, must be a tool error, note) for B's key, in B's same-named forest."""
    f = a.forest
    out: list[tuple[str, dict[str, Any], bool, str]] = [
        ("get_job", {"job_id": a.job_id}, True, "A's job"),
        ("forget_session", {"forest": f, "session_id": a.session_id}, True, "A's session"),
        ("search_memory", {"forest": f, "query": "Where did Marisol move? locker code", "top_k": 20}, False, "B's own"),
        ("get_context", {"forest": f, "query": "Marisol locker code", "token_budget": 2000}, False, "B's own"),
        ("browse_tree", {"forest": f}, False, "B's own trees"),
    ]
    for what, nid in (("root", a.root_node_id), ("leaf", a.leaf_node_id)):
        out.append(("browse_tree", {"forest": f, "node_id": nid}, True, f"A's {what} node"))
    return out


def _rpc(n: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}


def _tool_result(response: httpx.Response) -> dict[str, Any] | None:
    """The JSON-RPC ``result`` of a /mcp answer (JSON, or the first SSE data line)."""
    body = response.text
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        body = next((ln[5:].strip() for ln in body.splitlines() if ln.startswith("data:")), "")
    try:
        data = json.loads(body)
    except ValueError:
        return None
    result = data.get("result") if isinstance(data, dict) else None
    return result if isinstance(result, dict) else None


def judge_mcp(
    probe: Probe, response: httpx.Response, must_fail: bool, a: AIds, arguments: dict[str, Any] | None = None
) -> None:
    """A tool call: 200 with a JSON-RPC result, an error where it names A's objects, none of A's text
    and no id of A's that the call did not name itself (an error may echo the id it was given)."""
    probe.status = response.status_code
    problems = []
    result = _tool_result(response)
    if response.status_code >= 500:
        problems.append("server error")
    elif response.status_code != 200 or result is None:
        problems.append("no JSON-RPC result")
    elif must_fail and not result.get("isError"):
        problems.append("the tool answered A's object instead of an error")
    elif not must_fail and result.get("isError"):
        problems.append(f"B's own call failed: {str(result.get('content'))[:120]}")
    leaked = _leaks(response.text, a, [str(v) for v in (arguments or {}).values()])
    if leaked:
        problems.append(f"body contains A's text or ids ({len(leaked)})")
    probe.ok, probe.why = not problems, "; ".join(problems)


def judge_ops(probe: Probe, response: httpx.Response, a: AIds) -> None:
    """An operations endpoint: an expected status, never 5xx, none of A's text or ids."""
    probe.status = response.status_code
    problems = []
    if response.status_code >= 500:
        problems.append("server error")
    if response.status_code not in probe.expected:
        problems.append(f"expected {'/'.join(map(str, probe.expected))}")
    if _leaks(response.text, a) or a.forest in response.text:
        problems.append("body contains A's text, ids or forest name")
    probe.ok, probe.why = not problems, "; ".join(problems)


async def probe_surfaces(
    http: httpx.AsyncClient, key_b: str, a: AIds, *, metrics_statuses: Sequence[int] = (200, 401, 403)
) -> list[Probe]:
    """Call the MCP tools and the operations endpoints; the judged probes (phases ``mcp`` and ``ops``)."""
    probes: list[Probe] = []
    headers = {"Authorization": f"Bearer {key_b}", "Accept": MCP_ACCEPT, "Content-Type": "application/json"}
    for n, (tool, arguments, must_fail, note) in enumerate(mcp_calls(a), start=1):
        probe = Probe("mcp", "POST", f"/mcp {tool}", "/mcp", (200,), f"MCP {tool}: {note}")
        t0 = time.perf_counter()
        response = await http.post("/mcp", json=_rpc(n, tool, arguments), headers=headers)
        probe.ms = (time.perf_counter() - t0) * 1000
        judge_mcp(probe, response, must_fail, a, arguments)
        probes.append(probe)
    for path, expected in (("/metrics", tuple(metrics_statuses)), ("/readyz", (200,)), ("/healthz", (200,))):
        for who, h in (("no key", {}), ("B's key", {"Authorization": f"Bearer {key_b}"})):
            probe = Probe("ops", "GET", path, path, expected, f"{path} with {who}")
            t0 = time.perf_counter()
            response = await http.get(path, headers=h)
            probe.ms = (time.perf_counter() - t0) * 1000
            judge_ops(probe, response, a)
            probes.append(probe)
    return probes
