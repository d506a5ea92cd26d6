"""Names that hold a slash are reached by their routes, and names no URL path can carry are refused
(ADR 0049). A forest, session or turn id with ``/`` travels percent-encoded in its path segment
(every client encodes it so), over the ASGI transport, over uvicorn and through the Python
client; '.' and '..' are resolved away by every URL library, so they are a 422 problem at
creation, on accept and on import."""

from __future__ import annotations

import json
from urllib.parse import quote

import httpx
import pytest
from support import admin_settings, app_client, serve_app, session_body, tenant_key

from memforest.client import MemForestClient
from memforest.db.engine import Database
from memforest.servers import create_app
from memforest.settings import Settings

FOREST = "team/notes"
SESSION = "2024/05/01 morning"


def _seg(name: str) -> str:
    return quote(name, safe="")


async def _walk(c: httpx.AsyncClient, h: dict[str, str]) -> None:
    """Create, write, read, export and delete a forest whose name and ids hold slashes."""
    r = await c.post("/v1/forests", json={"name": FOREST}, headers=h)
    assert r.status_code == 201, r.text
    f = f"/v1/forests/{_seg(FOREST)}"
    assert (await c.get(f, headers=h)).json()["name"] == FOREST
    body = session_body(SESSION, "2024-05-01T09:00:00Z", ["Alice moved to Lisbon.", "Nice!"])
    body["turns"][0]["id"] = "t/1"
    r = await c.post(f"{f}/sessions", params={"wait": 30}, json=body, headers=h)  # (ingested: turns can go)
    assert r.status_code == 200 and r.json()["state"] == "succeeded", r.text
    r = await c.get(f"{f}/sessions/{_seg(SESSION)}", headers=h)
    assert r.status_code == 200, r.text
    assert r.json()["session_id"] == SESSION and r.json()["turns"][0]["id"] == "t/1"
    assert (await c.post(f"{f}/query", json={"query": "Where does Alice live?"}, headers=h)).status_code == 200
    export = await c.get(f"{f}/export", headers=h)
    assert export.status_code == 200, export.text
    assert (await c.delete(f"{f}/sessions/{_seg(SESSION)}/turns/{_seg('t/1')}", headers=h)).status_code == 200
    assert (await c.delete(f"{f}/sessions/{_seg(SESSION)}", headers=h)).status_code == 200
    assert (await c.delete(f, headers=h)).status_code == 200  # (the key has the admin scope it needs)


async def test_names_with_a_slash_are_reached_over_asgi(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings), db, start_worker=True) as (_, c):
        _, h = await tenant_key(c, scopes=("read", "write", "admin"))
        await _walk(c, h)
        assert (await c.get(f"/v1/forests/{_seg(FOREST)}", headers=h)).status_code == 404  # deleted


async def test_names_with_a_slash_are_reached_over_uvicorn_and_the_client(settings: Settings, db: Database) -> None:
    app = create_app(admin_settings(settings), db=db, start_worker=True)
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=60) as c:
        _, h = await tenant_key(c, scopes=("read", "write", "admin"))
        await _walk(c, h)
        key = h["Authorization"].removeprefix("Bearer ")
        async with MemForestClient(url, key) as mf:
            await mf.create_forest("a/b")
            assert (await mf.get_forest("a/b")).name == "a/b"


@pytest.mark.parametrize("name", [".", "..", " .. "])
async def test_dot_segment_names_are_refused(settings: Settings, db: Database, name: str) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):
        _, h = await tenant_key(c)
        r = await c.post("/v1/forests", json={"name": name}, headers=h)
        assert r.status_code == 422 and r.json()["location"] == "name", r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        body = session_body(name, "2024-05-01T09:00:00Z", ["hello"])
        r = await c.post("/v1/forests/notes/sessions", json=body, headers=h)
        assert r.status_code == 422 and "'.' or '..'" in r.json()["detail"], r.text
        body = session_body("s1", "2024-05-01T09:00:00Z", ["hello"])
        body["turns"][0]["id"] = name
        r = await c.post("/v1/forests/notes/sessions", json=body, headers=h)
        assert r.status_code == 422 and "'.' or '..'" in r.json()["detail"], r.text


async def test_an_import_of_a_dot_segment_session_id_is_refused_naming_the_line(
    settings: Settings, db: Database
) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):
        _, h = await tenant_key(c, scopes=("read", "write", "admin"))
        body = session_body("s1", "2024-05-01T09:00:00Z", ["Alice moved to Lisbon."])
        assert (await c.post("/v1/forests/src/sessions", json=body, headers=h)).status_code == 202
        lines = (await c.get("/v1/forests/src/export", headers=h)).text.splitlines()
        at = next(i for i, line in enumerate(lines) if json.loads(line).get("type") == "session")
        record = json.loads(lines[at]) | {"external_id": ".."}
        lines[at] = json.dumps(record)
        r = await c.post("/v1/forests/dst/import", content="\n".join(lines) + "\n", headers=h)
        assert r.status_code == 422, r.text
        assert r.json()["location"].endswith(f"line {at + 1}"), r.text
