"""Endpoints. Tenant endpoints take the tenant from the key only, filter every statement by it,
and run inside ``db.tenant(tid)`` so row-level security backs the filters up."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Query, Request, status
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError

from memforest.api.auth import Admin, Reader, TenantAdmin, Writer, create_key, list_keys, revoke_key
from memforest.api.openapi import ERRORS, problems
from memforest.db.engine import Database
from memforest.errors import ConflictError, InputError, NotFoundError
from memforest.lifecycle.forget import forget_forest, forget_tenant
from memforest.pipeline.accept import accept_session
from memforest.pipeline.jobs import job_view
from memforest.schemas import (
    ApiKey,
    Forest,
    ForestDeleted,
    ForestIn,
    Job,
    KeyIn,
    Limits,
    Page,
    QueryIn,
    QueryResult,
    Session,
    SessionAccepted,
    SessionModel,
    SessionSummary,
    Tenant,
    TenantDeleted,
    TenantIn,
)
from memforest.settings import Settings
from memforest.store.sql import fetch_all, fetch_one
from memforest.store.stats import forest_stats
from memforest.store.tenants import create_tenant, ensure_forest, get_forest, list_forests

admin_router = APIRouter(prefix="/v1", tags=["admin"])
tenant_router = APIRouter(prefix="/v1")

MAX_PAGE = 200
MAX_IDEMPOTENCY_KEY = 200


def _db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _int_cursor(cursor: str | None) -> int:
    if cursor is None:
        return 0
    if not cursor.isdigit() or len(cursor) > 19:
        raise InputError("invalid cursor", location="cursor")
    return int(cursor)


def _uuid(value: str) -> uuid.UUID:
    """A path id; anything that is not a UUID is simply absent (404), never a 500."""
    try:
        return uuid.UUID(value)
    except ValueError:
        raise NotFoundError("not found") from None


# ---------------------------------------------------------------- admin: tenants and keys


@admin_router.post(
    "/tenants",
    status_code=status.HTTP_201_CREATED,
    response_model=Tenant,
    response_model_exclude_unset=True,
    responses=ERRORS,
)
async def post_tenant(body: TenantIn, request: Request, _: Admin) -> dict[str, str]:
    """Create a tenant."""
    tid = await create_tenant(_db(request), body.name)
    return {"id": str(tid), "name": body.name.strip()}


@admin_router.get("/tenants", response_model=Page[Tenant], responses=ERRORS)
async def get_tenants(request: Request, _: Admin) -> dict[str, Any]:
    """All tenants."""
    async with _db(request).system() as conn:
        rows = await fetch_all(conn, "SELECT tenant_id, name, created_at FROM tenants ORDER BY name")
    items = [{"id": str(r["tenant_id"]), "name": r["name"], "created_at": _iso(r["created_at"])} for r in rows]
    return {"items": items, "next_cursor": None}


@admin_router.delete("/tenants/{tenant_id}", response_model=TenantDeleted, responses=ERRORS)
async def delete_tenant(tenant_id: str, request: Request, _: Admin) -> dict[str, Any]:
    """Forget a tenant and everything it owns (forests, keys, jobs). Returns what was deleted."""
    tid = _uuid(tenant_id)
    counts = await forget_tenant(_db(request), tid)
    if not counts["tenants"]:
        raise NotFoundError("no such tenant")
    return {"id": str(tid), "deleted": counts}


@admin_router.post(
    "/tenants/{tenant_id}/keys",
    status_code=status.HTTP_201_CREATED,
    response_model=ApiKey,
    response_model_exclude_unset=True,
    responses=ERRORS,
)
async def post_key(tenant_id: str, body: KeyIn, request: Request, _: Admin) -> dict[str, Any]:
    """Create an API key for the tenant; the key is shown only in this response."""
    key_id, key, scopes = await create_key(_db(request), _uuid(tenant_id), body.scopes)
    return {"id": str(key_id), "key": key, "scopes": scopes}


@admin_router.get(
    "/tenants/{tenant_id}/keys", response_model=Page[ApiKey], response_model_exclude_unset=True, responses=ERRORS
)
async def get_keys(tenant_id: str, request: Request, _: Admin) -> dict[str, Any]:
    """The tenant's keys (prefixes only)."""
    return {"items": await list_keys(_db(request), _uuid(tenant_id)), "next_cursor": None}


