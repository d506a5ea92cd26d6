"""The MCP query tools refuse what ``POST /v1/forests/{forest}/query`` refuses (issue 54 item 6:
every MCP tool enforces the same limits as its REST twin): an over-long question and ``top_k`` out
of range are each a 422 over REST and an InputError naming the same argument from
``search_memory`` and ``get_context``."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from support import admin_settings, app_client, tenant_key

from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.mcp import tools
from memforest.settings import Settings

BAD: list[tuple[dict[str, Any], str]] = [
    ({"query": "x" * 20_001}, "query"),
    ({"top_k": 0}, "top_k"),
    ({"top_k": 100_000}, "top_k"),
]


@pytest.mark.parametrize(("bad", "field"), BAD, ids=[f"{f}-{i}" for i, (_, f) in enumerate(BAD)])
async def test_the_mcp_query_tools_refuse_what_rest_refuses(
    settings: Settings, db: Database, bad: dict[str, Any], field: str
) -> None:
    async with app_client(admin_settings(settings), db) as (app, c):
        tid, h = await tenant_key(c)
        assert (await c.post("/v1/forests", json={"name": "n"}, headers=h)).status_code == 201
        body = {"query": "Where does Alice live?"} | bad
        r = await c.post("/v1/forests/n/query", json=body, headers=h)
        assert r.status_code == 422 and field in r.text, r.text
        svc = tools.Services(app.state.db, app.state.settings, app.state.backends)
        args: dict[str, Any] = {"top_k": bad.get("top_k")}
        text = str(bad.get("query", body["query"]))
        with pytest.raises(InputError) as searched:
            await tools.search_memory(svc, uuid.UUID(tid), "n", text, as_of=None, mode="emb", **args)
        assert field in (searched.value.location or "") + str(searched.value), searched.value
        with pytest.raises(InputError) as context:
            await tools.get_context(svc, uuid.UUID(tid), "n", text, token_budget=None, **args)
        assert field in (context.value.location or "") + str(context.value), context.value
