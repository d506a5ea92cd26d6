"""The MCP server at ``/mcp`` on the API app (streamable HTTP, stateless, JSON responses).

The API app mounts it (``McpHttp.mount``); it imports nothing of the API. Every request is
authenticated with the same bearer keys (``memforest.app.auth``) before the MCP transport sees it;
the principal travels in the ASGI scope, which the MCP SDK hands to tools as the request of the
call (``ctx.request_context.request``). A context variable would not work: the SDK runs each
request's server in a task of its own task group, outside the request's context (ADR 0011).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.requests import Request
from starlette.routing import Route

from memforest.app.auth import Principal, authenticate, key_check_of
from memforest.app.problems import Message, Receive, Scope, Send, error_response, problem_response
from memforest.errors import AuthenticationError, MemForestError, PermissionDeniedError
from memforest.mcp.server import Caller, build_server
from memforest.mcp.tools import Services
from memforest.mcp.traces import trace_tool_calls
from memforest.settings import Settings

log = logging.getLogger(__name__)

MCP_PATH = "/mcp"
PRINCIPAL_SCOPE_KEY = "memforest.principal"
#: How deeply a JSON-RPC message may nest objects and arrays; deeper messages are a 400 before the
#: transport parses them (its validation recurses, and too deep a message was a 500).
MAX_JSON_DEPTH = 64


def _too_deep(body: bytes) -> bool:
    """Whether ``body``, when it is JSON, nests more than ``MAX_JSON_DEPTH`` deep (walked without
    recursion; a body that is not JSON is left to the transport, which answers it)."""
    try:
        doc = json.loads(body)
    except RecursionError:
        return True
    except ValueError:
        return False
    stack: list[tuple[Any, int]] = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return True
        children = value.values() if isinstance(value, dict) else value
        stack.extend((v, depth + 1) for v in children if isinstance(v, dict | list))
    return False


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body (the app's body limit applies as it is read); None when the client left."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the transport ``body`` again, then whatever the client sends next."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed


class HttpBinding:
    """The caller of a tool call made over ``/mcp``: this request's principal, the app's services."""

    def caller(self, request: Any | None) -> Caller:
        """Resolve from the Starlette request the SDK attached to the call."""
        if not isinstance(request, Request):
            raise PermissionDeniedError("no authenticated HTTP request for this call")
        principal = request.scope.get(PRINCIPAL_SCOPE_KEY)
        if not isinstance(principal, Principal):
            raise AuthenticationError("missing Authorization: Bearer <key> header")
        state = request.app.state
        return Caller(Services(state.db, state.settings, state.backends), principal)


class McpEndpoint:
    """ASGI endpoint: authenticate the bearer key (401/403 problem+json), refuse a message nested
    deeper than ``MAX_JSON_DEPTH`` (400 problem+json), then hand to the MCP transport."""

    def __init__(self, manager: StreamableHTTPSessionManager) -> None:
        self.manager = manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        state = request.app.state
        try:
            authorization = request.headers.get("authorization")
            # the limit middleware's lookup of this request's key, when it made one: one lookup per request
            principal = await authenticate(state.db, state.admin_key, authorization, checked=key_check_of(scope))
            if principal.tenant_id is None:
                raise PermissionDeniedError("the MCP endpoint needs a tenant API key, not the admin key")
        except MemForestError as exc:
            await error_response(exc)(scope, receive, send)
            return
        scope[PRINCIPAL_SCOPE_KEY] = principal
        if request.method == "POST":
            body = await _read_body(receive)
            if body is None:
                return
            if _too_deep(body):
                detail = f"the JSON body nests more than {MAX_JSON_DEPTH} levels deep"
                await problem_response(400, "bad-request", detail)(scope, receive, send)
                return
            receive = _replay(body, receive)
        await self.manager.handle_request(scope, receive, send)


class McpHttp:
    """The ``/mcp`` route and the lifetime of its session manager (run from the app's lifespan)."""

    def __init__(self, settings: Settings) -> None:
        self.server = trace_tool_calls(
            build_server(HttpBinding(), http=True, max_body_bytes=settings.api.max_body_bytes),
            principal_key=PRINCIPAL_SCOPE_KEY,
        )
        self.server.streamable_http_app()  # creates the session manager with the server's settings
        self.manager = self.server.session_manager

    def mount(self, app: FastAPI) -> None:
        """Add the ``/mcp`` route (all methods; the transport answers 405 where it should)."""
        app.router.routes.append(Route(MCP_PATH, endpoint=McpEndpoint(self.manager), name="mcp"))

    @contextlib.asynccontextmanager
    async def run(self) -> AsyncIterator[None]:
        """Run the session manager in a task of its own, so its task group is entered and left in one task."""
        started = asyncio.Event()
        stop = asyncio.Event()

        async def _hold() -> None:
            async with self.manager.run():
                started.set()
                await stop.wait()

        task = asyncio.create_task(_hold(), name="mcp-session-manager")
        waiter = asyncio.create_task(started.wait())
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if not started.is_set():
            waiter.cancel()
            await task  # raises what stopped the manager
        try:
            yield
        finally:
            stop.set()
            try:
                await asyncio.wait_for(task, timeout=10)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
            except Exception:
                log.exception("MCP session manager failed while stopping")
