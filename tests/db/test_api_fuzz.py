"""Fuzz every endpoint of the app's OpenAPI schema (schemathesis strategies, positive and negative
data) against a real app on a real database: no request ever gets a 5xx, and every response with a
body is JSON (``application/json`` or ``application/problem+json``).

Requests carry a full tenant key, a read-only key, the admin key, a bogus key or none; path
parameters are sometimes real objects (forest, session, fact, node, tree, tenant ids) so the
handlers get past their lookups. ``/mcp`` and ``/metrics`` are not JSON APIs and are left out.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from pydantic import SecretStr
from schemathesis.core.result import Ok
from schemathesis.generation import GenerationMode
from support import ADMIN_AUTH, ADMIN_KEY, admin_settings, app_client, session_input

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.pipeline.service import ingest_sessions
from memforest.servers import create_app
from memforest.settings import Settings
from memforest.store.sql import fetch_all

EXCLUDED = r"^/(mcp|metrics)"
JSON_TYPES = ("application/json", "application/problem+json")
NDJSON = "application/x-ndjson"
MAX_EXAMPLES = 400


def _operations() -> list[Any]:
    """Every API operation in the app's schema (the schema does not need a database)."""
    app = create_app(Settings(admin_key=SecretStr(ADMIN_KEY)), start_worker=False)
    schema = schemathesis.openapi.from_dict(app.openapi()).exclude(path_regex=EXCLUDED)
    results = list(schema.get_all_operations())
    operations = [r.ok() for r in results if isinstance(r, Ok)]
    assert len(operations) == len(results), "the app's OpenAPI schema has operations schemathesis cannot read"
    return operations


OPERATIONS = _operations()


@dataclass
class Target:
    """The app under test, its keys, and real values for path parameters."""

    client: httpx.AsyncClient
    auth: list[str | None]
    known: dict[str, list[str]] = field(default_factory=dict)


async def _known_values(db: Database, tenant_id: uuid.UUID) -> dict[str, list[str]]:
    async with db.tenant(tenant_id) as conn:
        p = {"t": tenant_id}
        facts = await fetch_all(conn, "SELECT fact_id FROM facts WHERE tenant_id = :t ORDER BY fact_id LIMIT 5", p)
        nodes = await fetch_all(conn, "SELECT node_id FROM nodes WHERE tenant_id = :t ORDER BY node_id LIMIT 5", p)
        jobs = await fetch_all(conn, "SELECT job_id FROM jobs WHERE tenant_id = :t LIMIT 3", p)
        keys = await fetch_all(conn, "SELECT key_id FROM api_keys WHERE tenant_id = :t", p)
    return {
        "forest": ["f"],
        "session_id": ["s1", "s2"],
        "fact_id": [str(r["fact_id"]) for r in facts],
        "node_id": [str(r["node_id"]) for r in nodes],
        "job_id": [str(r["job_id"]) for r in jobs],
        "tenant_id": [str(tenant_id)],
        "key_id": [str(r["key_id"]) for r in keys],
    }


@pytest.fixture
async def target(settings: Settings, db: Database) -> AsyncIterator[Target]:
    s = admin_settings(settings)
    async with app_client(s, db) as (_, client):
        admin = ADMIN_AUTH
        tid = uuid.UUID((await client.post("/v1/tenants", json={"name": "fuzz"}, headers=admin)).json()["id"])
        keys = []
        for scopes in (["read", "write", "admin"], ["read"]):
            r = await client.post(f"/v1/tenants/{tid}/keys", json={"scopes": scopes}, headers=admin)
            keys.append(r.json()["key"])
        turns = ("I live in Oslo.", "Nice.", "I adopted a cat named Pixel.", "Lovely.")
        sessions = [
            session_input(
                sid, datetime(2023, month, 5, 9, tzinfo=UTC), turns, ("Nora", "Theo"), role=None, turn_ids=False
            )
            for sid, month in (("s1", 1), ("s2", 4))
        ]
        backends = build_backends(s)
        try:
            await ingest_sessions(db, s, backends, tid, "f", sessions, job_concurrency=1)
        finally:
            await backends.aclose()
        queued = {"id": "s3", "time": "2023-06-01T00:00:00Z", "turns": [{"speaker": "Nora", "text": "Hello."}]}
        r = await client.post("/v1/forests/f/sessions", json=queued, headers={"Authorization": f"Bearer {keys[0]}"})
        assert r.status_code == 202, r.text  # a queued job to look at
        auth = [keys[0], keys[0], keys[0], keys[1], ADMIN_KEY, ADMIN_KEY, "mf_" + "x" * 43, None]
        yield Target(client, auth, await _known_values(db, tid))


