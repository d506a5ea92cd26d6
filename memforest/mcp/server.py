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
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, TransportSecuritySettings
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from memforest.app.auth import Principal
from memforest.errors import InputError, MemForestError, PermissionDeniedError
from memforest.mcp import params as p
from memforest.mcp import tools
from memforest.mcp.outputs import finish_schemas
from memforest.mcp.strict import StrictFastMCP, one_line
from memforest.mcp.tools import Services

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "MemForest is a long-term memory. Store conversation snippets with add_memory; recall them with "
    "search_memory (structured evidence) or get_context (a ready-to-paste, time-stamped block); look "
    "around with browse_tree; remove a session with forget_session. Ingestion runs in the background: "
    "add_memory returns a job_id to poll with get_job, or pass wait (seconds) to get the finished job. "
    "Correct a remembered fact with update_memory or remove it with delete_memory (fact_id from "
    "search_memory); memory_history lists everything that happened to a fact."
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


def _error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=one_line(message))], isError=True)


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


def _new_fastmcp(http: bool, max_body_bytes: int) -> FastMCP[Any]:
    return StrictFastMCP(
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

    writes = ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False)
    destroys = ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False)

    @server.tool(annotations=writes)
    async def add_memory(
        ctx: Ctx,
        forest: p.Forest = None,
        turns: p.Turns = None,
        text: p.Text = None,
        session_id: p.SessionId = None,
        time: p.Time = None,
        messages: p.Messages = None,
        wait: p.Wait = 0,
    ) -> CallToolResult:
        """Store one conversation session in a forest (created if missing); needs the write scope.

        Give one of `turns`, `messages` or `text`. Returns {job_id, session_id, created}, with {kept,
        skipped: {reason: count}} for `messages`; the memory is processed in the background (poll
        get_job), or pass `wait` to get the finished job ({job_id, state, ...}) when it is done in time.
        """
        return await call(
            ctx, "write",
            lambda c: tools.add_memory(
                c.services, c.tenant_id, c.forest(forest), turns=turns, text=text, session_id=session_id,
                time=time, messages=messages, wait=wait,
            ),
        )  # fmt: skip

    @server.tool(annotations=read_only)
    async def search_memory(
        ctx: Ctx,
        query: p.Query,
        forest: p.Forest = None,
        top_k: p.TopK = None,
        as_of: p.AsOf = None,
        mode: p.Mode = "emb",
        metadata: p.Metadata = None,
        session_ids: p.SessionIds = None,
        speakers: p.Speakers = None,
        speaker: p.Speaker = None,
        now: p.Now = None,
    ) -> CallToolResult:
        """Recall evidence for a question: items with text, time, validity, score, provenance and
        fact_id (for update_memory, delete_memory, memory_history), best first. The filters are ANDed;
        a fact matches when one of its sources does. `speaker` and `now`: who asks and when."""
        return await call(
            ctx, "read",
            lambda c: tools.search_memory(
                c.services, c.tenant_id, c.forest(forest), query, top_k=top_k, as_of=as_of, mode=mode,
                metadata=metadata, session_ids=session_ids, speakers=speakers, speaker=speaker, now=now,
            ),
        )  # fmt: skip

    @server.tool(annotations=read_only)
    async def get_context(
        ctx: Ctx,
        query: p.Query,
        forest: p.Forest = None,
        token_budget: p.TokenBudget = None,
        top_k: p.TopK = None,
        speaker: p.Speaker = None,
        now: p.Now = None,
    ) -> CallToolResult:
        """One ready-to-paste text block of memories for a question: one line per item,
        `[time] text <session turn-ids>`, oldest first, within `token_budget`. `speaker` and `now`:
        who asks and when."""
        return await call(
            ctx, "read",
            lambda c: tools.get_context(
                c.services, c.tenant_id, c.forest(forest), query, token_budget=token_budget, top_k=top_k,
                speaker=speaker, now=now,
            ),
            text_key="context",
        )  # fmt: skip

    @server.tool(annotations=read_only)
    async def browse_tree(
        ctx: Ctx, forest: p.Forest = None, kind: p.TreeKind = None, node_id: p.NodeId = None, cursor: p.Cursor = None
    ) -> CallToolResult:
        """Without node_id: the forest's memory trees (id, kind, label, root_node_id). With node_id:
        that node's summary (or leaf text), time interval and children in time order. Pass a returned
        next_cursor to get the next page."""
        node = str(node_id) if node_id is not None else None
        return await call(
            ctx, "read",
            lambda c: tools.browse_tree(
                c.services, c.tenant_id, c.forest(forest), kind=kind, node_id=node, cursor=cursor
            ),
        )  # fmt: skip

    @server.tool(annotations=destroys)
    async def forget_session(ctx: Ctx, session_id: p.SessionIdRequired, forest: p.Forest = None) -> CallToolResult:
        """Forget one session: its turns, cells and the memories derived only from it; needs the write scope."""
        return await call(
            ctx, "write", lambda c: tools.forget_session(c.services, c.tenant_id, c.forest(forest), session_id)
        )

    @server.tool(annotations=writes)
    async def update_memory(
        ctx: Ctx, fact_id: p.FactId, text: p.CorrectedText, forest: p.Forest = None, valid_from: p.ValidFrom = None
    ) -> CallToolResult:
        """Correct one remembered fact: a new fact with `text` supersedes it from `valid_from`; the old
        one is kept as history. Needs the write scope."""
        return await call(
            ctx, "write",
            lambda c: tools.update_memory(
                c.services, c.tenant_id, c.forest(forest), str(fact_id), text, valid_from, key_id=c.principal.key_id
            ),
        )  # fmt: skip

    @server.tool(annotations=destroys)
    async def delete_memory(
        ctx: Ctx, fact_id: p.FactId, forest: p.Forest = None, forget_text: p.ForgetText = False
    ) -> CallToolResult:
        """Delete one remembered fact from every tree, listing and query (its history keeps a
        tombstone, without the text when `forget_text`); needs the write scope."""
        return await call(
            ctx, "write",
            lambda c: tools.delete_memory(
                c.services, c.tenant_id, c.forest(forest), str(fact_id), key_id=c.principal.key_id,
                forget_text=forget_text,
            ),
        )  # fmt: skip

    @server.tool(annotations=read_only)
    async def memory_history(ctx: Ctx, fact_id: p.FactId, forest: p.Forest = None) -> CallToolResult:
        """Everything that happened to one fact, oldest first, also after it was deleted: extracted
        (with its source sessions and turns), restated, corrected or superseded by another fact,
        restored, sources removed, deleted (who and when)."""
        return await call(
            ctx, "read", lambda c: tools.memory_history(c.services, c.tenant_id, c.forest(forest), str(fact_id))
        )

    @server.tool(annotations=read_only)
    async def get_job(ctx: Ctx, job_id: p.JobId) -> CallToolResult:
        """A background job: state (queued, running, succeeded, failed), progress, errors and usage."""
        return await call(ctx, "read", lambda c: tools.job_status(c.services, c.tenant_id, job_id))

    finish_schemas(server._tool_manager.list_tools(), forest_required=http)
    return server
