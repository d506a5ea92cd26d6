"""The read endpoints the memory browser needs beyond browse (issue 51 item 1), over a real ingested
forest: the caller's key (/v1/key), forests with counts and last write (/v1/overview), entities and
an entity's timeline, the facts listing's speaker and time-window filters, and /ui's static files
with their security headers. Bad input is a 4xx problem; another tenant's forest is a 404."""

from __future__ import annotations

import tomllib
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from support import ADMIN_AUTH, admin_settings, app_client, bearer, new_tenant, session_input

from memforest.app.problems import PROBLEM_CONTENT_TYPE
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.pipeline.service import ingest_sessions
from memforest.settings import Settings
from memforest.store.sql import fetch_all

FEB = datetime(2024, 2, 5, 10, 0, tzinfo=UTC)
JUN = datetime(2024, 6, 12, 10, 0, tzinfo=UTC)
TALK = [
    ("t1", FEB, ["I live in Lisbon.", "Lovely.", "I work at Siemens.", "Good company.", "I baked a tart.", "Fun!"]),
    (
        "t2",
        JUN,
        ["I moved to Porto.", "Big move.", "I work at Bosch now.", "Congrats.", "My sister Ana visited.", "Nice."],
    ),
]


@dataclass
class Ui:
    client: httpx.AsyncClient
    db: Database
    tenant_id: uuid.UUID
    reader: dict[str, str]
    writer: dict[str, str]

    async def ok(self, path: str, **params: Any) -> Any:
        r = await self.client.get(path, params=params, headers=self.reader)
        assert r.status_code == 200, r.text
        return r.json()

    async def problem(self, path: str, status: int, headers: dict[str, str] | None = None, **params: Any) -> None:
        r = await self.client.get(path, params=params, headers=self.reader if headers is None else headers)
        assert r.status_code == status, r.text
        assert r.headers["content-type"].startswith(PROBLEM_CONTENT_TYPE)

    async def scalar_rows(self, sql: str) -> list[dict[str, Any]]:
        async with self.db.tenant(self.tenant_id) as conn:
            return await fetch_all(conn, sql, {"t": self.tenant_id})


@pytest.fixture
async def ui(settings: Settings, db: Database) -> AsyncIterator[Ui]:
    s = admin_settings(settings)
    async with app_client(s, db) as (_, client):
        tenant, read_key = await new_tenant(client, "acme", ["read"])
        r = await client.post(f"/v1/tenants/{tenant}/keys", json={"scopes": ["read", "write"]}, headers=ADMIN_AUTH)
        assert r.status_code == 201, r.text
        tid = uuid.UUID(tenant)
        backends = build_backends(s)
        try:
            sessions = [session_input(ext, when, texts, ("Rosa", "Hugo")) for ext, when, texts in TALK]
            report = await ingest_sessions(db, s, backends, tid, "home", sessions, job_concurrency=1)
        finally:
            await backends.aclose()
        assert report.jobs_failed == 0
        writer = bearer(r.json()["key"])
        assert (await client.post("/v1/forests", json={"name": "empty"}, headers=writer)).status_code == 201
        yield Ui(client, db, tid, bearer(read_key), writer)


async def test_key_says_what_the_caller_may_do(ui: Ui) -> None:
    assert await ui.ok("/v1/key") == {"scopes": ["read"], "can_write": False}
    r = await ui.client.get("/v1/key", headers=ui.writer)
    assert r.json() == {"scopes": ["read", "write"], "can_write": True}
    await ui.problem("/v1/key", 401, headers={})
    await ui.problem("/v1/key", 403, headers=ADMIN_AUTH)  # the admin key is not a tenant key


async def test_overview_counts_match_the_tables(ui: Ui) -> None:
    items = (await ui.ok("/v1/overview"))["items"]
    assert [f["name"] for f in items] == ["empty", "home"]
    home, empty = items[1], items[0]
    assert (empty["sessions"], empty["facts"], empty["trees"]) == (0, 0, 0) and empty["last_write"]
    rows = await ui.scalar_rows(
        "SELECT (SELECT count(*) FROM sessions WHERE tenant_id = :t) AS s, "
        "(SELECT count(*) FROM facts WHERE tenant_id = :t AND retracted_at IS NULL) AS f, "
        "(SELECT count(*) FROM facts WHERE tenant_id = :t AND retracted_at IS NULL AND superseded_by IS NULL) AS c, "
        "(SELECT count(*) FROM trees WHERE tenant_id = :t) AS tr, "
        "(SELECT max(recorded_at) FROM facts WHERE tenant_id = :t) AS last"
    )
    want = rows[0]
    assert (home["sessions"], home["facts"], home["facts_current"], home["trees"]) == (
        2, want["f"], want["c"], want["tr"],
    )  # fmt: skip
    assert want["s"] == 2 and home["facts"] > home["facts_current"] >= 1  # Lisbon -> Porto superseded
    assert datetime.fromisoformat(home["last_write"]) >= want["last"]

    _, other_key = await new_tenant(ui.client, "other", ["read"])
    r = await ui.client.get("/v1/overview", headers=bearer(other_key))
    assert r.status_code == 200 and r.json() == {"items": []}  # another tenant's forests stay unseen


