"""Isolation property: random operations by three tenants; no response ever carries another
tenant's forest names, session ids or job ids, and touching them (forests, sessions, jobs, browse
listings, tree nodes, facts) is 404 as if absent."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from support import admin_settings, app_client, new_tenant, session_input, tenant_key

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.pipeline.service import ingest_sessions
from memforest.settings import Settings

N_TENANTS = 3
OPS = (
    "create_forest",
    "ingest",
    "get_forest",
    "list_forests",
    "list_sessions",
    "get_session",
    "get_job",
    "query",
    "delete_forest",
    "browse",
    "probe",
)

op_strategy = st.tuples(
    st.integers(0, N_TENANTS - 1), st.sampled_from(OPS), st.integers(0, 2), st.integers(0, N_TENANTS - 1)
)


class World:
    """What each tenant owns, as far as the test knows (names and ids are globally unique tokens)."""

    def __init__(self, client: httpx.AsyncClient, keys: list[str]) -> None:
        self.client = client
        self.keys = keys
        self.forests: list[set[str]] = [set() for _ in keys]
        self.sessions: list[dict[str, str]] = [{} for _ in keys]  # session id -> forest
        self.jobs: list[dict[str, str]] = [{} for _ in keys]  # job id -> forest
        self.nodes: list[dict[str, str]] = [{} for _ in keys]  # node id -> forest (seen through browse)
        self.names: list[list[str]] = [[f"f{i}-{uuid.uuid4().hex[:8]}-{j}" for j in range(3)] for i in range(len(keys))]

    def secrets_of_others(self, me: int) -> list[str]:
        out: list[str] = []
        for i in range(len(self.keys)):
            if i != me:
                out += self.names[i] + list(self.sessions[i]) + list(self.jobs[i])
        return out

    async def request(self, me: int, method: str, path: str, body: Any = None) -> httpx.Response:
        r = await self.client.request(method, path, json=body, headers={"Authorization": f"Bearer {self.keys[me]}"})
        assert r.status_code < 500, r.text
        for secret in self.secrets_of_others(me):
            if secret not in path:
                assert secret not in r.text, (method, path, r.text)
        return r

    async def step(self, me: int, op: str, idx: int, other: int) -> None:
        name = self.names[me][idx]
        if op == "create_forest":
            r = await self.request(me, "POST", "/v1/forests", {"name": name})
            assert r.status_code == (409 if name in self.forests[me] else 201)
            self.forests[me].add(name)
        elif op == "ingest":
            sid = f"s{me}-{uuid.uuid4().hex[:8]}"
            body = {"id": sid, "time": "2024-01-02T03:04:05Z", "turns": [{"speaker": "u", "text": f"hello {sid}"}]}
            r = await self.request(me, "POST", f"/v1/forests/{name}/sessions", body)
            assert r.status_code == 202  # a forest that does not exist yet is created on the first write
            self.forests[me].add(name)
            self.sessions[me][sid] = name
            self.jobs[me][r.json()["job_id"]] = name
        elif op in ("get_forest", "list_sessions", "query"):
            if op == "query":
                r = await self.request(me, "POST", f"/v1/forests/{name}/query", {"query": "hello"})
            else:
                suffix = "/sessions" if op == "list_sessions" else ""
                r = await self.request(me, "GET", f"/v1/forests/{name}{suffix}")
            assert r.status_code == (200 if name in self.forests[me] else 404)
        elif op == "list_forests":
            r = await self.request(me, "GET", "/v1/forests")
            assert {f["name"] for f in r.json()["items"]} == self.forests[me]
        elif op == "get_session":
            for sid, forest in list(self.sessions[me].items())[:2]:
                r = await self.request(me, "GET", f"/v1/forests/{forest}/sessions/{sid}")
                assert r.status_code == 200
        elif op == "get_job":
            for job in list(self.jobs[me])[:2]:
                assert (await self.request(me, "GET", f"/v1/jobs/{job}")).status_code == 200
        elif op == "delete_forest":
            r = await self.request(me, "DELETE", f"/v1/forests/{name}")
            assert r.status_code == (200 if name in self.forests[me] else 404)
            self.forests[me].discard(name)
            self.sessions[me] = {s: f for s, f in self.sessions[me].items() if f != name}
            self.jobs[me] = {j: f for j, f in self.jobs[me].items() if f != name}  # forget drops its jobs
            self.nodes[me] = {n: f for n, f in self.nodes[me].items() if f != name}
        elif op == "browse":
            trees = await self.request(me, "GET", f"/v1/forests/{name}/trees")
            facts = await self.request(me, "GET", f"/v1/forests/{name}/facts")
            assert trees.status_code == facts.status_code == (200 if name in self.forests[me] else 404)
            if trees.status_code == 200:
                for tree in trees.json()["items"]:
                    assert tree["kind"] == "session" and tree["root_node_id"] is not None
                    self.nodes[me][tree["root_node_id"]] = name
                for node, forest in list(self.nodes[me].items())[:2]:
                    r = await self.request(me, "GET", f"/v1/forests/{forest}/nodes/{node}")
                    assert r.status_code == 200 and r.json()["tree"]["kind"] == "session"
        elif op == "probe" and other != me:
            # everything of another tenant looks absent, and stays untouched
            for forest in self.names[other]:
                for method, path, payload in [
                    ("GET", f"/v1/forests/{forest}", None),
                    ("GET", f"/v1/forests/{forest}/sessions", None),
                    ("POST", f"/v1/forests/{forest}/query", {"query": "hello"}),
                    ("GET", f"/v1/forests/{forest}/facts", None),
                    ("GET", f"/v1/forests/{forest}/trees", None),
                ]:
                    assert (await self.request(me, method, path, payload)).status_code == 404
            for sid, forest in list(self.sessions[other].items())[:2]:
                r = await self.request(me, "GET", f"/v1/forests/{forest}/sessions/{sid}")
                assert r.status_code == 404
            for job in list(self.jobs[other])[:2]:
                assert (await self.request(me, "GET", f"/v1/jobs/{job}")).status_code == 404
            # another tenant's node ids, under its forest names and under my own forests alike
            for node, forest in list(self.nodes[other].items())[:2]:
                for f in (forest, *sorted(self.forests[me])[:1]):
                    assert (await self.request(me, "GET", f"/v1/forests/{f}/nodes/{node}")).status_code == 404


@pytest.fixture
async def world_factory(api_settings: Settings, db: Database) -> AsyncIterator[Any]:
    async with app_client(api_settings, db) as (_, client):

        async def make() -> World:
            keys = []
            for _ in range(N_TENANTS):
                _, key = await new_tenant(client, f"t-{uuid.uuid4().hex}", ["read", "write", "admin"])
                keys.append(key)
            return World(client, keys)

        yield make


@hsettings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(op_strategy, min_size=5, max_size=25))
async def test_isolation_property(world_factory: Any, ops: list[tuple[int, str, int, int]]) -> None:
    world = await world_factory()
    for me, op, idx, other in ops:
        await world.step(me, op, idx, other)
    for me in range(N_TENANTS):
        for other in range(N_TENANTS):
            await world.step(me, "probe", 0, other)


async def _ingest(db: Database, settings: Settings, tenant_id: uuid.UUID, sid: str, texts: list[str]) -> None:
    when = datetime(2023, 2, 1, 10, tzinfo=UTC)
    session = session_input(sid, when, texts, ("Ines", "Omar"), role=None, turn_ids=False)
    backends = build_backends(settings)
    try:
        report = await ingest_sessions(db, settings, backends, tenant_id, "notes", [session], job_concurrency=1)
    finally:
        await backends.aclose()
    assert report.jobs_failed == 0


async def test_browse_ids_of_another_tenant_are_404(settings: Settings, db: Database) -> None:
    """Tenant b holds a forest of the same name; a's fact, node and tree ids are absent for b."""
    s = admin_settings(settings)
    async with app_client(s, db) as (_, client):
        tenants: list[tuple[uuid.UUID, dict[str, str]]] = []
        for name in ("a", "b"):
            tid, auth = await tenant_key(client, name)
            tenants.append((uuid.UUID(tid), auth))
        (ta, ha), (tb, hb) = tenants
        a_texts = ["I keep bees on the roof of the library.", "Do they sting?"]
        await _ingest(db, s, ta, "sa", a_texts)
        await _ingest(db, s, tb, "sb", ["I collect old maps of Lisbon.", "Show me one sometime."])
        assert (await client.post("/v1/forests", json={"name": "a-only"}, headers=ha)).status_code == 201

        async def everything(h: dict[str, str], kind: str) -> list[dict[str, Any]]:
            params: dict[str, Any] = {"limit": 200} | ({"include_superseded": True} if kind == "facts" else {})
            r = await client.get(f"/v1/forests/notes/{kind}", params=params, headers=h)
            assert r.status_code == 200, r.text
            items: list[dict[str, Any]] = r.json()["items"]
            return items

        a_facts, a_trees = await everything(ha, "facts"), await everything(ha, "trees")
        b_facts, b_trees = await everything(hb, "facts"), await everything(hb, "trees")
        assert a_facts and a_trees and b_facts and b_trees
        assert {f["id"] for f in a_facts}.isdisjoint(f["id"] for f in b_facts)
        assert {t["id"] for t in a_trees}.isdisjoint(t["id"] for t in b_trees)
        a_nodes = [t["root_node_id"] for t in a_trees]
        secrets = ["bees", "library", "a-only"]

        def leaks(r: httpx.Response, path: str) -> bool:
            return any(x in r.text for x in secrets if x not in path)

        for fid in [f["id"] for f in a_facts]:
            for forest in ("notes", "a-only"):
                r = await client.get(path := f"/v1/forests/{forest}/facts/{fid}", headers=hb)
                assert r.status_code == 404 and not leaks(r, path), r.text
        for nid in a_nodes:
            for forest in ("notes", "a-only"):
                r = await client.get(path := f"/v1/forests/{forest}/nodes/{nid}", headers=hb)
                assert r.status_code == 404 and not leaks(r, path), r.text
            assert (await client.get(f"/v1/forests/notes/nodes/{nid}", headers=ha)).status_code == 200
        for path in ("/v1/forests/a-only/facts", "/v1/forests/a-only/trees", "/v1/forests/a-only"):
            r = await client.get(path, headers=hb)
            assert r.status_code == 404 and not leaks(r, path), r.text
        listing = (await client.get("/v1/forests", headers=hb)).json()["items"]
        assert [f["name"] for f in listing] == ["notes"]
        for kind in ("facts", "trees"):
            for params in ({}, {"q": "bees"}, {"session": "sa"}, {"entity": "Ines"}):
                if kind == "trees" and params:
                    continue
                r = await client.get(f"/v1/forests/notes/{kind}", params=params, headers=hb)
                assert r.status_code == 200 and not leaks(r, ""), r.text
        for params in ({"q": "bees"}, {"session": "sa"}):
            assert (await client.get("/v1/forests/notes/facts", params=params, headers=hb)).json()["items"] == []
        # a still sees its own data
        assert {f["id"] for f in await everything(ha, "facts")} == {f["id"] for f in a_facts}
