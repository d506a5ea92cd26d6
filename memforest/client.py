"""``MemForestClient``: an async Python client for the MemForest HTTP API.

One small interface, typed results, one exception tree::

    async with MemForestClient("http://127.0.0.1:8420", api_key) as mf:
        accepted = await mf.add_session("notes", {"id": "s1", "time": "2024-05-01T10:00:00Z", "turns": [...]})
        await mf.wait_job(accepted.job_id)
        result = await mf.query("notes", "Where did Alice move?")

Every failure is a :class:`~memforest.errors.MemForestError`. An error response from the server
(``application/problem+json``) becomes an :class:`ApiError` that is *also* the matching class of
``memforest.errors`` (``except NotFoundError`` catches a 404) and carries ``status``, ``type``,
``title`` and ``detail``; a failure to talk to the server at all is a :class:`TransportError`
(:class:`RequestTimeoutError` for timeouts). No ``httpx`` exception leaves this module.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

import httpx

from memforest.domain import SessionInput
from memforest.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    MemForestError,
    ModelBackendError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
)

__all__ = [
    "ApiAuthenticationError",
    "ApiConflictError",
    "ApiError",
    "ApiInputError",
    "ApiKey",
    "ApiModelBackendError",
    "ApiNotFoundError",
    "ApiPayloadTooLargeError",
    "ApiPermissionDeniedError",
    "ApiServerError",
    "EvidenceItem",
    "Fact",
    "Forest",
    "ForestDeleted",
    "Job",
    "JobAccepted",
    "JobWaitTimeout",
    "MemForestClient",
    "Node",
    "NodeChild",
    "Page",
    "QueryResult",
    "RequestTimeoutError",
    "Session",
    "SessionAccepted",
    "SessionSummary",
    "Tenant",
    "TransportError",
    "Tree",
    "Turn",
    "UnexpectedResponseError",
    "session_to_json",
]

DEFAULT_URL = "http://127.0.0.1:8420"
JOB_DONE_STATES = frozenset({"succeeded", "failed"})

T = TypeVar("T")


# ---------------------------------------------------------------- errors


class ApiError(MemForestError):
    """The server answered with an error (``application/problem+json``).

    ``status`` is the HTTP status, ``type`` the problem type URI, ``detail`` the server's message,
    ``problem`` the whole problem object (e.g. ``location`` or ``errors`` for invalid input).
    """

    def __init__(self, status: int, type: str, title: str, detail: str, problem: Mapping[str, Any]) -> None:
        super().__init__(detail)
        self.status = status
        self.status_code = status
        self.type = type
        self.type_slug = type.rsplit("/", 1)[-1]
        self.title = title
        self.detail = detail
        self.problem = dict(problem)
        location = problem.get("location")
        self.location: str | None = location if isinstance(location, str) else None


class ApiInputError(ApiError, InputError):
    """400, 405, 415 or 422: the request was malformed or invalid."""


class ApiAuthenticationError(ApiError, AuthenticationError):
    """401: the API key is missing, malformed, unknown or revoked."""


class ApiPermissionDeniedError(ApiError, PermissionDeniedError):
    """403: the key lacks the scope (or is a tenant key on an admin endpoint, or the reverse)."""


class ApiNotFoundError(ApiError, NotFoundError):
    """404: no such object for this tenant."""


class ApiConflictError(ApiError, ConflictError):
    """409: the request conflicts with stored state."""


class ApiPayloadTooLargeError(ApiError, PayloadTooLargeError):
    """413: the body exceeds the server's limit."""


class ApiModelBackendError(ApiError, ModelBackendError):
    """502 from the server: its model backend failed."""


class ApiServerError(ApiError):
    """Any other 5xx: the server failed or is not ready."""


class TransportError(MemForestError):
    """The server could not be reached, or the connection broke mid-request."""

    status_code = 503
    type_slug = "transport"


class RequestTimeoutError(TransportError):
    """The server did not answer within the client's timeout."""

    type_slug = "timeout"


class UnexpectedResponseError(MemForestError):
    """The server answered successfully, but not with what the API documents."""

    status_code = 502
    type_slug = "unexpected-response"


class JobWaitTimeout(MemForestError):
    """``wait_job`` gave up before the job finished. ``job`` is its last seen state."""

    status_code = 504
    type_slug = "job-wait-timeout"

    def __init__(self, message: str, job: Job) -> None:
        super().__init__(message)
        self.job = job