@admin_router.delete(
    "/tenants/{tenant_id}/keys/{key_id}", status_code=status.HTTP_204_NO_CONTENT, response_model=None, responses=ERRORS
)
async def delete_key(tenant_id: str, key_id: str, request: Request, _: Admin) -> Response:
    """Revoke a key."""
    await revoke_key(_db(request), _uuid(tenant_id), _uuid(key_id))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------- forests


@tenant_router.post(
    "/forests",
    status_code=status.HTTP_201_CREATED,
    tags=["forests"],
    response_model=Forest,
    response_model_exclude_unset=True,
    responses=ERRORS | problems(409),
)
async def post_forest(body: ForestIn, request: Request, caller: Writer) -> dict[str, Any]:
    """Create a forest (409 when the name is taken)."""
    async with _db(request).tenant(caller.tenant_id) as conn:
        try:
            await get_forest(conn, caller.tenant_id, body.name.strip())
        except NotFoundError:
            forest = await ensure_forest(conn, caller.tenant_id, body.name)
            return {"name": forest.name}
    raise ConflictError(f"forest {body.name.strip()!r} already exists")


@tenant_router.get(
    "/forests", tags=["forests"], response_model=Page[Forest], response_model_exclude_unset=True, responses=ERRORS
)
async def get_forests(request: Request, caller: Reader) -> dict[str, Any]:
    """The tenant's forests."""
    async with _db(request).tenant(caller.tenant_id) as conn:
        forests = await list_forests(conn, caller.tenant_id)
    return {"items": [{"name": f.name} for f in forests], "next_cursor": None}


@tenant_router.get("/forests/{forest}", tags=["forests"], response_model=Forest, responses=ERRORS)
async def get_one_forest(forest: str, request: Request, caller: Reader) -> dict[str, Any]:
    """A forest with its counts."""
    async with _db(request).tenant(caller.tenant_id) as conn:
        f = await get_forest(conn, caller.tenant_id, forest)
        counts = await forest_stats(conn, caller.tenant_id, f.forest_id)
    return {"name": f.name, "counts": counts}


@tenant_router.delete("/forests/{forest}", tags=["forests"], response_model=ForestDeleted, responses=ERRORS)
async def delete_forest(forest: str, request: Request, caller: TenantAdmin) -> dict[str, Any]:
    """Forget a forest: every session, fact, tree and job in it. Returns what was deleted."""
    counts = await forget_forest(_db(request), caller.tenant_id, forest)
    if not counts["forests"]:
        raise NotFoundError(f"no forest named {forest!r}")
    return {"name": forest, "deleted": counts}


# ---------------------------------------------------------------- sessions


@tenant_router.post(
    "/forests/{forest}/sessions",
    status_code=status.HTTP_202_ACCEPTED,
    tags=["sessions"],
    response_model=SessionAccepted,
    responses=ERRORS | problems(409, 413),
)
async def post_session(
    forest: str,
    request: Request,
    caller: Writer,
    session: Annotated[dict[str, Any], Body(description="One session in the native format (see SessionModel).")],
    idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key")] = None,
) -> dict[str, Any]:
    """Accept one session; it is processed by a worker (poll the job)."""
    settings = _settings(request)
    if idempotency_key is not None and not 1 <= len(idempotency_key) <= MAX_IDEMPOTENCY_KEY:
        raise InputError(f"Idempotency-Key must be 1-{MAX_IDEMPOTENCY_KEY} characters", location="Idempotency-Key")
    try:
        model = SessionModel.model_validate(session, context=Limits.from_settings(settings.api))
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise InputError(str(first["msg"]), location=loc or "body") from None
    try:
        async with _db(request).tenant(caller.tenant_id) as conn:
            f = await get_forest(conn, caller.tenant_id, forest)
            result = await accept_session(
                conn,
                f,
                model.to_domain(),
                cell_turns=settings.pipeline.cell_turns,
                fanout=settings.pipeline.fanout_session,
                idempotency_key=idempotency_key,
            )
    except IntegrityError:
        raise ConflictError("this Idempotency-Key was already used for another request") from None
    return {
        "job_id": str(result.job_id) if result.job_id else None,
        "session_id": result.external_id,
        "created": result.created,
    }


