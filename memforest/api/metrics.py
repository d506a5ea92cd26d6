"""Prometheus ``/metrics`` and the request middleware: latency, counts, request ids, access log.

Two kinds of metrics, two lifetimes (see ADR 0010):

* process-wide model metrics (calls, tokens, failed attempts, latency by stage and backend) are
  module-level collectors fed by the HTTP model backends through ``MODEL_OBSERVERS``; they are
  created unregistered and every app registers them into its own registry;
* per-app metrics (HTTP requests, and job / dirty-node gauges read from the database at scrape
  time) live in a ``CollectorRegistry`` made by :func:`install_observability`, so tests that
  build many apps in one process never clash on the global default registry.

Labels never carry tenant data: routes are templates (``/v1/forests/{forest}/query``), never
raw paths; methods outside the standard set become ``OTHER``; no tenant ids or forest names.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import re
import time
import uuid
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)

from memforest import tracing
from memforest.api.openapi import PlainTextResponse, problems
from memforest.api.traces import RequestSpanMiddleware
from memforest.app.ops import read_queue_snapshot
from memforest.app.problems import ASGIApp, Message, Receive, Scope, Send, problem_response
from memforest.backends.base import MODEL_OBSERVERS
from memforest.db.engine import Database
from memforest.errors import ConfigurationError
from memforest.logs import log_context
from memforest.settings import Settings

access_log = logging.getLogger("memforest.access")
log = logging.getLogger(__name__)

_REQUEST_ID_RE = re.compile(r"[A-Za-z0-9._:\-]{1,128}")
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED_ROUTE = "unmatched"
HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
MODEL_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)

# ---------------------------------------------------------------- process-wide model metrics

# No ``*_created`` series (process-wide switch): they double the series count and carry nothing we alert on.
disable_created_metrics()  # type: ignore[no-untyped-call]

MODEL_CALLS = Counter(
    "memforest_model_calls",
    "Model calls finished (after retries), by stage, backend and outcome (ok or error).",
    ["stage", "backend", "outcome"],
    registry=None,
)
MODEL_TOKENS = Counter(
    "memforest_model_tokens",
    "Tokens reported by the model server for successful calls, by kind (prompt or completion).",
    ["stage", "backend", "kind"],
    registry=None,
)
MODEL_ERRORS = Counter(
    "memforest_model_errors",
    "Failed model call attempts (retried or final), by reason: http_429, http_5xx, timeout, connection, ...",
    ["stage", "backend", "reason"],
    registry=None,
)
MODEL_LATENCY = Histogram(
    "memforest_model_call_duration_seconds",
    "Model call latency: the sum of its attempts' request times (backoff sleeps excluded).",
    ["stage", "backend"],
    buckets=MODEL_BUCKETS,
    registry=None,
)
_MODEL_COLLECTORS = (MODEL_CALLS, MODEL_TOKENS, MODEL_ERRORS, MODEL_LATENCY)


class PrometheusModelObserver:
    """Feeds the process-wide model metrics from the HTTP backends' accounting."""

    def call_finished(
        self, stage: str, backend: str, *, ok: bool, latency_s: float, prompt_tokens: int, completion_tokens: int
    ) -> None:
        """Count the call, its tokens and its latency."""
        MODEL_CALLS.labels(stage, backend, "ok" if ok else "error").inc()
        MODEL_LATENCY.labels(stage, backend).observe(latency_s)
        if prompt_tokens:
            MODEL_TOKENS.labels(stage, backend, "prompt").inc(prompt_tokens)
        if completion_tokens:
            MODEL_TOKENS.labels(stage, backend, "completion").inc(completion_tokens)

    def attempt_failed(self, stage: str, backend: str, reason: str) -> None:
        """Count one failed attempt."""
        MODEL_ERRORS.labels(stage, backend, reason).inc()


if not any(isinstance(o, PrometheusModelObserver) for o in MODEL_OBSERVERS):
    MODEL_OBSERVERS.append(PrometheusModelObserver())


# ---------------------------------------------------------------- per-app metrics


