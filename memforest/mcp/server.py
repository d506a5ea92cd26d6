"""``build_server``: a FastMCP server with MemForest's memory tools.

Who calls and against what comes from a :class:`Binding`: over HTTP the principal is the one the
``/mcp`` endpoint authenticated for this very request (see ``memforest.mcp.http``); over stdio it
is the local tenant. Tools never take a tenant argument. Failures become MCP tool errors whose
text is one line (``<problem slug>: <message>``), never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, TransportSecuritySettings
from mcp.types import CallToolResult, ContentBlock, TextContent, ToolAnnotations

from memforest.app.auth import Principal
from memforest.errors import InputError, MemForestError, PermissionDeniedError
from memforest.mcp import tools
from memforest.mcp.tools import Services

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "MemForest is a long-term memory. Store conversation snippets with add_memory; recall them with "
    "search_memory (structured evidence) or get_context (a ready-to-paste, time-stamped block); look "
    "around with browse_tree; remove a session with forget_session. Ingestion runs in the background: "
    "add_memory returns a job_id to poll with get_job. Correct a remembered fact with update_memory or "
    "remove it with delete_memory (fact_id from search_memory)."
)

#: The FastMCP context as tools receive it (a concrete class, so FastMCP finds the parameter).
Ctx = Context[Any, Any, Any]


@dataclass(frozen=True, slots=True)
class Caller:
    """An authenticated tenant caller with the services to act on."""

    services: Services
    principal: Principal
    default_forest: str | None = None

    @property
    def tenant_id(self) -> uuid.UUID:
        """The caller's tenant; the admin key (no tenant) cannot use the tools."""
        if self.principal.tenant_id is None:
            raise PermissionDeniedError("MCP tools need a tenant API key")
        return self.principal.tenant_id

    def forest(self, name: str | None) -> str:
        """The forest argument, or the binding's default forest."""
        chosen = name if name is not None else self.default_forest
        if chosen is None or not chosen.strip():
            raise InputError("forest is required", location="forest")
        return chosen


class Binding(Protocol):
    """Resolves the caller of one tool call from the request that carried it (None over stdio)."""

    def caller(self, request: Any | None) -> Caller: ...


@dataclass(frozen=True, slots=True)
class LocalBinding:
    """A fixed caller: the local tenant of a stdio server."""

    services: Services
    principal: Principal
    default_forest: str | None = None

    def caller(self, request: Any | None) -> Caller:
        """The fixed caller, whatever the transport."""
        return Caller(self.services, self.principal, self.default_forest)


def _one_line(text: str, limit: int = 500) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=_one_line(message))], isError=True)


def _ok(payload: dict[str, Any], text: str | None = None) -> CallToolResult:
    body = text if text is not None else json.dumps(payload, ensure_ascii=False, default=str)
    return CallToolResult(content=[TextContent(type="text", text=body)], structuredContent=payload)


