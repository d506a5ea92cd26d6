"""A span per MCP tool call while tracing is on (:mod:`memforest.tracing`).

The span (``mcp tool <name>``) carries the tool's name and the caller's tenant, never the
arguments. Over ``/mcp`` the transport runs the call in its own task, so the span's parent is
found in the HTTP request's scope (the request span's ``traceparent``, ``tracing.SCOPE_KEY``);
over stdio each call starts a trace.
"""

from __future__ import annotations

import uuid
from typing import Any

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolRequest, ServerResult

from memforest import tracing
from memforest.app.auth import Principal


def _request_scope(server: FastMCP[Any]) -> dict[str, Any]:
    try:
        request = server._mcp_server.request_context.request
    except LookupError:
        return {}
    scope = getattr(request, "scope", None)
    return scope if isinstance(scope, dict) else {}


def trace_tool_calls(
    server: FastMCP[Any], *, tenant_id: uuid.UUID | None = None, principal_key: str | None = None
) -> FastMCP[Any]:
    """Wrap ``server``'s tool calls in spans, with the tenant ``tenant_id`` (the stdio server's) or
    that of the principal the ``/mcp`` endpoint left in the request's scope under
    ``principal_key``. Returns ``server``, untouched while tracing is off."""
    if not tracing.enabled():
        return server
    handlers = server._mcp_server.request_handlers
    inner = handlers[CallToolRequest]

    async def traced(request: CallToolRequest) -> ServerResult:
        scope = _request_scope(server)
        principal = scope.get(principal_key) if principal_key is not None else None
        tenant = principal.tenant_id if isinstance(principal, Principal) else tenant_id
        name = request.params.name
        attributes: dict[str, Any] = {"mcp.tool.name": name, "tenant_id": tenant}
        with tracing.continued(f"mcp tool {name}", scope.get(tracing.SCOPE_KEY), consumer=False, **attributes):
            return await inner(request)

    handlers[CallToolRequest] = traced
    return server
