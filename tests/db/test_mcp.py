"""The MCP server through the SDK's own clients: streamable HTTP at /mcp on a real uvicorn server
(bearer keys, scopes, tenant isolation, every tool) and ``memforest mcp`` over stdio."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent
from support import ADMIN_AUTH, admin_settings, serve_app, tenant_url

import memforest
from memforest.app.tenants import create_key
from memforest.db.engine import Database
from memforest.servers import create_app
from memforest.settings import Settings
from memforest.store.sql import scalar
from memforest.store.tenants import create_tenant

TEST_DIM = 64  # the dimension conftest migrates the test databases with
TOOLS = {
    "add_memory", "search_memory", "get_context", "browse_tree", "forget_session", "get_job", "update_memory",
    "delete_memory", "memory_history",
}  # fmt: skip
PARROT = "Marisol adopted a grey parrot called Pistachio from the shelter on Orchard Lane."
KAYAK = "Tobiah repaired the red kayak before the regatta at Lake Wenlow."


class Served:
    """A running API (with its in-process worker) and the tenant keys the tests use."""

    def __init__(self, url: str, db: Database) -> None:
        self.url = url
        self.db = db

    async def key(self, tenant: str, scopes: list[str]) -> str:
        async with self.db.system() as conn:
            tid = await scalar(conn, "SELECT tenant_id FROM tenants WHERE name = :n", {"n": tenant})
        if tid is None:
            tid = await create_tenant(self.db, tenant)
        _, key, _ = await create_key(self.db, tid, scopes)
        return key

    @contextlib.asynccontextmanager
    async def session(self, key: str) -> AsyncIterator[ClientSession]:
        headers = {"Authorization": f"Bearer {key}"}
        async with (
            httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(30, read=60)) as http,
            streamable_http_client(self.url, http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


@pytest.fixture
async def served(settings: Settings, db: Database) -> AsyncIterator[Served]:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05})
    async with serve_app(create_app(s, db=db, start_worker=True)) as url:
        yield Served(f"{url}/mcp", db)


def payload(result: CallToolResult) -> dict[str, Any]:
    assert not result.isError, text_of(result)
    assert result.structuredContent is not None
    return result.structuredContent


def text_of(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def error_of(result: CallToolResult) -> str:
    assert result.isError, result
    message = text_of(result)
    assert "\n" not in message and "Traceback" not in message
    return message


async def wait_job(session: ClientSession, job_id: str) -> dict[str, Any]:
    job: dict[str, Any] = {}
    for _ in range(600):
        job = payload(await session.call_tool("get_job", {"job_id": job_id}))
        if job["state"] in ("succeeded", "failed"):
            return job
        await asyncio.sleep(0.05)
    raise AssertionError(f"job did not finish: {job}")


def session_turns(text: str, other: str = "That sounds lovely, tell me more.") -> list[dict[str, Any]]:
    return [
        {"speaker": "alice", "role": "user", "text": text, "id": "t1"},
        {"speaker": "bot", "role": "assistant", "text": other, "id": "t2"},
    ]


async def add_and_wait(session: ClientSession, forest: str, sid: str, text: str, time: str) -> dict[str, Any]:
    added = payload(
        await session.call_tool(
            "add_memory", {"forest": forest, "turns": session_turns(text), "session_id": sid, "time": time}
        )
    )
    assert added["session_id"] == sid and added["created"] is True
    job = await wait_job(session, added["job_id"])
    assert job["state"] == "succeeded", job
    return added


# ---------------------------------------------------------------- HTTP: every tool


async def test_http_tools_add_search_context_browse_job(served: Served) -> None:
    key = await served.key("acme", ["read", "write"])
    async with served.session(key) as s:
        assert {t.name for t in (await s.list_tools()).tools} == TOOLS
        added = payload(
            await s.call_tool(
                "add_memory",
                {
                    "forest": "notes",
                    "turns": session_turns(PARROT),
                    "session_id": "s-parrot",
                    "time": "2024-03-10T09:30",
                },
            )
        )
        job = await wait_job(s, added["job_id"])
        assert job["state"] == "succeeded" and job["forest"] == "notes" and job["kind"] == "ingest"
        assert isinstance(job["usage"], dict) and job["errors"] == []
        # a single text becomes one user turn; the session id is generated
        solo = payload(await s.call_tool("add_memory", {"forest": "notes", "text": KAYAK, "time": "2024-04-02"}))
        assert solo["session_id"].startswith("mcp-")
        await wait_job(s, solo["job_id"])

        found = payload(
            await s.call_tool("search_memory", {"forest": "notes", "query": "Which parrot did Marisol adopt?"})
        )
        top = found["evidence"][0]
        assert "Pistachio" in top["text"] and top["session_id"] == "s-parrot"
        assert set(top) == {
            "rank",
            "kind",
            "text",
            "time",
            "valid_from",
            "valid_to",
            "tree",
            "score",
            "session_id",
            "turn_ids",
            "fact_id",
            "superseded",
        }
        assert top["time"].startswith("2024-03-10")
        # who asks and when, as POST .../query takes them
        asked = {"forest": "notes", "query": "Which parrot did I adopt?", "speaker": "Marisol", "now": "2024-05-01"}
        mine = payload(await s.call_tool("search_memory", asked))
        assert "Pistachio" in mine["evidence"][0]["text"]
        mine_ctx = await s.call_tool("get_context", asked)
        assert not mine_ctx.isError and "Pistachio" in text_of(mine_ctx)

        ctx = await s.call_tool("get_context", {"forest": "notes", "query": "parrot Pistachio", "token_budget": 400})
        block = text_of(ctx)
        assert not ctx.isError and ctx.structuredContent is not None
        line = next(ln for ln in block.splitlines() if "Pistachio" in ln)
        assert line.startswith("[2024-03-10 09:30]") and "<s-parrot" in line
        assert ctx.structuredContent["tokens"] <= 400
        tiny = payload(
            await s.call_tool("get_context", {"forest": "notes", "query": "parrot Pistachio", "token_budget": 30})
        )
        assert tiny["tokens"] <= 30 and "Pistachio" not in tiny["context"]

        trees = payload(await s.call_tool("browse_tree", {"forest": "notes"}))["trees"]
        labels = {(t["kind"], t["label"]) for t in trees}
        assert ("session", "s-parrot") in labels
        only_sessions = payload(await s.call_tool("browse_tree", {"forest": "notes", "kind": "session"}))["trees"]
        assert {t["kind"] for t in only_sessions} == {"session"} and len(only_sessions) == 2
        root_id = next(t for t in trees if t["label"] == "s-parrot")["root_node_id"]
        node = payload(await s.call_tool("browse_tree", {"forest": "notes", "node_id": root_id}))["node"]
        assert node["id"] == str(root_id) and node["tree"]["label"] == "s-parrot"
        assert node["interval"]["start"].startswith("2024-03-10") and node["children"]
        assert "Pistachio" in json.dumps(node)


async def test_http_tool_errors_are_one_line(served: Served) -> None:
    key = await served.key("acme", ["read", "write"])
    async with served.session(key) as s:
        assert "invalid-input" in error_of(await s.call_tool("add_memory", {"forest": "notes"}))
        both = await s.call_tool("add_memory", {"forest": "notes", "text": "x", "turns": session_turns("y")})
        assert "exactly one of turns, messages or text" in error_of(both)
        empty = await s.call_tool("add_memory", {"forest": "notes", "text": "   "})
        assert "text" in error_of(empty)
        assert "not-found" in error_of(await s.call_tool("search_memory", {"forest": "nowhere", "query": "anything"}))
        assert "forest is required" in error_of(await s.call_tool("search_memory", {"query": "anything"}))
        assert "not-found" in error_of(await s.call_tool("get_job", {"job_id": "not-a-uuid"}))
        await s.call_tool("add_memory", {"forest": "notes", "text": PARROT})
        assert "kind" in error_of(await s.call_tool("browse_tree", {"forest": "notes", "kind": "forest"}))
        assert "not-found" in error_of(await s.call_tool("browse_tree", {"forest": "notes", "node_id": "12abc"}))
        bad_time = await s.call_tool("search_memory", {"forest": "notes", "query": "parrot", "as_of": "someday"})
        assert "as_of" in error_of(bad_time)
        bad_now = await s.call_tool("search_memory", {"forest": "notes", "query": "my parrot", "now": "someday"})
        assert "now" in error_of(bad_now)
        blank = await s.call_tool("get_context", {"forest": "notes", "query": "my parrot", "speaker": "   "})
        assert "speaker" in error_of(blank)


async def test_http_forget_session_removes_it(served: Served) -> None:
    key = await served.key("acme", ["read", "write"])
    other = await served.key("globex", ["read", "write"])
    async with served.session(key) as s:
        await add_and_wait(s, "notes", "s-parrot", PARROT, "2024-03-10T09:30:00Z")
        await add_and_wait(s, "notes", "s-kayak", KAYAK, "2024-04-02T12:00:00Z")
        async with served.session(other) as b:  # another tenant cannot forget it
            assert "not-found" in error_of(
                await b.call_tool("forget_session", {"forest": "notes", "session_id": "s-parrot"})
            )
        before = payload(await s.call_tool("search_memory", {"forest": "notes", "query": "Marisol parrot Pistachio"}))
        assert any("Pistachio" in e["text"] for e in before["evidence"])
        report = payload(await s.call_tool("forget_session", {"forest": "notes", "session_id": "s-parrot"}))
        assert report["session"] == "s-parrot" and report["sessions"] == 1 and report["turns"] == 2
        trees = payload(await s.call_tool("browse_tree", {"forest": "notes", "kind": "session"}))["trees"]
        assert [t["label"] for t in trees] == ["s-kayak"]
        found = payload(await s.call_tool("search_memory", {"forest": "notes", "query": "Marisol parrot Pistachio"}))
        assert found["evidence"], "the other session should still be found"
        assert not any("Pistachio" in e["text"] for e in found["evidence"])
        assert all(e["session_id"] != "s-parrot" for e in found["evidence"])
        again = await s.call_tool("forget_session", {"forest": "notes", "session_id": "s-parrot"})
        assert "not-found" in error_of(again)


async def test_http_messages_filters_update_and_delete(served: Served) -> None:
    key = await served.key("acme", ["read", "write"])
    other = await served.key("globex", ["read", "write"])
    msgs = [{"role": "user", "name": "Marisol", "content": PARROT}, {"role": "assistant", "content": "Lovely!"}]
    async with served.session(key) as s:
        added = payload(await s.call_tool("add_memory", {"forest": "n", "messages": msgs, "session_id": "m1"}))
        assert (await wait_job(s, added["job_id"]))["state"] == "succeeded"
        await add_and_wait(s, "n", "s-kayak", KAYAK, "2024-04-02T12:00:00Z")
        bad = await s.call_tool("add_memory", {"forest": "n", "messages": msgs, "text": "x"})
        assert "invalid-input" in error_of(bad)
        assert "invalid-input" in error_of(await s.call_tool("add_memory", {"forest": "n", "messages": []}))
        q = {"forest": "n", "query": "Which parrot did Marisol adopt?"}
        found = payload(await s.call_tool("search_memory", q | {"speakers": ["Marisol"]}))["evidence"]
        assert found and all(e["session_id"] == "m1" for e in found)
        assert payload(await s.call_tool("search_memory", q | {"session_ids": ["nope"]}))["evidence"] == []
        fact = next(e for e in found if e["kind"] == "fact" and "Pistachio" in e["text"])
        new = payload(
            await s.call_tool(
                "update_memory",
                {"forest": "n", "fact_id": fact["fact_id"], "text": "Marisol adopted a green parrot called Kiwi."},
            )
        )
        assert new["kind"] == "correction" and new["supersedes"] == fact["fact_id"]
        async with served.session(other) as b:  # another tenant cannot touch it
            assert "not-found" in error_of(await b.call_tool("delete_memory", {"forest": "n", "fact_id": new["id"]}))
        done = payload(await s.call_tool("delete_memory", {"forest": "n", "fact_id": new["id"]}))
        assert done["fact_id"] == new["id"] and done["leaves_removed"] >= 1
        again = await s.call_tool("delete_memory", {"forest": "n", "fact_id": new["id"]})
        assert "not-found" in error_of(again)


async def test_http_update_memory_keeps_the_rest_text_limit(served: Served) -> None:
    key = await served.key("acme", ["read", "write"])
    async with served.session(key) as s:
        await add_and_wait(s, "n", "s-parrot", PARROT, "2024-03-10T09:30:00Z")
        found = payload(await s.call_tool("search_memory", {"forest": "n", "query": "Marisol parrot Pistachio"}))
        fact = next(e for e in found["evidence"] if e["kind"] == "fact")
        call = {"forest": "n", "fact_id": fact["fact_id"]}
        long = await s.call_tool("update_memory", call | {"text": "Kiwi " * 4_001})  # 20,005 characters
        assert "invalid-input" in error_of(long) and "20000" in error_of(long), error_of(long)
        old = await s.call_tool("update_memory", call | {"text": "Kiwi.", "valid_from": "0001-01-01T00:00:00+14:00"})
        assert "invalid-input" in error_of(old), error_of(old)
        after = payload(await s.call_tool("search_memory", {"forest": "n", "query": "Marisol parrot Pistachio"}))
        assert all(e["kind"] != "correction" for e in after["evidence"])  # nothing was written
        done = payload(await s.call_tool("update_memory", call | {"text": "Kiwi " * 3_999 + "."}))
        assert done["kind"] == "correction" and len(done["text"]) <= 20_000


async def _raw_call(url: str, key: str, content: bytes) -> httpx.Response:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    async with httpx.AsyncClient(timeout=60) as client:
        return await client.post(url, content=content, headers=headers | {"Authorization": f"Bearer {key}"})


@pytest.mark.parametrize("depth", [100, 5_000, 100_000])
async def test_http_deeply_nested_json_is_a_4xx_problem(served: Served, depth: int) -> None:
    key = await served.key("acme", ["read", "write"])
    deep = "[" * depth + "]" * depth
    body = (
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search_memory", '
        f'"arguments": {{"forest": "n", "query": "parrot", "metadata": {{"x": {deep}}}}}}}}}'
    )
    r = await _raw_call(served.url, key, body.encode())
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert "levels deep" in r.json()["detail"]
    ok = await _raw_initialize(served.url, {"Authorization": f"Bearer {key}"})  # the next request is served
    assert ok.status_code == 200, ok.text


# ---------------------------------------------------------------- HTTP: keys, scopes, tenants


async def _raw_initialize(url: str, headers: dict[str, str]) -> httpx.Response:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    async with httpx.AsyncClient(timeout=30) as client:
        return await client.post(url, json=body, headers=accept | headers)


async def test_http_needs_a_tenant_key(served: Served) -> None:
    key = await served.key("acme", ["read"])
    for headers in ({}, {"Authorization": "Bearer mf_not-a-real-key"}, {"Authorization": f"Token {key}"}):
        r = await _raw_initialize(served.url, headers)
        assert r.status_code == 401, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.headers["www-authenticate"] == "Bearer"
    r = await _raw_initialize(served.url, ADMIN_AUTH)
    assert r.status_code == 403 and "tenant API key" in r.json()["detail"]
    ok = await _raw_initialize(served.url, {"Authorization": f"Bearer {key}"})
    assert ok.status_code == 200, ok.text
    assert ok.json()["result"]["serverInfo"]["name"] == "memforest"


async def test_http_read_only_key_cannot_write(served: Served) -> None:
    writer = await served.key("acme", ["read", "write"])
    reader = await served.key("acme", ["read"])
    async with served.session(writer) as w:
        await add_and_wait(w, "notes", "s-parrot", PARROT, "2024-03-10T09:30:00Z")
    async with served.session(reader) as r:
        denied = await r.call_tool("add_memory", {"forest": "notes", "text": KAYAK})
        assert "forbidden" in error_of(denied) and "'write'" in error_of(denied)
        denied = await r.call_tool("forget_session", {"forest": "notes", "session_id": "s-parrot"})
        assert "forbidden" in error_of(denied)
        found = payload(await r.call_tool("search_memory", {"forest": "notes", "query": "Marisol parrot"}))
        assert any("Pistachio" in e["text"] for e in found["evidence"])
        trees = payload(await r.call_tool("browse_tree", {"forest": "notes"}))["trees"]
        assert [t["label"] for t in trees if t["kind"] == "session"] == ["s-parrot"]


async def test_http_tenants_are_isolated(served: Served) -> None:
    a_key = await served.key("acme", ["read", "write"])
    b_key = await served.key("globex", ["read", "write", "admin"])
    async with served.session(a_key) as a:
        added = await add_and_wait(a, "notes", "s-parrot", PARROT, "2024-03-10T09:30:00Z")
        a_trees = payload(await a.call_tool("browse_tree", {"forest": "notes"}))["trees"]
        a_root = a_trees[0]["root_node_id"]
    async with served.session(b_key) as b:
        assert "not-found" in error_of(await b.call_tool("search_memory", {"forest": "notes", "query": "parrot"}))
        assert "not-found" in error_of(await b.call_tool("get_context", {"forest": "notes", "query": "parrot"}))
        assert "not-found" in error_of(await b.call_tool("browse_tree", {"forest": "notes"}))
        assert "not-found" in error_of(await b.call_tool("get_job", {"job_id": added["job_id"]}))
        # B's own forest of the same name holds none of A's memory, and A's node ids are absent to B
        await add_and_wait(b, "notes", "s-kayak", KAYAK, "2024-04-02T12:00:00Z")
        assert "not-found" in error_of(await b.call_tool("browse_tree", {"forest": "notes", "node_id": a_root}))
        found = payload(await b.call_tool("search_memory", {"forest": "notes", "query": "Marisol parrot Pistachio"}))
        assert not any("Pistachio" in e["text"] for e in found["evidence"])
        # the same session id in B's forest is B's own session, not a conflict with A's
        assert payload(await b.call_tool("add_memory", {"forest": "notes", "text": KAYAK, "session_id": "s-parrot"}))


# ---------------------------------------------------------------- stdio: memforest mcp

REPO_ROOT = str(Path(__file__).resolve().parents[2])


async def test_stdio_command_serves_the_local_tenant(settings: Settings, db_url: str, tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "memforest"
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "PYTHONPATH": REPO_ROOT,  # this tree's code, not the installed one
        "MEMFOREST_HOME": str(settings.home),
        "MEMFOREST_DATABASE_URL": db_url,
        "MEMFOREST_DATABASE_TENANT_URL": tenant_url(db_url),
        "MEMFOREST_EMBEDDING__DIM": str(TEST_DIM),
        "MEMFOREST_WORKER__POLL_INTERVAL_S": "0.05",
    }
    params = StdioServerParameters(command=str(exe), args=["mcp", "--forest", "diary"], env=env)
    errlog = (tmp_path / "stderr.log").open("w+")
    try:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as s:
            init = await s.initialize()
            assert (init.serverInfo.name, init.serverInfo.version) == ("memforest", memforest.__version__)
            listed = (await s.list_tools()).tools
            assert {t.name for t in listed} == TOOLS
            search = next(t for t in listed if t.name == "search_memory").inputSchema
            assert search["required"] == ["query"]  # forest defaults to --forest over stdio
            added = payload(await s.call_tool("add_memory", {"text": PARROT, "time": "2024-03-10 09:30"}))
            job = await wait_job(s, added["job_id"])
            assert job["state"] == "succeeded" and job["forest"] == "diary"
            found = payload(await s.call_tool("search_memory", {"query": "Which parrot did Marisol adopt?"}))
            assert found["forest"] == "diary"
            assert "Pistachio" in found["evidence"][0]["text"]
            assert found["evidence"][0]["session_id"] == added["session_id"]
            ctx = text_of(await s.call_tool("get_context", {"query": "Marisol parrot"}))
            assert "[2024-03-10 09:30]" in ctx
    finally:
        errlog.close()


def test_stdio_protocol_stream_keeps_stray_output_off_stdout() -> None:
    code = (
        "import os, subprocess, sys\n"
        "from memforest.mcp.stdio import protocol_stdout\n"
        "with protocol_stdout() as out:\n"
        "    print('stray print', flush=True)\n"
        "    subprocess.run(['echo', 'child output'], check=True)\n"
        '    out.write(\'{"jsonrpc": "2.0"}\\n\'); out.flush()\n'
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout == '{"jsonrpc": "2.0"}\n'
    assert "stray print" in done.stderr and "child output" in done.stderr


# ---------------------------------------------------------------- a first-class server (issue 52 item 3)


async def test_http_server_describes_itself_and_every_parameter(served: Served) -> None:
    key = await served.key("acme", ["read"])
    headers = {"Authorization": f"Bearer {key}"}
    async with (
        httpx.AsyncClient(headers=headers) as http,
        streamable_http_client(served.url, http_client=http) as (read, write, _),
        ClientSession(read, write) as s,
    ):
        init = await s.initialize()
        assert (init.serverInfo.name, init.serverInfo.version) == ("memforest", memforest.__version__)
        listed = {t.name: t for t in (await s.list_tools()).tools}
    assert set(listed) == TOOLS
    for tool in listed.values():
        schema = tool.inputSchema
        assert schema["additionalProperties"] is False, tool.name
        assert all(prop.get("description") for prop in schema["properties"].values()), tool.name
        assert tool.outputSchema is not None and tool.outputSchema["type"] == "object", tool.name
        if "forest" in schema["properties"]:
            assert "forest" in schema["required"], tool.name  # over HTTP there is no default forest
    assert listed["search_memory"].inputSchema["properties"]["mode"]["enum"] == ["emb", "llm"]
    kinds = listed["browse_tree"].inputSchema["properties"]["kind"]["anyOf"][0]["enum"]
    assert kinds == ["session", "entity", "scene"]
    turns = listed["add_memory"].inputSchema["properties"]["turns"]["anyOf"][0]["items"]
    assert {"speaker", "text"} <= set(turns["properties"]) and turns.get("additionalProperties") is False
    assert listed["add_memory"].inputSchema["properties"]["wait"]["maximum"] == 30


async def test_http_argument_errors_are_one_line_naming_the_argument(served: Served) -> None:
    key = await served.key("acme", ["read", "write"])
    async with served.session(key) as s:
        for args, named in (
            ({"forest": "n", "query": 5}, "query"),
            ({"forest": "n", "query": "x", "top_k": "ten"}, "top_k"),
            ({"forest": "n", "query": "x", "mode": "fast"}, "mode"),
            ({"forest": "n", "query": "x", "user_id": "ana"}, "user_id"),
        ):
            message = error_of(await s.call_tool("search_memory", args))
            assert message.startswith(f"invalid-input: {named}: "), message
            assert "pydantic" not in message and "validation error for" not in message, message
        assert error_of(await s.call_tool("search_memory", {"query": "x"})).startswith("invalid-input: forest")
        late = error_of(await s.call_tool("add_memory", {"forest": "n", "text": "x", "wait": 31}))
        assert late.startswith("invalid-input: wait: ")


async def test_http_add_memory_waits_and_history_follows_a_fact(served: Served) -> None:
    key = await served.key("acme", ["read", "write"])
    async with served.session(key) as s:
        done = payload(await s.call_tool("add_memory", {"forest": "n", "text": PARROT, "wait": 30}))
        assert done["state"] == "succeeded" and done["kind"] == "ingest"
        found = payload(await s.call_tool("search_memory", {"forest": "n", "query": "Which parrot did Marisol adopt?"}))
        fact = next(e for e in found["evidence"] if e["kind"] == "fact" and "Pistachio" in e["text"])
        fixed = {"forest": "n", "fact_id": fact["fact_id"], "text": "Marisol adopted a green parrot called Kiwi."}
        new = payload(await s.call_tool("update_memory", fixed))
        payload(await s.call_tool("delete_memory", {"forest": "n", "fact_id": fact["fact_id"]}))
        history = payload(await s.call_tool("memory_history", {"forest": "n", "fact_id": fact["fact_id"]}))
        assert history["status"] == "deleted"
        events = [e["event"] for e in history["events"]]
        assert events == ["extracted", "corrected", "sources_removed", "deleted"]
        assert history["events"][1]["related_fact_id"] == new["id"]
        assert history["events"][3]["actor"].startswith("key:")
        gone = error_of(await s.call_tool("memory_history", {"forest": "n", "fact_id": "999999"}))
        assert gone.startswith("not-found")


async def test_http_delete_memory_can_forget_the_text(served: Served) -> None:
    key = await served.key("acme", ["read", "write"])
    async with served.session(key) as s:
        payload(await s.call_tool("add_memory", {"forest": "n", "text": KAYAK, "wait": 30}))
        found = payload(await s.call_tool("search_memory", {"forest": "n", "query": "Who repaired the kayak?"}))
        fact = next(e for e in found["evidence"] if e["kind"] == "fact")
        payload(await s.call_tool("delete_memory", {"forest": "n", "fact_id": fact["fact_id"], "forget_text": True}))
        history = payload(await s.call_tool("memory_history", {"forest": "n", "fact_id": fact["fact_id"]}))
        assert history["events"][-1]["event"] == "deleted"
        assert all(e["text"] is None and e["text_dropped"] for e in history["events"])
