"""``POST .../messages`` (OpenAI messages in) and ``?wait=`` on the write endpoints, over HTTP
against the real database with the in-process worker."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import httpx
import pytest
from support import admin_settings, app_client, session_body, tenant_key

from memforest.db.engine import Database
from memforest.settings import Settings

MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "I adopted a beagle named Rufus last week.", "name": "Dana"},
    {"role": "assistant", "content": [{"type": "text", "text": "Congratulations on Rufus!"}]},
]


@pytest.fixture
async def worker_client(settings: Settings, db: Database) -> AsyncIterator[httpx.AsyncClient]:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05})
    async with app_client(s, db, start_worker=True) as (_, client):
        yield client


@pytest.fixture
async def idle_client(settings: Settings, db: Database) -> AsyncIterator[httpx.AsyncClient]:
    async with app_client(admin_settings(settings), db) as (_, client):
        yield client


async def test_messages_become_a_session_and_wait_returns_the_job(worker_client: httpx.AsyncClient) -> None:
    c = worker_client
    _, h = await tenant_key(c)
    body = {"messages": MESSAGES, "session_id": "chat-1", "time": "2024-05-01T10:00:00", "metadata": {"app": "x"}}
    r = await c.post("/v1/forests/pets/messages?wait=30", json=body, headers=h)
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["state"] == "succeeded" and job["kind"] == "ingest" and job["forest"] == "pets"
    got = (await c.get("/v1/forests/pets/sessions/chat-1", headers=h)).json()
    assert [(t["speaker"], t["role"]) for t in got["turns"]] == [("Dana", "user"), ("assistant", "assistant")]
    assert job["kept"] == 2 and job["skipped"] == {"system_prompt": 1}  # the system prompt is no turn
    assert got["turns"][1]["text"] == "Congratulations on Rufus!"
    assert got["metadata"] == {"app": "x"} and got["time"].startswith("2024-05-01T10:00:00")
    # recallable on the next turn
    q = (await c.post("/v1/forests/pets/query", json={"query": "What is the dog called?"}, headers=h)).json()
    assert any("Rufus" in e["text"] for e in q["evidence"])
    # without wait: 202 with the job id and a generated session id
    r = await c.post("/v1/forests/pets/messages", json={"messages": MESSAGES[1:2]}, headers=h)
    assert r.status_code == 202, r.text
    assert r.json()["session_id"].startswith("msg-") and uuid.UUID(r.json()["job_id"])
    # the sessions endpoint takes wait too
    sb = session_body("s9", "2024-05-02T10:00:00Z", ["I live in Porto now."])
    r = await c.post("/v1/forests/pets/sessions", params={"wait": 30}, json=sb, headers=h)
    assert r.status_code == 200 and r.json()["state"] == "succeeded", r.text


async def test_wait_runs_out_and_answers_202(idle_client: httpx.AsyncClient) -> None:
    c = idle_client
    _, h = await tenant_key(c)
    r = await c.post("/v1/forests/f/messages?wait=0.3", json={"messages": MESSAGES}, headers=h)
    assert r.status_code == 202 and r.json()["created"] is True, r.text
    r = await c.post("/v1/forests/f/sessions?wait=0.2", json=session_body("s1", "2024-01-01", ["hi"]), headers=h)
    assert r.status_code == 202, r.text


async def test_messages_validation_idempotency_and_forest_reads(idle_client: httpx.AsyncClient) -> None:
    c = idle_client
    _, h = await tenant_key(c)
    bad = [
        {},
        {"messages": []},
        {"messages": [{"role": "robot", "content": "x"}]},
        {"messages": [{"role": "user", "content": "x", "speaker": "Dana"}]},
        {"messages": [{"role": "user", "content": "x"}], "extra": 1},
        {"messages": [{"role": "user", "content": "x"}], "time": "not a time"},
    ]
    for body in bad:
        r = await c.post("/v1/forests/f/messages", json=body, headers=h)
        assert r.status_code == 422, (body, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
    for wait in ("31", "-1", "soon"):
        r = await c.post(f"/v1/forests/f/messages?wait={wait}", json={"messages": MESSAGES}, headers=h)
        assert r.status_code == 422, r.text
    assert (await c.get("/v1/forests/f", headers=h)).status_code == 404  # nothing was written
    # a retry under the same Idempotency-Key replays (same generated session), other messages conflict
    hk = h | {"Idempotency-Key": "turn-7"}
    first = await c.post("/v1/forests/f/messages", json={"messages": MESSAGES}, headers=hk)
    again = await c.post("/v1/forests/f/messages", json={"messages": MESSAGES}, headers=hk)
    assert first.status_code == again.status_code == 202
    assert first.json()["job_id"] == again.json()["job_id"]
    assert first.json()["session_id"] == again.json()["session_id"] and again.json()["created"] is False
    other = await c.post("/v1/forests/f/messages", json={"messages": MESSAGES[1:2]}, headers=hk)
    assert other.status_code == 409, other.text
    assert (await c.get("/v1/forests/f", headers=h)).json()["counts"]["sessions"] == 1
    assert (await c.get("/v1/forests/unknown/sessions", headers=h)).status_code == 404
    # read-only keys cannot write
    _, ro = await tenant_key(c, "ro", scopes=("read",))
    assert (await c.post("/v1/forests/f/messages", json={"messages": MESSAGES}, headers=ro)).status_code == 403
