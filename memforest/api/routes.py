"""Endpoints. Tenant endpoints take the tenant from the key only, filter every statement by it,
and run inside ``db.tenant(tid)`` so row-level security backs the filters up."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Query, Request, status
from fastapi.responses import JSONResponse, Response

from memforest.api.auth import Admin, Reader, TenantAdmin, Writer
from memforest.api.openapi import ERRORS, problems
from memforest.api.paths import SegmentRoute
from memforest.app import forests, jobs, query, sessions, tenants, waiting
from memforest.app.tenants import parse_uuid
from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.schemas import (
    ApiKey,
    Forest,
    ForestDeleted,
    ForestIn,
    Job,
    KeyIn,
    Page,
    QueryResult,
    Session,
    SessionAccepted,
    SessionSummary,
    Tenant,
    TenantDeleted,
    TenantIn,
)
from memforest.schemas.agent import MAX_WAIT_S, FilteredQueryIn, MessagesIn, MultiQueryIn
from memforest.settings import Settings

admin_router = APIRouter(prefix="/v1", tags=["admin"])
tenant_router = APIRouter(prefix="/v1", route_class=SegmentRoute)  # names may hold "/"

MAX_PAGE = 200
MAX_IDEMPOTENCY_KEY = 200


def _db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


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
    tid = await tenants.create_tenant(_db(request), body.name)
    return {"id": str(tid), "name": body.name.strip()}


@admin_router.get("/tenants", response_model=Page[Tenant], responses=ERRORS)
async def get_tenants(request: Request, _: Admin) -> dict[str, Any]:
    """All tenants."""
    return {"items": await tenants.list_tenants(_db(request)), "next_cursor": None}


@admin_router.delete("/tenants/{tenant_id}", response_model=TenantDeleted, responses=ERRORS)
async def delete_tenant(tenant_id: str, request: Request, _: Admin) -> dict[str, Any]:
    """Forget a tenant and everything it owns (forests, keys, jobs). Returns what was deleted."""
    tid = parse_uuid(tenant_id)
    return {"id": str(tid), "deleted": await tenants.delete_tenant(_db(request), tid)}


@admin_router.post(
    "/tenants/{tenant_id}/keys",
    status_code=status.HTTP_201_CREATED,
    response_model=ApiKey,
    response_model_exclude_unset=True,
    responses=ERRORS,
)
async def post_key(tenant_id: str, body: KeyIn, request: Request, _: Admin) -> dict[str, Any]:
    """Create an API key for the tenant; the key is shown only in this response."""
    key_id, key, scopes = await tenants.create_key(_db(request), parse_uuid(tenant_id), body.scopes)
    return {"id": str(key_id), "key": key, "scopes": scopes}


@admin_router.get(
    "/tenants/{tenant_id}/keys", response_model=Page[ApiKey], response_model_exclude_unset=True, responses=ERRORS
)
async def get_keys(tenant_id: str, request: Request, _: Admin) -> dict[str, Any]:
    """The tenant's keys (prefixes only)."""
    return {"items": await tenants.list_keys(_db(request), parse_uuid(tenant_id)), "next_cursor": None}


@admin_router.delete(
    "/tenants/{tenant_id}/keys/{key_id}", status_code=status.HTTP_204_NO_CONTENT, response_model=None, responses=ERRORS
)
async def delete_key(tenant_id: str, key_id: str, request: Request, _: Admin) -> Response:
    """Revoke a key."""
    await tenants.revoke_key(_db(request), parse_uuid(tenant_id), parse_uuid(key_id))
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
    return await forests.create_forest(_db(request), caller.tenant_id, body.name, settings=_settings(request))


@tenant_router.get(
    "/forests", tags=["forests"], response_model=Page[Forest], response_model_exclude_unset=True, responses=ERRORS
)
async def get_forests(request: Request, caller: Reader) -> dict[str, Any]:
    """The tenant's forests."""
    return {"items": await forests.forests(_db(request), caller.tenant_id), "next_cursor": None}


@tenant_router.get("/forests/{forest}", tags=["forests"], response_model=Forest, responses=ERRORS)
async def get_one_forest(forest: str, request: Request, caller: Reader) -> dict[str, Any]:
    """A forest with its counts."""
    return await forests.forest_detail(_db(request), caller.tenant_id, forest)


@tenant_router.delete("/forests/{forest}", tags=["forests"], response_model=ForestDeleted, responses=ERRORS)
async def delete_forest(forest: str, request: Request, caller: TenantAdmin) -> dict[str, Any]:
    """Forget a forest: every session, fact, tree and job in it. Returns what was deleted."""
    return await forests.delete_forest(_db(request), caller.tenant_id, forest)


# ---------------------------------------------------------------- sessions


Wait = Annotated[
    float,
    Query(
        ge=0,
        le=MAX_WAIT_S,
        description="Seconds (0-30) to wait for the job: 200 with the job if it ends in time, else 202.",
    ),
]
IdempotencyKey = Annotated[str | None, Header(alias="Idempotency-Key")]
ACCEPT_RESPONSES = ERRORS | problems(409, 413) | {200: {"model": Job, "description": "The job ended in time."}}


def _check_idempotency_key(idempotency_key: str | None) -> None:
    if idempotency_key is not None and not 1 <= len(idempotency_key) <= MAX_IDEMPOTENCY_KEY:
        raise InputError(f"Idempotency-Key must be 1-{MAX_IDEMPOTENCY_KEY} characters", location="Idempotency-Key")


