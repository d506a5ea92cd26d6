"""The client's operations, written once as generators of steps (:mod:`memforest.client.steps`)
and run by both clients: admin (tenants and keys), forests, sessions, jobs, query, browse and
lifecycle. The agent-facing operations are in :mod:`memforest.client.agent`."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar, Unpack

from pydantic import BaseModel

from memforest.client.agent import AgentOperations
from memforest.client.errors import JobWaitTimeout, UnexpectedResponseError
from memforest.client.steps import PageFetch, Pause, Steps, operation, pages, request, request_json
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

M = TypeVar("M", bound=BaseModel)


def _page(path: str, item: type[M], what: str, params: Mapping[str, Any] | None = None) -> Steps[Page[M]]:
    """One page of ``item`` models read from ``path``."""
    data = yield from request_json("GET", path, params=params)
    return parse(Page[item], data, what + " page")  # type: ignore[valid-type]


class Operations(AgentOperations):
    """Every operation of the API; mixed into ``MemForestClient`` (async) and ``MemForestSyncClient``."""

    @operation
    def health(self) -> Steps[dict[str, Any]]:
        """``/healthz``: the process answers."""
        return parse(Health, (yield from request_json("GET", "/healthz")), "health").model_dump(mode="json")

    @operation
    def ready(self) -> Steps[dict[str, Any]]:
        """``/readyz``: database reachable and migrated (ApiServerError with status 503 otherwise)."""
        return parse(Readiness, (yield from request_json("GET", "/readyz")), "readiness").model_dump(mode="json")

    # ------------------------------------------------------------ admin: tenants and keys

    @operation
    def create_tenant(self, name: str) -> Steps[Tenant]:
        """Create a tenant (admin key)."""
        return parse(Tenant, (yield from request_json("POST", "/v1/tenants", json_body={"name": name})), "tenant")

    @operation
    def list_tenants(self) -> Steps[Page[Tenant]]:
        """Every tenant (admin key)."""
        return (yield from _page("/v1/tenants", Tenant, "tenant"))

    @operation
    def delete_tenant(self, tenant_id: str) -> Steps[None]:
        """Delete a tenant and everything it owns (admin key)."""
        yield from request("DELETE", f"/v1/tenants/{seg(tenant_id)}")

    @operation
    def create_key(self, tenant_id: str, scopes: Sequence[str] = ("read", "write")) -> Steps[ApiKey]:
        """A new key for the tenant; ``ApiKey.key`` is the secret, shown only here (admin key)."""
        body = yield from request_json("POST", f"/v1/tenants/{seg(tenant_id)}/keys", json_body={"scopes": list(scopes)})
        return parse(ApiKey, body, "key")

    @operation
    def list_keys(self, tenant_id: str) -> Steps[Page[ApiKey]]:
        """The tenant's keys, prefixes only (admin key)."""
        return (yield from _page(f"/v1/tenants/{seg(tenant_id)}/keys", ApiKey, "key"))

    @operation
    def revoke_key(self, tenant_id: str, key_id: str) -> Steps[None]:
        """Revoke a key (admin key; revoking twice is harmless)."""
        yield from request("DELETE", f"/v1/tenants/{seg(tenant_id)}/keys/{seg(key_id)}")

    # ------------------------------------------------------------ forests

    @operation
    def create_forest(self, name: str) -> Steps[Forest]:
        """Create a forest (ConflictError when the name is taken)."""
        return parse(Forest, (yield from request_json("POST", "/v1/forests", json_body={"name": name})), "forest")

    @operation
    def ensure_forest(self, name: str) -> Steps[Forest]:
        """Create the forest unless it exists."""
        try:
            return (yield from Operations.create_forest.steps(self, name))
        except ConflictError:
            return Forest(name=name.strip())

    @operation
    def list_forests(self) -> Steps[Page[Forest]]:
        """The tenant's forests."""
        return (yield from _page("/v1/forests", Forest, "forest"))

    @operation
    def get_forest(self, name: str) -> Steps[Forest]:
        """A forest with its counts."""
        return parse(Forest, (yield from request_json("GET", f"/v1/forests/{seg(name)}")), "forest")

    @operation
    def delete_forest(self, name: str) -> Steps[ForestDeleted]:
        """Forget a forest: every session, fact, tree and job in it (needs the ``admin`` scope)."""
        body = yield from request_json("DELETE", f"/v1/forests/{seg(name)}")
        return parse(ForestDeleted, body, "deleted forest")

    # ------------------------------------------------------------ sessions

    @operation
    def add_session(
        self, forest: str, session: Mapping[str, Any] | SessionInput, *, idempotency_key: str | None = None
    ) -> Steps[SessionAccepted]:
        """Accept one session (native JSON object or a ``SessionInput``); a worker processes it."""
        body = session_to_json(session) if isinstance(session, SessionInput) else dict(session)
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key is not None else None
        data = yield from request_json("POST", f"/v1/forests/{seg(forest)}/sessions", json_body=body, headers=headers)
        return parse(SessionAccepted, data, "accepted session")

    @operation
    def list_sessions(self, forest: str, *, cursor: str | None = None, limit: int = 50) -> Steps[Page[SessionSummary]]:
        """One page of sessions in the order they were accepted."""
        params = {"cursor": cursor, "limit": limit}
        return (yield from _page(f"/v1/forests/{seg(forest)}/sessions", SessionSummary, "session", params))

    @pages
    def iter_sessions(self, forest: str, *, page_size: int = 50) -> PageFetch[SessionSummary]:
        """Every session of the forest, page after page: ``for s in mf.iter_sessions("f")``
        (``async for`` on the async client)."""
        return lambda cursor: Operations.list_sessions.steps(self, forest, cursor=cursor, limit=page_size)

    @operation
    def get_session(self, forest: str, session_id: str) -> Steps[Session]:
        """One session with its turns."""
        body = yield from request_json("GET", f"/v1/forests/{seg(forest)}/sessions/{seg(session_id)}")
        return parse(Session, body, "session")

    # ------------------------------------------------------------ jobs

    @operation
    def get_job(self, job_id: str) -> Steps[Job]:
        """A job's state, progress, result and errors."""
        return parse(Job, (yield from request_json("GET", f"/v1/jobs/{seg(job_id)}")), "job")

    @operation
    def wait_job(self, job_id: str, timeout: float = 300.0, *, poll_interval: float = 0.2) -> Steps[Job]:
        """Poll until the job succeeded or failed and return it (JobWaitTimeout after ``timeout`` seconds).

        A failed job is returned, not raised: check ``job.succeeded``.
        """
        deadline = time.monotonic() + timeout
        delay = min(0.05, poll_interval)
        while True:
            job = yield from Operations.get_job.steps(self, job_id)
            if job.done:
                return job
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise JobWaitTimeout(f"job {job_id} still {job.state} after {timeout:g}s", job)
            yield Pause(min(delay, remaining))
            delay = min(delay * 2, poll_interval)

    # ------------------------------------------------------------ query

    @operation
    def query(self, forest: str, query: str, **options: Unpack[QueryOptions]) -> Steps[QueryResult]:
        """Time-stamped evidence for a question, best first. Options (``QueryOptions``): mode ("emb"
        or "llm"), top_k, as_of, time_from, time_to, scope, include_superseded, token_budget, and
        source_filter, which keeps only evidence from matching sources (``{"metadata": {...},
        "session_ids": [...], "speakers": [...]}``)."""
        body = query_body(query, **options)
        data = yield from request_json("POST", f"/v1/forests/{seg(forest)}/query", json_body=body)
        return parse(QueryResult, data, "query result")

    # ------------------------------------------------------------ browse: facts, trees, nodes

    @operation
    def list_facts(
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
        speaker: str | None = None,
        valid_from: datetime | None = None,
        valid_to: datetime | None = None,
        cursor: str | None = None,
        limit: int = 50,
    ) -> Steps[Page[Fact]]:
        """One page of the forest's facts in time order, filtered (kind, entity, source session, speaker,
        validity at a time or overlapping a window, text)."""
        params = {
            "kind": kind,
            "entity": entity,
            "session": session,
            "valid_at": valid_at.isoformat() if valid_at else None,
            "as_of": as_of.isoformat() if as_of else None,
            "include_superseded": "true" if include_superseded else None,
            "include_retracted": "true" if include_retracted else None,
            "q": q,
            "speaker": speaker,
            "valid_from": valid_from.isoformat() if valid_from else None,
            "valid_to": valid_to.isoformat() if valid_to else None,
            "cursor": cursor,
            "limit": limit,
        }
        return (yield from _page(f"/v1/forests/{seg(forest)}/facts", Fact, "fact", params))

    @pages
    def iter_facts(self, /, forest: str, *, page_size: int = 50, **filters: Any) -> PageFetch[Fact]:
        """Every fact of the forest matching ``filters`` (the keywords of :meth:`list_facts`), page after page."""
        return lambda cursor: Operations.list_facts.steps(self, forest, cursor=cursor, limit=page_size, **filters)

    @operation
    def get_fact(self, forest: str, fact_id: str | int) -> Steps[Fact]:
        """One fact with its provenance, supersession chain and placements."""
        body = yield from request_json("GET", f"/v1/forests/{seg(forest)}/facts/{seg(str(fact_id))}")
        return parse(Fact, body, "fact")

    @operation
    def list_trees(
        self, forest: str, *, kind: str | None = None, cursor: str | None = None, limit: int = 50
    ) -> Steps[Page[Tree]]:
        """One page of the forest's trees in creation order, optionally of one kind (session, entity, scene)."""
        params = {"kind": kind, "cursor": cursor, "limit": limit}
        return (yield from _page(f"/v1/forests/{seg(forest)}/trees", Tree, "tree", params))

    @pages
    def iter_trees(self, forest: str, *, kind: str | None = None, page_size: int = 50) -> PageFetch[Tree]:
        """Every tree of the forest (of one kind), page after page."""
        return lambda cursor: Operations.list_trees.steps(self, forest, kind=kind, cursor=cursor, limit=page_size)

    @operation
    def get_node(self, forest: str, node_id: str | int, *, cursor: str | None = None, limit: int = 50) -> Steps[Node]:
        """One node with a page of its children (``cursor``: a previous ``children_next_cursor``)."""
        params = {"cursor": cursor, "limit": limit}
        body = yield from request_json("GET", f"/v1/forests/{seg(forest)}/nodes/{seg(str(node_id))}", params=params)
        return parse(Node, body, "node")

    # ------------------------------------------------------------ lifecycle

    @operation
    def retract_session(self, forest: str, session_id: str) -> Steps[RetractReport]:
        """Retract a session and what only it supports; the server's report (``report["facts_removed"]`` works too)."""
        body = yield from request_json("DELETE", f"/v1/forests/{seg(forest)}/sessions/{seg(session_id)}")
        return parse(RetractReport, body, "retract report")

    @operation
    def retract_turn(self, forest: str, session_id: str, turn_id: str) -> Steps[RetractReport]:
        """Retract one turn of a session (its client id, or ``<session>#<seq>``); the server's report."""
        path = f"/v1/forests/{seg(forest)}/sessions/{seg(session_id)}/turns/{seg(turn_id)}"
        return parse(RetractReport, (yield from request_json("DELETE", path)), "retract report")

    @operation
    def merge_forest(self, forest: str, from_forest: str) -> Steps[MergeAccepted]:
        """Queue a merge of ``from_forest`` (unchanged) into ``forest``, both of the key's tenant."""
        data = yield from request_json("POST", f"/v1/forests/{seg(forest)}/merge", json_body={"from": from_forest})
        return parse(MergeAccepted, data, "merge job")

    @operation
    def export_forest(self, forest: str, *, with_derived: bool = False) -> Steps[list[dict[str, Any]]]:
        """The forest as NDJSON records (one dict per line)."""
        params = {"with_derived": "true" if with_derived else "false"}
        response = yield from request("GET", f"/v1/forests/{seg(forest)}/export", params=params)
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

    @operation
    def import_forest(self, forest: str, records: Sequence[Mapping[str, Any]] | str | bytes) -> Steps[ImportAccepted]:
        """Import NDJSON (records, or text/bytes as exported) into ``forest``; returns the queued job."""
        if isinstance(records, bytes):
            payload = records
        elif isinstance(records, str):
            payload = records.encode("utf-8")
        else:
            payload = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")
        data = yield from request_json(
            "POST",
            f"/v1/forests/{seg(forest)}/import",
            content=payload,
            headers={"Content-Type": "application/x-ndjson"},
        )
        return parse(ImportAccepted, data, "import job")

    @operation
    def rematerialize(
        self,
        forest: str,
        *,
        embeddings: bool = False,
        summaries: bool = False,
        rebuild_trees: bool = False,
        k: int | None = None,
    ) -> Steps[RematAccepted]:
        """Queue a re-materialisation of the forest's derived state (embeddings, summaries, trees with fan-out k)."""
        body: dict[str, Any] = {"embeddings": embeddings, "summaries": summaries, "rebuild_trees": rebuild_trees}
        if k is not None:
            body["k"] = k
        data = yield from request_json("POST", f"/v1/forests/{seg(forest)}/rematerialize", json_body=body)
        return parse(RematAccepted, data, "rematerialize job")
