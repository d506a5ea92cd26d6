"""OpenTelemetry traces, off unless ``OTEL_TRACES_EXPORTER`` names an exporter.

The standard variables configure them: ``OTEL_TRACES_EXPORTER`` (``otlp``, ``console`` or
``none``, the default), ``OTEL_EXPORTER_OTLP_ENDPOINT`` / ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``
(OTLP over HTTP/protobuf, or gRPC with ``OTEL_EXPORTER_OTLP_PROTOCOL=grpc`` where that exporter is
installed), ``OTEL_SERVICE_NAME`` (default ``memforest``) and ``OTEL_TRACES_SAMPLER`` /
``OTEL_TRACES_SAMPLER_ARG``. :func:`configure` reads them once when a process starts; while
tracing is off nothing of the SDK is imported and :func:`span` hands back one shared no-op
context, so a span costs a global read.

What spans carry: names of stages and routes, ids (tenant, job, request), counts and the model's
name. Never conversation text, queries or keys: callers pass only such values, and a failed span
records the exception's class, not its message (messages can quote input).

The W3C ``traceparent`` of the span current when a job is queued travels in the job's payload
(:func:`carrier`); the worker continues that trace (:func:`continued`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
import uuid
from collections.abc import Iterator, Mapping
from typing import Any

from memforest.errors import ConfigurationError

__all__ = [
    "SCOPE_KEY",
    "TRACEPARENT",
    "annotate",
    "carrier",
    "configure",
    "continued",
    "enabled",
    "install",
    "model_span",
    "model_usage",
    "server_span",
    "span",
    "statement",
]

TRACEPARENT = "traceparent"
SCOPE_KEY = "memforest.traceparent"  # the HTTP request span's traceparent in the ASGI scope
DEFAULT_SERVICE_NAME = "memforest"
EXPORTERS = ("otlp", "console", "none")
_PREFIX = "memforest."

_tracer: Any = None  # an opentelemetry Tracer while tracing is on
_configured = False
_NOOP: contextlib.nullcontext[None] = contextlib.nullcontext()

AttrValue = str | int | float | bool | uuid.UUID


def enabled() -> bool:
    """Whether spans are recorded in this process."""
    return _tracer is not None


def _exporter_names(env: Mapping[str, str]) -> list[str]:
    raw = env.get("OTEL_TRACES_EXPORTER", "") or "none"
    names = [n.strip().lower() for n in raw.split(",") if n.strip()]
    unknown = [n for n in names if n not in EXPORTERS]
    if unknown:
        raise ConfigurationError(f"OTEL_TRACES_EXPORTER: unknown exporter {unknown[0]!r} (otlp, console or none)")
    return [n for n in names if n != "none"]


def configure(env: Mapping[str, str] | None = None, *, again: bool = False) -> bool:
    """Turn tracing on when ``OTEL_TRACES_EXPORTER`` names ``otlp`` or ``console`` (several may be
    given, comma-separated); returns whether it is on. The process's entry points call it; only
    the first call reads the variables (``again`` reads them anew). With no exporter named it
    leaves what :func:`install` set alone. ConfigurationError for an unknown exporter name or
    when the ``otel`` extra is not installed."""
    global _configured
    if _configured and not again:
        return enabled()
    env = os.environ if env is None else env
    names = _exporter_names(env)
    _configured = True
    if not names:
        return enabled()
    try:
        from opentelemetry.sdk.resources import SERVICE_NAME, Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor
    except ImportError:
        raise ConfigurationError(
            "OTEL_TRACES_EXPORTER is set but the OpenTelemetry SDK is missing: pip install 'memforest[otel]'"
        ) from None

    resource = Resource.create({SERVICE_NAME: env.get("OTEL_SERVICE_NAME") or DEFAULT_SERVICE_NAME})
    provider = TracerProvider(resource=resource)  # the sampler comes from OTEL_TRACES_SAMPLER(_ARG)
    for name in names:
        if name == "console":  # stderr: stdout carries the MCP stdio protocol
            provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=sys.stderr)))
        else:
            provider.add_span_processor(BatchSpanProcessor(_otlp_exporter(env)))
    install(provider)  # not the global provider: FastAPI's own request telemetry stays off
    return True


def _otlp_exporter(env: Mapping[str, str]) -> Any:
    protocol = (env.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or env.get("OTEL_EXPORTER_OTLP_PROTOCOL") or "").lower()
    try:
        if protocol == "grpc":
            from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter

            return GrpcExporter()  # endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        return OTLPSpanExporter()
    except ImportError:
        package = "opentelemetry-exporter-otlp-proto-grpc" if protocol == "grpc" else "memforest[otel]"
        raise ConfigurationError(
            f"OTEL_TRACES_EXPORTER=otlp needs the OTLP exporter: pip install '{package}'"
        ) from None


def install(provider: Any | None) -> None:
    """Record spans through ``provider`` (an SDK ``TracerProvider``; tests give one with an
    in-memory exporter), or stop recording with None."""
    global _tracer
    _tracer = None if provider is None else provider.get_tracer("memforest")


def _attributes(fields: Mapping[str, AttrValue | None]) -> dict[str, str | int | float | bool]:
    return {
        k if "." in k else _PREFIX + k: str(v) if isinstance(v, uuid.UUID) else v
        for k, v in fields.items()
        if v is not None
    }


@contextlib.contextmanager
def _span(name: str, kind: Any, context: Any, attributes: dict[str, str | int | float | bool]) -> Iterator[Any]:
    from opentelemetry.trace import Status, StatusCode

    with _tracer.start_as_current_span(
        name, context=context, kind=kind, attributes=attributes, record_exception=False, set_status_on_exception=False
    ) as current:
        try:
            yield current
        except BaseException as exc:
            current.set_attribute("error.type", type(exc).__name__)
            current.set_status(Status(StatusCode.ERROR))
            raise


def span(name: str, **attributes: AttrValue | None) -> contextlib.AbstractContextManager[Any]:
    """A child span of the current one named ``name``; attribute names without a dot get the
    ``memforest.`` prefix and None values are left out. A no-op while tracing is off."""
    if _tracer is None:
        return _NOOP
    from opentelemetry.trace import SpanKind

    return _span(name, SpanKind.INTERNAL, None, _attributes(attributes))


_COMMENT_RE = re.compile(r"--[^\n]*")
_TABLE_RE = re.compile(r"\b(?:FROM|INTO|UPDATE|JOIN)\s+([A-Za-z_][A-Za-z0-9_.]*)", re.IGNORECASE)


@functools.lru_cache(maxsize=2048)
def _summary(sql: str) -> tuple[str, str | None]:
    """A statement's operation (its first keyword) and first table: identifiers only, no values."""
    code = _COMMENT_RE.sub(" ", sql)
    words = code.split(None, 1)
    operation = words[0].upper() if words and words[0].isalpha() else "SQL"
    table = _TABLE_RE.search(code)
    return operation, table.group(1) if table else None


