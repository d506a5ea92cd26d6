"""OpenTelemetry traces over the real app and database (issue 51 items 3 and 4): a query's request
span with the read stages beneath it, an ingest whose job continues the POST's trace, an MCP
tool call's span, and no span attribute carrying turn text, the query or a key."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from support import ADMIN_KEY, admin_settings, app_client, session_body, tenant_key

from memforest import tracing
from memforest.app.jobs import run_worker
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.settings import Settings

TURNS = ("I moved to Lisbon last spring with my cat Biscuit.", "Nice, how do you like Lisbon so far?")
QUESTION = "Where did alice move with her cat?"
READ_STAGES = {"recall", "temporal", "assemble"}
WRITE_STAGES = {"extract", "canonicalise", "route", "insert", "refresh"}


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    """Spans recorded in memory while the test runs."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.install(provider)
    try:
        yield exporter
    finally:
        tracing.install(None)


def one(found: Sequence[ReadableSpan], name: str) -> ReadableSpan:
    named = [s for s in found if s.name == name]
    assert len(named) == 1, (name, [s.name for s in found])
    return named[0]


def children(found: Sequence[ReadableSpan], parent: ReadableSpan) -> list[ReadableSpan]:
    pid = parent.context.span_id
    return [s for s in found if s.parent is not None and s.parent.span_id == pid]


def assert_no_secrets(found: Sequence[ReadableSpan], secrets: Sequence[str]) -> None:
    words = {w for s in secrets for w in s.split() if len(w) > 4} | set(secrets)
    for span in found:
        values: list[Any] = [span.name, *(span.attributes or {}).values()]
        values += [v for event in span.events for v in (event.attributes or {}).values()] + [
            e.name for e in span.events
        ]
        for value in values:
            text = str(value)
            leaked = [w for w in words if w in text]
            assert not leaked, (span.name, leaked)


async def test_query_and_ingest_traces(settings: Settings, db: Database, spans: InMemorySpanExporter) -> None:
    s = admin_settings(settings)
    async with app_client(s, db) as (_, client):
        tid, h = await tenant_key(client)
        key = h["Authorization"].removeprefix("Bearer ")
        await client.post("/v1/forests", json={"name": "f"}, headers=h)
        body = session_body("s1", "2024-05-01T10:00:00Z", TURNS, ("alice", "bot"))
        spans.clear()
        r = await client.post("/v1/forests/f/sessions", json=body, headers=h)
        assert r.status_code in (200, 201, 202), r.text
        await run_worker(db, s, build_backends(s), stop_when_idle=True, early=True)
        ingest = list(spans.get_finished_spans())

        spans.clear()
        r = await client.post("/v1/forests/f/query", json={"query": QUESTION, "top_k": 5}, headers=h)
        assert r.status_code == 200, r.text
        read = list(spans.get_finished_spans())

    # the query: one server span, the read stages directly beneath it, all in its trace
    request = one(read, "POST /v1/forests/{forest}/query")
    attrs = request.attributes or {}
    assert attrs["memforest.tenant_id"] == tid and attrs["http.response.status_code"] == 200
    assert attrs["http.route"] == "/v1/forests/{forest}/query"
    stages = {c.name for c in children(read, request)}
    assert stages >= READ_STAGES, stages
    assert {sp.context.trace_id for sp in read} == {request.context.trace_id}
    statements = [sp for sp in read if (sp.attributes or {}).get("db.system.name") == "postgresql"]
    stage_ids = {sp.context.span_id for sp in read if sp.name in READ_STAGES | {"forest"}}
    assert any(sp.parent is not None and sp.parent.span_id in stage_ids for sp in statements)
    assert all(sp.name.split()[0] in {"SELECT", "WITH", "SET"} for sp in statements), [sp.name for sp in statements]

    # the ingest: the POST's accept span queues the job; the job's span continues that trace
    post = one(ingest, "POST /v1/forests/{forest}/sessions")
    accept = one(ingest, "accept")
    assert accept.parent is not None and accept.parent.span_id == post.context.span_id
    job = one(ingest, "job ingest")
    assert job.context.trace_id == post.context.trace_id
    assert job.parent is not None and job.parent.span_id == accept.context.span_id
    assert (job.attributes or {})["memforest.tenant_id"] == tid
    assert WRITE_STAGES | {"embed"} <= {c.name for c in children(ingest, job)}
    route = one(ingest, "route")
    assert one(ingest, "insert").parent.span_id == job.context.span_id  # type: ignore[union-attr]
    assert route.parent is not None and route.parent.span_id == job.context.span_id

    assert_no_secrets(read + ingest, [*TURNS, QUESTION, key, ADMIN_KEY])


async def test_mcp_tool_call_span(settings: Settings, db: Database, spans: InMemorySpanExporter) -> None:
    s = admin_settings(settings)
    async with app_client(s, db) as (_, client):
        tid, h = await tenant_key(client)
        await client.post("/v1/forests", json={"name": "f"}, headers=h)
        spans.clear()
        call = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "search_memory", "arguments": {"forest": "f", "query": QUESTION}},
        }
        headers = h | {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        r = await client.post("/mcp", json=call, headers=headers)
        assert r.status_code == 200, r.text
        found = list(spans.get_finished_spans())
    request = one(found, "POST /mcp")
    tool = one(found, "mcp tool search_memory")
    assert tool.parent is not None and tool.parent.span_id == request.context.span_id
    assert (tool.attributes or {})["memforest.tenant_id"] == tid
    assert {c.name for c in children(found, tool)} >= READ_STAGES
    assert_no_secrets(found, [QUESTION, h["Authorization"].removeprefix("Bearer ")])
