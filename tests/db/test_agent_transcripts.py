"""Full OpenAI chat transcripts in (issue 52 item 2): ``POST .../messages`` and the MCP tool
``add_memory`` keep or skip each message by the documented rule and count both, over HTTP and the
MCP SDK client against the real database with the in-process worker."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent
from support import admin_settings, app_client, new_tenant, serve_app, tenant_key

from memforest.db.engine import Database
from memforest.servers import create_app
from memforest.settings import Settings

TRANSCRIPT: list[dict[str, Any]] = [
    {"role": "system", "content": "You are a pet-care assistant."},
    {"role": "developer", "content": [{"type": "text", "text": "Be brief."}]},
    {"role": "user", "name": "Dana", "content": "I adopted a beagle named Rufus last week. Is he due for shots?"},
    {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "vet_records", "arguments": '{"pet":"Rufus"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "Rufus: rabies shot due on 2024-06-01."},
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "Here is his photo."},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
        ],
    },
    {"role": "assistant", "content": "Rufus needs his rabies shot by June 1st.", "annotations": []},
]
SKIPPED = {"system_prompt": 2, "tool_calls_only": 1}
TURNS = [
    ("Dana", "user", "I adopted a beagle named Rufus last week. Is he due for shots?"),
    ("vet_records", "tool", "Rufus: rabies shot due on 2024-06-01."),
    ("user", "user", "Here is his photo."),
    ("assistant", "assistant", "Rufus needs his rabies shot by June 1st."),
]


@pytest.fixture
async def worker_client(settings: Settings, db: Database) -> AsyncIterator[httpx.AsyncClient]:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05})
    async with app_client(s, db, start_worker=True) as (_, client):
        yield client


async def test_http_keeps_skips_and_counts_a_full_transcript(worker_client: httpx.AsyncClient) -> None:
    c = worker_client
    _, h = await tenant_key(c)
    body = {"messages": TRANSCRIPT, "session_id": "chat-1", "time": "2024-05-01T10:00:00Z"}
    r = await c.post("/v1/forests/pets/messages?wait=30", json=body, headers=h)
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["state"] == "succeeded" and job["kept"] == 4 and job["skipped"] == SKIPPED
    got = (await c.get("/v1/forests/pets/sessions/chat-1", headers=h)).json()
    assert [(t["speaker"], t["role"], t["text"]) for t in got["turns"]] == TURNS
    q = {"query": "When is the rabies shot due?", "top_k": 5}
    evidence = (await c.post("/v1/forests/pets/query", json=q, headers=h)).json()["evidence"]
    assert any("2024-06-01" in e["text"] or "June" in e["text"] for e in evidence)
    # without wait: the 202 answer carries the counts
    r = await c.post("/v1/forests/pets/messages", json={"messages": TRANSCRIPT[2:5]}, headers=h)
    assert r.status_code == 202, r.text
    assert r.json()["kept"] == 2 and r.json()["skipped"] == {"tool_calls_only": 1} and r.json()["created"] is True


async def test_http_a_transcript_with_nothing_to_keep_stores_nothing(worker_client: httpx.AsyncClient) -> None:
    c = worker_client
    _, h = await tenant_key(c)
    only = [TRANSCRIPT[0], TRANSCRIPT[3], {"role": "user", "content": None}, {"role": "user", "content": " "}]
    r = await c.post("/v1/forests/quiet/messages?wait=5", json={"messages": only}, headers=h)
    assert r.status_code == 202, r.text
    assert r.json()["job_id"] is None and r.json()["created"] is False
    assert r.json()["kept"] == 0 and r.json()["skipped"] == {"system_prompt": 1, "tool_calls_only": 1, "no_text": 2}
    assert (await c.get("/v1/forests/quiet", headers=h)).status_code == 404  # not even the forest


async def test_http_a_message_field_outside_the_chat_format_is_a_422(worker_client: httpx.AsyncClient) -> None:
    c = worker_client
    _, h = await tenant_key(c)
    for message, field in (
        ({"role": "user", "content": "hi", "speaker": "Dana"}, "speaker"),
        ({"role": "robot", "content": "hi"}, "role"),
    ):
        r = await c.post("/v1/forests/f/messages", json={"messages": [TRANSCRIPT[2], message]}, headers=h)
        assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json"), r.text
        assert r.json()["detail"].startswith(f"body.messages.1.{field}"), r.text


# ---------------------------------------------------------------- MCP (the SDK's client over streamable HTTP)


def _structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.isError, result
    assert result.structuredContent is not None
    return result.structuredContent


def _error(result: CallToolResult) -> str:
    assert result.isError, result
    block = result.content[0]
    assert isinstance(block, TextContent) and "\n" not in block.text
    return block.text


@contextlib.asynccontextmanager
async def _mcp(url: str, key: str) -> AsyncIterator[ClientSession]:
    async with (
        httpx.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=httpx.Timeout(30, read=60)) as http,
        streamable_http_client(url, http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def test_mcp_add_memory_takes_a_full_transcript(settings: Settings, db: Database) -> None:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05})
    async with serve_app(create_app(s, db=db, start_worker=True)) as url, httpx.AsyncClient(base_url=url) as http:
        _, key = await new_tenant(http)
        async with _mcp(f"{url}/mcp", key) as mcp:
            args = {"forest": "pets", "messages": TRANSCRIPT, "session_id": "m1", "time": "2024-05-01T10:00:00Z"}
            added = _structured(await mcp.call_tool("add_memory", args))
            assert added["kept"] == 4 and added["skipped"] == SKIPPED and added["created"] is True
            job: dict[str, Any] = {}
            for _ in range(600):
                job = _structured(await mcp.call_tool("get_job", {"job_id": added["job_id"]}))
                if job["state"] in ("succeeded", "failed"):
                    break
                await asyncio.sleep(0.05)
            assert job["state"] == "succeeded", job
            got = (await http.get("/v1/forests/pets/sessions/m1", headers={"Authorization": f"Bearer {key}"})).json()
            assert [(t["speaker"], t["role"], t["text"]) for t in got["turns"]] == TURNS
            bad = {"forest": "pets", "messages": [{"role": "user", "content": "hi", "speaker": "Dana"}]}
            assert _error(await mcp.call_tool("add_memory", bad)).startswith("invalid-input: messages.0.speaker")