async def _accepted_or_job(request: Request, caller: Writer, accepted: dict[str, Any], wait: float) -> Any:
    """The 202 answer, or 200 with the job when it ended within ``wait`` seconds."""
    if wait > 0 and accepted.get("job_id"):
        job = await waiting.wait_for_job(_db(request), caller.tenant_id, accepted["job_id"], wait)
        if job is not None:
            counts = {k: accepted[k] for k in ("kept", "skipped") if k in accepted}  # POST .../messages
            return JSONResponse(Job.model_validate(job | counts).model_dump(mode="json", exclude_unset=True))
    return accepted


@tenant_router.post(
    "/forests/{forest}/sessions",
    status_code=status.HTTP_202_ACCEPTED,
    tags=["sessions"],
    response_model=SessionAccepted,
    responses=ACCEPT_RESPONSES,
)
async def post_session(
    forest: str,
    request: Request,
    caller: Writer,
    session: Annotated[dict[str, Any], Body(description="One session in the native format (see SessionModel).")],
    idempotency_key: IdempotencyKey = None,
    wait: Wait = 0,
) -> Any:
    """Accept one session into the forest (created on the first write); a worker processes it (poll the job)."""
    _check_idempotency_key(idempotency_key)
    accepted = await sessions.add_session(
        _db(request), _settings(request), caller.tenant_id, forest, session, idempotency_key=idempotency_key
    )
    return await _accepted_or_job(request, caller, accepted, wait)


@tenant_router.post(
    "/forests/{forest}/messages",
    status_code=status.HTTP_202_ACCEPTED,
    tags=["sessions"],
    response_model=SessionAccepted,
    responses=ACCEPT_RESPONSES,
)
async def post_messages(
    forest: str,
    body: MessagesIn,
    request: Request,
    caller: Writer,
    idempotency_key: IdempotencyKey = None,
    wait: Wait = 0,
) -> Any:
    """Accept chat messages (the OpenAI ``messages`` shape) as one session of the forest (created on
    the first write). A turn's speaker is the message's ``name``, else its role."""
    _check_idempotency_key(idempotency_key)
    accepted = await sessions.add_messages(
        _db(request), _settings(request), caller.tenant_id, forest, body, idempotency_key=idempotency_key
    )
    return await _accepted_or_job(request, caller, accepted, wait)


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
    return await forests.sessions_page(_db(request), caller.tenant_id, forest, cursor=cursor, limit=limit)


@tenant_router.get(
    "/forests/{forest}/sessions/{session_id}", tags=["sessions"], response_model=Session, responses=ERRORS
)
async def get_session(forest: str, session_id: str, request: Request, caller: Reader) -> dict[str, Any]:
    """One session with its turns."""
    return await forests.session_detail(_db(request), caller.tenant_id, forest, session_id)


# ---------------------------------------------------------------- jobs


@tenant_router.get("/jobs/{job_id}", tags=["jobs"], response_model=Job, responses=ERRORS)
async def get_one_job(job_id: str, request: Request, caller: Reader) -> dict[str, Any]:
    """A job: state (queued, running, succeeded, failed), progress, errors, usage per stage."""
    return await jobs.job_view(_db(request), caller.tenant_id, job_id)


# ---------------------------------------------------------------- query


def _query_request(forest: str, body: FilteredQueryIn) -> query.QueryRequest:
    """The read path's request of a query body."""
    return query.QueryRequest(
        forest, body.query, mode=body.mode, top_k=body.top_k, as_of=body.as_of, time_from=body.time_from,
        time_to=body.time_to, scope_kinds=tuple(body.scope) if body.scope is not None else None,
        include_superseded=body.include_superseded, token_budget=body.token_budget,
        source_filter=query.source_filter(body.filter), speaker=body.speaker, now=body.now,
    )  # fmt: skip


@tenant_router.post(
    "/forests/{forest}/query", tags=["query"], response_model=QueryResult, response_model_exclude_unset=True,
    responses=ERRORS,
)  # fmt: skip
async def post_query(forest: str, body: FilteredQueryIn, request: Request, caller: Reader) -> QueryResult:
    """Time-stamped evidence for a question, best first (the same items as the CLI's JSON). ``filter``
    keeps only evidence from matching sources: session ``metadata`` (top-level keys equal),
    ``session_ids``, ``speakers`` (ANDed; a fact matches when one of its sources does)."""
    result = await query.ask(
        _db(request), _settings(request), request.app.state.backends, caller.tenant_id, _query_request(forest, body)
    )
    return QueryResult.model_validate(result.to_json())


@tenant_router.post(
    "/query", tags=["query"], response_model=QueryResult, response_model_exclude_unset=True, responses=ERRORS
)
async def post_multi_query(body: MultiQueryIn, request: Request, caller: Reader) -> QueryResult:
    """One ranked list of evidence from several forests of the tenant (the options of the per-forest
    query); every item carries its ``forest``. 404 when a forest does not exist."""
    result = await query.ask_many(
        _db(request), _settings(request), request.app.state.backends, caller.tenant_id, body.forests,
        _query_request(body.forests[0], body),
    )  # fmt: skip
    return QueryResult.model_validate(result.to_json() | {"forests": list(body.forests)})
