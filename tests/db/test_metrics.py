"""/metrics (HTTP, queue and model metrics, no tenant data in labels) and /readyz with model backends."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr
from support import ADMIN_AUTH, admin_settings, app_client, free_port, session_body, tenant_key

from memforest.api.health import ModelProbe
from memforest.app.jobs import run_worker
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.settings import Settings
from memforest.store.sql import execute, scalar
from memforest.testing.simulated_llm import SimulationConfig, run_server_in_thread

FOREST = "orchard-private-notes"
TEXT = "Quentin repainted the lighthouse keeper's cottage a pale green in April."


def llm_settings(url: str) -> dict[str, Any]:
    return {"base_url": url, "backoff_base_s": 0.01, "backoff_max_s": 0.05, "max_attempts": 4, "timeout_s": 5.0}


def session(sid: str, text: str = TEXT) -> dict[str, Any]:
    texts = [text, "Green suits a cottage by the sea."]
    return session_body(sid, "2024-04-02T09:00:00Z", texts, ("quentin", "bot"), roles=("user", "assistant"))


def value(text: str, name: str, **labels: str) -> float:
    """The sum of the samples called ``name`` whose labels include ``labels`` (0 when there is none)."""
    total = 0.0
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                total += s.value
    return total


async def scrape(client: httpx.AsyncClient, headers: dict[str, str] | None = None) -> str:
    r = await client.get("/metrics", headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return r.text


def closed_port_url() -> str:
    return f"http://127.0.0.1:{free_port()}/v1"


# ---------------------------------------------------------------- HTTP metrics


async def test_request_metrics_use_route_templates_and_no_tenant_data(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings, api={"max_body_bytes": 5_000}), db) as (_, c):
        tid, h = await tenant_key(c)
        assert (await c.post("/v1/forests", json={"name": FOREST}, headers=h)).status_code == 201
        for _ in range(3):
            r = await c.post(f"/v1/forests/{FOREST}/query", json={"query": "what colour is the cottage?"}, headers=h)
            assert r.status_code == 200, r.text
        assert (await c.post("/v1/forests/no-such-forest/query", json={"query": "x"}, headers=h)).status_code == 404
        assert (await c.get(f"/v1/not-a-route/{FOREST}", headers=h)).status_code == 404
        big = session("big", "word " * 2_000)
        assert (await c.post(f"/v1/forests/{FOREST}/sessions", json=big, headers=h)).status_code == 413
        assert (await c.request("BREW", "/v1/forests", headers=h)).status_code == 405
        text = await scrape(c)

    query = "/v1/forests/{forest}/query"
    labels = {"method": "POST", "route": query}
    assert value(text, "memforest_http_requests_total", status="200", **labels) == 3
    assert value(text, "memforest_http_requests_total", status="404", **labels) == 1
    assert value(text, "memforest_http_request_duration_seconds_count", status="200", **labels) == 3
    assert value(text, "memforest_http_request_duration_seconds_bucket", status="200", le="+Inf", **labels) == 3
    assert value(text, "memforest_http_request_duration_seconds_sum", status="200", **labels) > 0
    sessions = "/v1/forests/{forest}/sessions"
    assert value(text, "memforest_http_requests_total", method="POST", route=sessions, status="413") == 1
    assert value(text, "memforest_http_requests_total", route="unmatched", status="404") == 1
    assert value(text, "memforest_http_requests_total", method="OTHER", route="/v1/forests", status="405") == 1
    assert value(text, "memforest_http_requests_total", method="POST", route="/v1/tenants", status="201") == 1
    # no raw paths, forest names, tenant ids or query text anywhere in the exposition
    for secret in (FOREST, "no-such-forest", "not-a-route", tid, "cottage", "BREW"):
        assert secret not in text
    assert "process_cpu_seconds_total" in text


async def test_metrics_key_protects_the_endpoint(settings: Settings, db: Database) -> None:
    key = "metrics-" + "Zp4Lr8Ws2Qx6"
    async with app_client(admin_settings(settings, api={"metrics_key": SecretStr(key)}), db) as (_, c):
        r = await c.get("/metrics")
        assert r.status_code == 401 and r.headers["content-type"].startswith("application/problem+json")
        assert (await c.get("/metrics", headers=ADMIN_AUTH)).status_code == 401
        text = await scrape(c, {"Authorization": f"Bearer {key}"})
        assert "memforest_jobs" in text


# ---------------------------------------------------------------- queue gauges from the database


async def test_job_and_dirty_gauges_follow_the_database(settings: Settings, db: Database) -> None:
    s = admin_settings(settings)
    async with app_client(s, db) as (app, c):
        _, h = await tenant_key(c)
        await c.post("/v1/forests", json={"name": FOREST}, headers=h)
        for i in range(3):
            r = await c.post(f"/v1/forests/{FOREST}/sessions", json=session(f"s{i}", f"{TEXT} Day {i}."), headers=h)
            assert r.status_code == 202, r.text
        text = await scrape(c)
        assert value(text, "memforest_jobs", state="queued") == 3
        assert value(text, "memforest_jobs", state="succeeded") == 0
        assert value(text, "memforest_queue_depth") == 3
        assert 0 < value(text, "memforest_queue_oldest_age_seconds") < 60  # three due jobs wait, briefly
        assert value(text, "memforest_metrics_database_up") == 1

        await run_worker(db, s, app.state.backends, stop_when_idle=True)
        text = await scrape(c)
        # the forest's coalesced refresh job waits for more commits (ADR 0013)
        assert value(text, "memforest_jobs", state="queued") == 1
        assert value(text, "memforest_jobs", state="succeeded") == 3
        assert value(text, "memforest_queue_depth") == 0  # scheduled for later, so nobody is waiting for it
        await run_worker(db, s, app.state.backends, stop_when_idle=True, early=True)
        text = await scrape(c)
        assert value(text, "memforest_jobs", state="queued") == 0
        assert value(text, "memforest_jobs", state="succeeded") == 4
        assert value(text, "memforest_queue_depth") == 0
        assert value(text, "memforest_dirty_nodes") == 0

        async with db.system() as conn:
            nodes = int(await scalar(conn, "SELECT count(*) FROM nodes"))
            assert nodes >= 3
            marked = await execute(conn, "UPDATE nodes SET dirty = true WHERE node_id IN "
                                   "(SELECT node_id FROM nodes ORDER BY node_id LIMIT 3)")  # fmt: skip
            dirty = int(await scalar(conn, "SELECT count(*) FROM nodes WHERE dirty"))
        assert marked == 3 and dirty >= 3
        text = await scrape(c)
        assert value(text, "memforest_dirty_nodes") == dirty


async def test_scrape_answers_when_the_database_is_gone(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings), db) as (app, c):
        assert value(await scrape(c), "memforest_metrics_database_up") == 1
        gone = Database(closed_port_url().replace("http://", "postgresql://nobody@").removesuffix("/v1") + "/none")
        app.state.db = gone
        try:
            text = await scrape(c)
        finally:
            app.state.db = db
            await gone.dispose()
    assert value(text, "memforest_metrics_database_up") == 0
    assert value(text, "memforest_http_requests_total", route="/metrics", status="200") >= 1


# ---------------------------------------------------------------- model metrics (process-wide)


async def test_model_calls_and_tokens_rise_after_an_http_ingest(settings: Settings, db: Database) -> None:
    with run_server_in_thread(SimulationConfig(ttft_ms=1.0, tpot_ms=0.01)) as url:
        s = admin_settings(settings, llm=llm_settings(url))
        async with app_client(s, db) as (app, c):
            _, h = await tenant_key(c)
            await c.post("/v1/forests", json={"name": FOREST}, headers=h)
            before = await scrape(c)
            assert (await c.post(f"/v1/forests/{FOREST}/sessions", json=session("s1"), headers=h)).status_code == 202
            await run_worker(db, s, app.state.backends, stop_when_idle=True)
            after = await scrape(c)
    backend = s.llm.model
    for name, labels in [
        ("memforest_model_calls_total", {"stage": "extract", "outcome": "ok"}),
        ("memforest_model_tokens_total", {"stage": "extract", "kind": "prompt"}),
        ("memforest_model_tokens_total", {"stage": "extract", "kind": "completion"}),
        ("memforest_model_call_duration_seconds_count", {"stage": "extract"}),
    ]:
        assert value(after, name, backend=backend, **labels) > value(before, name, backend=backend, **labels), name
    assert FOREST not in after


async def test_model_errors_count_failed_attempts(settings: Settings, db: Database) -> None:
    with run_server_in_thread(SimulationConfig(ttft_ms=1.0, tpot_ms=0.01, fail_plan=["500", "500", "429"])) as url:
        s = admin_settings(settings, llm=llm_settings(url))
        async with app_client(s, db) as (app, c):
            _, h = await tenant_key(c)
            await c.post("/v1/forests", json={"name": FOREST}, headers=h)
            before = await scrape(c)
            assert (await c.post(f"/v1/forests/{FOREST}/sessions", json=session("s1"), headers=h)).status_code == 202
            await run_worker(db, s, app.state.backends, stop_when_idle=True)
            after = await scrape(c)
    name, backend = "memforest_model_errors_total", s.llm.model
    for reason, failed in (("http_5xx", 2), ("http_429", 1)):
        delta = value(after, name, backend=backend, reason=reason) - value(before, name, backend=backend, reason=reason)
        assert delta == failed, reason
    ok = "memforest_model_calls_total"
    assert value(after, ok, backend=backend, outcome="ok") > value(before, ok, backend=backend, outcome="ok")
    assert value(after, ok, backend=backend, outcome="error") == value(before, ok, backend=backend, outcome="error")


# ---------------------------------------------------------------- readiness with model backends


async def test_readyz_is_503_when_the_llm_server_is_down(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings, llm=llm_settings(closed_port_url())), db) as (_, c):
        r = await c.get("/readyz")
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    checks = r.json()["checks"]
    assert checks["database"] == "ok" and checks["migrations"] == "ok"
    assert checks["chat_model"].startswith("unreachable")
    assert checks["embedder"] == "ok (built-in)"
    assert "127.0.0.1" not in r.text


async def test_readyz_is_503_when_the_http_embedder_is_down(settings: Settings, db: Database) -> None:
    emb = {"backend": "http", "base_url": closed_port_url()}
    async with app_client(admin_settings(settings, embedding=emb), db) as (_, c):
        r = await c.get("/readyz")
    assert r.status_code == 503, r.text
    checks = r.json()["checks"]
    assert checks["embedder"].startswith("unreachable") and checks["chat_model"].startswith("not configured")


async def test_readyz_pings_a_live_server_and_caches_the_answer(settings: Settings, db: Database) -> None:
    with run_server_in_thread(SimulationConfig()) as url:
        async with app_client(admin_settings(settings, llm=llm_settings(url)), db) as (_, c):
            first = await c.get("/readyz")
            second = await c.get("/readyz")
            async with httpx.AsyncClient() as plain:
                stats = (await plain.get(url.removesuffix("/v1") + "/stats")).json()
    pings = stats["requests_by_endpoint"].get("models", 0)
    assert first.status_code == 200, first.text
    assert second.status_code == 200, second.text
    assert first.json()["checks"]["chat_model"] == "ok"
    assert pings == 1  # the second probe came from the cache


async def test_model_probe_cache_expires(settings: Settings) -> None:
    now = [100.0]
    probe = ModelProbe(ttl_s=5.0, clock=lambda: now[0])
    with run_server_in_thread(SimulationConfig()) as url:
        backends = build_backends(admin_settings(settings, llm=llm_settings(url)))
        try:
            assert (await probe.check(backends))["chat_model"] == "ok"
        finally:
            await backends.aclose()
    # the server is gone: within the TTL the cached answer stands, after it the probe sees the truth
    backends = build_backends(admin_settings(settings, llm=llm_settings(url)))
    try:
        now[0] += 4.0
        assert (await probe.check(backends))["chat_model"] == "ok"
        now[0] += 2.0
        assert (await probe.check(backends))["chat_model"].startswith("unreachable")
    finally:
        await backends.aclose()


async def test_model_probe_times_out_quickly(settings: Settings) -> None:
    """A server that accepts but never answers costs at most the probe timeout."""

    async def hang(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(3.0)
        writer.close()

    server = await asyncio.start_server(hang, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    backends = build_backends(admin_settings(settings, llm=llm_settings(f"http://127.0.0.1:{port}/v1")))
    try:
        started = time.perf_counter()
        checks = await ModelProbe(timeout_s=0.3).check(backends)
        assert time.perf_counter() - started < 1.5
        assert checks["chat_model"].startswith("unreachable: no answer")
    finally:
        await backends.aclose()
        server.close()
