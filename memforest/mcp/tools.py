"""The operations behind the MCP tools, for one tenant; each returns a JSON-able dict.

They parse the tools' arguments, call the same use cases as the HTTP API (``memforest.app``) and
raise :class:`~memforest.errors.MemForestError` for anything the caller got wrong.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from memforest.app import browse, facts, jobs, maintenance, query, sessions, waiting
from memforest.app.query import Evidence
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.schemas.agent import FactCorrectionIn, MessagesIn, QueryFilter
from memforest.schemas.history import FactHistory
from memforest.schemas.resources import Job
from memforest.settings import Settings
from memforest.timefmt import parse_time

DEFAULT_CONTEXT_BUDGET = 1000
MAX_CONTEXT_BUDGET = 100_000
TREES_PAGE = 100


@dataclass(frozen=True, slots=True)
class Services:
    """What the tools run against: the database, the settings and the model backends."""

    db: Database
    settings: Settings
    backends: Backends


async def add_memory(
    svc: Services,
    tenant_id: uuid.UUID,
    forest: str,
    *,
    turns: list[dict[str, Any]] | None,
    text: str | None,
    session_id: str | None,
    time: str | None,
    messages: list[dict[str, Any]] | None = None,
    wait: float = 0,
) -> dict[str, Any]:
    """Accept one session (native turns, OpenAI ``messages``, or one user turn from ``text``) like
    POST .../sessions and POST .../messages; with ``wait`` seconds, the finished job when it ends in
    time (as ``?wait=`` answers)."""
    accepted = await _accept(svc, tenant_id, forest, turns=turns, text=text, session_id=session_id, time=time,
                             messages=messages)  # fmt: skip
    if wait <= 0 or not accepted.get("job_id"):
        return accepted
    job = await waiting.wait_for_job(svc.db, tenant_id, str(accepted["job_id"]), wait)
    if job is None:
        return accepted
    counts = {k: accepted[k] for k in ("kept", "skipped") if k in accepted}
    out: dict[str, Any] = Job.model_validate(job | counts).model_dump(mode="json", exclude_unset=True)
    return out


async def _accept(
    svc: Services,
    tenant_id: uuid.UUID,
    forest: str,
    *,
    turns: list[dict[str, Any]] | None,
    text: str | None,
    session_id: str | None,
    time: str | None,
    messages: list[dict[str, Any]] | None,
) -> dict[str, Any]:
    if sum(x is not None for x in (turns, text, messages)) != 1:
        raise InputError("give exactly one of turns, messages or text", location="turns")
    when = parse_time(time, "time") if time is not None else datetime.now(UTC)
    if messages is not None:
        try:
            msgs = MessagesIn.model_validate(
                {"messages": messages, "session_id": session_id, "time": when, "metadata": {"source": "mcp"}}
            )
        except ValidationError as exc:
            first = exc.errors()[0]
            raise InputError(str(first["msg"]), location=".".join(str(p) for p in first["loc"])) from None
        return await sessions.add_messages(svc.db, svc.settings, tenant_id, forest, msgs)
    body: dict[str, Any] = {
        "id": session_id if session_id is not None else f"mcp-{uuid.uuid4().hex[:16]}",
        "time": when,
        "turns": turns if turns is not None else [{"speaker": "user", "role": "user", "text": text}],
        "metadata": {"source": "mcp"},
    }
    return await sessions.add_session(svc.db, svc.settings, tenant_id, forest, body, root="session")


async def search_memory(
    svc: Services,
    tenant_id: uuid.UUID,
    forest: str,
    text: str,
    *,
    top_k: int | None,
    as_of: str | None,
    mode: str,
    metadata: dict[str, Any] | None = None,
    session_ids: list[str] | None = None,
    speakers: list[str] | None = None,
    speaker: str | None = None,
    now: str | None = None,
) -> dict[str, Any]:
    """Evidence items, best first, in the API's item JSON; the filters, ``speaker`` and ``now`` as
    in POST .../query."""
    try:
        flt = QueryFilter(metadata=metadata, session_ids=session_ids, speakers=speakers)
    except ValidationError as exc:
        raise InputError(str(exc.errors()[0]["msg"]), location="filter") from None
    request = query.QueryRequest(
        forest,
        text,
        mode=mode,
        top_k=top_k,
        as_of=parse_time(as_of, "as_of") if as_of is not None else None,
        source_filter=query.source_filter(flt),
        **_asker(speaker, now),
    )
    result = await query.ask(svc.db, svc.settings, svc.backends, tenant_id, request)
    return {
        "forest": forest,
        "query": result.question,
        "mode_used": result.mode_used,
        "fallback": result.fallback,
        "evidence": [e.to_json() for e in result.evidence],
    }


def _tokens(text: str) -> int:
    """The same rough estimate the assembler uses for token budgets."""
    return max(1, len(text) // 4)


def _stamp(value: datetime) -> str:
    value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%d") if (value.hour, value.minute) == (0, 0) else value.strftime("%Y-%m-%d %H:%M")


def context_line(e: Evidence) -> str:
    """One evidence item as a prompt line: ``[time] text (validity) <session turns>``."""
    where = " ".join(p for p in (e.session_id or "", ",".join(e.turn_ids)) if p) or e.tree
    validity = f" (valid until {_stamp(e.valid_to)})" if e.valid_to is not None else ""
    return f"[{_stamp(e.time)}] {' '.join(e.text.split())}{validity} <{where}>"


def _asker(speaker: str | None, now: str | None) -> dict[str, Any]:
    """The query's ``speaker`` and ``now`` from the tools' arguments (``QueryRequest`` checks the
    speaker as it does for POST .../query; ``now`` is read like ``as_of``)."""
    return {"speaker": speaker, "now": parse_time(now, "now") if now is not None else None}


async def get_context(
    svc: Services,
    tenant_id: uuid.UUID,
    forest: str,
    text: str,
    *,
    token_budget: int | None,
    top_k: int | None,
    speaker: str | None = None,
    now: str | None = None,
) -> dict[str, Any]:
    """A ready-to-paste block: the best items that fit the budget, shown oldest first; ``speaker``
    and ``now`` as in POST .../query."""
    budget = DEFAULT_CONTEXT_BUDGET if token_budget is None else token_budget
    if not 1 <= budget <= MAX_CONTEXT_BUDGET:
        raise InputError(f"token_budget must be between 1 and {MAX_CONTEXT_BUDGET}", location="token_budget")
    request = query.QueryRequest(forest, text, top_k=top_k, **_asker(speaker, now))
    result = await query.ask(svc.db, svc.settings, svc.backends, tenant_id, request)
    header = f"Memories from forest {forest!r} (times UTC, oldest first):"
    used = _tokens(header)
    kept: list[tuple[Evidence, str]] = []
    for e in result.evidence:  # best first: keep what fits
        line = context_line(e)
        cost = _tokens(line)
        if used + cost <= budget:
            kept.append((e, line))
            used += cost
    if not kept:
        why = "fit the token budget" if result.evidence else "match"
        header = f"No memories from forest {forest!r} {why}."
        used = _tokens(header)
    kept.sort(key=lambda pair: (pair[0].time, pair[0].rank))
    block = "\n".join([header, *(line for _, line in kept)])
    return {"context": block, "items": len(kept), "tokens": used, "token_budget": budget}


async def browse_tree(
    svc: Services,
    tenant_id: uuid.UUID,
    forest: str,
    *,
    kind: str | None,
    node_id: str | None,
    cursor: str | None,
) -> dict[str, Any]:
    """The forest's trees, or one node with its children (pages via ``next_cursor``)."""
    tree_kind = browse.parse_tree_kind(kind)
    if node_id is not None:
        node = await browse.node_detail(svc.db, tenant_id, forest, node_id, cursor=cursor)
        return {"forest": forest, "node": node}
    page = await browse.trees_page(svc.db, tenant_id, forest, tree_kind, cursor=cursor, limit=TREES_PAGE)
    return {"forest": forest, "trees": page.items, "next_cursor": page.next_cursor}


