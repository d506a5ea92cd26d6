"""JSON logs: one object per line with request/job context, X-Request-ID, and no conversation text."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError
from support import AppClient, admin_settings, open_client, tenant_key

from memforest.app.jobs import HANDLERS, run_worker
from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends, build_backends
from memforest.db.engine import Database
from memforest.domain import Job
from memforest.logs import JsonFormatter, bind, configure_logging, current_context, log_context
from memforest.pipeline.worker import JobResult
from memforest.servers import create_app
from memforest.settings import Settings
from memforest.store.jobs import insert_job
from memforest.store.tenants import ensure_forest, ensure_tenant
from memforest.testing.simulated_llm import SimulationConfig, run_server_in_thread

SECRET_TURN = "Ottoline keeps her spare house key under the third blue flowerpot."
SECRET_QUERY = "where does Ottoline hide the key to the greenhouse?"


class Captured:
    """Everything logged (DEBUG and up, every logger) while active, formatted by the JSON formatter."""

    def __init__(self) -> None:
        self.stream = io.StringIO()

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text.splitlines() if line.strip()]

    def access(self) -> list[dict[str, Any]]:
        return [e for e in self.lines() if e["logger"] == "memforest.access"]


@pytest.fixture
def logs() -> Iterator[Captured]:
    captured = Captured()
    handler = logging.StreamHandler(captured.stream)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield captured
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


# ---------------------------------------------------------------- the formatter and context


def test_json_line_has_fields_context_extras_and_exception(logs: Captured) -> None:
    log = logging.getLogger("memforest.test")
    with log_context(request_id="req-1", forest="f1"):
        bind(tenant_id="t-9")
        assert current_context() == {"request_id": "req-1", "forest": "f1", "tenant_id": "t-9"}
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("it failed: %s", "badly", extra={"attempt": 2})
    assert current_context() == {}
    log.warning("outside")
    first, second = logs.lines()
    assert first["level"] == "ERROR" and first["logger"] == "memforest.test"
    assert first["message"] == "it failed: badly" and first["attempt"] == 2
    assert (first["request_id"], first["tenant_id"], first["forest"]) == ("req-1", "t-9", "f1")
    assert "ValueError: boom" in first["exc_info"]
    assert re.match(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$", first["timestamp"])
    assert "request_id" not in second and second["message"] == "outside"
    assert len(logs.text.splitlines()) == 2  # the traceback stays inside its one line


def test_configure_logging_replaces_handlers_and_quiets_sql(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, logging.getLogger("sqlalchemy.engine").level)
    try:
        configure_logging("json")
        assert len(root.handlers) == 1 and isinstance(root.handlers[0].formatter, JsonFormatter)
        assert not logging.getLogger("sqlalchemy.engine").isEnabledFor(logging.INFO)
        with log_context(job_id="j-1"):
            logging.getLogger("memforest.x").info("hello")
        entry = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
        assert entry["message"] == "hello" and entry["job_id"] == "j-1"
        configure_logging("text")
        logging.getLogger("memforest.x").info("plain")
        assert capsys.readouterr().err.strip().endswith("memforest.x: plain")
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])
        logging.getLogger("sqlalchemy.engine").setLevel(saved[2])


def test_log_format_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().log_format == "json"
    monkeypatch.setenv("MEMFOREST_LOG_FORMAT", "text")
    assert Settings().log_format == "text"
    monkeypatch.setenv("MEMFOREST_LOG_FORMAT", "xml")
    with pytest.raises(ValidationError):
        Settings()


# ---------------------------------------------------------------- requests


async def test_access_lines_carry_request_and_tenant_ids(api_client: AppClient, logs: Captured) -> None:
    _, c = api_client
    tid, h = await tenant_key(c)
    r = await c.post("/v1/forests", json={"name": "garden"}, headers=h | {"X-Request-ID": "trace-abc.123"})
    assert r.status_code == 201 and r.headers["x-request-id"] == "trace-abc.123"
    generated = (await c.get("/v1/forests/garden", headers=h)).headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", generated)
    refused = await c.get("/v1/forests", headers=h | {"X-Request-ID": "bad id\twith spaces"})
    assert re.fullmatch(r"[0-9a-f]{32}", refused.headers["x-request-id"])
    unauthorized = await c.get("/v1/forests", headers={"X-Request-ID": "anon-1"})
    assert unauthorized.status_code == 401 and unauthorized.headers["x-request-id"] == "anon-1"

    by_id = {e["request_id"]: e for e in logs.access()}
    created = by_id["trace-abc.123"]
    assert created["tenant_id"] == tid and created["method"] == "POST" and created["route"] == "/v1/forests"
    assert created["status"] == 201 and created["duration_ms"] >= 0 and created["level"] == "INFO"
    fetched = by_id[generated]
    assert fetched["route"] == "/v1/forests/{forest}" and fetched["tenant_id"] == tid
    assert "tenant_id" not in by_id["anon-1"] and by_id["anon-1"]["status"] == 401
    admin_lines = [e for e in logs.access() if e["route"] == "/v1/tenants"]
    assert admin_lines and all("tenant_id" not in e for e in admin_lines)


async def test_unhandled_error_is_logged_with_its_request_id(api_client: AppClient, logs: Captured) -> None:
    app, c = api_client

    async def explode() -> None:
        raise RuntimeError("kaboom in handler")

    app.add_api_route("/test-explode", explode)
    r = await c.get("/test-explode", headers={"X-Request-ID": "boom-7"})
    assert r.status_code == 500 and r.headers["content-type"].startswith("application/problem+json")
    assert r.headers["x-request-id"] == "boom-7" and "kaboom" not in r.text
    (error,) = [e for e in logs.lines() if e["level"] == "ERROR"]
    assert error["request_id"] == "boom-7" and "RuntimeError: kaboom in handler" in error["exc_info"]
    (access,) = [e for e in logs.access() if e["request_id"] == "boom-7"]
    assert access["status"] == 500 and access["route"] == "/test-explode"


async def test_turn_text_and_queries_never_reach_the_logs(settings: Settings, db: Database, logs: Captured) -> None:
    # an LLM server that fails and answers broken JSON, so the retry and warning paths log too
    plan = ["500", "invalid_json", "429", "invalid_json", "invalid_json", "invalid_json", "invalid_json"]
    with run_server_in_thread(SimulationConfig(ttft_ms=1.0, tpot_ms=0.01, fail_plan=plan)) as url:
        llm = {"base_url": url, "backoff_base_s": 0.01, "backoff_max_s": 0.02, "max_attempts": 2, "timeout_s": 5.0}
        s = admin_settings(settings, llm=llm)
        app = create_app(s, db=db, start_worker=False)
        async with open_client(app) as c:
            _, h = await tenant_key(c)
            await c.post("/v1/forests", json={"name": "garden"}, headers=h)
            body = {
                "id": "s1",
                "time": "2024-06-01T08:00:00Z",
                "turns": [
                    {"speaker": "ottoline", "role": "user", "text": SECRET_TURN},
                    {"speaker": "bot", "role": "assistant", "text": "I will remember where the key is."},
                ],
            }
            assert (await c.post("/v1/forests/garden/sessions", json=body, headers=h)).status_code == 202
            bad = body | {"time": "not a time"}
            assert (await c.post("/v1/forests/garden/sessions", json=bad, headers=h)).status_code == 422
            await run_worker(db, s, app.state.backends, stop_when_idle=True)
            r = await c.post("/v1/forests/garden/query", json={"query": SECRET_QUERY}, headers=h)
            assert r.status_code == 200, r.text
            got = await c.get("/v1/forests/garden/sessions/s1", headers=h)
            assert SECRET_TURN in got.text  # the text is stored and served...
    assert len(logs.access()) >= 6
    assert any(e["level"] == "WARNING" for e in logs.lines())  # the failure paths did log
    for secret in (SECRET_TURN, "flowerpot", SECRET_QUERY, "greenhouse"):
        assert secret not in logs.text  # ...but never logged


# ---------------------------------------------------------------- jobs


async def test_worker_logs_carry_job_context(
    settings: Settings, db: Database, logs: Captured, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def probe(db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger) -> JobResult:
        logging.getLogger("memforest.test.probe").info("probe job ran")
        return {}, []

    monkeypatch.setitem(HANDLERS, "log-probe", probe)
    tid = await ensure_tenant(db, "acme")
    async with db.tenant(tid) as conn:
        forest = await ensure_forest(conn, tid, "garden")
        job_id = await insert_job(conn, tid, forest.forest_id, "log-probe", {})
    backends = build_backends(settings)
    try:
        await run_worker(db, settings, backends, stop_when_idle=True)
    finally:
        await backends.aclose()
    (line,) = [e for e in logs.lines() if e["message"] == "probe job ran"]
    assert line["job_id"] == str(job_id) and line["tenant_id"] == str(tid)
    assert line["forest_id"] == str(forest.forest_id) and line["job_kind"] == "log-probe"
