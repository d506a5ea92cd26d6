"""One server span per HTTP request while tracing is on (:mod:`memforest.tracing`).

The span is named by method and route template (``POST /v1/forests/{forest}/sessions``), never
the raw path, and carries the status, the request id and the caller's tenant, read from the log
context at the end of the request (the auth dependency binds the tenant there).
``api.metrics.install_observability`` puts it just inside the telemetry middleware, whose log
scope it reads. A caller's ``traceparent`` header is
continued; the span's own goes into the ASGI scope (``tracing.SCOPE_KEY``), where the MCP
endpoint's tool spans, run in the transport's task, find their parent. Without tracing the
middleware is not installed.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memforest import tracing
from memforest.logs import current_context


class RequestSpanMiddleware:
    """A ``SERVER`` span around each HTTP request."""

    def __init__(self, app: ASGIApp, route_of: Callable[[Scope], str], method_of: Callable[[str], str]) -> None:
        self.app = app
        self.route_of = route_of  # the route template, as the metrics name it
        self.method_of = method_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = self.method_of(str(scope.get("method", "")))
        headers = {}
        for name, value in scope.get("headers", ()):
            if name == b"traceparent":
                headers[tracing.TRACEPARENT] = bytes(value).decode("latin-1")
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        with tracing.server_span(method, headers, **{"http.request.method": method}) as span:
            scope.update({tracing.SCOPE_KEY: tracing.carrier().get(tracing.TRACEPARENT)})  # for /mcp's tool spans
            try:
                await self.app(scope, receive, send_status)
            finally:
                route = self.route_of(scope)
                context = current_context()
                span.update_name(f"{method} {route}")
                span.set_attributes(
                    {"http.route": route, "http.response.status_code": status}
                    | {f"memforest.{k}": context[k] for k in ("tenant_id", "request_id") if k in context}
                )