@contextlib.contextmanager
def _keep_root_logging() -> Iterator[None]:
    """FastMCP's constructor calls ``logging.basicConfig``; the host application owns logging, so undo it."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        for handler in [h for h in root.handlers if h not in handlers]:
            root.removeHandler(handler)
        root.setLevel(level)


class _StrictFastMCP(FastMCP[Any]):
    """FastMCP whose tools refuse an argument they do not declare: a one-line tool error naming it
    (FastMCP's argument models would drop it silently). The tools' input schemas say
    ``additionalProperties: false`` (:func:`_forbid_unknown_arguments`)."""

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Sequence[ContentBlock] | dict[str, Any]:
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            declared = tool.parameters.get("properties", {})
            unknown = sorted(set(arguments or {}) - set(declared))
            if unknown:
                takes = ", ".join(declared)
                raise ToolError(
                    f"invalid-input: {unknown[0]}: {name} has no argument {unknown[0]!r} (it takes {takes})"
                )
        return await super().call_tool(name, arguments)


def _forbid_unknown_arguments(server: FastMCP[Any]) -> None:
    """Declare in every tool's input schema that it takes no other arguments."""
    for tool in server._tool_manager.list_tools():
        tool.parameters["additionalProperties"] = False


def _new_fastmcp(http: bool, max_body_bytes: int) -> FastMCP[Any]:
    return _StrictFastMCP(
        name="memforest",
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        stateless_http=http,
        json_response=http,
        # Every /mcp request needs a tenant bearer key, which a DNS-rebinding page cannot supply;
        # the Host check would only break deployments behind other host names (ADR 0011).
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        max_request_body_size=max_body_bytes,
    )


def build_server(
    binding: Binding, *, http: bool = False, max_body_bytes: int = DEFAULT_MAX_REQUEST_BODY_SIZE
) -> FastMCP[Any]:
    """The MCP server. ``http`` configures it for the stateless, JSON-response ``/mcp`` endpoint."""
    with _keep_root_logging():
        server = _new_fastmcp(http, max_body_bytes)

    async def call(
        ctx: Ctx, scope: str, op: Callable[[Caller], Awaitable[dict[str, Any]]], text_key: str | None = None
    ) -> CallToolResult:
        try:
            caller = binding.caller(ctx.request_context.request)
            if not caller.principal.allows(scope):
                raise PermissionDeniedError(f"this API key lacks the {scope!r} scope")
            payload = await op(caller)
        except MemForestError as exc:
            return _error(f"{exc.type_slug}: {exc}")
        except Exception as exc:
            log.exception("MCP tool failed")
            return _error(f"internal: {type(exc).__name__}")
        return _ok(payload, payload[text_key] if text_key is not None else None)

    read_only = ToolAnnotations(readOnlyHint=True, openWorldHint=False)

    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False))
    async def add_memory(
        ctx: Ctx,
        forest: str | None = None,
        turns: list[dict[str, Any]] | None = None,
        text: str | None = None,
        session_id: str | None = None,
        time: str | None = None,
        messages: list[dict[str, Any]] | None = None,
    ) -> CallToolResult:
        """Store one conversation session in a forest (created if missing); needs the write scope.

        Give one of `turns` (objects with speaker, text, and optional role, id, time), `messages`
        (an OpenAI chat transcript as sent to the model: user and assistant text is kept, spoken by
        `name` else the role; tool results are kept spoken by the tool; system/developer prompts and
        assistant messages with only tool_calls are skipped; image parts are dropped) or `text`
        (stored as one user turn). `session_id` defaults to a fresh id; `time` (ISO 8601 or a
        readable date, naive = UTC) defaults to now. Returns {job_id, session_id, created}, with
        {kept, skipped: {reason: count}} for `messages`; the memory is processed in the background
        (poll get_job).
        """
        return await call(
            ctx,
            "write",
            lambda c: tools.add_memory(
                c.services,
                c.tenant_id,
                c.forest(forest),
                turns=turns,
                text=text,
                session_id=session_id,
                time=time,
                messages=messages,
            ),
        )

    @server.tool(annotations=read_only)
    async def search_memory(
        ctx: Ctx,
        query: str,
        forest: str | None = None,
        top_k: int | None = None,
        as_of: str | None = None,
        mode: str = "emb",
        metadata: dict[str, Any] | None = None,
        session_ids: list[str] | None = None,
        speakers: list[str] | None = None,
    ) -> CallToolResult:
        """Recall evidence for a question: items with text, time, validity, score, provenance and
        fact_id (for update_memory / delete_memory), best first.

        `as_of` limits to what was valid and known at that time; `mode` is "emb" (default) or "llm".
        Filters (ANDed): `metadata` (session metadata keys equal to these values), `session_ids`,
        `speakers`; a fact matches when one of its sources does.
        """
        return await call(
            ctx,
            "read",
            lambda c: tools.search_memory(
                c.services,
                c.tenant_id,
                c.forest(forest),
                query,
                top_k=top_k,
                as_of=as_of,
                mode=mode,
                metadata=metadata,
                session_ids=session_ids,
                speakers=speakers,
            ),
        )

    @server.tool(annotations=read_only)
    async def get_context(
        ctx: Ctx,
        query: str,
        forest: str | None = None,
        token_budget: int | None = None,
        top_k: int | None = None,
    ) -> CallToolResult:
        """One ready-to-paste text block of memories for a question: one line per item,
        `[time] text <session turn-ids>`, oldest first, within `token_budget` (default 1000)."""
        return await call(
            ctx,
            "read",
            lambda c: tools.get_context(
                c.services, c.tenant_id, c.forest(forest), query, token_budget=token_budget, top_k=top_k
            ),
            text_key="context",
        )

    @server.tool(annotations=read_only)
    async def browse_tree(
        ctx: Ctx,
        forest: str | None = None,
        kind: str | None = None,
        node_id: str | int | None = None,
        cursor: str | None = None,
    ) -> CallToolResult:
        """Without node_id: the forest's memory trees (id, kind, label, root_node_id), optionally of
        one kind (session, entity, scene). With node_id: that node's summary (or leaf text), time
        interval and children in time order. Pass a returned next_cursor to get the next page."""
        node = str(node_id) if node_id is not None else None
        return await call(
            ctx,
            "read",
            lambda c: tools.browse_tree(
                c.services, c.tenant_id, c.forest(forest), kind=kind, node_id=node, cursor=cursor
            ),
        )

    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False))
    async def forget_session(ctx: Ctx, session_id: str, forest: str | None = None) -> CallToolResult:
        """Forget one session: its turns, cells and the memories derived only from it; needs the write scope."""
        return await call(
            ctx, "write", lambda c: tools.forget_session(c.services, c.tenant_id, c.forest(forest), session_id)
        )

    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False))
    async def update_memory(
        ctx: Ctx, fact_id: str | int, text: str, forest: str | None = None, valid_from: str | None = None
    ) -> CallToolResult:
        """Correct one remembered fact (its fact_id from search_memory): a new fact with `text` supersedes
        it from `valid_from` (default now); the old one is kept as history. Needs the write scope."""
        return await call(
            ctx, "write",
            lambda c: tools.update_memory(c.services, c.tenant_id, c.forest(forest), str(fact_id), text, valid_from),
        )  # fmt: skip

    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False))
    async def delete_memory(ctx: Ctx, fact_id: str | int, forest: str | None = None) -> CallToolResult:
        """Delete one remembered fact (its fact_id from search_memory) from every tree, listing and
        query; needs the write scope."""
        return await call(
            ctx, "write", lambda c: tools.delete_memory(c.services, c.tenant_id, c.forest(forest), str(fact_id))
        )

    @server.tool(annotations=read_only)
    async def get_job(ctx: Ctx, job_id: str) -> CallToolResult:
        """A background job: state (queued, running, succeeded, failed), progress, errors and usage."""
        return await call(ctx, "read", lambda c: tools.job_status(c.services, c.tenant_id, job_id))

    _forbid_unknown_arguments(server)
    return server