class AppMetrics:
    """One app's registry: HTTP metrics, database gauges (set at scrape time), process and model metrics."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.requests = Counter(
            "memforest_http_requests", "HTTP requests by method, route template and status.",
            ["method", "route", "status"], registry=r,
        )  # fmt: skip
        self.latency = Histogram(
            "memforest_http_request_duration_seconds", "HTTP request latency by method, route template and status.",
            ["method", "route", "status"], buckets=HTTP_BUCKETS, registry=r,
        )  # fmt: skip
        self.in_flight = Gauge("memforest_http_requests_in_flight", "HTTP requests being served.", registry=r)
        self.jobs = Gauge(
            "memforest_jobs", "Jobs in the queue table by state (read at scrape time).", ["state"], registry=r
        )
        self.queue_depth = Gauge(
            "memforest_queue_depth",
            "Queued jobs waiting for a worker (due now; not refreshes scheduled for later).",
            registry=r,
        )
        self.queue_age = Gauge(
            "memforest_queue_oldest_age_seconds",
            "How long the oldest due queued job has waited (0 when none).",
            registry=r,
        )
        self.dirty_nodes = Gauge("memforest_dirty_nodes", "Tree nodes waiting for a summary refresh.", registry=r)
        self.db_up = Gauge(
            "memforest_metrics_database_up", "1 when the last scrape could read the database.", registry=r
        )
        ProcessCollector(registry=r)
        GCCollector(registry=r)
        for collector in _MODEL_COLLECTORS:
            r.register(collector)

    def observe_request(self, method: str, route: str, status: int, duration_s: float) -> None:
        """Count one finished request."""
        labels = (method, route, str(status))
        self.requests.labels(*labels).inc()
        self.latency.labels(*labels).observe(duration_s)

    async def render(self, db: Database | None) -> bytes:
        """Read the database gauges, then the whole registry in the Prometheus text format."""
        try:
            if db is None:
                raise RuntimeError("no database")
            snap = await read_queue_snapshot(db)
        except Exception as exc:  # a scrape still answers, with db_up 0
            log.warning("metrics: could not read the database: %s", type(exc).__name__)
            self.db_up.set(0)
        else:
            for state, n in snap.jobs_by_state.items():
                self.jobs.labels(state).set(n)
            self.queue_depth.set(snap.due_queued)
            self.queue_age.set(snap.oldest_queued_s)
            self.dirty_nodes.set(snap.dirty_nodes)
            self.db_up.set(1)
        return generate_latest(self.registry)


# ---------------------------------------------------------------- middleware


def normalize_method(method: str) -> str:
    """The method, or ``OTHER`` for anything outside the standard set (bounded label values)."""
    return method if method in _METHODS else "OTHER"


class TemplateMatcher:
    """Path to route template for requests answered before routing (e.g. 413 from the body limit).

    Built lazily from the app's OpenAPI paths (public, already flattened across included routers)
    plus plain Starlette routes; the most specific template (fewest parameters) wins.
    """

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self._patterns: list[tuple[re.Pattern[str], str]] | None = None

    def _build(self) -> list[tuple[re.Pattern[str], str]]:
        templates: set[str] = set()
        try:
            templates.update(self.app.openapi().get("paths", {}))
        except Exception:  # a schema problem must not break request accounting
            log.warning("metrics: could not read the OpenAPI paths for route templates")
        templates.update(p for r in self.app.router.routes if isinstance(p := getattr(r, "path", None), str))
        ordered = sorted(templates, key=lambda t: (t.count("{"), -len(t)))
        return [(re.compile("^" + re.sub(r"\\{[^/]+?\\}", "[^/]+", re.escape(t)) + "$"), t) for t in ordered]

    def match(self, path: str) -> str:
        """The template ``path`` belongs to, or ``unmatched``."""
        if self._patterns is None:
            self._patterns = self._build()
        for pattern, template in self._patterns:
            if pattern.match(path):
                return template
        return UNMATCHED_ROUTE


def route_template(scope: Scope, fallback: TemplateMatcher | None = None) -> str:
    """The matched route's path template; never the raw path."""
    path = getattr(scope.get("route"), "path_format", None) or getattr(scope.get("route"), "path", None)
    if isinstance(path, str):
        return path
    if fallback is not None:
        return fallback.match(str(scope.get("path", "")))
    return UNMATCHED_ROUTE


def request_id_from(scope: Scope) -> str:
    """The caller's ``X-Request-ID`` when it is a sane token, otherwise a fresh one."""
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            candidate = bytes(value).decode("latin-1")
            if _REQUEST_ID_RE.fullmatch(candidate):
                return candidate
            break
    return uuid.uuid4().hex


