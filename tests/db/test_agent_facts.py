"""``PATCH`` and ``DELETE /v1/forests/{forest}/facts/{fact_id}`` over HTTP against the real database:
a correction supersedes the fact (history kept, same trees), a deletion removes it everywhere."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from support import DANGLING_SUPERSEDED_BY, admin_settings, app_client, session_body, tenant_key

from memforest.db.engine import Database
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.tenants import get_forest

TEXTS = [
    "I moved to Lisbon last spring.",
    "My sister Carla works as a nurse in Porto.",
    "I adopted a beagle named Rufus in June.",
    "Carla visited me in Lisbon for my birthday.",
]


@pytest.fixture
async def api(settings: Settings, db: Database) -> AsyncIterator[httpx.AsyncClient]:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05})
    async with app_client(s, db, start_worker=True) as (_, client):
        yield client


async def _forest(c: httpx.AsyncClient, h: dict[str, str]) -> list[dict[str, Any]]:
    body = session_body("s1", "2024-05-01T10:00:00Z", TEXTS, ("dana", "dana"))
    r = await c.post("/v1/forests/f/sessions?wait=30", json=body, headers=h)
    assert r.status_code == 200 and r.json()["state"] == "succeeded", r.text
    facts: list[dict[str, Any]] = (await c.get("/v1/forests/f/facts?limit=200", headers=h)).json()["items"]
    assert facts
    return facts


def _find(facts: list[dict[str, Any]], word: str) -> dict[str, Any]:
    return next(f for f in facts if word in f["text"])


async def _check(db: Database, tid: str) -> None:
    """Every tree invariant holds (refresh ran: nothing dirty)."""
    t = uuid.UUID(tid)
    async with db.tenant(t) as conn:
        forest = await get_forest(conn, t, "f")
        report = await check_forest(conn, t, forest.forest_id)
    assert report.ok, report.violations


async def _query(c: httpx.AsyncClient, h: dict[str, str], q: str, **extra: Any) -> list[dict[str, Any]]:
    r = await c.post("/v1/forests/f/query", json={"query": q, "top_k": 20} | extra, headers=h)
    assert r.status_code == 200, r.text
    evidence: list[dict[str, Any]] = r.json()["evidence"]
    return evidence


async def test_correction_supersedes_and_keeps_history(api: httpx.AsyncClient, db: Database) -> None:
    c = api
    tid, h = await tenant_key(c)
    facts = await _forest(c, h)
    old = _find(facts, "Rufus")
    detail = (await c.get(f"/v1/forests/f/facts/{old['id']}", headers=h)).json()
    old_trees = sorted(p["tree_id"] for p in detail["placements"])
    body = {"text": "I adopted a beagle named Rocket in June", "valid_from": "2024-06-01T00:00:00Z"}
    r = await c.patch(f"/v1/forests/f/facts/{old['id']}", json=body, headers=h)
    assert r.status_code == 200, r.text
    new = r.json()
    assert new["text"] == "I adopted a beagle named Rocket in June." and new["kind"] == "correction"
    assert new["provenance"] == [] and new["supersedes"] == old["id"] and new["status"] == "current"
    assert new["valid_from"].startswith("2024-06-01T00:00:00")
    assert sorted(p["tree_id"] for p in new["placements"]) == old_trees  # the same trees
    again = (await c.get(f"/v1/forests/f/facts/{old['id']}", headers=h)).json()
    assert again["status"] == "superseded" and again["superseded_by"] == new["id"]
    assert again["valid_to"] == new["valid_from"] and again["text"] == old["text"]  # nothing deleted
    # queries return the new text; with include_superseded the old one comes back marked superseded
    ev = await _query(c, h, "What is the name of the beagle?")
    texts = [e["text"] for e in ev]
    assert new["text"] in texts and old["text"] not in texts
    assert next(e for e in ev if e["text"] == new["text"])["fact_id"] == new["id"]
    ev = await _query(c, h, "What is the name of the beagle?", include_superseded=True)
    marked = {e["text"]: e["superseded"] for e in ev if e["kind"] == "fact"}
    assert marked.get(old["text"]) is True and marked.get(new["text"]) is False
    await _check(db, tid)
    # correcting the superseded one is a conflict; bad input and unknown ids are problems
    assert (await c.patch(f"/v1/forests/f/facts/{old['id']}", json=body, headers=h)).status_code == 409
    taken = await c.patch(f"/v1/forests/f/facts/{new['id']}", json={"text": new["text"]}, headers=h)  # its own text
    assert taken.status_code == 409 and "already exists" in taken.json()["detail"], taken.text
    early = {"text": "Something else entirely", "valid_from": "2000-01-01T00:00:00Z"}
    assert (await c.patch(f"/v1/forests/f/facts/{new['id']}", json=early, headers=h)).status_code == 422
    assert (await c.patch(f"/v1/forests/f/facts/{new['id']}", json={"text": ""}, headers=h)).status_code == 422
    # (a superscript is a digit to str.isdigit and no number to int; a bigint overflow is no id)
    for fid in ("999999", "abc", "-1", "\u00b2", "1\u00b2", "\u0663", "99999999999999999999"):
        assert (await c.patch(f"/v1/forests/f/facts/{fid}", json=body, headers=h)).status_code == 404
        assert (await c.delete(f"/v1/forests/f/facts/{fid}", headers=h)).status_code == 404
        assert (await c.get(f"/v1/forests/f/facts/{fid}", headers=h)).status_code == 404
    assert (await c.patch(f"/v1/forests/nope/facts/{new['id']}", json=body, headers=h)).status_code == 404
    # a correction of the correction (default valid_from: now) chains on
    r = await c.patch(f"/v1/forests/f/facts/{new['id']}", json={"text": "The beagle is called Rex."}, headers=h)
    assert r.status_code == 200 and r.json()["supersedes"] == new["id"], r.text
    chain = [x["id"] for x in r.json()["supersession_chain"]]
    assert chain == [old["id"], new["id"], r.json()["id"]]
    # another tenant cannot see or touch it
    _, other = await tenant_key(c, "other")
    assert (await c.patch(f"/v1/forests/f/facts/{new['id']}", json=body, headers=other)).status_code == 404
    _, ro = await tenant_key(c, "reader", scopes=("read",))
    assert (await c.patch(f"/v1/forests/f/facts/{new['id']}", json=body, headers=ro)).status_code == 403


async def test_delete_removes_the_fact_everywhere(api: httpx.AsyncClient, db: Database) -> None:
    c = api
    tid, h = await tenant_key(c)
    facts = await _forest(c, h)
    gone = _find(facts, "nurse")
    detail = (await c.get(f"/v1/forests/f/facts/{gone['id']}", headers=h)).json()
    assert detail["placements"]
    leaves_before = {t["id"]: t["n_leaves"] for t in (await c.get("/v1/forests/f/trees", headers=h)).json()["items"]}
    r = await c.delete(f"/v1/forests/f/facts/{gone['id']}", headers=h)
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["fact_id"] == gone["id"] and report["leaves_removed"] == len(detail["placements"])
    # gone from browse, listings, query and export
    assert (await c.get(f"/v1/forests/f/facts/{gone['id']}", headers=h)).status_code == 404
    listed = (await c.get("/v1/forests/f/facts?include_superseded=true&limit=200", headers=h)).json()["items"]
    assert gone["id"] not in {f["id"] for f in listed} and len(listed) == len(facts) - 1
    ev = await _query(c, h, "What does Carla do for work?", include_superseded=True)
    assert gone["text"] not in [e["text"] for e in ev if e["kind"] == "fact"]
    export = await c.get("/v1/forests/f/export", headers=h)
    assert export.status_code == 200 and gone["text"] not in export.text
    trees = {t["id"]: t["n_leaves"] for t in (await c.get("/v1/forests/f/trees", headers=h)).json()["items"]}
    for p in detail["placements"]:
        assert trees.get(p["tree_id"], 0) == leaves_before[p["tree_id"]] - 1
    await _check(db, tid)
    # the second delete is a 404, as are other tenants and unknown ids
    assert (await c.delete(f"/v1/forests/f/facts/{gone['id']}", headers=h)).status_code == 404
    _, other = await tenant_key(c, "other")
    keep = _find(facts, "Lisbon")
    assert (await c.delete(f"/v1/forests/f/facts/{keep['id']}", headers=other)).status_code == 404
    assert (await c.delete("/v1/forests/f/facts/x1", headers=h)).status_code == 404
    assert (await c.get(f"/v1/forests/f/facts/{keep['id']}", headers=h)).status_code == 200


async def test_deleting_a_correction_restores_the_fact(api: httpx.AsyncClient, db: Database) -> None:
    c = api
    tid, h = await tenant_key(c)
    old = _find(await _forest(c, h), "Lisbon")
    new = (await c.patch(f"/v1/forests/f/facts/{old['id']}", json={"text": "I moved to Madrid."}, headers=h)).json()
    assert (await c.delete(f"/v1/forests/f/facts/{new['id']}", headers=h)).status_code == 200
    back = (await c.get(f"/v1/forests/f/facts/{old['id']}", headers=h)).json()
    assert back["status"] == "current" and back["valid_to"] == old["valid_to"]
    await _check(db, tid)


async def test_deleting_a_fact_releases_facts_linked_to_it_from_outside_its_slot(
    api: httpx.AsyncClient, db: Database
) -> None:
    """superseded_by has no foreign key (migration 0019): a fact pointing at the deleted one from
    another slot (a merge can link a copied fact so) is current again, not left pointing at nothing."""
    c = api
    tid, h = await tenant_key(c)
    facts = await _forest(c, h)
    gone, linked = _find(facts, "nurse"), _find(facts, "beagle")
    async with db.system() as conn:
        await conn.execute(
            text(
                "UPDATE facts x SET superseded_by = g.fact_id, valid_to = g.valid_from FROM facts g "
                "WHERE x.tenant_id = :t AND x.fact_id = :x AND g.tenant_id = :t AND g.fact_id = :g"
            ),
            {"t": uuid.UUID(tid), "x": int(linked["id"]), "g": int(gone["id"])},
        )
    before = (await c.get(f"/v1/forests/f/facts/{linked['id']}", headers=h)).json()
    assert before["status"] == "superseded" and before["superseded_by"] == gone["id"]  # the premise

    r = await c.delete(f"/v1/forests/f/facts/{gone['id']}", headers=h)

    assert r.status_code == 200, r.text
    assert r.json()["facts_restored"] >= 1
    after = (await c.get(f"/v1/forests/f/facts/{linked['id']}", headers=h)).json()
    assert after["status"] == "current" and after["superseded_by"] is None
    assert after["valid_to"] == linked["valid_to"]  # the end the link had set is cleared
    async with db.system() as conn:
        dangling = await conn.scalar(text(DANGLING_SUPERSEDED_BY))
    assert dangling == 0
    await _check(db, tid)


async def test_deleting_a_correction_leaves_a_fact_it_no_longer_supersedes_alone(
    api: httpx.AsyncClient, db: Database
) -> None:
    """A merge remaps a copied correction's ``supersedes`` to the target's fact, which points on to
    its own successor: deleting the copy releases only what still points at it."""
    c = api
    tid, h = await tenant_key(c)
    facts = await _forest(c, h)
    old, other, successor = _find(facts, "visited"), _find(facts, "nurse"), _find(facts, "beagle")
    new = (await c.patch(f"/v1/forests/f/facts/{old['id']}", json={"text": "Carla visited in May."}, headers=h)).json()
    async with db.system() as conn:  # as a merge leaves it: supersedes names a fact superseded by another
        await conn.execute(
            text("UPDATE facts SET supersedes = :o WHERE tenant_id = :t AND fact_id = :n"),
            {"t": uuid.UUID(tid), "o": int(other["id"]), "n": int(new["id"])},
        )
        await conn.execute(
            text("UPDATE facts SET superseded_by = :s WHERE tenant_id = :t AND fact_id = :o"),
            {"t": uuid.UUID(tid), "o": int(other["id"]), "s": int(successor["id"])},
        )

    assert (await c.delete(f"/v1/forests/f/facts/{new['id']}", headers=h)).status_code == 200

    kept = (await c.get(f"/v1/forests/f/facts/{other['id']}", headers=h)).json()
    assert kept["status"] == "superseded" and kept["superseded_by"] == successor["id"]
    back = (await c.get(f"/v1/forests/f/facts/{old['id']}", headers=h)).json()
    assert back["status"] == "current" and back["valid_to"] == old["valid_to"]  # what still pointed at it