_BY_SLUG: dict[str, type[ApiError]] = {
    "invalid-input": ApiInputError,
    "bad-request": ApiInputError,
    "method-not-allowed": ApiInputError,
    "unsupported-media-type": ApiInputError,
    "unauthorized": ApiAuthenticationError,
    "forbidden": ApiPermissionDeniedError,
    "not-found": ApiNotFoundError,
    "conflict": ApiConflictError,
    "payload-too-large": ApiPayloadTooLargeError,
    "model-backend": ApiModelBackendError,
    "model-output": ApiModelBackendError,
}
_BY_STATUS: dict[int, type[ApiError]] = {
    400: ApiInputError,
    401: ApiAuthenticationError,
    403: ApiPermissionDeniedError,
    404: ApiNotFoundError,
    405: ApiInputError,
    409: ApiConflictError,
    413: ApiPayloadTooLargeError,
    415: ApiInputError,
    422: ApiInputError,
    502: ApiModelBackendError,
}


def error_from_response(response: httpx.Response) -> ApiError:
    """The :class:`ApiError` subclass for an error response (problem+json or not)."""
    status = response.status_code
    problem: dict[str, Any] = {}
    try:
        body = response.json()
        if isinstance(body, dict):
            problem = body
    except ValueError:
        pass
    type_uri = problem.get("type") if isinstance(problem.get("type"), str) else None
    detail = problem.get("detail") if isinstance(problem.get("detail"), str) else None
    if detail is None:
        text = " ".join(response.text.split())[:300]
        detail = text or response.reason_phrase or f"HTTP {status}"
    title = problem.get("title") if isinstance(problem.get("title"), str) else response.reason_phrase
    slug = type_uri.rsplit("/", 1)[-1] if type_uri else ""
    cls = _BY_SLUG.get(slug) or _BY_STATUS.get(status) or (ApiServerError if status >= 500 else ApiInputError)
    if type_uri is None:
        type_uri = "about:blank"
    return cls(status, type_uri, str(title or ""), detail, problem)


# ---------------------------------------------------------------- typed results


def _dt(value: Any) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise UnexpectedResponseError(f"expected an ISO timestamp, got {type(value).__name__}")
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise UnexpectedResponseError(f"not an ISO timestamp: {value!r}") from None