# Values that have broken handlers before: NUL (PostgreSQL text cannot hold it), lone surrogates
# (not UTF-8), times whose UTC form leaves the datetime range, LIKE wildcards, huge numbers.
NASTY = (
    "\x00", "a\x00b", "", " ", "%", "_", "\\", "'", "😀", "x" * 3000, "-1", "99999999999999999999", "NaN",
    "0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00", "2024-02-30T00:00:00Z",
)  # fmt: skip
BODY_ONLY = ("\ud800", "a\udfffb")  # cannot travel in a URL
TIMES = ("2024-01-01T00:00:00Z", "0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00", "x")


def _text(in_body: bool) -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=20), st.sampled_from(NASTY + (BODY_ONLY if in_body else ())))


@st.composite
def _mutated(draw: st.DrawFn, value: Any, in_body: bool) -> Any:
    """``value`` with some of its strings (at any depth) swapped for nasty ones."""
    if isinstance(value, dict):
        return {k: draw(_mutated(v, in_body)) for k, v in value.items()}
    if isinstance(value, list):
        return [draw(_mutated(v, in_body)) for v in value]
    if isinstance(value, str) and draw(st.integers(0, 3)) == 0:
        return draw(_text(in_body))
    return value


def session_bodies() -> st.SearchStrategy[dict[str, Any]]:
    """Well-shaped sessions (the schema only says ``object``) with edge-case fields."""
    text = _text(True)
    turn = st.fixed_dictionaries(
        {"speaker": text, "text": text}, optional={"id": text, "role": text, "time": st.sampled_from(TIMES)}
    )
    return st.fixed_dictionaries(
        {"id": text, "time": st.sampled_from(TIMES), "turns": st.lists(turn, min_size=1, max_size=3)},
        optional={"metadata": st.dictionaries(st.text(max_size=5), text, max_size=2)},
    )


def _negatable(op: Any) -> bool:
    """Whether schema-violating data exists for ``op`` (any string is a valid path value)."""
    if len(list(op.query)) or len(list(op.headers)):
        return True
    return any("properties" in (b.definition.get("schema") or {}) for b in op.body)


@st.composite
def requests(draw: st.DrawFn, known: dict[str, list[str]]) -> tuple[Any, Any]:
    """A generated case for a random operation, sometimes with real path parameters or nasty values."""
    op = draw(st.sampled_from(OPERATIONS))
    mode = GenerationMode.NEGATIVE if _negatable(op) and draw(st.integers(0, 2)) == 0 else GenerationMode.POSITIVE
    names = re.findall(r"{(\w+)}", op.path)
    fixed: dict[str, str] = {}
    if names and op.method.upper() != "DELETE" and draw(st.integers(0, 3)):
        for name in names:
            if known.get(name) and draw(st.integers(0, 3)):
                fixed[name] = draw(st.sampled_from(known[name]))
    case = draw(op.as_strategy(generation_mode=mode, path_parameters=fixed or None))
    if draw(st.booleans()):
        case.path_parameters = {  # generated path values come percent-encoded; so must ours
            k: v if k in fixed or draw(st.booleans()) else quote(draw(_text(False)), safe="")
            for k, v in case.path_parameters.items()
        }
        case.query = draw(_mutated(dict(case.query or {}), False))
        if isinstance(case.body, (dict, list)):
            case.body = draw(_mutated(case.body, True))
    if op.path.endswith("/sessions") and op.method.upper() == "POST" and draw(st.booleans()):
        case.body = draw(session_bodies())
    return op, case


async def _send(target: Target, case: Any, key: str | None) -> httpx.Response:
    raw = case.body
    if isinstance(raw, (dict, list)):  # we encode JSON ourselves: escaped, so lone surrogates travel too
        case.body = {}
    kwargs = case.as_transport_kwargs(base_url="http://test")
    case.body = raw
    headers = {k: v for k, v in (kwargs.get("headers") or {}).items() if k.lower() not in ("authorization", "host")}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    body: dict[str, Any] = {}
    if "json" in kwargs:
        body["content"] = json.dumps(raw if isinstance(raw, (dict, list)) else kwargs["json"]).encode("utf-8")
        headers.setdefault("Content-Type", "application/json")
    elif kwargs.get("data") is not None:
        data = kwargs["data"]
        body["content"] = data if isinstance(data, bytes) else str(data).encode("utf-8")
    return await target.client.request(
        kwargs["method"], kwargs["url"], params=kwargs.get("params"), headers=headers, **body
    )


LATE = "9999-12-31T23:59:59-05:00"  # valid, but past year 9999 in UTC


def _session(sid: str = "e", time: str = "2024-01-01T00:00:00Z", **turn: str) -> dict[str, Any]:
    return {"id": sid, "time": time, "turns": [{"speaker": "a", "text": "b", **turn}]}


