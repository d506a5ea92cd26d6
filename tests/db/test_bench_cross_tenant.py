"""``bench.cross_tenant``: the end-to-end run against a real ``memforest serve`` subprocess on this
test's database has zero violations and covers every /v1 operation; the judging and the plan are
checked on their own (a wrong status, a 5xx, leaked text, a failed control are violations)."""

from __future__ import annotations

import json
import secrets
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest
from fastapi import Request
from pydantic import SecretStr

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # `bench` lives at the repo root, not installed

from bench import cross_tenant as ct
from bench import cross_tenant_setup as cts
from bench import cross_tenant_surfaces as surfaces
from memforest.api import auth
from memforest.db.engine import Database
from memforest.servers import create_app
from memforest.settings import Settings

TEST_DIM = 64  # the dimension conftest migrates the test databases with


def _a_ids() -> ct.AIds:
    return ct.AIds(
        tenant_id="00000000-0000-0000-0000-00000000000a",
        key_id="00000000-0000-0000-0000-0000000000aa",
        forest="a forest/with slash",
        session_id="a-s1",
        turn_id="a-t1",
        job_id="00000000-0000-0000-0000-000000000001",
        fact_ids=["11", "12"],
        tree_ids=["21"],
        root_node_id="31",
        leaf_node_id="32",
        secrets=["canary-xyz", "Marisol moved to Reykjavik."],
    )


def _schema_ops(settings: Settings) -> list[tuple[str, str]]:
    s = settings.model_copy(update={"admin_key": SecretStr(secrets.token_urlsafe(32))})
    return ct.operations(create_app(s, start_worker=False).openapi())


def test_cross_tenant_end_to_end(db_env: str, settings: Settings, tmp_path: Path) -> None:
    argv = ["--database-url", db_env, "--embed-dim", str(TEST_DIM), "--out", str(tmp_path), "--no-progress"]
    assert ct.main(argv) == 0
    result = json.loads((tmp_path / "cross_tenant.json").read_text())
    assert result["pass"] is True and result["violations"] == []
    assert result["server_errors"] == 0 and result["a_unchanged"] is True
    assert result["a_before"]["facts"] and result["a_before"]["sessions"] == [result["config"]["a_ids"]["session_id"]]
    ops = _schema_ops(settings)
    probed = {(p["method"], p["route"]) for p in result["probes"] if p["phase"] not in ("mcp", "ops")}
    assert probed == set(ops) and result["operations"] == len(ops)
    mcp = [p for p in result["probes"] if p["phase"] == "mcp"]
    tools = {p["route"].split()[1] for p in mcp}
    assert {"get_job", "forget_session", "search_memory", "get_context", "browse_tree"} <= tools
    assert result["mcp_calls"] == result["mcp_calls_ok"] == len(mcp) >= 7
    ops_paths = {p["route"] for p in result["probes"] if p["phase"] == "ops"}
    assert ops_paths == {"/metrics", "/readyz", "/healthz"} and result["ops_calls_ok"] == result["ops_calls"] == 6
    assert not any(p["note"].startswith("generic") for p in result["probes"])
    assert result["calls_on_a_objects"] == result["calls_on_a_objects_404"] >= 25
    for p in result["probes"]:
        assert p["ok"] and p["status"] in p["expected"] and p["status"] < 500
        if p["control_status"] is not None:
            assert 200 <= p["control_status"] < 300  # the path reaches A's object with A's key
    by_phase = {(p["phase"], p["method"], p["route"]) for p in result["probes"] if p["status"] == 404}
    for route in ("sessions/{session_id}", "facts/{fact_id}", "nodes/{node_id}"):
        for phase in ("foreign", "same-name"):
            assert (phase, "GET", f"/v1/forests/{{forest}}/{route}") in by_phase
    assert ("same-name", "GET", "/v1/jobs/{job_id}") in by_phase
    admin = [p for p in result["probes"] if p["phase"] == "admin"]
    assert admin and all(p["status"] in (401, 403) for p in admin)


def test_plan_covers_every_operation_with_a_dedicated_probe(settings: Settings) -> None:
    ops = _schema_ops(settings)
    b = ct.BIds(tenant_id="00000000-0000-0000-0000-00000000000b", forest="b", export=b"{}\n")
    probes = ct.plan(ops, _a_ids(), b)
    assert {(p.method, p.route) for p in probes} == set(ops)
    assert not [p for p in probes if p.note.startswith("generic")]
    assert [p.phase for p in probes] == sorted((p.phase for p in probes), key=ct.PHASES.index)
    assert all(p.expected == ct.ADMIN_STATUSES for p in probes if ct.is_admin_route(p.route))
    node = [p.path for p in probes if p.route.endswith("/nodes/{node_id}")]
    assert "/v1/forests/a%20forest%2Fwith%20slash/nodes/32" in node  # filled and percent-encoded
    unknown = ct.plan([("PATCH", "/v1/forests/{forest}/brand-new")], _a_ids(), b)
    assert len(unknown) == 1 and unknown[0].expected == (404,) and unknown[0].json_body == {}


def _response(status: int, body: object) -> httpx.Response:
    return httpx.Response(status, json=body)