async def forget_session(svc: Services, tenant_id: uuid.UUID, forest: str, session_id: str) -> dict[str, Any]:
    """Retract one session and everything derived only from it."""
    report = await maintenance.retract(svc.db, svc.settings, svc.backends, tenant_id, forest, session_id)
    out: dict[str, Any] = report.as_dict()
    return out


async def update_memory(
    svc: Services,
    tenant_id: uuid.UUID,
    forest: str,
    fact_id: str,
    text: str,
    valid_from: str | None,
    *,
    key_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """Correct a fact (PATCH .../facts/{id}): the new fact supersedes the old one, which is kept.
    The arguments pass the REST body's model (``FactCorrectionIn``: its text limit, its times)."""
    if not text.strip():
        raise InputError("text must not be empty", location="text")
    start = parse_time(valid_from, "valid_from") if valid_from is not None else None
    try:
        body = FactCorrectionIn.model_validate({"text": text, "valid_from": start})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InputError(str(first["msg"]), location=".".join(str(p) for p in first["loc"])) from None
    return await facts.correct_fact(
        svc.db, svc.settings, svc.backends, tenant_id, forest, fact_id, body.text, body.valid_from, key_id=key_id
    )


async def delete_memory(
    svc: Services,
    tenant_id: uuid.UUID,
    forest: str,
    fact_id: str,
    *,
    key_id: uuid.UUID | None = None,
    forget_text: bool = False,
) -> dict[str, Any]:
    """Delete a fact (DELETE .../facts/{id}) from every tree, listing and query."""
    return await facts.delete_fact(
        svc.db, svc.settings, svc.backends, tenant_id, forest, fact_id, key_id=key_id, forget_text=forget_text
    )


async def memory_history(svc: Services, tenant_id: uuid.UUID, forest: str, fact_id: str) -> dict[str, Any]:
    """Every event of a fact (GET .../facts/{id}/history), in its wire form."""
    history = await facts.history(svc.db, tenant_id, forest, fact_id)
    out: dict[str, Any] = FactHistory.model_validate(history).model_dump(mode="json")
    return out


async def job_status(svc: Services, tenant_id: uuid.UUID, job_id: str) -> dict[str, Any]:
    """A job of this tenant: state, progress, result, errors and usage."""
    return await jobs.job_view(svc.db, tenant_id, job_id)
