"""Isolation property: random operations by three tenants; no response ever carries another
tenant's forest names, session ids or job ids, and touching them is 404 as if absent."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from pydantic import SecretStr

from memforest.api.app import create_app
from memforest.db.engine import Database
from memforest.settings import Settings

ADMIN = "Adm1n-" + "x7Q2pL9vR4mK8sT3wZ6yB1nC"
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
            if name in self.forests[me]:
                assert r.status_code == 202
                self.sessions[me][sid] = name
                self.jobs[me][r.json()["job_id"]] = name
            else:
                assert r.status_code == 404
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
        elif op == "probe" and other != me:
            # everything of another tenant looks absent, and stays untouched
            for forest in self.names[other]:
                for method, path, payload in [
                    ("GET", f"/v1/forests/{forest}", None),
                    ("GET", f"/v1/forests/{forest}/sessions", None),
                    ("POST", f"/v1/forests/{forest}/query", {"query": "hello"}),
                ]:
                    assert (await self.request(me, method, path, payload)).status_code == 404
            for sid, forest in list(self.sessions[other].items())[:2]:
                r = await self.request(me, "GET", f"/v1/forests/{forest}/sessions/{sid}")
                assert r.status_code == 404
            for job in list(self.jobs[other])[:2]:
                assert (await self.request(me, "GET", f"/v1/jobs/{job}")).status_code == 404


@pytest.fixture
async def world_factory(settings: Settings, db: Database) -> AsyncIterator[Any]:
    s = settings.model_copy(update={"admin_key": SecretStr(ADMIN)})
    app = create_app(s, db=db, start_worker=False)
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://test") as client,
    ):

        async def make() -> World:
            keys = []
            for _ in range(N_TENANTS):
                admin = {"Authorization": f"Bearer {ADMIN}"}
                r = await client.post("/v1/tenants", json={"name": f"t-{uuid.uuid4().hex}"}, headers=admin)
                tid = r.json()["id"]
                r = await client.post(
                    f"/v1/tenants/{tid}/keys", json={"scopes": ["read", "write", "admin"]}, headers=admin
                )
                keys.append(r.json()["key"])
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
