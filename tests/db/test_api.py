"""HTTP API through ASGI: auth, tenants and keys, forests, sessions, jobs, isolation, problems."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import support
from fastapi import FastAPI
from pydantic import SecretStr
from support import ADMIN_AUTH, ADMIN_KEY, admin_settings, app_client, bearer

from memforest.app.problems import PROBLEM_CONTENT_TYPE
from memforest.db.engine import Database
from memforest.errors import ConfigurationError
from memforest.servers import create_app
from memforest.settings import Settings


def session_body(sid: str = "s1", text: str = "I moved to Lisbon last spring.") -> dict[str, Any]:
    texts = [text, "Nice, how do you like it?"]
    return support.session_body(sid, "2024-05-01T10:00:00Z", texts, ("alice", "bot"), roles=("user", "assistant"))


class Api:
    """A client plus the admin helpers the tests share."""

    def __init__(self, app: FastAPI, client: httpx.AsyncClient) -> None:
        self.app = app
        self.client = client

    auth = staticmethod(bearer)

    async def tenant(self, name: str, scopes: list[str] | None = None) -> tuple[str, str]:
        r = await self.client.post("/v1/tenants", json={"name": name}, headers=ADMIN_AUTH)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        key = await self.key(tid, scopes or ["read", "write", "admin"])
        return tid, key

    async def key(self, tid: str, scopes: list[str]) -> str:
        r = await self.client.post(f"/v1/tenants/{tid}/keys", json={"scopes": scopes}, headers=ADMIN_AUTH)
        assert r.status_code == 201, r.text
        key: str = r.json()["key"]
        return key


@pytest.fixture
async def api(settings: Settings, db: Database) -> AsyncIterator[Api]:
    s = admin_settings(settings, api={"max_body_bytes": 50_000, "max_turns_per_session": 20})
    async with app_client(s, db) as (app, client):
        yield Api(app, client)


def assert_problem(r: httpx.Response, status: int, slug: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM_CONTENT_TYPE)
    body: dict[str, Any] = r.json()
    assert body["type"] == f"https://memforest.dev/problems/{slug}"
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str)
    return body


# ---------------------------------------------------------------- startup and operations


@pytest.mark.parametrize("key", [None, "", "short-Key-1", "a" * 40, "abababababababababababab12"])
def test_weak_or_missing_admin_key_is_refused(settings: Settings, key: str | None) -> None:
    s = settings.model_copy(update={"admin_key": SecretStr(key) if key is not None else None})
    with pytest.raises(ConfigurationError):
        create_app(s, start_worker=False)


def test_strong_admin_key_is_accepted(settings: Settings) -> None:
    create_app(admin_settings(settings), start_worker=False)


async def test_health_ready_and_docs(api: Api) -> None:
    assert (await api.client.get("/healthz")).json() == {"status": "ok"}
    r = await api.client.get("/readyz")
    assert r.status_code == 200, r.text
    assert r.json()["checks"]["migrations"] == "ok"
    assert (await api.client.get("/docs")).status_code == 200
    paths = (await api.client.get("/openapi.json")).json()["paths"]
    for p in ("/v1/tenants", "/v1/forests/{forest}/sessions", "/v1/jobs/{job_id}", "/v1/forests/{forest}/query"):
        assert p in paths


# ---------------------------------------------------------------- auth


async def test_auth_missing_malformed_unknown_revoked(api: Api) -> None:
    tid, key = await api.tenant("acme")
    c = api.client
    assert_problem(await c.get("/v1/forests"), 401, "unauthorized")
    assert (await c.get("/v1/forests")).headers["www-authenticate"] == "Bearer"
    for header in ("Basic abc", "Bearer", "Bearer ", f"Token {key}", f"Bearer {key} extra", key):
        assert_problem(await c.get("/v1/forests", headers={"Authorization": header}), 401, "unauthorized")
    assert_problem(await c.get("/v1/forests", headers=api.auth("mf_" + "A" * 43)), 401, "unauthorized")
    assert_problem(await c.get("/v1/forests", headers=api.auth(ADMIN_KEY + "x")), 401, "unauthorized")
    assert (await c.get("/v1/forests", headers=api.auth(key))).status_code == 200
    keys = (await c.get(f"/v1/tenants/{tid}/keys", headers=ADMIN_AUTH)).json()["items"]
    assert len(keys) == 1 and key.startswith(keys[0]["prefix"]) and "key" not in keys[0]
    r = await c.delete(f"/v1/tenants/{tid}/keys/{keys[0]['id']}", headers=ADMIN_AUTH)
    assert r.status_code == 204
    assert_problem(await c.get("/v1/forests", headers=api.auth(key)), 401, "unauthorized")
    # revoking again is harmless; an unknown key id is 404
    assert (await c.delete(f"/v1/tenants/{tid}/keys/{keys[0]['id']}", headers=ADMIN_AUTH)).status_code == 204
    assert_problem(await c.delete(f"/v1/tenants/{tid}/keys/{uuid.uuid4()}", headers=ADMIN_AUTH), 404, "not-found")


async def test_scopes(api: Api) -> None:
    tid, admin_key = await api.tenant("acme")
    reader = await api.key(tid, ["read"])
    writer = await api.key(tid, ["write"])
    c = api.client
    assert_problem(await c.post("/v1/forests", json={"name": "f"}, headers=api.auth(reader)), 403, "forbidden")
    assert (await c.post("/v1/forests", json={"name": "f"}, headers=api.auth(writer))).status_code == 201
    assert_problem(await c.get("/v1/forests", headers=api.auth(writer)), 403, "forbidden")
    assert (await c.get("/v1/forests", headers=api.auth(reader))).status_code == 200
    r = await c.post("/v1/forests/f/sessions", json=session_body(), headers=api.auth(reader))
    assert_problem(r, 403, "forbidden")
    assert_problem(await c.delete("/v1/forests/f", headers=api.auth(writer)), 403, "forbidden")
    # tenant keys cannot use admin endpoints, the admin key cannot act as a tenant
    assert_problem(await c.get("/v1/tenants", headers=api.auth(admin_key)), 403, "forbidden")
    assert_problem(await c.post("/v1/tenants", json={"name": "x"}, headers=api.auth(admin_key)), 403, "forbidden")
    assert_problem(await c.get("/v1/forests", headers=ADMIN_AUTH), 403, "forbidden")
    r = await c.post(f"/v1/tenants/{tid}/keys", json={"scopes": ["root"]}, headers=ADMIN_AUTH)
    assert_problem(r, 422, "invalid-input")
    r = await c.post(f"/v1/tenants/{tid}/keys", json={"scopes": []}, headers=ADMIN_AUTH)
    assert_problem(r, 422, "invalid-input")


async def test_tenant_lifecycle(api: Api) -> None:
    c, h = api.client, ADMIN_AUTH
    tid, key = await api.tenant("acme")
    assert_problem(await c.post("/v1/tenants", json={"name": "acme"}, headers=h), 409, "conflict")
    assert [t["name"] for t in (await c.get("/v1/tenants", headers=h)).json()["items"]] == ["acme"]
    assert (await c.post("/v1/forests", json={"name": "f"}, headers=api.auth(key))).status_code == 201
    assert (await c.delete(f"/v1/tenants/{tid}", headers=h)).status_code == 200
    assert_problem(await c.get("/v1/forests", headers=api.auth(key)), 401, "unauthorized")
    assert_problem(await c.delete(f"/v1/tenants/{tid}", headers=h), 404, "not-found")
    assert_problem(await c.delete("/v1/tenants/not-a-uuid", headers=h), 404, "not-found")
    assert_problem(await c.post(f"/v1/tenants/{uuid.uuid4()}/keys", json={}, headers=h), 404, "not-found")


# ---------------------------------------------------------------- forests, sessions, jobs


async def test_forest_session_job_flow(api: Api) -> None:
    _, key = await api.tenant("acme")
    c, h = api.client, api.auth(key)
    assert (await c.post("/v1/forests", json={"name": "f"}, headers=h)).json() == {"name": "f"}
    assert_problem(await c.post("/v1/forests", json={"name": "f"}, headers=h), 409, "conflict")
    assert (await c.get("/v1/forests", headers=h)).json() == {"items": [{"name": "f"}], "next_cursor": None}

    r = await c.post("/v1/forests/f/sessions", json=session_body("s1"), headers=h)
    assert r.status_code == 202, r.text
    job_id, sid = r.json()["job_id"], r.json()["session_id"]
    assert sid == "s1" and uuid.UUID(job_id)
    job = (await c.get(f"/v1/jobs/{job_id}", headers=h)).json()
    assert job["state"] == "queued" and job["forest"] == "f" and job["kind"] == "ingest"

    # same session again (no key): the same job; other content under the same id: 409
    assert (await c.post("/v1/forests/f/sessions", json=session_body("s1"), headers=h)).json()["job_id"] == job_id
    r = await c.post("/v1/forests/f/sessions", json=session_body("s1", "Different."), headers=h)
    assert_problem(r, 409, "conflict")

    got = (await c.get("/v1/forests/f/sessions/s1", headers=h)).json()
    assert got["session_id"] == "s1" and [t["speaker"] for t in got["turns"]] == ["alice", "bot"]
    assert_problem(await c.get("/v1/forests/f/sessions/nope", headers=h), 404, "not-found")
    # a forest that does not exist yet is created on the first write; reads of an unknown forest stay 404
    r = await c.post("/v1/forests/fresh/sessions", json=session_body(), headers=h)
    assert r.status_code == 202, r.text
    assert (await c.get("/v1/forests/fresh", headers=h)).json()["counts"]["sessions"] == 1
    assert_problem(await c.get("/v1/forests/nope/sessions", headers=h), 404, "not-found")

    counts = (await c.get("/v1/forests/f", headers=h)).json()["counts"]
    assert counts["sessions"] == 1 and counts["turns"] == 2
    deleted = (await c.delete("/v1/forests/f", headers=h)).json()
    assert deleted["name"] == "f" and deleted["deleted"]["sessions"] == 1 and deleted["deleted"]["jobs"] == 1
    assert_problem(await c.get("/v1/forests/f", headers=h), 404, "not-found")
    assert_problem(await c.get(f"/v1/jobs/{job_id}", headers=h), 404, "not-found")


async def test_session_pagination(api: Api) -> None:
    _, key = await api.tenant("acme")
    c, h = api.client, api.auth(key)
    await c.post("/v1/forests", json={"name": "f"}, headers=h)
    for i in range(5):
        assert (await c.post("/v1/forests/f/sessions", json=session_body(f"s{i}"), headers=h)).status_code == 202
    seen: list[str] = []
    cursor: str | None = None
    while True:
        params: dict[str, Any] = {"limit": 2} | ({"cursor": cursor} if cursor else {})
        page = (await c.get("/v1/forests/f/sessions", params=params, headers=h)).json()
        seen += [s["session_id"] for s in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [f"s{i}" for i in range(5)]
    assert_problem(await c.get("/v1/forests/f/sessions?cursor=abc", headers=h), 422, "invalid-input")
    for bad in ("\u00b2", "99999999999999999999"):  # a digit to str.isdigit, no number to int; past bigint
        assert_problem(await c.get("/v1/forests/f/sessions", params={"cursor": bad}, headers=h), 422, "invalid-input")
    assert_problem(await c.get("/v1/forests/f/sessions?limit=0", headers=h), 422, "invalid-input")


async def test_idempotency_key(api: Api) -> None:
    _, key = await api.tenant("acme")
    c, h = api.client, api.auth(key)
    await c.post("/v1/forests", json={"name": "f"}, headers=h)
    hk = h | {"Idempotency-Key": "req-1"}
    first = await c.post("/v1/forests/f/sessions", json=session_body("s1"), headers=hk)
    again = await c.post("/v1/forests/f/sessions", json=session_body("s1"), headers=hk)
    assert first.status_code == again.status_code == 202
    assert first.json()["job_id"] == again.json()["job_id"]
    r = await c.post("/v1/forests/f/sessions", json=session_body("s2", "Other body"), headers=hk)
    assert_problem(r, 409, "conflict")
    await c.post("/v1/forests", json={"name": "g"}, headers=h)
    r = await c.post("/v1/forests/g/sessions", json=session_body("s1"), headers=hk)
    assert r.status_code in (202, 409), r.text
    sessions = (await c.get("/v1/forests/f/sessions", headers=h)).json()["items"]
    assert [s["session_id"] for s in sessions] == ["s1"]


# ---------------------------------------------------------------- limits and problems


async def test_limits_and_validation(api: Api) -> None:
    _, key = await api.tenant("acme")
    c, h = api.client, api.auth(key)
    await c.post("/v1/forests", json={"name": "f"}, headers=h)
    big = session_body("big", "x" * 60_000)
    assert_problem(await c.post("/v1/forests/f/sessions", json=big, headers=h), 413, "payload-too-large")

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(10):
            yield b" " * 10_000

    r = await c.post("/v1/forests/f/sessions", content=chunks(), headers=h | {"Content-Type": "application/json"})
    assert_problem(r, 413, "payload-too-large")

    many = session_body("many")
    many["turns"] = [{"speaker": "a", "text": f"t{i}"} for i in range(21)]
    body = assert_problem(await c.post("/v1/forests/f/sessions", json=many, headers=h), 422, "invalid-input")
    assert "turns" in body["detail"]
    long_text = session_body("long", "y" * 20_001)
    r = await c.post("/v1/forests/f/sessions", json=long_text, headers=h)
    assert r.status_code in (413, 422)
    for bad in ({}, {"id": "x"}, {"id": "x", "time": "nope", "turns": []}, [1, 2]):
        assert_problem(await c.post("/v1/forests/f/sessions", json=bad, headers=h), 422, "invalid-input")
    r = await c.post("/v1/forests/f/sessions", content=b"{not json", headers=h | {"Content-Type": "application/json"})
    assert_problem(r, 422, "invalid-input")
    assert_problem(await c.post("/v1/forests", json={"name": ""}, headers=h), 422, "invalid-input")
    assert_problem(await c.post("/v1/forests", json={"name": "   "}, headers=h), 422, "invalid-input")
    r = await c.post("/v1/forests/f/sessions", json=session_body(), headers=h | {"Idempotency-Key": "k" * 201})
    assert_problem(r, 422, "invalid-input")
    assert_problem(await c.get("/v1/nope", headers=h), 404, "not-found")
    assert_problem(await c.put("/v1/forests", headers=h), 405, "method-not-allowed")
    assert (await c.get("/v1/forests/f", headers=h)).json()["counts"]["sessions"] == 0


async def test_query_endpoint(api: Api) -> None:
    _, key = await api.tenant("acme")
    c, h = api.client, api.auth(key)
    await c.post("/v1/forests", json={"name": "f"}, headers=h)
    await c.post("/v1/forests/f/sessions", json=session_body("s1"), headers=h)
    r = await c.post("/v1/forests/f/query", json={"query": "Where did alice move?", "top_k": 5}, headers=h)
    assert r.status_code == 200, r.text
    ev = r.json()["evidence"]
    assert isinstance(ev, list)
    r = await c.post("/v1/forests/f/query", json={"query": "x", "top_k": 10_000}, headers=h)
    assert_problem(r, 422, "invalid-input")
    r = await c.post("/v1/forests/f/query", json={"query": "x", "mode": "bogus"}, headers=h)
    assert_problem(r, 422, "invalid-input")
    assert_problem(await c.post("/v1/forests/nope/query", json={"query": "x"}, headers=h), 404, "not-found")


# ---------------------------------------------------------------- isolation


async def test_cross_tenant_access_is_404(api: Api) -> None:
    _, key_a = await api.tenant("a")
    _, key_b = await api.tenant("b")
    c, ha, hb = api.client, api.auth(key_a), api.auth(key_b)
    await c.post("/v1/forests", json={"name": "secret-a"}, headers=ha)
    job_id = (await c.post("/v1/forests/secret-a/sessions", json=session_body("sa"), headers=ha)).json()["job_id"]
    for method, path, body in [
        ("GET", "/v1/forests/secret-a", None),
        ("DELETE", "/v1/forests/secret-a", None),
        ("GET", "/v1/forests/secret-a/sessions", None),
        ("GET", "/v1/forests/secret-a/sessions/sa", None),
        ("POST", "/v1/forests/secret-a/query", {"query": "Lisbon"}),
        ("GET", f"/v1/jobs/{job_id}", None),
    ]:
        r = await c.request(method, path, json=body, headers=hb)
        assert_problem(r, 404, "not-found")
        assert job_id not in r.text
    # b's own forest of the same name is separate: b's first write creates it, a's forest is untouched
    r = await c.post("/v1/forests/secret-a/sessions", json=session_body("sb"), headers=hb)
    assert r.status_code == 202 and job_id not in r.text
    items = (await c.get("/v1/forests/secret-a/sessions", headers=hb)).json()["items"]
    assert [i["session_id"] for i in items] == ["sb"]
    assert (await c.get("/v1/forests/secret-a", headers=ha)).json()["counts"]["sessions"] == 1


# ---------------------------------------------------------------- in-process worker and serve


async def test_in_process_worker_runs_jobs(settings: Settings, db: Database) -> None:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05})
    async with app_client(s, db, start_worker=True) as (app, client):
        api = Api(app, client)
        _, key = await api.tenant("acme")
        h = api.auth(key)
        await client.post("/v1/forests", json={"name": "f"}, headers=h)
        job_id = (await client.post("/v1/forests/f/sessions", json=session_body(), headers=h)).json()["job_id"]
        state = "queued"
        for _ in range(400):
            state = (await client.get(f"/v1/jobs/{job_id}", headers=h)).json()["state"]
            if state in ("succeeded", "failed"):
                break
            await asyncio.sleep(0.05)
        assert state == "succeeded"
        counts = (await client.get("/v1/forests/f", headers=h)).json()["counts"]
        assert counts["cells_pending"] == 0


def test_serve_refuses_weak_admin_key(settings: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from memforest.servers import serve_cmd

    parser = argparse.ArgumentParser()
    serve_cmd.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", "--port", "0"])
    weak = settings.model_copy(update={"admin_key": SecretStr("password")})
    with pytest.raises(ConfigurationError, match="too weak"):
        asyncio.run(args.handler(args, weak))