@tenant_router.get(
    "/forests/{forest}/sessions", tags=["sessions"], response_model=Page[SessionSummary], responses=ERRORS
)
async def get_sessions(
    forest: str,
    request: Request,
    caller: Reader,
    cursor: str | None = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> dict[str, Any]:
    """Sessions in the order they were accepted."""
    after = _int_cursor(cursor)
    async with _db(request).tenant(caller.tenant_id) as conn:
        f = await get_forest(conn, caller.tenant_id, forest)
        rows = await fetch_all(
            conn,
            "SELECT session_id, external_id, time, n_turns, created_at FROM sessions "
            "WHERE tenant_id = :t AND forest_id = :f AND session_id > :c ORDER BY session_id LIMIT :n",
            {"t": caller.tenant_id, "f": f.forest_id, "c": after, "n": limit + 1},
        )
    more = len(rows) > limit
    rows = rows[:limit]
    items = [
        {
            "session_id": r["external_id"],
            "time": _iso(r["time"]),
            "turns": r["n_turns"],
            "created_at": _iso(r["created_at"]),
        }
        for r in rows
    ]
    return {"items": items, "next_cursor": str(rows[-1]["session_id"]) if more and rows else None}


@tenant_router.get(
    "/forests/{forest}/sessions/{session_id}", tags=["sessions"], response_model=Session, responses=ERRORS
)
async def get_session(forest: str, session_id: str, request: Request, caller: Reader) -> dict[str, Any]:
    """One session with its turns."""
    async with _db(request).tenant(caller.tenant_id) as conn:
        f = await get_forest(conn, caller.tenant_id, forest)
        row = await fetch_one(
            conn,
            "SELECT session_id, external_id, time, metadata, n_turns, created_at FROM sessions "
            "WHERE tenant_id = :t AND forest_id = :f AND external_id = :e",
            {"t": caller.tenant_id, "f": f.forest_id, "e": session_id},
        )
        if row is None:
            raise NotFoundError("no such session")
        turns = await fetch_all(
            conn,
            "SELECT external_id, speaker, role, text, time FROM turns WHERE tenant_id = :t AND forest_id = :f "
            "AND session_id = :s ORDER BY seq",
            {"t": caller.tenant_id, "f": f.forest_id, "s": row["session_id"]},
        )
    return {
        "session_id": row["external_id"],
        "time": _iso(row["time"]),
        "metadata": row["metadata"],
        "created_at": _iso(row["created_at"]),
        "turns": [
            {
                "id": t["external_id"],
                "speaker": t["speaker"],
                "role": t["role"],
                "text": t["text"],
                "time": _iso(t["time"]),
            }
            for t in turns
        ],
    }


# ---------------------------------------------------------------- jobs


@tenant_router.get("/jobs/{job_id}", tags=["jobs"], response_model=Job, responses=ERRORS)
async def get_one_job(job_id: str, request: Request, caller: Reader) -> dict[str, Any]:
    """A job: state (queued, running, succeeded, failed), progress, errors, usage per stage."""
    async with _db(request).tenant(caller.tenant_id) as conn:
        view = await job_view(conn, caller.tenant_id, _uuid(job_id))
    if view is None:
        raise NotFoundError("no such job")
    return view


# ---------------------------------------------------------------- query


@tenant_router.post("/forests/{forest}/query", tags=["query"], response_model=QueryResult, responses=ERRORS)
async def post_query(forest: str, body: QueryIn, request: Request, caller: Reader) -> JSONResponse:
    """Time-stamped evidence for a question, best first (the same items as the CLI's JSON)."""
    from memforest.retrieval.service import query

    settings = _settings(request)
    if len(body.query) > settings.api.max_text_chars:
        raise InputError(f"query is longer than {settings.api.max_text_chars} characters", location="query")
    result = await query(
        _db(request),
        settings,
        request.app.state.backends,
        caller.tenant_id,
        forest,
        body.query,
        mode=body.mode,
        top_k=body.top_k,
        as_of=body.as_of,
        time_from=body.time_from,
        time_to=body.time_to,
        scope_kinds=body.scope,
        include_superseded=body.include_superseded,
        token_budget=body.token_budget,
    )
    return JSONResponse(result.to_json())
