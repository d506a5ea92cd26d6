"""The memory browser in a real browser (issue 51 item 2): Playwright drives Debian's headless
Chromium against a real ``memforest serve`` (its own embedded database under a fresh MEMFOREST_HOME)
on 127.0.0.1. One server and one browser for the module; each test opens a new tab, so it starts
with an empty sessionStorage and pastes its key.

Chromium is ``MEMFOREST_CHROMIUM`` or ``/usr/bin/chromium`` (``make test`` installs Debian's
``chromium`` where it runs as root). Without it the module is skipped with that reason, unless
``MEMFOREST_REQUIRE_BROWSER=1`` (``.ci/run`` as root) makes that a failure. With
``MEMFOREST_UI_SCREENSHOTS=DIR`` the tests save the screenshots of docs/ui.md there."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect, sync_playwright
from support import session_body
from support.live_server import ADMIN_KEY, serve

CHROMIUM = Path(os.environ.get("MEMFOREST_CHROMIUM", "/usr/bin/chromium"))
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
SHOTS = os.environ.get("MEMFOREST_UI_SCREENSHOTS")
SESSIONS = [
    ("t1", "2024-02-05T10:00:00Z", ["I live in Lisbon.", "Lovely.", "I work at Siemens.", "Good company."]),
    ("t2", "2024-06-12T10:00:00Z", ["I moved to Porto.", "Big move.", "I work at Bosch now.", "Congrats."]),
    ("t3", "2024-08-01T10:00:00Z", ["I adopted a cat named Miso.", "Cute.", "I play the oboe on Sundays.", "Fun!"]),
    ("t4", "2024-09-09T10:00:00Z", ["I bought a red kayak.", "Nice.", "Ana is my sister.", "Ok."]),
]

if not CHROMIUM.exists():
    reason = f"no Chromium at {CHROMIUM}: install Debian's chromium package (make test does so as root)"
    if os.environ.get("MEMFOREST_REQUIRE_BROWSER") == "1":
        raise RuntimeError(reason + "; MEMFOREST_REQUIRE_BROWSER=1 forbids skipping the browser tests")
    pytest.skip(reason, allow_module_level=True)


@dataclass(frozen=True)
class Server:
    url: str
    read_key: str
    write_key: str


def _tenant_keys(client: httpx.Client) -> tuple[str, str]:
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    tenant = client.post("/v1/tenants", json={"name": "acme"}, headers=admin).json()["id"]
    keys = [
        client.post(f"/v1/tenants/{tenant}/keys", json={"scopes": scopes}, headers=admin).json()["key"]
        for scopes in (["read"], ["read", "write"])
    ]
    return keys[0], keys[1]


def _seed(client: httpx.Client, write_key: str) -> None:
    auth = {"Authorization": f"Bearer {write_key}"}
    for sid, when, texts in SESSIONS:
        body = session_body(sid, when, texts, ("Rosa", "Hugo"))
        r = client.post("/v1/forests/home/sessions", params={"wait": 30}, json=body, headers=auth)
        job = r.json()
        deadline = time.monotonic() + 180  # a loaded machine may take longer than one wait
        while job.get("state") in ("queued", "running") and time.monotonic() < deadline:
            time.sleep(0.5)
            job = client.get(f"/v1/jobs/{job['id']}", headers=auth).json()
        assert job.get("state") == "succeeded", (r.text, job)
    assert client.post("/v1/forests", json={"name": "work"}, headers=auth).status_code == 201
    _wait_refreshed(client, auth)


def _wait_refreshed(client: httpx.Client, auth: dict[str, str]) -> None:
    """Until every tree's root is summarised and clean: an ingest job refreshes a pass, and the
    forest's refresh job (queued behind it) summarises the rest."""
    deadline = time.monotonic() + 180
    while True:
        trees = client.get("/v1/forests/home/trees", params={"limit": 200}, headers=auth).json()["items"]
        roots = [
            client.get(f"/v1/forests/home/nodes/{t['root_node_id']}", headers=auth).json()
            for t in trees
            if t.get("root_node_id")
        ]
        pending = [r for r in roots if r.get("level", 0) > 0 and (r.get("dirty") or not r.get("summary"))]
        if not pending or time.monotonic() > deadline:
            assert not pending, f"{len(pending)} tree roots still unsummarised"
            return
        time.sleep(0.5)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    # not pytest's tmp_path: as root the embedded server runs as the 'pgserver' user, which cannot enter it
    home = Path(tempfile.mkdtemp(prefix="memforest-ui-"))
    env = {"MEMFOREST_PIPELINE__FANOUT_ENTITY": "2"}  # entity trees several levels deep
    try:
        with serve(None, home, env, timeout_s=180) as url:  # its own embedded database
            with httpx.Client(base_url=url, timeout=90) as client:
                read_key, write_key = _tenant_keys(client)
                _seed(client, write_key)
            yield Server(url, read_key, write_key)
    finally:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserContext]:
    """Chromium on a fresh profile (its user-data-dir), closed network flags."""
    profile = tempfile.mkdtemp(prefix="memforest-ui-chromium-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=FLAGS, viewport={"width": 1280, "height": 860}
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _open(browser: BrowserContext, server: Server, key: str) -> Page:
    """A new tab at /ui with ``key`` pasted; the forest list is shown. Requests may go to 127.0.0.1 only."""
    page = browser.new_page()
    page.route(re.compile(r"^(?!http://127\.0\.0\.1:)"), lambda route: route.abort())
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/ui")
    page.get_by_test_id("api-key").fill(key)
    page.get_by_test_id("key-submit").click()
    expect(page.get_by_test_id("forest-list")).to_be_visible()
    assert key not in page.url and not errors, errors
    assert page.evaluate("sessionStorage.getItem('memforest.apiKey')") == key
    return page


def _facts(page: Page) -> None:
    page.get_by_test_id("forest-item").filter(has_text="home").click()
    expect(page.get_by_test_id("fact-row").first).to_be_visible()


def test_paste_a_key_open_a_forest_and_see_facts_with_validity(browser: BrowserContext, server: Server) -> None:
    page = _open(browser, server, server.read_key)
    items = page.get_by_test_id("forest-item")
    expect(items).to_have_count(2)
    expect(items.filter(has_text="home")).to_contain_text("4")  # sessions
    _shot(page, "forests")
    _facts(page)
    porto = page.get_by_test_id("fact-row").filter(has_text="Porto")
    expect(porto.get_by_test_id("fact-validity")).to_have_text("[2024-06-12 10:00, now)")
    expect(page.get_by_test_id("fact-row").filter(has_text="Lisbon")).to_have_count(0)  # current only

    page.get_by_test_id("filter-current").uncheck()
    page.get_by_test_id("filter-apply").click()
    lisbon = page.get_by_test_id("fact-row").filter(has_text="Lisbon")
    expect(lisbon.get_by_test_id("fact-validity")).to_have_text("[2024-02-05 10:00, 2024-06-12 10:00)")
    expect(lisbon).to_have_attribute("data-status", "superseded")
    lisbon.locator(".line").click()
    expect(lisbon.get_by_test_id("fact-source")).to_contain_text("Rosa: I live in Lisbon.")
    expect(lisbon.get_by_test_id("chain-link")).to_have_count(2)
    _shot(page, "facts")

    page.get_by_test_id("filter-session").fill("t3")
    page.get_by_test_id("filter-apply").click()
    expect(page.get_by_test_id("fact-row").filter(has_text="Miso")).to_have_count(1)
    expect(page.get_by_test_id("fact-row").filter(has_text="Porto")).to_have_count(0)
    page.get_by_test_id("filter-session").fill("")
    page.get_by_test_id("filter-from").fill("2024-03-01")
    page.get_by_test_id("filter-to").fill("2024-04-01")
    page.get_by_test_id("filter-apply").click()
    expect(page.get_by_test_id("fact-row").filter(has_text="Lisbon")).to_have_count(1)
    expect(page.get_by_test_id("fact-row").filter(has_text="Porto")).to_have_count(0)
    page.get_by_test_id("filter-speaker").fill("Hugo")
    page.get_by_test_id("filter-apply").click()
    expect(page.get_by_test_id("fact-row").filter(has_text="Lisbon")).to_have_count(0)
    expect(page.get_by_test_id("fact-row").first).to_contain_text("said by Hugo")
    assert all("said by Hugo" in t for t in page.get_by_test_id("fact-row").all_inner_texts())
    page.get_by_test_id("filter-speaker").fill("nobody")
    page.get_by_test_id("filter-apply").click()
    expect(page.get_by_test_id("no-facts")).to_be_visible()
    page.close()


def test_an_entity_timeline_shows_its_state_chains(browser: BrowserContext, server: Server) -> None:
    page = _open(browser, server, server.read_key)
    _facts(page)
    page.get_by_test_id("fact-row").filter(has_text="Porto").get_by_test_id("fact-entity").filter(
        has_text="Rosa"
    ).click()
    timeline = page.get_by_test_id("entity-timeline")
    expect(timeline).to_have_attribute("data-entity", "Rosa")
    residence = timeline.locator("[data-testid=timeline-chain][data-attribute=residence]")
    expect(residence.get_by_test_id("timeline-state")).to_have_text(["Lisbon", "Porto"])
    expect(timeline.locator("[data-testid=timeline-chain][data-attribute=employer]")).to_contain_text("Bosch")
    left = [residence.get_by_test_id("timeline-state").nth(i).bounding_box() for i in range(2)]
    assert left[0] is not None and left[1] is not None and left[0]["x"] < left[1]["x"]  # on the time axis
    _shot(page, "timeline")
    page.close()


def test_trees_open_level_by_level(browser: BrowserContext, server: Server) -> None:
    page = _open(browser, server, server.read_key)
    _facts(page)
    page.get_by_test_id("tab-trees").click()
    page.get_by_test_id("tree-kind").select_option("entity")
    page.get_by_test_id("tree-item").filter(has_text="Rosa").get_by_role("button").click()
    node = page.locator("section[data-testid=tree-node]")
    expect(node.get_by_test_id("node-interval")).to_have_text(
        re.compile(r"^\[2024-02-05 10:00, 2024-\d\d-\d\d \d\d:\d\d\]$")
    )
    expect(node.get_by_test_id("node-summary")).not_to_be_empty()
    top = int(node.get_attribute("data-level") or "0")
    assert top >= 2  # fanout 2: eight facts make three levels at least
    for level in range(top - 1, 0, -1):  # down the first child to the level above the leaves
        page.locator("li[data-testid=tree-node]").first.get_by_test_id("node-open").click()
        expect(node).to_have_attribute("data-level", str(level))
        expect(page.locator("li[data-testid=tree-node]").first).to_have_attribute("data-level", str(level - 1))
    expect(page.locator("li[data-testid=tree-node]").first.locator(".badge")).to_have_text("fact")
    page.locator(".trail button").first.click()  # back to the root
    expect(node).to_have_attribute("data-level", str(top))
    _shot(page, "trees")
    page.close()


def test_a_query_shows_evidence_cited_turns_and_timings(browser: BrowserContext, server: Server) -> None:
    page = _open(browser, server, server.read_key)
    _facts(page)
    page.get_by_test_id("tab-query").click()
    page.get_by_test_id("query-input").fill("Where does Rosa live now?")
    page.get_by_test_id("query-top-k").fill("5")
    page.get_by_test_id("query-submit").click()
    evidence = page.get_by_test_id("evidence-item")
    expect(evidence.first).to_be_visible()
    assert 1 <= evidence.count() <= 5
    porto = evidence.filter(has_text="Porto").first
    expect(porto.get_by_test_id("evidence-score")).to_have_text(re.compile(r"^-?\d+\.\d{3}$"))
    porto.get_by_test_id("evidence-turns").click()
    expect(porto.get_by_test_id("cited-turns")).to_contain_text("Rosa: I moved to Porto.")
    expect(page.get_by_test_id("query-timings").locator("tr").first).to_be_visible()
    _shot(page, "query")

    page.get_by_test_id("query-as-of").fill("2024-03-01T00:00")
    page.get_by_test_id("query-submit").click()
    expect(page.get_by_test_id("evidence-item").filter(has_text="Lisbon").first).to_be_visible()
    expect(page.get_by_test_id("evidence-item").filter(has_text="Porto")).to_have_count(0)
    page.close()


def test_a_read_only_key_gets_no_edit_controls(browser: BrowserContext, server: Server) -> None:
    page = _open(browser, server, server.read_key)
    expect(page.get_by_test_id("key-role")).to_have_text("read only")
    _facts(page)
    row = page.get_by_test_id("fact-row").filter(has_text="Bosch")
    row.locator(".line").click()
    expect(row.get_by_test_id("fact-chain")).to_be_visible()
    expect(page.get_by_test_id("fact-correct")).to_have_count(0)
    expect(page.get_by_test_id("fact-delete")).to_have_count(0)
    page.get_by_test_id("tab-sessions").click()
    expect(page.get_by_test_id("session-row")).to_have_count(4)
    expect(page.get_by_test_id("session-retract")).to_have_count(0)
    page.close()


def test_correcting_a_fact_updates_its_chain(browser: BrowserContext, server: Server) -> None:
    page = _open(browser, server, server.write_key)
    expect(page.get_by_test_id("key-role")).to_have_text("read and write")
    _facts(page)
    row = page.get_by_test_id("fact-row").filter(has_text="Bosch")
    row.locator(".line").click()
    expect(row.get_by_test_id("chain-link")).to_have_count(2)  # Siemens, then Bosch
    row.get_by_test_id("fact-correct").click()
    row.get_by_test_id("correct-text").fill("Rosa works at Bosch Rexroth.")
    row.get_by_test_id("correct-submit").click()
    chain = row.get_by_test_id("chain-link")
    expect(chain).to_have_count(3)
    expect(chain.last).to_contain_text("Rosa works at Bosch Rexroth.")
    expect(chain.last).to_have_class("requested")
    expect(chain.nth(1)).to_contain_text("Bosch")
    expect(row.get_by_test_id("notice-ok")).to_contain_text("supersedes")
    _shot(page, "correction")

    page.get_by_test_id("filter-apply").click()  # the list again, current only
    expect(page.get_by_test_id("fact-row").filter(has_text="Rosa works at Bosch Rexroth.")).to_have_count(1)
    expect(page.get_by_test_id("fact-row").filter(has_text="Bosch now")).to_have_count(0)
    page.close()


def test_retracting_a_session_asks_first(browser: BrowserContext, server: Server) -> None:
    page = _open(browser, server, server.write_key)
    _facts(page)
    page.get_by_test_id("tab-sessions").click()
    row = page.locator("[data-testid=session-row][data-session-id=t4]")
    row.get_by_test_id("session-retract").click()
    row.get_by_test_id("confirm-cancel").click()
    expect(row.get_by_test_id("confirm")).to_have_count(0)
    expect(page.get_by_test_id("session-row")).to_have_count(4)
    row.get_by_test_id("session-retract").click()
    row.get_by_test_id("confirm-ok").click()
    expect(row.get_by_test_id("notice-ok")).to_contain_text("Retracted t4")
    expect(page.get_by_test_id("session-row")).to_have_count(3)
    page.get_by_test_id("tab-facts").click()
    expect(page.get_by_test_id("fact-row").first).to_be_visible()
    expect(page.get_by_test_id("fact-row").filter(has_text="kayak")).to_have_count(0)
    page.close()