EDGE_CASES: list[tuple[str, str, Any]] = [
    ("GET", "/v1/forests/a%00b", None),
    ("GET", "/v1/forests/a%00b/sessions", None),
    ("GET", "/v1/forests/a%00b/facts", None),
    ("GET", "/v1/forests/a%00b/trees", None),
    ("GET", "/v1/forests/f/sessions/x%00y", None),
    ("GET", "/v1/forests/f/facts?entity=a%00b", None),
    ("GET", "/v1/forests/f/facts?session=a%00b&q=%00", None),
    ("GET", "/v1/forests/f/facts?valid_at=0001-01-01T00:00:00%2B05:00", None),
    ("GET", "/v1/forests/f/facts?as_of=9999-12-31T23:59:59-05:00", None),
    ("POST", "/v1/forests", {"name": "a\x00b"}),
    ("POST", "/v1/forests", {"name": "a\ud800"}),
    ("POST", "/v1/forests/f/query", {"query": "a\x00b"}),
    ("POST", "/v1/query", {"query": "x", "forests": ["a\ud800"]}),
    ("POST", "/v1/query", {"query": "x", "forests": ["f", "a\x00b"]}),
    ("POST", "/v1/forests/f/query", {"query": "x", "as_of": "0001-01-01T00:00:00+05:00"}),
    ("POST", "/v1/forests/f/query", {"query": "x", "time_to": "9999-12-31T23:59:59-05:00"}),
    ("POST", "/v1/forests/f/sessions", _session("e1", "0001-01-01T00:00:00+05:00")),
    ("POST", "/v1/forests/f/sessions", _session("e2") | {"turns": [{"speaker": "a", "text": "b", "time": LATE}]}),
    ("POST", "/v1/forests/f/sessions", _session("e\x00")),
    ("POST", "/v1/forests/f/sessions", _session("e4", text="b\x00")),
    ("POST", "/v1/forests/f/sessions", _session("e5") | {"metadata": {"k": "\x00"}}),
    ("POST", "/v1/forests/f/sessions", _session("e6\ud800")),
]


async def test_known_edge_values_never_5xx_and_store_nothing(target: Target) -> None:
    headers = {"Authorization": f"Bearer {target.auth[0]}", "Content-Type": "application/json"}
    before = (await target.client.get("/v1/forests/f", headers=headers)).json()["counts"]
    for method, path, body in EDGE_CASES:
        content = json.dumps(body).encode("utf-8") if body is not None else None
        r = await target.client.request(method, path, content=content, headers=headers)
        assert r.status_code < 500, (method, path, body, r.status_code, r.text[:300])
        assert r.headers["content-type"].startswith(JSON_TYPES)
        assert r.status_code >= 400 or method == "GET" or path.endswith("/query"), (method, path, r.text[:300])
    admin = {**ADMIN_AUTH, "Content-Type": "application/json"}
    r = await target.client.post("/v1/tenants", content=json.dumps({"name": "t\x00"}).encode(), headers=admin)
    assert 400 <= r.status_code < 500, r.text
    assert (await target.client.get("/v1/forests/f", headers=headers)).json()["counts"] == before
    assert [f["name"] for f in (await target.client.get("/v1/forests", headers=headers)).json()["items"]] == ["f"]


def test_schema_covers_the_browse_endpoints() -> None:
    labels = {f"{op.method.upper()} {op.path}" for op in OPERATIONS}
    for label in (
        "GET /v1/forests/{forest}/facts",
        "GET /v1/forests/{forest}/facts/{fact_id}",
        "GET /v1/forests/{forest}/trees",
        "GET /v1/forests/{forest}/nodes/{node_id}",
        "POST /v1/forests/{forest}/sessions",
        "GET /v1/tenants",
    ):
        assert label in labels
    assert not any(re.match(EXCLUDED, op.path) for op in OPERATIONS)


@hsettings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
async def test_no_5xx_anywhere(target: Target, data: st.DataObject) -> None:
    op, case = data.draw(requests(target.known), label="case")
    key = data.draw(st.sampled_from(target.auth), label="key")
    r = await _send(target, case, key)
    where = f"{op.method.upper()} {op.path} -> {r.request.method} {r.request.url}"
    assert r.status_code < 500, f"{where}: {r.status_code} {r.text[:500]}"
    if r.status_code == 204 or 300 <= r.status_code < 400:  # no body; redirects (trailing slash)
        return
    content_type = r.headers.get("content-type", "")
    if r.status_code < 300 and content_type.startswith(NDJSON):  # streamed exports: one JSON value per line
        for line in r.text.splitlines():
            json.loads(line)
        return
    assert content_type.startswith(JSON_TYPES), f"{where}: {content_type}"
    r.json()
