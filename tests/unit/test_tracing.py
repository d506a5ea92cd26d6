"""memforest.tracing: off by default with nothing of the SDK loaded, the standard variables, the
carried trace context, and model-call spans with token counts and cache hits (no texts)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pydantic import BaseModel

from memforest import tracing
from memforest.backends.openai_http import OpenAIChatModel, OpenAIEmbedder
from memforest.errors import ConfigurationError
from memforest.retrieval.stages import Stages
from memforest.settings import EmbeddingSettings, LLMSettings


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.install(provider)
    try:
        yield exporter
    finally:
        tracing.install(None)


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")} | env
    return subprocess.run([sys.executable, "-c", code], env=clean, capture_output=True, text=True, timeout=120)


OFF = """
import sys
from memforest import tracing
from memforest.servers import create_app
from memforest.retrieval.stages import Stages
assert tracing.configure() is False and not tracing.enabled()
stages = Stages()
with stages.timed("recall"):
    pass
assert tracing.span("x") is tracing.span("y")  # one shared no-op context
assert tracing.carrier() == {}
loaded = sorted(m for m in sys.modules if m.startswith("opentelemetry.sdk"))
assert not loaded, loaded
print("ok")
"""


@pytest.mark.parametrize("exporter", [None, "none", "NONE"])
def test_off_by_default_loads_no_sdk(exporter: str | None) -> None:
    done = _run(OFF, **({"OTEL_TRACES_EXPORTER": exporter} if exporter is not None else {}))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


CONSOLE = """
from memforest import tracing
from memforest.retrieval.stages import Stages
assert tracing.configure() is True
with tracing.span("POST /v1/forests/{forest}/query"):
    stages = Stages()
    with stages.timed("recall"):
        pass
"""


def test_console_exporter_prints_spans_to_stderr() -> None:
    done = _run(CONSOLE, OTEL_TRACES_EXPORTER="console", OTEL_SERVICE_NAME="mf-test")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # stdout stays free for the MCP stdio protocol
    assert '"name": "recall"' in done.stderr and '"name": "POST /v1/forests/{forest}/query"' in done.stderr
    assert '"service.name": "mf-test"' in done.stderr


def test_sampler_variable_is_honoured() -> None:
    done = _run(CONSOLE, OTEL_TRACES_EXPORTER="console", OTEL_TRACES_SAMPLER="always_off")
    assert done.returncode == 0, done.stderr
    assert '"name"' not in done.stderr


def test_unknown_exporter_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="zipkin"):
        tracing.configure({"OTEL_TRACES_EXPORTER": "zipkin"}, again=True)
    assert tracing.configure({}, again=True) is False


def test_stage_spans_nest_and_carry_no_cost_fields(spans: InMemorySpanExporter) -> None:
    stages = Stages()
    with tracing.span("request", tenant_id="t1"), stages.timed("recall"), stages.timed("temporal"):
        pass
    found = {s.name: s for s in spans.get_finished_spans()}
    assert found["recall"].parent.span_id == found["request"].context.span_id  # type: ignore[union-attr]
    assert found["temporal"].parent.span_id == found["recall"].context.span_id  # type: ignore[union-attr]
    assert (found["recall"].attributes or {})["memforest.stage"] == "recall"
    assert (found["request"].attributes or {})["memforest.tenant_id"] == "t1"
    assert set(stages.report()) == {"recall", "temporal", "total"}


def test_carried_context_continues_the_trace(spans: InMemorySpanExporter) -> None:
    with tracing.span("accept"):
        carried = tracing.carrier()
    assert set(carried) == {"traceparent"}
    with tracing.continued("job ingest", carried["traceparent"]):
        pass
    with tracing.continued("job ingest", "not-a-traceparent"):
        pass
    with tracing.continued("job refresh", None):
        pass
    accept, job, *fresh = spans.get_finished_spans()
    assert job.context.trace_id == accept.context.trace_id
    assert job.parent is not None and job.parent.span_id == accept.context.span_id
    assert all(s.parent is None and s.context.trace_id != accept.context.trace_id for s in fresh)


@pytest.mark.parametrize(
    ("sql", "name"),
    [
        ("-- name: recall\nSELECT f.fact_id FROM facts f JOIN trees t ON true WHERE f.text = :q", "SELECT facts"),
        ("INSERT INTO jobs (tenant_id, payload) VALUES (:t, CAST(:p AS jsonb))", "INSERT jobs"),
        ("WITH c AS (SELECT 1 FROM tree_nodes) UPDATE trees SET n = 1", "WITH tree_nodes"),
        ("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))", "SELECT"),
    ],
)
def test_statement_spans_name_operation_and_table(spans: InMemorySpanExporter, sql: str, name: str) -> None:
    with tracing.statement(sql):
        pass
    (span,) = spans.get_finished_spans()
    assert span.name == name
    assert (span.attributes or {})["db.system.name"] == "postgresql"
    assert ":q" not in str(span.attributes) and ":p" not in str(span.attributes)


def test_failed_span_records_the_class_not_the_message(spans: InMemorySpanExporter) -> None:
    with pytest.raises(ValueError), tracing.span("extract"):
        raise ValueError("I moved to Lisbon")
    (span,) = spans.get_finished_spans()
    assert (span.attributes or {})["error.type"] == "ValueError"
    assert not span.events and "Lisbon" not in str(span.status.description)


class Answer(BaseModel):
    city: str


def _openai(request: httpx.Request) -> httpx.Response:
    if request.url.path.endswith("/embeddings"):
        usage: dict[str, Any] = {"prompt_tokens": 7, "total_tokens": 7}
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": [1.0] + [0.0] * 7}], "usage": usage})
    usage = {"prompt_tokens": 120, "completion_tokens": 9, "prompt_tokens_details": {"cached_tokens": 96}}
    message = {"role": "assistant", "content": '{"city": "Lisbon"}'}
    return httpx.Response(200, json={"choices": [{"message": message, "finish_reason": "stop"}], "usage": usage})


async def test_model_call_spans_carry_tokens_and_cache_hits(spans: InMemorySpanExporter) -> None:
    transport = httpx.MockTransport(_openai)
    chat = OpenAIChatModel(LLMSettings(base_url="http://model/v1", model="m-chat"), transport=transport)
    embedder = OpenAIEmbedder(
        EmbeddingSettings(backend="http", base_url="http://model/v1", model="m-embed", dim=8), transport=transport
    )
    try:
        answer = await chat.complete_json(system="sys", user="Where do I live? Lisbon", schema=Answer, stage="extract")
        await embedder.embed(["I moved to Lisbon"], stage="query_embed")
    finally:
        await chat.aclose()
        await embedder.aclose()
    assert answer.city == "Lisbon"
    found = {s.name: dict(s.attributes or {}) for s in spans.get_finished_spans()}
    assert found["chat m-chat"] == {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "m-chat",
        "memforest.model_stage": "extract",
        "gen_ai.usage.input_tokens": 120,
        "gen_ai.usage.output_tokens": 9,
        "gen_ai.usage.cache_read.input_tokens": 96,
        "memforest.cache_hit": True,
        "memforest.retries": 0,
    }
    embed = found["embeddings m-embed"]
    assert embed["gen_ai.usage.input_tokens"] == 7 and embed["memforest.cache_hit"] is False
    assert not any("Lisbon" in str(v) for attrs in found.values() for v in attrs.values())