def _req_dt(value: Any) -> datetime:
    out = _dt(value)
    if out is None:
        raise UnexpectedResponseError("a required timestamp is missing")
    return out


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _obj(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise UnexpectedResponseError(f"expected a JSON object for {what}, got {type(data).__name__}")
    return data


def _parse(parse: Callable[[dict[str, Any]], T], data: Any, what: str) -> T:
    """Run a constructor on a JSON object, turning missing/ill-typed fields into UnexpectedResponseError."""
    obj = _obj(data, what)
    try:
        return parse(obj)
    except (KeyError, TypeError, ValueError) as exc:
        raise UnexpectedResponseError(f"malformed {what} in the response: {type(exc).__name__}: {exc}") from None


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list endpoint; ``next_cursor`` is None on the last page."""

    items: tuple[T, ...]
    next_cursor: str | None = None

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True, slots=True)
class Tenant:
    """A tenant (admin endpoints)."""

    id: str
    name: str
    created_at: datetime | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Tenant:
        return cls(id=str(d["id"]), name=str(d["name"]), created_at=_dt(d.get("created_at")))


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A tenant API key. ``key`` (the secret) is only set in the answer to ``create_key``."""

    id: str
    scopes: tuple[str, ...]
    key: str | None = None
    prefix: str | None = None
    created_at: datetime | None = None
    revoked_at: datetime | None = None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ApiKey:
        return cls(
            id=str(d["id"]),
            scopes=tuple(str(s) for s in d.get("scopes") or ()),
            key=_str_or_none(d.get("key")),
            prefix=_str_or_none(d.get("prefix")),
            created_at=_dt(d.get("created_at")),
            revoked_at=_dt(d.get("revoked_at")),
        )


@dataclass(frozen=True, slots=True)
class Forest:
    """A forest; ``counts`` is only filled by ``get_forest`` (sessions, turns, facts, trees, nodes, ...)."""

    name: str
    counts: Mapping[str, Any] | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Forest:
        counts = d.get("counts")
        return cls(name=str(d["name"]), counts=dict(counts) if isinstance(counts, dict) else None)


@dataclass(frozen=True, slots=True)
class ForestDeleted:
    """What ``delete_forest`` removed."""

    name: str
    deleted: Mapping[str, Any]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ForestDeleted:
        return cls(name=str(d["name"]), deleted=dict(_obj(d.get("deleted", {}), "deleted counts")))


@dataclass(frozen=True, slots=True)
class SessionAccepted:
    """The answer to ``add_session``: the job that processes it (None when nothing new was accepted)."""

    session_id: str
    job_id: str | None
    created: bool

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SessionAccepted:
        return cls(session_id=str(d["session_id"]), job_id=_str_or_none(d.get("job_id")), created=bool(d["created"]))


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """A session as listed (no turns)."""

    session_id: str
    time: datetime
    turns: int
    created_at: datetime | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SessionSummary:
        return cls(
            session_id=str(d["session_id"]),
            time=_req_dt(d["time"]),
            turns=int(d["turns"]),
            created_at=_dt(d.get("created_at")),
        )


@dataclass(frozen=True, slots=True)
class Turn:
    """One stored turn."""

    id: str | None
    speaker: str
    role: str | None
    text: str
    time: datetime | None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Turn:
        return cls(
            id=_str_or_none(d.get("id")),
            speaker=str(d["speaker"]),
            role=_str_or_none(d.get("role")),
            text=str(d["text"]),
            time=_dt(d.get("time")),
        )


@dataclass(frozen=True, slots=True)
class Session:
    """A stored session with its turns."""

    session_id: str
    time: datetime
    turns: tuple[Turn, ...]
    metadata: Mapping[str, Any] = field(default_factory=dict)
    created_at: datetime | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Session:
        return cls(
            session_id=str(d["session_id"]),
            time=_req_dt(d["time"]),
            turns=tuple(Turn.from_json(_obj(t, "turn")) for t in d.get("turns") or ()),
            metadata=dict(d.get("metadata") or {}),
            created_at=_dt(d.get("created_at")),
        )


@dataclass(frozen=True, slots=True)
class Job:
    """A queued job: ``state`` is queued, running, succeeded or failed."""

    job_id: str
    kind: str
    state: str
    forest: str | None = None
    attempts: int = 0
    progress: Any = None
    result: Any = None
    usage: Any = None
    errors: Any = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None

    @property
    def done(self) -> bool:
        """Succeeded or failed (it will not change any more)."""
        return self.state in JOB_DONE_STATES

    @property
    def succeeded(self) -> bool:
        return self.state == "succeeded"

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Job:
        return cls(
            job_id=str(d["job_id"]),
            kind=str(d["kind"]),
            state=str(d["state"]),
            forest=_str_or_none(d.get("forest")),
            attempts=int(d.get("attempts") or 0),
            progress=d.get("progress"),
            result=d.get("result"),
            usage=d.get("usage"),
            errors=d.get("errors"),
            created_at=_dt(d.get("created_at")),
            started_at=_dt(d.get("started_at")),
            finished_at=_dt(d.get("finished_at")),
        )


@dataclass(frozen=True, slots=True)
class JobAccepted:
    """A 202 answer that queued a job (import, rematerialize). ``raw`` is the whole answer."""

    job_id: str
    raw: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> JobAccepted:
        return cls(job_id=str(d["job_id"]), raw=dict(d))


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    """One evidence item of a query, best first by ``rank``."""

    rank: int
    kind: str
    text: str
    time: datetime
    valid_from: datetime | None
    valid_to: datetime | None
    tree: str
    score: float
    session_id: str | None
    turn_ids: tuple[str, ...]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> EvidenceItem:
        return cls(
            rank=int(d["rank"]),
            kind=str(d["kind"]),
            text=str(d["text"]),
            time=_req_dt(d["time"]),
            valid_from=_dt(d.get("valid_from")),
            valid_to=_dt(d.get("valid_to")),
            tree=str(d.get("tree") or ""),
            score=float(d["score"]),
            session_id=_str_or_none(d.get("session_id")),
            turn_ids=tuple(str(t) for t in d.get("turn_ids") or ()),
        )


@dataclass(frozen=True, slots=True)
class QueryResult:
    """The answer to a query. ``raw`` is the server's JSON as is (what ``memforest query --json`` prints)."""

    question: str
    forest: str
    mode: str
    mode_used: str
    evidence: tuple[EvidenceItem, ...]
    context: str = ""
    fallback: str | None = None
    strategy: str | None = None
    time_cues: str | None = None
    timings_ms: Mapping[str, float] = field(default_factory=dict)
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def in_time_order(self) -> list[EvidenceItem]:
        """The evidence ordered by time (then rank)."""
        return sorted(self.evidence, key=lambda e: (e.time, e.rank))

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> QueryResult:
        return cls(
            question=str(d["question"]),
            forest=str(d["forest"]),
            mode=str(d["mode"]),
            mode_used=str(d.get("mode_used") or d["mode"]),
            evidence=tuple(EvidenceItem.from_json(_obj(e, "evidence item")) for e in d.get("evidence") or ()),
            context=str(d.get("context") or ""),
            fallback=_str_or_none(d.get("fallback")),
            strategy=_str_or_none(d.get("strategy")),
            time_cues=_str_or_none(d.get("time_cues")),
            timings_ms={str(k): float(v) for k, v in (d.get("timings_ms") or {}).items()},
            raw=dict(d),
        )


def _ids(values: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in values or ())


def _dicts(values: Any, what: str) -> tuple[Mapping[str, Any], ...]:
    return tuple(dict(_obj(v, what)) for v in values or ())


@dataclass(frozen=True, slots=True)
class Fact:
    """A canonical fact. ``status`` is current, superseded or retracted.

    ``get_fact`` also fills ``provenance`` (its sources: session_id, turn_ids, time, snippet, ...),
    ``supersession_chain`` (oldest first) and ``placements`` (the trees and leaves holding it).
    """

    id: str
    text: str
    kind: str
    status: str
    valid_from: datetime | None
    valid_to: datetime | None = None
    recorded_at: datetime | None = None
    retracted_at: datetime | None = None
    entities: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    speaker: str | None = None
    time_text: str | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    source_count: int = 1
    provenance: tuple[Mapping[str, Any], ...] = ()
    supersession_chain: tuple[Mapping[str, Any], ...] = ()
    placements: tuple[Mapping[str, Any], ...] = ()

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Fact:
        return cls(
            id=str(d["id"]),
            text=str(d["text"]),
            kind=str(d["kind"]),
            status=str(d.get("status") or "current"),
            valid_from=_dt(d.get("valid_from")),
            valid_to=_dt(d.get("valid_to")),
            recorded_at=_dt(d.get("recorded_at")),
            retracted_at=_dt(d.get("retracted_at")),
            entities=_ids(d.get("entities")),
            topics=_ids(d.get("topics")),
            speaker=_str_or_none(d.get("speaker")),
            time_text=_str_or_none(d.get("time_text")),
            supersedes=_str_or_none(d.get("supersedes")),
            superseded_by=_str_or_none(d.get("superseded_by")),
            source_count=int(d.get("source_count") or 1),
            provenance=_dicts(d.get("provenance"), "provenance"),
            supersession_chain=_dicts(d.get("supersession_chain"), "supersession chain"),
            placements=_dicts(d.get("placements"), "placement"),
        )


@dataclass(frozen=True, slots=True)
class Tree:
    """A MemTree of a forest: ``kind`` is session, entity or scene."""

    id: str
    kind: str
    label: str
    key: str | None = None
    root_node_id: str | None = None
    height: int = 1
    n_leaves: int = 0
    fanout: int | None = None
    created_at: datetime | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Tree:
        return cls(
            id=str(d["id"]),
            kind=str(d["kind"]),
            label=str(d.get("label") or ""),
            key=_str_or_none(d.get("key")),
            root_node_id=_str_or_none(d.get("root_node_id")),
            height=int(d.get("height") or 1),
            n_leaves=int(d.get("n_leaves") or 0),
            fanout=_int_or_none(d.get("fanout")),
            created_at=_dt(d.get("created_at")),
        )


@dataclass(frozen=True, slots=True)
class NodeChild:
    """A child as listed under its node: ``text`` is its summary or leaf text (shortened)."""

    id: str
    level: int
    start: datetime | None
    end: datetime | None
    n_children: int = 0
    dirty: bool = False
    text: str | None = None
    leaf_kind: str | None = None  # "fact" or "cell" for leaves
    leaf_id: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> NodeChild:
        interval = d.get("interval") or {}
        leaf = d.get("leaf") or {}
        return cls(
            id=str(d["id"]),
            level=int(d["level"]),
            start=_dt(interval.get("start")),
            end=_dt(interval.get("end")),
            n_children=int(d.get("n_children") or 0),
            dirty=bool(d.get("dirty")),
            text=_str_or_none(d.get("text")),
            leaf_kind=_str_or_none(leaf.get("kind")),
            leaf_id=_str_or_none(leaf.get("id")),
        )


@dataclass(frozen=True, slots=True)
class Node:
    """A MemTree node with a page of its children (time order).

    Level 0 is a leaf (``leaf_kind`` fact or cell, ``leaf_text``); internal nodes have a ``summary``
    (None until refreshed) over the interval ``start``..``end``.
    """

    id: str
    level: int
    tree_id: str
    tree_kind: str
    tree_label: str
    start: datetime | None
    end: datetime | None
    parent_id: str | None = None
    dirty: bool = False
    n_children: int = 0
    summary: str | None = None
    leaf_kind: str | None = None
    leaf_id: str | None = None
    leaf_text: str | None = None
    children: tuple[NodeChild, ...] = ()
    children_next_cursor: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Node:
        tree = _obj(d["tree"], "node tree")
        interval = d.get("interval") or {}
        leaf = d.get("leaf") or {}
        return cls(
            id=str(d["id"]),
            level=int(d["level"]),
            tree_id=str(tree["id"]),
            tree_kind=str(tree["kind"]),
            tree_label=str(tree.get("label") or ""),
            start=_dt(interval.get("start")),
            end=_dt(interval.get("end")),
            parent_id=_str_or_none(d.get("parent_id")),
            dirty=bool(d.get("dirty")),
            n_children=int(d.get("n_children") or 0),
            summary=_str_or_none(d.get("summary")),
            leaf_kind=_str_or_none(leaf.get("kind")),
            leaf_id=_str_or_none(leaf.get("id")),
            leaf_text=_str_or_none(leaf.get("text")),
            children=tuple(NodeChild.from_json(_obj(c, "node child")) for c in d.get("children") or ()),
            children_next_cursor=_str_or_none(d.get("children_next_cursor")),
        )


def session_to_json(session: SessionInput) -> dict[str, Any]:
    """The native JSON object of a domain session (what ``POST .../sessions`` takes)."""
    turns: list[dict[str, Any]] = []
    for t in session.turns:
        turn: dict[str, Any] = {"speaker": t.speaker, "text": t.text}
        if t.role is not None:
            turn["role"] = t.role
        if t.external_id is not None:
            turn["id"] = t.external_id
        if t.time is not None:
            turn["time"] = t.time.isoformat()
        turns.append(turn)
    body: dict[str, Any] = {"id": session.external_id, "time": session.time.isoformat(), "turns": turns}
    if session.metadata:
        body["metadata"] = dict(session.metadata)
    return body


# ---------------------------------------------------------------- the client


def _seg(value: str) -> str:
    """A path segment, percent-encoded (names may contain '/', spaces, ...)."""
    from urllib.parse import quote

    return quote(str(value), safe="")


class MemForestClient:
    """Async client for the MemForest API.

    ``api_key`` is a tenant key for tenant endpoints, or the server's admin key for the tenant and
    key endpoints. ``transport`` replaces the network (e.g. ``httpx.ASGITransport(app=app)`` in tests).
    Use it as ``async with MemForestClient(...) as mf:`` or call :meth:`aclose`.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
        max_connections: int = 20,
    ) -> None:
        headers = {"Accept": "application/json", "User-Agent": "memforest-client/0.1"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self.base_url = base_url.rstrip("/")
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers=headers,
            timeout=timeout,
            transport=transport,
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections),
        )

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    # ------------------------------------------------------------ plumbing

    async def _request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        params: Mapping[str, Any] | None = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        clean = {k: v for k, v in (params or {}).items() if v is not None}
        try:
            response = await self._http.request(
                method,
                path,
                json=json_body,
                params=clean or None,
                content=content,
                headers=dict(headers) if headers else None,
            )
        except httpx.TimeoutException as exc:
            raise RequestTimeoutError(f"{method} {path}: no answer from {self.base_url} in time") from exc
        except httpx.HTTPError as exc:
            reason = str(exc) or type(exc).__name__
            raise TransportError(f"{method} {path}: cannot reach {self.base_url}: {reason}") from exc
        if response.status_code >= 400:
            raise error_from_response(response)
        return response

    async def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = await self._request(method, path, **kwargs)
        try:
            return response.json()
        except ValueError:
            raise UnexpectedResponseError(f"{method} {path}: the answer is not JSON") from None

    async def _page(
        self, path: str, parse: Callable[[dict[str, Any]], T], what: str, params: Mapping[str, Any] | None = None
    ) -> Page[T]:
        body = _obj(await self._json("GET", path, params=params), what + " page")
        items = body.get("items")
        if not isinstance(items, list):
            raise UnexpectedResponseError(f"GET {path}: no 'items' list in the answer")
        cursor = body.get("next_cursor")
        return Page(tuple(_parse(parse, i, what) for i in items), _str_or_none(cursor))

    @staticmethod
    async def _iterate(fetch: Callable[[str | None], Awaitable[Page[T]]]) -> AsyncIterator[T]:
        cursor: str | None = None
        while True:
            page = await fetch(cursor)
            for item in page.items:
                yield item
            if page.next_cursor is None or page.next_cursor == cursor:
                return
            cursor = page.next_cursor

    # ------------------------------------------------------------ operations

    async def health(self) -> dict[str, Any]:
        """``/healthz``: the process answers."""
        return _obj(await self._json("GET", "/healthz"), "health")

    async def ready(self) -> dict[str, Any]:
        """``/readyz``: database reachable and migrated (ApiServerError with status 503 otherwise)."""
        return _obj(await self._json("GET", "/readyz"), "readiness")

    # ------------------------------------------------------------ admin: tenants and keys

    async def create_tenant(self, name: str) -> Tenant:
        """Create a tenant (admin key)."""
        return _parse(Tenant.from_json, await self._json("POST", "/v1/tenants", json_body={"name": name}), "tenant")

    async def list_tenants(self) -> Page[Tenant]:
        """Every tenant (admin key)."""
        return await self._page("/v1/tenants", Tenant.from_json, "tenant")

    async def delete_tenant(self, tenant_id: str) -> None:
        """Delete a tenant and everything it owns (admin key)."""
        await self._request("DELETE", f"/v1/tenants/{_seg(tenant_id)}")

    async def create_key(self, tenant_id: str, scopes: Sequence[str] = ("read", "write")) -> ApiKey:
        """A new key for the tenant; ``ApiKey.key`` is the secret, shown only here (admin key)."""
        body = await self._json("POST", f"/v1/tenants/{_seg(tenant_id)}/keys", json_body={"scopes": list(scopes)})
        return _parse(ApiKey.from_json, body, "key")

    async def list_keys(self, tenant_id: str) -> Page[ApiKey]:
        """The tenant's keys, prefixes only (admin key)."""
        return await self._page(f"/v1/tenants/{_seg(tenant_id)}/keys", ApiKey.from_json, "key")

    async def revoke_key(self, tenant_id: str, key_id: str) -> None:
        """Revoke a key (admin key; revoking twice is harmless)."""
        await self._request("DELETE", f"/v1/tenants/{_seg(tenant_id)}/keys/{_seg(key_id)}")

    # ------------------------------------------------------------ forests

    async def create_forest(self, name: str) -> Forest:
        """Create a forest (ConflictError when the name is taken)."""
        return _parse(Forest.from_json, await self._json("POST", "/v1/forests", json_body={"name": name}), "forest")

    async def ensure_forest(self, name: str) -> Forest:
        """Create the forest unless it exists."""
        try:
            return await self.create_forest(name)
        except ConflictError:
            return Forest(name=name.strip())

    async def list_forests(self) -> Page[Forest]:
        """The tenant's forests."""
        return await self._page("/v1/forests", Forest.from_json, "forest")

    async def get_forest(self, name: str) -> Forest:
        """A forest with its counts."""
        return _parse(Forest.from_json, await self._json("GET", f"/v1/forests/{_seg(name)}"), "forest")

    async def delete_forest(self, name: str) -> ForestDeleted:
        """Forget a forest: every session, fact, tree and job in it (needs the ``admin`` scope)."""
        body = await self._json("DELETE", f"/v1/forests/{_seg(name)}")
        return _parse(ForestDeleted.from_json, body, "deleted forest")

    # ------------------------------------------------------------ sessions

    async def add_session(
        self, forest: str, session: Mapping[str, Any] | SessionInput, *, idempotency_key: str | None = None
    ) -> SessionAccepted:
        """Accept one session (native JSON object or a ``SessionInput``); a worker processes it."""
        body = session_to_json(session) if isinstance(session, SessionInput) else dict(session)
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key is not None else None
        data = await self._json("POST", f"/v1/forests/{_seg(forest)}/sessions", json_body=body, headers=headers)
        return _parse(SessionAccepted.from_json, data, "accepted session")

    async def list_sessions(self, forest: str, *, cursor: str | None = None, limit: int = 50) -> Page[SessionSummary]:
        """One page of sessions in the order they were accepted."""
        params = {"cursor": cursor, "limit": limit}
        return await self._page(f"/v1/forests/{_seg(forest)}/sessions", SessionSummary.from_json, "session", params)

    def iter_sessions(self, forest: str, *, page_size: int = 50) -> AsyncIterator[SessionSummary]:
        """Every session of the forest, page after page: ``async for s in mf.iter_sessions("f"): ...``."""
        return self._iterate(lambda c: self.list_sessions(forest, cursor=c, limit=page_size))

    async def get_session(self, forest: str, session_id: str) -> Session:
        """One session with its turns."""
        body = await self._json("GET", f"/v1/forests/{_seg(forest)}/sessions/{_seg(session_id)}")
        return _parse(Session.from_json, body, "session")

    # ------------------------------------------------------------ jobs

    async def get_job(self, job_id: str) -> Job:
        """A job's state, progress, result and errors."""
        return _parse(Job.from_json, await self._json("GET", f"/v1/jobs/{_seg(job_id)}"), "job")

    async def wait_job(
        self,
        job_id: str,
        timeout: float = 300.0,  # noqa: ASYNC109 - a polling deadline, not a cancellation scope
        *,
        poll_interval: float = 0.2,
    ) -> Job:
        """Poll until the job succeeded or failed and return it (JobWaitTimeout after ``timeout`` seconds).

        A failed job is returned, not raised: check ``job.succeeded``.
        """
        deadline = time.monotonic() + timeout
        delay = min(0.05, poll_interval)
        while True:
            job = await self.get_job(job_id)
            if job.done:
                return job
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise JobWaitTimeout(f"job {job_id} still {job.state} after {timeout:g}s", job)
            await asyncio.sleep(min(delay, remaining))
            delay = min(delay * 2, poll_interval)

    # ------------------------------------------------------------ query

    async def query(
        self,
        forest: str,
        query: str,
        *,
        mode: str = "emb",
        top_k: int | None = None,
        as_of: datetime | None = None,
        time_from: datetime | None = None,
        time_to: datetime | None = None,
        scope: Sequence[str] | None = None,
        include_superseded: bool = False,
        token_budget: int | None = None,
    ) -> QueryResult:
        """Time-stamped evidence for a question, best first."""
        body: dict[str, Any] = {"query": query, "mode": mode, "include_superseded": include_superseded}
        optional = {
            "top_k": top_k,
            "as_of": as_of.isoformat() if as_of else None,
            "time_from": time_from.isoformat() if time_from else None,
            "time_to": time_to.isoformat() if time_to else None,
            "scope": list(scope) if scope is not None else None,
            "token_budget": token_budget,
        }
        body.update({k: v for k, v in optional.items() if v is not None})
        data = await self._json("POST", f"/v1/forests/{_seg(forest)}/query", json_body=body)
        return _parse(QueryResult.from_json, data, "query result")

    # ------------------------------------------------------------ browse: facts, trees, nodes

    async def list_facts(
        self,
        forest: str,
        *,
        kind: str | None = None,
        entity: str | None = None,
        session: str | None = None,
        valid_at: datetime | None = None,
        as_of: datetime | None = None,
        include_superseded: bool = False,
        include_retracted: bool = False,
        q: str | None = None,
        cursor: str | None = None,
        limit: int = 50,
    ) -> Page[Fact]:
        """One page of the forest's facts in time order, filtered (kind, entity, source session, validity, text)."""
        params = {
            "kind": kind,
            "entity": entity,
            "session": session,
            "valid_at": valid_at.isoformat() if valid_at else None,
            "as_of": as_of.isoformat() if as_of else None,
            "include_superseded": "true" if include_superseded else None,
            "include_retracted": "true" if include_retracted else None,
            "q": q,
            "cursor": cursor,
            "limit": limit,
        }
        return await self._page(f"/v1/forests/{_seg(forest)}/facts", Fact.from_json, "fact", params)

    def iter_facts(self, forest: str, *, page_size: int = 50, **filters: Any) -> AsyncIterator[Fact]:
        """Every fact of the forest matching ``filters`` (the keywords of :meth:`list_facts`), page after page."""
        return self._iterate(lambda c: self.list_facts(forest, cursor=c, limit=page_size, **filters))

    async def get_fact(self, forest: str, fact_id: str | int) -> Fact:
        """One fact with its provenance, supersession chain and placements."""
        body = await self._json("GET", f"/v1/forests/{_seg(forest)}/facts/{_seg(str(fact_id))}")
        return _parse(Fact.from_json, body, "fact")

    async def list_trees(
        self, forest: str, *, kind: str | None = None, cursor: str | None = None, limit: int = 50
    ) -> Page[Tree]:
        """One page of the forest's trees in creation order, optionally of one kind (session, entity, scene)."""
        params = {"kind": kind, "cursor": cursor, "limit": limit}
        return await self._page(f"/v1/forests/{_seg(forest)}/trees", Tree.from_json, "tree", params)

    def iter_trees(self, forest: str, *, kind: str | None = None, page_size: int = 50) -> AsyncIterator[Tree]:
        """Every tree of the forest (of one kind), page after page."""
        return self._iterate(lambda c: self.list_trees(forest, kind=kind, cursor=c, limit=page_size))

    async def get_node(self, forest: str, node_id: str | int, *, cursor: str | None = None, limit: int = 50) -> Node:
        """One node with a page of its children (``cursor``: a previous ``children_next_cursor``)."""
        params = {"cursor": cursor, "limit": limit}
        body = await self._json("GET", f"/v1/forests/{_seg(forest)}/nodes/{_seg(str(node_id))}", params=params)
        return _parse(Node.from_json, body, "node")

    # ------------------------------------------------------------ lifecycle

    async def _maybe_json(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        response = await self._request(method, path, **kwargs)
        if response.status_code == 204 or not response.content:
            return {}
        try:
            return _obj(response.json(), f"{method} {path}")
        except ValueError:
            raise UnexpectedResponseError(f"{method} {path}: the answer is not JSON") from None

    async def retract_session(self, forest: str, session_id: str) -> dict[str, Any]:
        """Retract a session and what only it supports; the server's report as a dict."""
        return await self._maybe_json("DELETE", f"/v1/forests/{_seg(forest)}/sessions/{_seg(session_id)}")

    async def retract_turn(self, forest: str, session_id: str, turn_id: str) -> dict[str, Any]:
        """Retract one turn of a session (its client id, or ``<session>#<seq>``); the server's report."""
        path = f"/v1/forests/{_seg(forest)}/sessions/{_seg(session_id)}/turns/{_seg(turn_id)}"
        return await self._maybe_json("DELETE", path)

    async def merge_forest(self, forest: str, from_forest: str) -> JobAccepted:
        """Queue a merge of ``from_forest`` (unchanged) into ``forest``, both of the key's tenant."""
        data = await self._json("POST", f"/v1/forests/{_seg(forest)}/merge", json_body={"from": from_forest})
        return _parse(JobAccepted.from_json, data, "merge job")

    async def export_forest(self, forest: str, *, with_derived: bool = False) -> list[dict[str, Any]]:
        """The forest as NDJSON records (one dict per line)."""
        params = {"with_derived": "true" if with_derived else "false"}
        response = await self._request("GET", f"/v1/forests/{_seg(forest)}/export", params=params)
        records: list[dict[str, Any]] = []
        for n, line in enumerate(response.text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append(_obj(json.loads(line), f"export line {n}"))
            except json.JSONDecodeError:
                raise UnexpectedResponseError(f"export line {n} is not JSON") from None
        return records

    async def import_forest(self, forest: str, records: Sequence[Mapping[str, Any]] | str | bytes) -> JobAccepted:
        """Import NDJSON (records, or text/bytes as exported) into ``forest``; returns the queued job."""
        if isinstance(records, bytes):
            payload = records
        elif isinstance(records, str):
            payload = records.encode("utf-8")
        else:
            payload = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")
        data = await self._json(
            "POST",
            f"/v1/forests/{_seg(forest)}/import",
            content=payload,
            headers={"Content-Type": "application/x-ndjson"},
        )
        return _parse(JobAccepted.from_json, data, "import job")

    async def rematerialize(
        self,
        forest: str,
        *,
        embeddings: bool = False,
        summaries: bool = False,
        rebuild_trees: bool = False,
        k: int | None = None,
    ) -> JobAccepted:
        """Queue a re-materialisation of the forest's derived state (embeddings, summaries, trees with fan-out k)."""
        body: dict[str, Any] = {"embeddings": embeddings, "summaries": summaries, "rebuild_trees": rebuild_trees}
        if k is not None:
            body["k"] = k
        data = await self._json("POST", f"/v1/forests/{_seg(forest)}/rematerialize", json_body=body)
        return _parse(JobAccepted.from_json, data, "rematerialize job")