def statement(sql: str) -> contextlib.AbstractContextManager[Any]:
    """A span for one database statement, named by its operation and first table
    (``SELECT facts``); never the parameters."""
    if _tracer is None:
        return _NOOP
    operation, table = _summary(sql)
    attributes = {"db.system.name": "postgresql", "db.operation.name": operation, "db.collection.name": table}
    return span(f"{operation} {table}" if table else operation, **attributes)


def annotate(**attributes: AttrValue | None) -> None:
    """Set attributes on the current span (named as :func:`span` names them)."""
    if _tracer is None:
        return
    from opentelemetry import trace

    current = trace.get_current_span()
    if current.is_recording():
        current.set_attributes(_attributes(attributes))


def model_span(operation: str, model: str, stage: str) -> contextlib.AbstractContextManager[Any]:
    """A span for one model call (``chat <model>``, ``embeddings <model>``), retries included."""
    if _tracer is None:
        return _NOOP
    attributes = {"gen_ai.operation.name": operation, "gen_ai.request.model": model, "model_stage": stage}
    return span(f"{operation} {model}", **attributes)


def model_usage(input_tokens: int, output_tokens: int, cached_tokens: int, retries: int) -> None:
    """The current model call's token counts, and whether the server's prompt cache served part of
    the prompt (``cache_hit``: it reported cached prompt tokens)."""
    if _tracer is None:
        return
    annotate(**{
        "gen_ai.usage.input_tokens": input_tokens, "gen_ai.usage.output_tokens": output_tokens,
        "gen_ai.usage.cache_read.input_tokens": cached_tokens, "cache_hit": cached_tokens > 0, "retries": retries,
    })  # fmt: skip


def carrier() -> dict[str, str]:
    """The current span's W3C trace context as ``{"traceparent": ...}`` (empty while off or
    outside any span), to store with work that another task continues."""
    if _tracer is None:
        return {}
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    out: dict[str, str] = {}
    TraceContextTextMapPropagator().inject(out)
    return {TRACEPARENT: out[TRACEPARENT]} if TRACEPARENT in out else {}


def _extract(headers: Mapping[str, str]) -> Any:
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    return TraceContextTextMapPropagator().extract(headers)


def continued(
    name: str, traceparent: object, *, consumer: bool = True, **attributes: AttrValue | None
) -> contextlib.AbstractContextManager[Any]:
    """A span continuing the trace of a stored ``traceparent`` (a new trace when it is missing or
    malformed): a job's span under the request that queued it (a ``CONSUMER`` span), or with
    ``consumer=False`` an ``INTERNAL`` span handed its parent across tasks (an MCP tool call)."""
    if _tracer is None:
        return _NOOP
    from opentelemetry.trace import SpanKind

    parent = _extract({TRACEPARENT: traceparent}) if isinstance(traceparent, str) else None
    return _span(name, SpanKind.CONSUMER if consumer else SpanKind.INTERNAL, parent, _attributes(attributes))


def server_span(
    name: str, headers: Mapping[str, str], **attributes: AttrValue | None
) -> contextlib.AbstractContextManager[Any]:
    """A server span for one incoming request, continuing the caller's ``traceparent`` header when
    it sends one."""
    if _tracer is None:
        return _NOOP
    from opentelemetry.trace import SpanKind

    return _span(name, SpanKind.SERVER, _extract(headers), _attributes(attributes))