class RequestTelemetryMiddleware:
    """Per request: a request id (echoed in ``X-Request-ID``), metrics, and one access log line.

    An exception no handler took is logged here, inside the request's log context (so the line
    carries its request id), and answered with a 500 problem that carries ``X-Request-ID`` too.
    """

    def __init__(self, app: ASGIApp, metrics: AppMetrics, templates: TemplateMatcher | None = None) -> None:
        self.app = app
        self.metrics = metrics
        self.templates = templates

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(scope)
        status = 500
        responded = False
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status, responded
            if message["type"] == "http.response.start":
                status, responded = int(message["status"]), True
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"x-request-id"]
                headers.append((b"x-request-id", request_id.encode("latin-1")))
                message["headers"] = headers
            await send(message)

        with log_context(request_id=request_id):
            self.metrics.in_flight.inc()
            try:
                await self.app(scope, receive, send_with_id)
            except Exception:
                log.exception("unhandled error")
                if responded:
                    raise
                await problem_response(500, "internal", "internal server error")(scope, receive, send_with_id)
            finally:
                self.metrics.in_flight.dec()
                duration = time.perf_counter() - started
                method = normalize_method(str(scope.get("method", "")))
                route = route_template(scope, self.templates)
                self.metrics.observe_request(method, route, status, duration)
                fields: dict[str, Any] = {
                    "method": method,
                    "route": route,
                    "status": status,
                    "duration_ms": round(duration * 1000, 2),
                }
                access_log.info("%s %s %s", method, route, status, extra=fields)


# ---------------------------------------------------------------- the endpoint

metrics_router = APIRouter(tags=["operations"])

_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (an address or name a server binds to, or a client address) is loopback only."""
    if not host:
        return False
    host = host.strip().strip("[]")
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _metrics_key(settings: Settings) -> str | None:
    key = settings.api.metrics_key
    return key.get_secret_value() if key is not None and key.get_secret_value() else None


def require_metrics_key(settings: Settings, host: str | None = None) -> None:
    """ConfigurationError when the server would listen beyond loopback (``host``, default
    ``api.host``) with ``/metrics`` open: set MEMFOREST_API__METRICS_KEY (ADR 0019)."""
    bind = settings.api.host if host is None else host
    if _metrics_key(settings) is None and not is_loopback(bind):
        raise ConfigurationError(
            f"MEMFOREST_API__METRICS_KEY is not set but the server listens on {bind!r}, beyond loopback; "
            "set a metrics key (or bind 127.0.0.1)"
        )


@metrics_router.get(
    "/metrics",
    response_model=None,
    response_class=PlainTextResponse,
    include_in_schema=True,
    responses=problems(401, 403),
)
async def get_metrics(request: Request) -> Response:
    """Prometheus text format. With ``MEMFOREST_API__METRICS_KEY`` set, a bearer key; without it, for
    loopback callers only (a server reachable beyond loopback refuses to start without the key)."""
    settings: Settings = request.app.state.settings
    key = _metrics_key(settings)
    if key is None and not is_loopback(request.client.host if request.client else None):
        return problem_response(
            403, "forbidden", "metrics are served beyond loopback only with MEMFOREST_API__METRICS_KEY set"
        )
    if key is not None:
        given = request.headers.get("authorization", "")
        expected = f"Bearer {key}"
        if not hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8")):
            return problem_response(
                401,
                "unauthorized",
                "metrics need 'Authorization: Bearer <metrics key>'",
                headers={"WWW-Authenticate": "Bearer"},
            )
    metrics: AppMetrics = request.app.state.metrics
    body = await metrics.render(getattr(request.app.state, "db", None))
    return Response(body, media_type=CONTENT_TYPE_LATEST)


def install_observability(app: FastAPI) -> AppMetrics:
    """Give ``app`` its metrics registry, the request telemetry middleware (outermost), request spans
    when tracing is on, and ``/metrics``. ConfigurationError when ``api.host`` is beyond loopback and
    no metrics key is set."""
    require_metrics_key(app.state.settings)
    metrics = AppMetrics()
    app.state.metrics = metrics
    templates = TemplateMatcher(app)
    if tracing.configure():  # OTEL_TRACES_EXPORTER, read once per process: request spans, inside the line below
        app.add_middleware(
            RequestSpanMiddleware, route_of=lambda scope: route_template(scope, templates), method_of=normalize_method
        )
    app.add_middleware(RequestTelemetryMiddleware, metrics=metrics, templates=templates)
    app.include_router(metrics_router)
    return metrics
