"""``MemForestClient``: an async Python client for the MemForest HTTP API.

One small interface, typed results (the wire models of :mod:`memforest.schemas`), one exception
tree::

    async with MemForestClient("http://127.0.0.1:8420", api_key) as mf:
        accepted = await mf.add_session("notes", {"id": "s1", "time": "2024-05-01T10:00:00Z", "turns": [...]})
        await mf.wait_job(accepted.job_id)
        result = await mf.query("notes", "Where did Alice move?")

Every failure is a :class:`~memforest.errors.MemForestError` (see :mod:`memforest.client.errors`);
an answer that does not match its model is an :class:`UnexpectedResponseError`. No ``httpx``
exception leaves this module.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Self, TypeVar, Unpack

import httpx
from pydantic import BaseModel

from memforest.client.agent import AgentMethods
from memforest.client.errors import (
    JobWaitTimeout,
    RequestTimeoutError,
    TransportError,
    UnexpectedResponseError,
    error_from_response,
)
from memforest.client.wire import QueryOptions, parse, query_body, seg
from memforest.errors import ConflictError
from memforest.schemas import (
    ApiKey,
    Fact,
    Forest,
    ForestDeleted,
    Health,
    ImportAccepted,
    Job,
    MergeAccepted,
    Node,
    Page,
    QueryResult,
    Readiness,
    RematAccepted,
    RetractReport,
    Session,
    SessionAccepted,
    SessionInput,
    SessionSummary,
    Tenant,
    Tree,
    session_to_json,
)

DEFAULT_URL = "http://127.0.0.1:8420"

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


_parse = parse
_seg = seg


class MemForestClient(AgentMethods):
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

    async def _page(self, path: str, item: type[M], what: str, params: Mapping[str, Any] | None = None) -> Page[M]:
        return _parse(Page[item], await self._json("GET", path, params=params), what + " page")  # type: ignore[valid-type]

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
        return _parse(Health, await self._json("GET", "/healthz"), "health").model_dump(mode="json")

    async def ready(self) -> dict[str, Any]:
        """``/readyz``: database reachable and migrated (ApiServerError with status 503 otherwise)."""
        return _parse(Readiness, await self._json("GET", "/readyz"), "readiness").model_dump(mode="json")

    # ------------------------------------------------------------ admin: tenants and keys

    async def create_tenant(self, name: str) -> Tenant:
        """Create a tenant (admin key)."""
        return _parse(Tenant, await self._json("POST", "/v1/tenants", json_body={"name": name}), "tenant")

    async def list_tenants(self) -> Page[Tenant]:
        """Every tenant (admin key)."""
        return await self._page("/v1/tenants", Tenant, "tenant")

    async def delete_tenant(self, tenant_id: str) -> None:
        """Delete a tenant and everything it owns (admin key)."""
        await self._request("DELETE", f"/v1/tenants/{_seg(tenant_id)}")

    async def create_key(self, tenant_id: str, scopes: Sequence[str] = ("read", "write")) -> ApiKey:
        """A new key for the tenant; ``ApiKey.key`` is the secret, shown only here (admin key)."""
        body = await self._json("POST", f"/v1/tenants/{_seg(tenant_id)}/keys", json_body={"scopes": list(scopes)})
        return _parse(ApiKey, body, "key")

    async def list_keys(self, tenant_id: str) -> Page[ApiKey]:
        """The tenant's keys, prefixes only (admin key)."""
        return await self._page(f"/v1/tenants/{_seg(tenant_id)}/keys", ApiKey, "key")

    async def revoke_key(self, tenant_id: str, key_id: str) -> None:
        """Revoke a key (admin key; revoking twice is harmless)."""
        await self._request("DELETE", f"/v1/tenants/{_seg(tenant_id)}/keys/{_seg(key_id)}")

    # ------------------------------------------------------------ forests

    async def create_forest(self, name: str) -> Forest:
        """Create a forest (ConflictError when the name is taken)."""
        return _parse(Forest, await self._json("POST", "/v1/forests", json_body={"name": name}), "forest")

    async def ensure_forest(self, name: str) -> Forest:
        """Create the forest unless it exists."""
        try:
            return await self.create_forest(name)
        except ConflictError:
            return Forest(name=name.strip())

    async def list_forests(self) -> Page[Forest]:
        """The tenant's forests."""
        return await self._page("/v1/forests", Forest, "forest")

    async def get_forest(self, name: str) -> Forest:
        """A forest with its counts."""
        return _parse(Forest, await self._json("GET", f"/v1/forests/{_seg(name)}"), "forest")

    async def delete_forest(self, name: str) -> ForestDeleted:
        """Forget a forest: every session, fact, tree and job in it (needs the ``admin`` scope)."""
        body = await self._json("DELETE", f"/v1/forests/{_seg(name)}")
        return _parse(ForestDeleted, body, "deleted forest")

    # ------------------------------------------------------------ sessions

    async def add_session(
        self, forest: str, session: Mapping[str, Any] | SessionInput, *, idempotency_key: str | None = None
    ) -> SessionAccepted:
        """Accept one session (native JSON object or a ``SessionInput``); a worker processes it."""
        body = session_to_json(session) if isinstance(session, SessionInput) else dict(session)
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key is not None else None
        data = await self._json("POST", f"/v1/forests/{_seg(forest)}/sessions", json_body=body, headers=headers)
        return _parse(SessionAccepted, data, "accepted session")

    async def list_sessions(self, forest: str, *, cursor: str | None = None, limit: int = 50) -> Page[SessionSummary]:
        """One page of sessions in the order they were accepted."""
        params = {"cursor": cursor, "limit": limit}
        return await self._page(f"/v1/forests/{_seg(forest)}/sessions", SessionSummary, "session", params)

    def iter_sessions(self, forest: str, *, page_size: int = 50) -> AsyncIterator[SessionSummary]:
        """Every session of the forest, page after page: ``async for s in mf.iter_sessions("f"): ...``."""
        return self._iterate(lambda c: self.list_sessions(forest, cursor=c, limit=page_size))

    async def get_session(self, forest: str, session_id: str) -> Session:
        """One session with its turns."""
        body = await self._json("GET", f"/v1/forests/{_seg(forest)}/sessions/{_seg(session_id)}")
        return _parse(Session, body, "session")

    # ------------------------------------------------------------ jobs

    async def get_job(self, job_id: str) -> Job:
        """A job's state, progress, result and errors."""
        return _parse(Job, await self._json("GET", f"/v1/jobs/{_seg(job_id)}"), "job")

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

    async def query(self, forest: str, query: str, **options: Unpack[QueryOptions]) -> QueryResult:
        """Time-stamped evidence for a question, best first. Options (``QueryOptions``): mode ("emb"
        or "llm"), top_k, as_of, time_from, time_to, scope, include_superseded, token_budget, and
        source_filter, which keeps only evidence from matching sources (``{"metadata": {...},
        "session_ids": [...], "speakers": [...]}``)."""
        body = query_body(query, **options)
        data = await self._json("POST", f"/v1/forests/{_seg(forest)}/query", json_body=body)
        return _parse(QueryResult, data, "query result")

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
        return await self._page(f"/v1/forests/{_seg(forest)}/facts", Fact, "fact", params)

    def iter_facts(self, forest: str, *, page_size: int = 50, **filters: Any) -> AsyncIterator[Fact]:
        """Every fact of the forest matching ``filters`` (the keywords of :meth:`list_facts`), page after page."""
        return self._iterate(lambda c: self.list_facts(forest, cursor=c, limit=page_size, **filters))

    async def get_fact(self, forest: str, fact_id: str | int) -> Fact:
        """One fact with its provenance, supersession chain and placements."""
        body = await self._json("GET", f"/v1/forests/{_seg(forest)}/facts/{_seg(str(fact_id))}")
        return _parse(Fact, body, "fact")

    async def list_trees(
        self, forest: str, *, kind: str | None = None, cursor: str | None = None, limit: int = 50
    ) -> Page[Tree]:
        """One page of the forest's trees in creation order, optionally of one kind (session, entity, scene)."""
        params = {"kind": kind, "cursor": cursor, "limit": limit}
        return await self._page(f"/v1/forests/{_seg(forest)}/trees", Tree, "tree", params)

    def iter_trees(self, forest: str, *, kind: str | None = None, page_size: int = 50) -> AsyncIterator[Tree]:
        """Every tree of the forest (of one kind), page after page."""
        return self._iterate(lambda c: self.list_trees(forest, kind=kind, cursor=c, limit=page_size))

    async def get_node(self, forest: str, node_id: str | int, *, cursor: str | None = None, limit: int = 50) -> Node:
        """One node with a page of its children (``cursor``: a previous ``children_next_cursor``)."""
        params = {"cursor": cursor, "limit": limit}
        body = await self._json("GET", f"/v1/forests/{_seg(forest)}/nodes/{_seg(str(node_id))}", params=params)
        return _parse(Node, body, "node")

    # ------------------------------------------------------------ lifecycle

    async def retract_session(self, forest: str, session_id: str) -> RetractReport:
        """Retract a session and what only it supports; the server's report (``report["facts_removed"]`` works too)."""
        body = await self._json("DELETE", f"/v1/forests/{_seg(forest)}/sessions/{_seg(session_id)}")
        return _parse(RetractReport, body, "retract report")

    async def retract_turn(self, forest: str, session_id: str, turn_id: str) -> RetractReport:
        """Retract one turn of a session (its client id, or ``<session>#<seq>``); the server's report."""
        path = f"/v1/forests/{_seg(forest)}/sessions/{_seg(session_id)}/turns/{_seg(turn_id)}"
        return _parse(RetractReport, await self._json("DELETE", path), "retract report")

    async def merge_forest(self, forest: str, from_forest: str) -> MergeAccepted:
        """Queue a merge of ``from_forest`` (unchanged) into ``forest``, both of the key's tenant."""
        data = await self._json("POST", f"/v1/forests/{_seg(forest)}/merge", json_body={"from": from_forest})
        return _parse(MergeAccepted, data, "merge job")

    async def export_forest(self, forest: str, *, with_derived: bool = False) -> list[dict[str, Any]]:
        """The forest as NDJSON records (one dict per line)."""
        params = {"with_derived": "true" if with_derived else "false"}
        response = await self._request("GET", f"/v1/forests/{_seg(forest)}/export", params=params)
        records: list[dict[str, Any]] = []
        for n, line in enumerate(response.text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                raise UnexpectedResponseError(f"export line {n} is not JSON") from None
            if not isinstance(record, dict):
                raise UnexpectedResponseError(f"export line {n} is not a JSON object")
            records.append(record)
        return records

    async def import_forest(self, forest: str, records: Sequence[Mapping[str, Any]] | str | bytes) -> ImportAccepted:
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
        return _parse(ImportAccepted, data, "import job")

    async def rematerialize(
        self,
        forest: str,
        *,
        embeddings: bool = False,
        summaries: bool = False,
        rebuild_trees: bool = False,
        k: int | None = None,
    ) -> RematAccepted:
        """Queue a re-materialisation of the forest's derived state (embeddings, summaries, trees with fan-out k)."""
        body: dict[str, Any] = {"embeddings": embeddings, "summaries": summaries, "rebuild_trees": rebuild_trees}
        if k is not None:
            body["k"] = k
        data = await self._json("POST", f"/v1/forests/{_seg(forest)}/rematerialize", json_body=body)
        return _parse(RematAccepted, data, "rematerialize job")
