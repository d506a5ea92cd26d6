"""Strict inputs (issue 52 item 1) against the real database: every request body refuses a field it
does not declare with a 422 problem naming it (``metadata`` stays free), every MCP tool refuses an
unknown argument with a one-line tool error, and the CLI commands that only read never create a
tenant or a forest."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import TextContent
from support import ADMIN_AUTH, admin_settings, app_client, new_tenant, serve_app, tenant_key

from memforest.cli import main
from memforest.db.engine import Database
from memforest.servers import create_app
from memforest.settings import Settings

QUERY = {"query": "What is the dog called?"}
TURN = {"speaker": "Dana", "text": "I adopted a beagle."}


def _names_field(r: httpx.Response, field: str) -> None:
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["detail"].startswith(f"body.{field}:"), r.text
    assert "Extra inputs are not permitted" in r.json()["detail"]


async def test_every_request_body_refuses_an_unknown_field(settings: Settings, db: Database) -> None:
    async with app_client(admin_settings(settings), db) as (_, c):
        tid, h = await tenant_key(c)
        _names_field(await c.post("/v1/tenants", json={"name": "b", "plan": "pro"}, headers=ADMIN_AUTH), "plan")
        _names_field(
            await c.post(f"/v1/tenants/{tid}/keys", json={"scopes": ["read"], "ttl": 5}, headers=ADMIN_AUTH), "ttl"
        )
        _names_field(await c.post("/v1/forests", json={"name": "f", "fanout": 8}, headers=h), "fanout")
        for what, field in (("limits", "rate"), ("quotas", "max_sessions")):
            r = await c.put(f"/v1/admin/tenants/{tid}/{what}", json={field: 1}, headers=ADMIN_AUTH)
            _names_field(r, field)
        assert (await c.post("/v1/forests", json={"name": "f"}, headers=h)).status_code == 201
        posts: list[tuple[str, dict[str, Any], str]] = [
            ("/v1/forests/f/query", QUERY | {"user_id": "u1"}, "user_id"),
            ("/v1/forests/f/query", QUERY | {"topk": 3}, "topk"),
            ("/v1/forests/f/query", QUERY | {"filter": {"speaker": ["Dana"]}}, "filter.speaker"),
            ("/v1/query", QUERY | {"forests": ["f"], "user_id": "u1"}, "user_id"),
            ("/v1/forests/f/messages", {"messages": [{"role": "user", "content": "hi"}], "user": "u"}, "user"),
            ("/v1/forests/f/sessions", {"id": "s", "time": "2024-01-01", "turns": [TURN], "tags": []}, "tags"),
            ("/v1/forests/f/merge", {"from": "g", "mode": "x"}, "mode"),
            ("/v1/forests/f/rematerialize", {"summaries": True, "all": True}, "all"),
            ("/v1/webhooks", {"url": "https://example.com/h", "secret": "s"}, "secret"),
        ]
        for path, body, field in posts:
            r = await c.post(path, json=body, headers=h)
            if path.endswith("/sessions"):  # the native session body names the field without the body prefix
                assert r.status_code == 422 and "tags" in r.json()["detail"], r.text
                continue
            _names_field(r, field)
        r = await c.patch("/v1/forests/f/facts/1", json={"text": "x", "reason": "typo"}, headers=h)
        _names_field(r, "reason")
        # the documented free-form maps stay free
        q = QUERY | {"filter": {"metadata": {"any": {"nested": [1]}}}}
        assert (await c.post("/v1/forests/f/query", json=q, headers=h)).status_code == 200
        body = {"messages": [{"role": "user", "content": "hi"}], "metadata": {"free": {"form": True}}}
        assert (await c.post("/v1/forests/f/messages", json=body, headers=h)).status_code == 202


async def test_every_mcp_tool_refuses_an_unknown_argument(settings: Settings, db: Database) -> None:
    async with serve_app(create_app(admin_settings(settings), db=db)) as url, httpx.AsyncClient(base_url=url) as http:
        _, key = await new_tenant(http)
        headers = {"Authorization": f"Bearer {key}"}
        async with contextlib.AsyncExitStack() as stack:
            client = await stack.enter_async_context(httpx.AsyncClient(headers=headers, timeout=30))
            read, write, _ = await stack.enter_async_context(streamable_http_client(f"{url}/mcp", http_client=client))
            s: ClientSession = await stack.enter_async_context(ClientSession(read, write))
            await s.initialize()
            tools = (await s.list_tools()).tools
            assert tools and all(t.inputSchema.get("additionalProperties") is False for t in tools)
            for tool in tools:
                required = {name: "x" for name in tool.inputSchema.get("required", [])}
                forest = {"forest": "f"} if "forest" in tool.inputSchema["properties"] else {}
                result = await s.call_tool(tool.name, required | forest | {"user_id": "ana"})
                assert result.isError, (tool.name, result)
                block = result.content[0]
                assert isinstance(block, TextContent) and "\n" not in block.text
                assert block.text.startswith(f"invalid-input: user_id: {tool.name} has no argument 'user_id'"), (
                    block.text
                )
            # an unknown field inside a turn is named too; metadata stays free
            turn = {"speaker": "a", "text": "hi", "mood": "glad"}
            bad = await s.call_tool("add_memory", {"forest": "f", "turns": [turn]})
            assert bad.isError and "mood" in str(bad.content[0])
            free = await s.call_tool("search_memory", {"forest": "nowhere", "query": "q", "metadata": {"any": 1}})
            assert free.isError and "not-found" in str(free.content[0])  # reached the lookup: the filter passed


@pytest.fixture
def cli_env(db_env: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path / "home"))
    return db_env


@pytest.mark.parametrize(
    "argv",
    [
        ["query", "what?", "--forest", "f", "--tenant", "typo"],
        ["stats", "--forest", "f", "--tenant", "typo"],
        ["check", "--forest", "f", "--tenant", "typo"],
        ["export", "--forest", "f", "--tenant", "typo", "-o", "-"],
        ["query-forests", "what?", "--forests", "f,g", "--tenant", "typo"],
        ["fact-delete", "--forest", "f", "--fact", "1", "--tenant", "typo"],
    ],
)
def test_reading_commands_never_create_a_tenant(
    cli_env: str, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    for _ in range(2):  # the second run finds no tenant either: the first created none
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "no tenant named 'typo'" in err[0], err