def test_evaluate_flags_every_kind_of_violation() -> None:
    secret = _a_ids().secrets

    def judged(
        status: int, body: object, expected: tuple[int, ...] = (404,), check: ct.Check | None = None
    ) -> ct.Probe:
        probe = ct.Probe("foreign", "GET", "/v1/x", "/v1/x", expected, "n", check=check)
        ct.evaluate(probe, _response(status, body), secret)
        return probe

    assert judged(404, {"detail": "no forest named 'a-s1'"}).ok
    assert not judged(200, {}).ok and "expected 404" in judged(200, {}).why
    five = judged(500, {}, expected=(404, 500))
    assert not five.ok and "server error" in five.why
    assert "A's text" in judged(404, {"detail": "Marisol moved to Reykjavik."}).why
    leak = judged(200, {"items": [{"id": "12"}]}, expected=(200,), check=cts._disjoint("fact", "id", ["11", "12"]))
    assert not leak.ok and "12" in leak.why
    empty = judged(200, {"items": []}, expected=(200,), check=cts._disjoint("fact", "id", ["11"]))
    assert not empty.ok and "empty" in empty.why
    assert judged(200, {"items": [{"id": "99"}]}, expected=(200,), check=cts._disjoint("fact", "id", ["11"])).ok

    probe = ct.Probe("foreign", "GET", "/v1/x", "/v1/x", (404,), "n", control=True)
    ct.evaluate(probe, _response(404, {}), secret, _response(404, {}))
    assert not probe.ok and probe.control_status == 404 and "control" in probe.why
    ct.evaluate(probe, _response(404, {}), secret, _response(200, {}))
    assert probe.ok and probe.control_status == 200


async def test_a_tenant_confusion_bug_is_caught(
    settings: Settings, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once probing starts, every tenant key acts as tenant A (a planted bug): the run must fail loudly."""
    admin_key = secrets.token_urlsafe(32)
    app = create_app(settings.model_copy(update={"admin_key": SecretStr(admin_key)}), db=db)
    leak_to: list[uuid.UUID] = []

    async def confused(request: Request) -> auth.Principal:
        p = await auth.authenticate(request)
        if leak_to and p.tenant_id is not None:
            return auth.Principal(tenant_id=leak_to[0], scopes=p.scopes, key_id=p.key_id)
        return p

    app.dependency_overrides[auth.authenticate] = confused
    real_plan = ct.plan

    def plan_then_leak(ops: Sequence[tuple[str, str]], a: ct.AIds, b: ct.BIds) -> list[ct.Probe]:
        leak_to.append(uuid.UUID(a.tenant_id))
        return real_plan(ops, a, b)

    monkeypatch.setattr(ct, "plan", plan_then_leak)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        result = await ct.probe_server("http://memforest.test", admin_key, transport=transport, progress=False)
    assert result["pass"] is False and result["a_unchanged"] is False
    failed = {(p["method"], p["route"]) for p in result["probes"] if not p["ok"]}
    assert ("GET", "/v1/forests/{forest}/sessions/{session_id}") in failed
    assert ("GET", "/v1/forests/{forest}/facts/{fact_id}") in failed
    assert any("A's text" in p["why"] for p in result["probes"])


def _rpc_answer(is_error: bool, text: str) -> httpx.Response:
    result = {"content": [{"type": "text", "text": text}], "isError": is_error}
    return httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "result": result})


def test_mcp_and_ops_judges_flag_leaks_and_answers_to_a_objects() -> None:
    a = _a_ids()

    def mcp(response: httpx.Response, must_fail: bool) -> ct.Probe:
        probe = ct.Probe("mcp", "POST", "/mcp get_job", "/mcp", (200,), "n")
        surfaces.judge_mcp(probe, response, must_fail, a)
        return probe

    assert mcp(_rpc_answer(True, "no job with that id"), must_fail=True).ok
    echo = ct.Probe("mcp", "POST", "/mcp get_job", "/mcp", (200,), "n")
    surfaces.judge_mcp(echo, _rpc_answer(True, f"no job {a.job_id}"), True, a, {"job_id": a.job_id})
    assert echo.ok  # echoing the id B sent is no leak; naming another of A's ids is
    assert not mcp(_rpc_answer(True, f"no job {a.job_id}"), must_fail=True).ok
    assert "instead of an error" in mcp(_rpc_answer(False, "{}"), must_fail=True).why
    assert "A's text" in mcp(_rpc_answer(False, "Marisol moved to Reykjavik."), must_fail=False).why
    assert "B's own call failed" in mcp(_rpc_answer(True, "boom"), must_fail=False).why
    sse = httpx.Response(
        200,
        headers={"content-type": "text/event-stream"},
        text='event: message\ndata: {"jsonrpc": "2.0", "id": 1, "result": {"isError": true, "content": []}}\n\n',
    )
    assert mcp(sse, must_fail=True).ok
    assert "server error" in mcp(httpx.Response(500, text="oops"), must_fail=True).why
    tools = surfaces.mcp_calls(a)
    assert ("get_job", {"job_id": a.job_id}, True, "A's job") in tools
    assert [t for t in tools if t[0] == "browse_tree" and t[1].get("node_id") == a.leaf_node_id and t[2]]

    def ops(response: httpx.Response) -> ct.Probe:
        probe = ct.Probe("ops", "GET", "/metrics", "/metrics", (200, 401), "n")
        surfaces.judge_ops(probe, response, a)
        return probe

    assert ops(httpx.Response(200, text="memforest_jobs_total 3")).ok
    assert ops(httpx.Response(401, text="{}")).ok
    assert not ops(httpx.Response(200, text=f'memforest_jobs{{tenant="{a.tenant_id}"}} 3')).ok
    assert not ops(httpx.Response(200, text=f'x{{forest="{a.forest}"}} 1')).ok
    assert "server error" in ops(httpx.Response(503, text="")).why
