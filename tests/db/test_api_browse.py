"""Browse endpoints over a real ingested forest: facts (pagination, filters, provenance, supersession
chain), trees (kinds, pagination) and nodes (children consistent with the tree), and 404s."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from support import ADMIN_AUTH, admin_settings, app_client, bearer, new_tenant, session_input

from memforest.app.problems import PROBLEM_CONTENT_TYPE
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.pipeline.service import ingest_sessions
from memforest.settings import Settings
from memforest.store.sql import execute, fetch_all

JAN = datetime(2023, 1, 10, 9, 0, tzinfo=UTC)
MAR = datetime(2023, 3, 14, 9, 0, tzinfo=UTC)
MAY = datetime(2023, 5, 3, 9, 0, tzinfo=UTC)

CONVERSATION = [
    (
        "s1",
        JAN,
        [
            "I live in Oslo.",
            "Nice city.",
            "I adopted a cat named Pixel yesterday.",
            "Pixel sounds sweet!",
            "I bake sourdough bread every Sunday.",
            "Sourdough takes patience.",
        ],
    ),
    (
        "s2",
        MAR,
        [
            "I started learning the cello.",
            "Good luck with the cello!",
            "Pixel knocked over my tea.",
            "Cats do that.",
        ],
    ),
    (
        "s3",
        MAY,
        [
            "I moved to Bergen.",
            "Oh wow, big change.",
            "Pixel loves the new flat.",
            "Glad to hear it.",
            "I practise the cello every evening now.",
            "Your neighbours must love that.",
        ],
    ),
]


@dataclass
class Browse:
    client: httpx.AsyncClient
    db: Database
    tenant_id: uuid.UUID
    headers: dict[str, str]
    admin_headers: dict[str, str]

    async def get(self, path: str, **params: Any) -> httpx.Response:
        return await self.client.get(path, params=params, headers=self.headers)

    async def ok(self, path: str, **params: Any) -> dict[str, Any]:
        r = await self.get(path, **params)
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body

    async def all_pages(self, path: str, limit: int, **params: Any) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(1000):
            page = await self.ok(path, limit=limit, **params, **({"cursor": cursor} if cursor else {}))
            assert len(page["items"]) <= limit
            items += page["items"]
            cursor = page["next_cursor"]
            if cursor is None:
                return items
            assert page["items"], "a page with a next cursor is never empty"
        raise AssertionError("pagination did not end")

    async def facts(self, **params: Any) -> list[dict[str, Any]]:
        return await self.all_pages("/v1/forests/f/facts", 200, **params)

    async def texts(self, **params: Any) -> set[str]:
        return {f["text"] for f in await self.facts(**params)}

    async def sql(self, sql: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        async with self.db.tenant(self.tenant_id) as conn:
            return await fetch_all(conn, sql, {"t": self.tenant_id, **(params or {})})

    async def fact_id(self, text: str) -> str:
        rows = await self.sql("SELECT fact_id FROM facts WHERE tenant_id = :t AND text = :x", {"x": text})
        assert len(rows) == 1, text
        return str(rows[0]["fact_id"])


@pytest.fixture
async def browse(settings: Settings, db: Database) -> AsyncIterator[Browse]:
    s = admin_settings(settings, pipeline={"fanout_session": 2, "fanout_entity": 3, "fanout_scene": 3})
    async with app_client(s, db) as (_, client):
        tenant, key = await new_tenant(client, "acme", ["read"])
        tid = uuid.UUID(tenant)
        backends = build_backends(s)
        try:
            sessions = [session_input(ext, when, texts, ("Nora", "Theo")) for ext, when, texts in CONVERSATION]
            report = await ingest_sessions(db, s, backends, tid, "f", sessions, job_concurrency=1)
        finally:
            await backends.aclose()
        assert report.jobs_failed == 0 and report.counts.facts_superseded >= 1
        yield Browse(client, db, tid, bearer(key), ADMIN_AUTH)


def assert_problem(r: httpx.Response, status: int) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM_CONTENT_TYPE)


# ---------------------------------------------------------------- facts


async def test_fact_pages_have_no_gaps_or_duplicates(browse: Browse) -> None:
    everything = await browse.facts(include_superseded=True, include_retracted=True)
    in_db = await browse.sql("SELECT fact_id FROM facts WHERE tenant_id = :t ORDER BY valid_from, fact_id")
    assert [f["id"] for f in everything] == [str(r["fact_id"]) for r in in_db]
    assert len(everything) >= 10
    for limit in (1, 2, 3, 7):
        paged = await browse.all_pages("/v1/forests/f/facts", limit, include_superseded=True, include_retracted=True)
        assert [f["id"] for f in paged] == [f["id"] for f in everything]
    keys = [(f["valid_from"], int(f["id"])) for f in everything]
    assert keys == sorted(keys, key=lambda k: (datetime.fromisoformat(k[0]), k[1]))
    item = everything[0]
    for field in (
        "id", "text", "kind", "status", "entities", "topics", "speaker", "valid_from", "valid_to", "recorded_at",
        "supersedes", "superseded_by", "source_count",
    ):  # fmt: skip
        assert field in item
    assert isinstance(item["id"], str) and item["source_count"] >= 1
    for bad in ({"cursor": "!!!"}, {"cursor": "bm9wZQ"}, {"limit": 0}, {"limit": 201}, {"limit": "x"}):
        assert_problem(await browse.get("/v1/forests/f/facts", **bad), 422)


async def test_supersession_filters(browse: Browse) -> None:
    oslo, bergen = "Nora lives in Oslo.", "Nora moved to Bergen."
    current = await browse.facts()
    assert bergen in {f["text"] for f in current} and oslo not in {f["text"] for f in current}
    assert all(f["status"] == "current" and f["superseded_by"] is None for f in current)
    with_old = await browse.facts(include_superseded=True)
    old = next(f for f in with_old if f["text"] == oslo)
    new = next(f for f in with_old if f["text"] == bergen)
    assert old["status"] == "superseded" and old["superseded_by"] == new["id"] and new["supersedes"] == old["id"]
    assert old["valid_to"] == new["valid_from"] == MAY.isoformat()

    february = await browse.texts(valid_at="2023-02-01T00:00:00Z")
    assert oslo in february and bergen not in february and "Nora started learning the cello." not in february
    june = await browse.texts(valid_at="2023-06-01T00:00:00+02:00")
    assert bergen in june and oslo not in june
    assert await browse.texts(valid_at="2023-02-01T00:00:00") == february  # naive = UTC
    # as_of: recorded (said) by then and valid then; recorded_at is when the source turn was said
    early = await browse.facts(as_of="2023-02-01T00:00:00Z")
    assert oslo in {f["text"] for f in early} and "Nora started learning the cello." not in {f["text"] for f in early}
    assert all(datetime.fromisoformat(f["recorded_at"]) <= datetime(2023, 2, 1, tzinfo=UTC) for f in early)
    assert await browse.texts(as_of="2022-12-31T00:00:00Z") == set()
    assert await browse.texts(as_of="2023-06-01T00:00:00Z") == {f["text"] for f in current}
    both = await browse.texts(as_of="2023-06-01T00:00:00Z", valid_at="2023-02-01T00:00:00Z")
    assert both == february
    assert_problem(await browse.get("/v1/forests/f/facts", valid_at="yesterday"), 422)


async def test_retracted_facts_are_hidden_unless_asked(browse: Browse) -> None:
    fid = await browse.fact_id("Nora started learning the cello.")
    async with browse.db.tenant(browse.tenant_id) as conn:
        p = {"t": browse.tenant_id, "f": int(fid)}
        await execute(conn, "UPDATE facts SET retracted_at = now() WHERE tenant_id = :t AND fact_id = :f", p)
    assert fid not in {f["id"] for f in await browse.facts()}
    shown = {f["id"]: f for f in await browse.facts(include_retracted=True)}
    assert shown[fid]["status"] == "retracted" and shown[fid]["retracted_at"] is not None
    detail = await browse.ok(f"/v1/forests/f/facts/{fid}")
    assert detail["status"] == "retracted"


async def test_kind_entity_session_and_text_filters(browse: Browse) -> None:
    events = await browse.facts(kind="event")
    assert events and all(f["kind"] == "event" for f in events)
    assert "Nora moved to Bergen." in {f["text"] for f in events}
    assert_problem(await browse.get("/v1/forests/f/facts", kind="gossip"), 422)

    nora = await browse.facts(entity="Nora")
    assert nora and all("Nora" in f["entities"] for f in nora)
    assert {f["id"] for f in nora} == {f["id"] for f in await browse.facts(entity="  NORA ")}
    assert {f["id"] for f in nora} == {f["id"] for f in await browse.facts(entity="nora")}
    pixel = await browse.texts(entity="Pixel")  # an entity without its own tree still filters
    assert "Nora adopted a cat named Pixel on 9 January 2023." in pixel
    theo = await browse.facts(entity="Theo")
    assert theo and all("Theo" in f["entities"] for f in theo) and {f["id"] for f in theo} != {f["id"] for f in nora}
    assert await browse.facts(entity="Nobody") == []

    s2 = await browse.facts(session="s2")
    assert s2 and {f["text"] for f in s2} >= {"Nora started learning the cello."}
    for f in s2:
        detail = await browse.ok(f"/v1/forests/f/facts/{f['id']}")
        assert "s2" in {p["session_id"] for p in detail["provenance"]}
    not_s2 = [f for f in await browse.facts() if f["id"] not in {x["id"] for x in s2}]
    for f in not_s2:
        detail = await browse.ok(f"/v1/forests/f/facts/{f['id']}")
        assert "s2" not in {p["session_id"] for p in detail["provenance"]}
    assert await browse.facts(session="s9") == []

    cello = await browse.texts(q="cello")
    assert cello and all("cello" in t.lower() for t in cello)
    assert await browse.texts(q="CELLO") == cello
    assert "Nora started learning the cello." in await browse.texts(q="cellos")  # full-text stem match
    assert await browse.facts(q="%") == [] and await browse.facts(q="_") == []  # LIKE wildcards are literal
    combined = await browse.texts(q="cello", session="s2", kind="event")
    assert combined == {"Nora started learning the cello."}
    assert_problem(await browse.get("/v1/forests/f/facts", q=""), 422)
    assert_problem(await browse.get("/v1/forests/f/facts", q="a\x00b"), 422)


async def test_fact_detail_provenance_and_chain(browse: Browse) -> None:
    oslo = await browse.fact_id("Nora lives in Oslo.")
    bergen = await browse.fact_id("Nora moved to Bergen.")
    detail = await browse.ok(f"/v1/forests/f/facts/{bergen}")
    assert detail["id"] == bergen and detail["text"] == "Nora moved to Bergen." and detail["supersedes"] == oslo
    (src,) = detail["provenance"]
    assert src["session_id"] == "s3" and src["turn_ids"][0] == "s3:0"
    assert "I moved to Bergen." in src["snippet"] and src["snippet"].startswith("Nora: ")
    assert src["time"] == MAY.isoformat() and src["cell_id"].isdigit()
    cells = await browse.sql(
        "SELECT c.cell_id FROM cells c JOIN sessions s ON s.session_id = c.session_id "
        "WHERE c.tenant_id = :t AND s.external_id = 's3' AND c.seq = 0"
    )
    assert src["cell_id"] == str(cells[0]["cell_id"])
    chain = detail["supersession_chain"]
    assert [c["id"] for c in chain] == [oslo, bergen]
    assert [c["is_requested"] for c in chain] == [False, True]
    assert chain[0]["valid_to"] == chain[1]["valid_from"]
    old = await browse.ok(f"/v1/forests/f/facts/{oslo}")
    assert [c["id"] for c in old["supersession_chain"]] == [oslo, bergen]
    assert [c["is_requested"] for c in old["supersession_chain"]] == [True, False]
    assert old["provenance"][0]["session_id"] == "s1"
    kinds = {p["tree_kind"] for p in detail["placements"]}
    assert "entity" in kinds
    for p in detail["placements"]:
        node = await browse.ok(f"/v1/forests/f/nodes/{p['node_id']}")
        assert node["leaf"] == {"kind": "fact", "id": bergen, "text": "Nora moved to Bergen."}
        assert node["tree"]["id"] == p["tree_id"]
    lone = await browse.fact_id("Nice city.")
    assert [c["id"] for c in (await browse.ok(f"/v1/forests/f/facts/{lone}"))["supersession_chain"]] == [lone]


async def test_supersession_chain_survives_a_cycle(browse: Browse) -> None:
    oslo = int(await browse.fact_id("Nora lives in Oslo."))
    bergen = int(await browse.fact_id("Nora moved to Bergen."))
    async with browse.db.tenant(browse.tenant_id) as conn:  # corrupt the links into a loop
        p = {"t": browse.tenant_id, "o": oslo, "b": bergen}
        await execute(conn, "UPDATE facts SET supersedes = :b WHERE tenant_id = :t AND fact_id = :o", p)
        await execute(conn, "UPDATE facts SET superseded_by = :o WHERE tenant_id = :t AND fact_id = :b", p)
    chain = (await browse.ok(f"/v1/forests/f/facts/{oslo}"))["supersession_chain"]
    assert sorted(int(c["id"]) for c in chain) == sorted([oslo, bergen])
    assert sum(c["is_requested"] for c in chain) == 1


async def test_bad_or_absent_ids_are_404(browse: Browse) -> None:
    for bad in (
        "abc",
        "-1",
        "1.5",
        "1e3",
        "0x10",
        "９",
        "99999999999",
        "123456789012345678901234567890",
        "%00",
        "1%20",
    ):
        assert_problem(await browse.get(f"/v1/forests/f/facts/{bad}"), 404)
        assert_problem(await browse.get(f"/v1/forests/f/nodes/{bad}"), 404)


async def test_unknown_forest_and_scopes(browse: Browse) -> None:
    fid = await browse.fact_id("Nice city.")
    for path in (
        "/v1/forests/nope/facts",
        f"/v1/forests/nope/facts/{fid}",
        "/v1/forests/nope/trees",
        "/v1/forests/nope/nodes/1",
    ):
        assert_problem(await browse.get(path), 404)
    r = await browse.client.post("/v1/tenants", json={"name": "other"}, headers=browse.admin_headers)
    tid = r.json()["id"]
    r = await browse.client.post(f"/v1/tenants/{tid}/keys", json={"scopes": ["write"]}, headers=browse.admin_headers)
    writer = {"Authorization": f"Bearer {r.json()['key']}"}
    assert_problem(await browse.client.get("/v1/forests/f/facts", headers=writer), 403)
    assert_problem(await browse.client.get("/v1/forests/f/trees", headers=browse.admin_headers), 403)
    assert_problem(await browse.client.get("/v1/forests/f/trees"), 401)


# ---------------------------------------------------------------- trees and nodes


async def test_trees_by_kind_and_pages(browse: Browse) -> None:
    trees = await browse.all_pages("/v1/forests/f/trees", 200)
    in_db = await browse.sql("SELECT tree_id, kind FROM trees WHERE tenant_id = :t ORDER BY tree_id")
    assert [t["id"] for t in trees] == [str(r["tree_id"]) for r in in_db]
    assert [t["id"] for t in await browse.all_pages("/v1/forests/f/trees", 2)] == [t["id"] for t in trees]
    sessions = await browse.all_pages("/v1/forests/f/trees", 200, kind="session")
    assert sorted(t["key"] for t in sessions) == ["s1", "s2", "s3"]
    assert all(t["kind"] == "session" and t["fanout"] == 2 for t in sessions)
    entities = await browse.all_pages("/v1/forests/f/trees", 200, kind="entity")
    nora = next(t for t in entities if t["key"] == "nora")
    assert nora["label"] == "Nora" and nora["fanout"] == 3 and nora["height"] >= 2
    assert all(t["kind"] == "entity" for t in entities)
    scenes = await browse.all_pages("/v1/forests/f/trees", 200, kind="scene")
    assert len(sessions) + len(entities) + len(scenes) == len(trees)
    for t in trees:
        assert isinstance(t["root_node_id"], str) and t["n_leaves"] >= 1
    assert_problem(await browse.get("/v1/forests/f/trees", kind="forest"), 422)
    assert_problem(await browse.get("/v1/forests/f/trees", cursor="zz"), 422)


async def _walk(browse: Browse, node_id: str, parent: dict[str, Any] | None, tree_id: str) -> list[dict[str, Any]]:
    """Visit the subtree below ``node_id`` through the API (children in pages of 2); return its leaves."""
    node = await browse.ok(f"/v1/forests/f/nodes/{node_id}", limit=2)
    assert node["tree"]["id"] == tree_id and node["id"] == node_id
    assert node["parent_id"] == (parent["id"] if parent else None)
    children = list(node["children"])
    cursor = node["children_next_cursor"]
    while cursor is not None:
        page = await browse.ok(f"/v1/forests/f/nodes/{node_id}", limit=2, cursor=cursor)
        children += page["children"]
        cursor = page["children_next_cursor"]
    assert len(children) == node["n_children"]
    assert len({c["id"] for c in children}) == len(children)
    starts = [datetime.fromisoformat(c["interval"]["start"]) for c in children]
    assert starts == sorted(starts)
    if node["level"] == 0:
        assert children == [] and node["leaf"] is not None and node["summary"] is None
        return [node]
    assert node["leaf"] is None and children
    start, end = (datetime.fromisoformat(node["interval"][k]) for k in ("start", "end"))
    leaves: list[dict[str, Any]] = []
    for c in children:
        assert c["level"] == node["level"] - 1
        assert start <= datetime.fromisoformat(c["interval"]["start"]) <= datetime.fromisoformat(c["interval"]["end"])
        assert datetime.fromisoformat(c["interval"]["end"]) <= end
        sub = await _walk(browse, c["id"], node, tree_id)
        assert c["text"] is not None and (c["leaf"] is None) == (c["level"] > 0)
        leaves += sub
    return leaves


async def test_nodes_walk_matches_the_tree(browse: Browse) -> None:
    trees = await browse.all_pages("/v1/forests/f/trees", 200)
    assert any(t["height"] >= 2 for t in trees)
    for tree in trees:
        leaves = await _walk(browse, tree["root_node_id"], None, tree["id"])
        assert len(leaves) == tree["n_leaves"]
        placed = await browse.sql(
            "SELECT source_kind, source_id FROM placements WHERE tenant_id = :t AND tree_id = :tr",
            {"tr": int(tree["id"])},
        )
        assert sorted((leaf["leaf"]["kind"], leaf["leaf"]["id"]) for leaf in leaves) == sorted(
            (str(p["source_kind"]), str(p["source_id"])) for p in placed
        )
        expected = "cell" if tree["kind"] == "session" else "fact"
        assert {leaf["leaf"]["kind"] for leaf in leaves} == {expected}
        assert all(leaf["leaf"]["text"] for leaf in leaves)
    nora = next(t for t in trees if t["key"] == "nora")
    root = await browse.ok(f"/v1/forests/f/nodes/{nora['root_node_id']}")
    assert root["level"] == nora["height"] and root["summary"] and not root["dirty"]
    assert_problem(await browse.get(f"/v1/forests/f/nodes/{nora['root_node_id']}", cursor="bad"), 422)
    assert_problem(await browse.get(f"/v1/forests/f/nodes/{nora['root_node_id']}", limit=0), 422)
