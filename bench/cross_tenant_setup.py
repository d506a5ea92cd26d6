"""Setup of ``bench.cross_tenant``: tenant A's and B's objects (ids and the text B must never see),
their sessions, and the snapshot of A's forest compared before and after the probes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from memforest.client import MemForestClient
from memforest.errors import MemForestError

FOREST_A = "cross-notes"  # A's forest; B has none of this name until the own-ns phase
FOREST_B = "beta-journal"  # B's own forest

Check = Callable[[httpx.Response], str | None]


@dataclass(slots=True)
class AIds:
    """Tenant A's objects, as A's key sees them, plus the text that must never reach B."""

    tenant_id: str
    key_id: str
    forest: str
    session_id: str
    turn_id: str
    job_id: str
    fact_ids: list[str]
    tree_ids: list[str]
    root_node_id: str
    leaf_node_id: str
    secrets: list[str]  # A's canary and turn texts
    webhook_id: str = ""  # A's webhook (issue 18); a random id when the server refuses A's target


@dataclass(slots=True)
class BIds:
    """Tenant B's own things the probes need."""

    tenant_id: str
    forest: str
    export: bytes  # B's own forest, exported (the body of the import probe)


@dataclass(slots=True)
class Probe:
    """One call with B's key and what it must answer."""

    phase: str
    method: str
    route: str  # the OpenAPI path template
    path: str  # filled (percent-encoded) path with query string
    expected: tuple[int, ...]
    note: str
    json_body: Any = None
    content: bytes | None = None
    check: Check | None = None  # extra check of a 2xx body; returns why it fails
    control: bool = False  # also send it with A's key (read-only calls): must be 2xx, so B's 404 is isolation
    status: int | None = None
    control_status: int | None = None
    ok: bool = False
    why: str = ""
    ms: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "method": self.method,
            "route": self.route,
            "path": self.path,
            "note": self.note,
            "expected": list(self.expected),
            "status": self.status,
            "control_status": self.control_status,
            "ok": self.ok,
            "why": self.why,
            "ms": round(self.ms, 2),
        }


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _ids(field_name: str) -> Callable[[httpx.Response], set[str]]:
    def get(response: httpx.Response) -> set[str]:
        body = _json(response)
        items = body.get("items") if isinstance(body, dict) else None
        return {str(i.get(field_name)) for i in items or [] if isinstance(i, dict)}

    return get


def _disjoint(what: str, field_name: str, forbidden: Sequence[str]) -> Check:
    """The listing is not empty (B's own things) and its ``items[*].field_name`` hold none of ``forbidden``."""
    get = _ids(field_name)

    def check(response: httpx.Response) -> str | None:
        mine = get(response)
        leaked = mine & set(forbidden)
        if leaked:
            return f"listing holds A's {what}: {sorted(leaked)}"
        return None if mine else f"B's own {what} listing is empty (setup did not reach it)"

    return check


def _empty_listing(response: httpx.Response) -> str | None:
    body = _json(response)
    if not isinstance(body, dict) or body.get("items") != []:
        return "expected an empty listing"
    return None


def _absent(*needles: str) -> Check:
    def check(response: httpx.Response) -> str | None:
        found = [n for n in needles if n in response.text]
        return f"body contains {found}" if found else None

    return check


def a_session(canary: str, tag: str) -> dict[str, Any]:
    lines = [
        ("Marisol", "Hi Tobias! I moved to Reykjavik last Friday. The new apartment has 4 windows."),
        ("Tobias", "That sounds wonderful! I started working as a chef two weeks ago."),
        ("Marisol", f"My favorite book is Middlemarch these days. My locker code is {canary}."),
        ("Tobias", "I went kayaking at Harbor Market yesterday with Ines. We stayed for 3 hours."),
        ("Marisol", "I got a new job at Northwind. My team there has 9 people."),
    ]
    turns = [{"id": f"a-t{i}", "speaker": s, "role": "user", "text": t} for i, (s, t) in enumerate(lines)]
    return {"id": f"a-session-{tag}", "time": "2024-02-10T18:30:00+00:00", "turns": turns}


def b_session(tag: str) -> dict[str, Any]:
    lines = [
        ("Yusuf", "Hi Ingrid! I moved to Nairobi last month."),
        ("Ingrid", "I got a new job at Globex. My team there has 12 people."),
        ("Yusuf", "My favorite food is ramen these days."),
    ]
    turns = [{"id": f"b-t{i}", "speaker": s, "role": "user", "text": t} for i, (s, t) in enumerate(lines)]
    return {"id": f"b-session-{tag}", "time": "2024-02-11T09:15:00+00:00", "turns": turns}


async def wait_succeeded(mf: MemForestClient, job_id: str | None, wait_s: float, what: str) -> None:
    if job_id is None:
        raise MemForestError(f"{what}: no job was queued")
    job = await mf.wait_job(job_id, timeout=wait_s, poll_interval=0.2)
    if not job.succeeded:
        raise MemForestError(f"{what}: job {job_id} ended {job.state}: {job.errors}")


async def _leaf_under(mf: MemForestClient, forest: str, node_id: str) -> str:
    node = await mf.get_node(forest, node_id)
    while node.level > 0 and node.children:
        node = await mf.get_node(forest, node.children[0].id)
    if node.level != 0:
        raise MemForestError(f"node {node_id} of A's forest has no leaf below it")
    return node.id


async def collect_a(mf: MemForestClient, ids: dict[str, str], canary: str, session: dict[str, Any]) -> AIds:
    facts = (await mf.list_facts(FOREST_A, limit=200)).items
    trees = sorted((await mf.list_trees(FOREST_A, limit=200)).items, key=lambda t: -t.height)  # tallest first
    got = await mf.get_session(FOREST_A, session["id"])
    roots = [t.root_node_id for t in trees if t.root_node_id is not None]
    if not facts or not roots or not got.turns:
        raise MemForestError(f"A's forest is too thin to probe: {len(facts)} facts, {len(roots)} roots")
    return AIds(
        tenant_id=ids["tenant"],
        key_id=ids["key"],
        forest=FOREST_A,
        session_id=got.session_id,
        turn_id=got.turns[1].id or got.turns[0].id or "a-t0",
        job_id=ids["job"],
        fact_ids=[f.id for f in facts[:3]],
        tree_ids=[t.id for t in trees],
        root_node_id=roots[0],
        leaf_node_id=await _leaf_under(mf, FOREST_A, roots[0]),
        secrets=[canary, *(t["text"] for t in session["turns"])],
        webhook_id=await _a_webhook(mf),
    )


async def _a_webhook(mf: MemForestClient) -> str:
    """A's webhook (a loopback target: the server must allow private targets, as ``main`` asks)."""
    try:
        return (await mf.create_webhook("http://127.0.0.1:1024/a-hook")).id
    except MemForestError:
        return ""


async def snapshot(mf: MemForestClient, forest: str, job_id: str) -> dict[str, Any]:
    """What A sees of its forest: counts, sessions, facts (with status), trees, its job."""
    f = await mf.get_forest(forest)
    facts = await mf.list_facts(forest, include_superseded=True, include_retracted=True, limit=200)
    trees = await mf.list_trees(forest, limit=200)
    sessions = await mf.list_sessions(forest, limit=200)
    job = await mf.get_job(job_id)
    return {
        "counts": dict(f.counts or {}),
        "sessions": sorted(s.session_id for s in sessions.items),
        "facts": sorted([x.id, x.status, x.text] for x in facts.items),
        "trees": sorted([t.id, t.root_node_id, t.n_leaves] for t in trees.items),
        "job": [job.job_id, job.state],
    }