async def test_entities_and_a_timeline_of_state_chains(ui: Ui) -> None:
    entities = (await ui.ok("/v1/forests/home/entities", limit=200))["items"]
    rosa = next(e for e in entities if e["label"] == "Rosa")
    assert rosa["is_speaker"] and rosa["fact_count"] >= 4 and rosa["session_count"] == 2
    counts = [e["fact_count"] for e in entities]
    assert counts == sorted(counts, reverse=True)
    paged: list[str] = []
    cursor = None
    for _ in range(100):
        page = await ui.ok("/v1/forests/home/entities", limit=1, **({"cursor": cursor} if cursor else {}))
        paged += [e["key"] for e in page["items"]]
        if (cursor := page["next_cursor"]) is None:
            break
    assert paged == [e["key"] for e in entities]
    assert [e["label"] for e in (await ui.ok("/v1/forests/home/entities", q="ROS"))["items"]] == ["Rosa"]

    timeline = await ui.ok("/v1/forests/home/entities/rosa/timeline")
    assert timeline["entity"]["label"] == "Rosa"
    chains = {c["attribute"]: c["states"] for c in timeline["chains"]}
    assert [s["value"] for s in chains["residence"]] == ["Lisbon", "Porto"]
    lisbon, porto = chains["residence"]
    assert lisbon["status"] == "superseded" and porto["status"] == "current"
    assert lisbon["valid_to"] == porto["valid_from"] == JUN.isoformat() and porto["valid_to"] is None
    assert [s["value"] for s in chains["employer"]] == ["Siemens", "Bosch"]
    states = {s["fact_id"] for c in timeline["chains"] for s in c["states"]}
    assert any("baked a tart" in e["text"] for e in timeline["events"])
    assert not states & {e["fact_id"] for e in timeline["events"]}

    await ui.problem("/v1/forests/home/entities/nobody/timeline", 404)
    await ui.problem("/v1/forests/nowhere/entities", 404)
    await ui.problem("/v1/forests/home/entities", 422, cursor="!!")
    await ui.problem("/v1/forests/home/entities", 422, limit=0)
    _, other_key = await new_tenant(ui.client, "other", ["read"])
    await ui.problem("/v1/forests/home/entities/rosa/timeline", 404, headers=bearer(other_key))


async def test_facts_filter_by_speaker_and_time_window(ui: Ui) -> None:
    async def texts(**params: Any) -> set[str]:
        page = await ui.ok("/v1/forests/home/facts", limit=200, include_superseded=True, **params)
        return {f["text"] for f in page["items"]}

    everything = await texts()
    by_rosa = await texts(speaker="rosa")
    assert by_rosa and by_rosa <= everything
    assert all(f["speaker"] == "Rosa" for f in (await ui.ok("/v1/forests/home/facts", speaker="ROSA"))["items"])
    assert await texts(speaker="nobody") == set()
    spring = await texts(valid_from="2024-03-01T00:00:00Z", valid_to="2024-04-01T00:00:00Z")
    assert "Rosa lives in Lisbon." in spring and "Rosa moved to Porto." not in spring
    summer = await texts(valid_from="2024-07-01T00:00:00Z")
    assert "Rosa moved to Porto." in summer and "Rosa lives in Lisbon." not in summer
    winter = await texts(valid_to="2024-02-01T00:00:00Z")
    assert winter == set()
    await ui.problem("/v1/forests/home/facts", 422, valid_from="2024-05-01T00:00:00Z", valid_to="2024-04-01T00:00:00Z")
    await ui.problem("/v1/forests/home/facts", 422, speaker="")


async def test_ui_is_served_with_its_security_headers(ui: Ui) -> None:
    r = await ui.client.get("/ui")
    assert r.status_code in (302, 307) and r.headers["location"].endswith("/ui/")
    page = await ui.client.get("/ui/")
    assert page.status_code == 200 and "data-testid" not in page.text  # the page builds its elements in JS
    assert '<script type="module" src="js/main.js">' in page.text
    csp = page.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "connect-src 'self'" in csp
    assert page.headers["referrer-policy"] == "no-referrer"
    script = await ui.client.get("/ui/js/main.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "sessionStorage" in (await ui.client.get("/ui/js/api.js")).text
    assert (await ui.client.get("/ui/js/nothing.js")).status_code == 404
    assert (await ui.client.get("/ui/../pyproject.toml")).status_code == 404


def test_every_ui_file_is_package_data() -> None:
    """A wheel carries the whole browser: each file under memforest/ui matches a package-data glob."""
    root = Path(__file__).resolve().parents[2]
    globs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["memforest"]
    package = root / "memforest"
    packaged = {p for g in globs for p in package.glob(g)}  # setuptools expands the globs the same way
    files = [p for p in (package / "ui").rglob("*") if p.is_file()]
    assert len(files) >= 10
    assert [p for p in files if p not in packaged] == []
