"""Query filters (session metadata, session ids, speakers) and ``POST /v1/query`` over several
forests, over HTTP against the real database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from support import admin_settings, app_client, tenant_key

from memforest.db.engine import Database
from memforest.settings import Settings


@pytest.fixture
async def api(settings: Settings, db: Database) -> AsyncIterator[httpx.AsyncClient]:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05})
    async with app_client(s, db, start_worker=True) as (_, client):
        yield client


async def _add(c: httpx.AsyncClient, h: dict[str, str], forest: str, sid: str, msgs: list[tuple[str, str]],
               metadata: dict[str, Any]) -> None:  # fmt: skip
    body = {
        "session_id": sid, "time": "2024-05-01T10:00:00Z", "metadata": metadata,
        "messages": [{"role": "user", "name": who, "content": text} for who, text in msgs],
    }  # fmt: skip
    r = await c.post(f"/v1/forests/{forest}/messages?wait=30", json=body, headers=h)
    assert r.status_code == 200 and r.json()["state"] == "succeeded", r.text


async def _ask(c: httpx.AsyncClient, h: dict[str, str], q: str, flt: dict[str, Any] | None) -> list[dict[str, Any]]:
    body: dict[str, Any] = {"query": q, "top_k": 20} | ({"filter": flt} if flt is not None else {})
    r = await c.post("/v1/forests/f/query", json=body, headers=h)
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["evidence"]
    return out


async def test_filters_keep_only_matching_sources(api: httpx.AsyncClient) -> None:
    c = api
    _, h = await tenant_key(c)
    await _add(c, h, "f", "work", [("Ana", "I play tennis every Monday."), ("Ben", "I play chess on Fridays.")],
               {"topic": "hobbies", "team": {"id": 1}})  # fmt: skip
    await _add(c, h, "f", "home", [("Ana", "I play the piano at home."), ("Ben", "I play golf on Sundays.")],
               {"topic": "home"})  # fmt: skip
    q = "What does she play?"
    everything = await _ask(c, h, q, None)
    assert {e["session_id"] for e in everything} == {"work", "home"}
    by_meta = await _ask(c, h, q, {"metadata": {"topic": "hobbies"}})
    assert by_meta and {e["session_id"] for e in by_meta} == {"work"}
    assert {e["session_id"] for e in await _ask(c, h, q, {"metadata": {"team": {"id": 1}}})} == {"work"}
    assert await _ask(c, h, q, {"metadata": {"team": {}}}) == []  # equality, not containment
    assert await _ask(c, h, q, {"metadata": {"topic": "nope"}}) == []
    by_session = await _ask(c, h, q, {"session_ids": ["home"]})
    assert by_session and {e["session_id"] for e in by_session} == {"home"}
    by_speaker = await _ask(c, h, q, {"speakers": ["Ben"]})
    facts = [e for e in by_speaker if e["kind"] == "fact"]
    assert facts and all("Ben" in e["text"] or "chess" in e["text"] or "golf" in e["text"] for e in facts)
    assert not any("tennis" in e["text"] or "piano" in e["text"] for e in facts)
    both = await _ask(c, h, q, {"speakers": ["Ben"], "session_ids": ["home"], "metadata": {"topic": "home"}})
    assert both and {e["session_id"] for e in both} == {"home"}
    assert not any("chess" in e["text"] for e in both if e["kind"] == "fact")
    for bad in ({"metadata": "x"}, {"session_ids": [""]}, {"speakers": "Ben"}, {"other": 1}):
        r = await c.post("/v1/forests/f/query", json={"query": q, "filter": bad}, headers=h)
        assert r.status_code == 422, (bad, r.text)


async def test_query_over_several_forests(api: httpx.AsyncClient) -> None:
    c = api
    _, h = await tenant_key(c)
    await _add(c, h, "mine", "s1", [("Ana", "My favourite colour is teal.")], {})
    await _add(c, h, "team", "s1", [("Ana", "The team offsite is in Oslo in March.")], {})
    body = {"forests": ["mine", "team"], "query": "Where is the offsite and what colour does Ana like?", "top_k": 6}
    r = await c.post("/v1/query", json=body, headers=h)
    assert r.status_code == 200, r.text
    out = r.json()
    ev = out["evidence"]
    assert out["forests"] == ["mine", "team"] and 1 <= len(ev) <= 6
    assert {e["forest"] for e in ev} == {"mine", "team"}
    assert [e["rank"] for e in ev] == list(range(1, len(ev) + 1))
    assert [e["score"] for e in ev] == sorted((e["score"] for e in ev), reverse=True)
    assert any("Oslo" in e["text"] and e["forest"] == "team" for e in ev)
    assert any("teal" in e["text"] and e["forest"] == "mine" for e in ev)
    # filters apply in every forest; an unknown (or another tenant's) forest is a 404
    r = await c.post("/v1/query", json=body | {"filter": {"session_ids": ["nope"]}}, headers=h)
    assert r.status_code == 200 and r.json()["evidence"] == []
    assert (await c.post("/v1/query", json=body | {"forests": ["mine", "zzz"]}, headers=h)).status_code == 404
    _, other = await tenant_key(c, "other")
    assert (await c.post("/v1/query", json=body, headers=other)).status_code == 404
    assert (await c.post("/v1/query", json=body | {"forests": []}, headers=h)).status_code == 422
