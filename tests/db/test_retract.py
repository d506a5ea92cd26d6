"""Retract (DESIGN.md 4, ADR 0007): a session or one turn leaves no trace in any query, listing or
table, facts also stated elsewhere keep their other sources, the forest stays valid, and only the
touched paths are refreshed. Through the library, the CLI and the HTTP API."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sqlalchemy import text
from support import ADMIN_AUTH, DANGLING_SUPERSEDED_BY, admin_settings, app_client, session_input
from support.reference.canonical import thread_into_slot

from bench import retract as bench_retract
from memforest.backends.factory import Backends, build_backends
from memforest.cli import main
from memforest.db.engine import Database
from memforest.domain import Candidate, FactKind, SessionInput
from memforest.errors import ConflictError, NotFoundError
from memforest.lifecycle.retract import RetractReport, retract
from memforest.lifecycle.retract_chain import unlink_supersession
from memforest.lifecycle.retract_report import RetractWork
from memforest.pipeline.service import accept_sessions, ingest_sessions
from memforest.retrieval import QueryRequest
from memforest.retrieval.service import query
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.recall_channels import ChannelLimits, recall_channels
from memforest.store.retraction import delete_fact as delete_retracted_fact
from memforest.store.sql import fetch_all, fetch_one, scalar
from memforest.store.tenants import ensure_tenant

# Invented conversation. s2 states the lighthouse sentence again (one fact, two sources), moves
# Nadia from Porto to Tromso (supersession) and says things no other session says (Zephyrine,
# Tromso, aurora observatory).
CONVERSATION = [
    (
        "s1",
        datetime(2024, 2, 3, 17, 0, tzinfo=UTC),
        [
            "I live in Porto and I work as a baker at a small bakery.",
            "Lovely. My cousin Teodora collects antique maps of the Azores.",
            "I love sketching lighthouses with charcoal pencils.",
            "I started learning the accordion last week.",
            "We should try the new ramen bar near the harbor.",
        ],
    ),
    (
        "s2",
        datetime(2024, 4, 12, 18, 30, tzinfo=UTC),
        [
            "I moved to Tromso last month for a job at the aurora observatory.",
            "I bought a red kayak called Zephyrine two days ago.",
            "I love sketching lighthouses with charcoal pencils.",
            "Teodora visited me in Tromso yesterday.",
        ],
    ),
    (
        "s3",
        datetime(2024, 6, 1, 10, 0, tzinfo=UTC),
        [
            "My accordion teacher Bruno says I improved a lot.",
            "Teodora found a map of Flores island from 1850.",
            "I baked rye bread for the neighbors yesterday.",
            "Bruno plays the accordion at weddings every Saturday.",
        ],
    ),
]
S2_MARKERS = ("zephyrine", "tromso", "aurora", "kayak")
S2_QUESTIONS = (
    "Who owns a red kayak called Zephyrine?",
    "Where did Nadia move for the job at the aurora observatory?",
    "Who visited Oskar in Tromso?",
)
TEST_DIM = 64  # the dimension conftest migrates the test databases with
TERMS_S2 = ("zephyrine", "tromso", "aurora", "kayak")


async def _lexical(conn: Any, tenant_id: uuid.UUID, forest_id: int) -> tuple[list[int], list[int]]:
    """The read path's two lexical channels (facts, nodes) for s2's words; no vector channel."""
    limits = ChannelLimits(roots=0, facts=0, cells=0, lexical=50, lexical_cap=1000, roots_read=0)
    rows = await recall_channels(
        conn, tenant_id, forest_id, np.zeros(TEST_DIM, dtype=np.float32), TERMS_S2, [], [], limits,
        exact=True, scan_text=True, as_of=None,
    )  # fmt: skip
    return ([int(r["id"]) for r in rows if r["ch"] == "lexical_fact"],
            [int(r["id"]) for r in rows if r["ch"] == "lexical_node"])  # fmt: skip


def _sessions(only: set[str] | None = None) -> list[SessionInput]:
    return [
        session_input(ext, when, texts, ("Nadia", "Oskar"), minutes=True)
        for ext, when, texts in CONVERSATION
        if only is None or ext in only
    ]


def _small_fanout(settings: Settings) -> Settings:
    """Fan-out 3 everywhere, so even this small forest has trees of height > 1."""
    pipeline = settings.pipeline.model_copy(update={"fanout_session": 3, "fanout_entity": 3, "fanout_scene": 3})
    return settings.model_copy(update={"pipeline": pipeline})


@pytest.fixture
async def backends(settings: Settings) -> AsyncIterator[Backends]:
    b = build_backends(settings)
    yield b
    await b.aclose()


async def _ingest(
    db: Database, settings: Settings, backends: Backends, tenant_id: uuid.UUID, forest: str = "f"
) -> None:
    report = await ingest_sessions(db, settings, backends, tenant_id, forest, _sessions())
    assert report.jobs_failed == 0 and report.counts.facts_merged >= 1


async def _forest_id(db: Database, tenant_id: uuid.UUID, forest: str = "f") -> int:
    async with db.tenant(tenant_id) as conn:
        return int(await scalar(conn, "SELECT forest_id FROM forests WHERE name = :n", {"n": forest}))


async def _violations(db: Database, tenant_id: uuid.UUID, forest: str = "f") -> list[str]:
    forest_id = await _forest_id(db, tenant_id, forest)
    async with db.tenant(tenant_id) as conn:
        return (await check_forest(conn, tenant_id, forest_id)).violations


async def _consistency(db: Database, tenant_id: uuid.UUID) -> dict[str, int]:
    """Cross-table counters that must agree after any ingest or retract (zero = consistent)."""
    q = {
        "source_count_mismatch": "SELECT count(*) FROM facts f WHERE f.source_count <> "
        "(SELECT count(*) FROM fact_sources s WHERE s.fact_id = f.fact_id)",
        "facts_without_source": "SELECT count(*) FROM facts f WHERE NOT EXISTS "
        "(SELECT 1 FROM fact_sources s WHERE s.fact_id = f.fact_id)",
        "scene_member_mismatch": "SELECT abs((SELECT coalesce(sum(member_count), 0) FROM scene_clusters) "
        "- (SELECT count(*) FROM facts))",
        "facts_not_in_one_scene": "SELECT count(*) FROM facts f WHERE (SELECT count(*) FROM placements p "
        "JOIN trees t ON t.tree_id = p.tree_id WHERE t.kind = 'scene' AND p.source_kind = 'fact' "
        "AND p.source_id = f.fact_id) <> 1",
        "entity_count_mismatch": "SELECT count(*) FROM entities e WHERE e.fact_count <> "
        "(SELECT count(*) FROM entity_facts ef WHERE ef.entity_id = e.entity_id) OR e.session_count <> "
        "(SELECT count(DISTINCT ef.session_id) FROM entity_facts ef WHERE ef.entity_id = e.entity_id)",
        "entity_links_to_gone_sessions": "SELECT count(*) FROM entity_facts ef WHERE NOT EXISTS "
        "(SELECT 1 FROM sessions s WHERE s.session_id = ef.session_id)",
        "activated_without_tree": "SELECT count(*) FROM entities e WHERE e.activated AND NOT EXISTS "
        "(SELECT 1 FROM trees t WHERE t.kind = 'entity' AND t.key = e.key AND t.forest_id = e.forest_id)",
        "empty_trees": "SELECT count(*) FROM trees WHERE n_leaves = 0",
        "session_turn_mismatch": "SELECT count(*) FROM sessions s WHERE s.n_turns <> "
        "(SELECT count(*) FROM turns t WHERE t.session_id = s.session_id)",
        "superseded_by_gone_fact": DANGLING_SUPERSEDED_BY,
    }
    async with db.tenant(tenant_id) as conn:
        return {k: int(await scalar(conn, sql)) for k, sql in q.items()}


async def _evidence(
    db: Database, settings: Settings, backends: Backends, tenant_id: uuid.UUID, question: str, mode: str
) -> list[dict[str, Any]]:
    result = await query(db, settings, backends, tenant_id, QueryRequest("f", question, mode=mode, top_k=30))
    return [e.to_json() for e in result.evidence] + [{"text": result.context(), "turn_ids": [], "session_id": None}]


async def _traces(db: Database, tenant_id: uuid.UUID, markers: tuple[str, ...], turn_ids: tuple[str, ...]) -> int:
    """Rows anywhere in the tenant's memory that still carry the markers or the turn ids."""
    like = [f"%{m}%" for m in markers]
    async with db.tenant(tenant_id) as conn:
        return int(
            await scalar(
                conn,
                "SELECT (SELECT count(*) FROM turns WHERE lower(text) LIKE ANY(:l) OR external_id = ANY(:ids)) "
                "+ (SELECT count(*) FROM cells WHERE lower(text) LIKE ANY(:l)) "
                "+ (SELECT count(*) FROM facts WHERE lower(text) LIKE ANY(:l)) "
                "+ (SELECT count(*) FROM nodes WHERE lower(coalesce(summary, '')) LIKE ANY(:l)) "
                "+ (SELECT count(*) FROM trees WHERE lower(label) LIKE ANY(:l) OR lower(key) LIKE ANY(:l)) "
                "+ (SELECT count(*) FROM entities WHERE lower(key) LIKE ANY(:l))",
                {"l": like, "ids": list(turn_ids)},
            )
        )


def _mentions(items: list[dict[str, Any]], markers: tuple[str, ...], session: str, turns: tuple[str, ...]) -> bool:
    for e in items:
        if e["session_id"] == session or set(e["turn_ids"]) & set(turns):
            return True
        if any(m in e["text"].lower() for m in markers):
            return True
    return False


async def _nodes(db: Database, tenant_id: uuid.UUID) -> dict[int, tuple[int, int, str | None]]:
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(conn, "SELECT node_id, tree_id, version, summary_hash FROM nodes")
    return {int(r["node_id"]): (int(r["tree_id"]), int(r["version"]), r["summary_hash"]) for r in rows}


# ------------------------------------------------------------------------------ session retract


async def test_retract_session_leaves_no_trace_and_touches_only_its_paths(
    db: Database, settings: Settings, backends: Backends
) -> None:
    settings = _small_fanout(settings)
    tenant_id = await ensure_tenant(db, "t")
    await _ingest(db, settings, backends, tenant_id)
    assert await _violations(db, tenant_id) == []
    s2_turns = tuple(f"s2:{i}" for i in range(len(CONVERSATION[1][2])))
    async with db.tenant(tenant_id) as conn:
        facts = await fetch_all(
            conn,
            "SELECT f.fact_id, f.subject, f.value, f.superseded_by, array_agg(DISTINCT s.session_id) AS sessions "
            "FROM facts f JOIN fact_sources s ON s.fact_id = f.fact_id GROUP BY f.tenant_id, f.fact_id",
        )
        s2 = int(await scalar(conn, "SELECT session_id FROM sessions WHERE external_id = 's2'"))
        only_s2 = {int(f["fact_id"]) for f in facts if f["sessions"] == [s2]}
        shared = {int(f["fact_id"]) for f in facts if s2 in f["sessions"] and len(f["sessions"]) > 1}
        touched_trees = {
            int(r["tree_id"])
            for r in await fetch_all(
                conn,
                "SELECT tree_id FROM placements WHERE source_kind = 'fact' AND source_id = ANY(:ids) "
                "UNION SELECT tree_id FROM trees WHERE kind = 'session' AND key = 's2'",
                {"ids": sorted(only_s2)},
            )
        }
        internal_in_touched = int(
            await scalar(
                conn,
                "SELECT count(*) FROM nodes WHERE level > 0 AND tree_id = ANY(:ids)",
                {"ids": sorted(touched_trees)},
            )
        )
    porto = next(f for f in facts if f["subject"] == "nadia" and f["value"] == "Porto")
    assert only_s2 and shared and porto["superseded_by"] in only_s2  # the data exercises every case
    before_nodes = await _nodes(db, tenant_id)
    # Positive control: before the retract the queries do find s2.
    found = [await _evidence(db, settings, backends, tenant_id, q, "emb") for q in S2_QUESTIONS]
    assert any(_mentions(items, S2_MARKERS, "s2", s2_turns) for items in found)
    async with db.tenant(tenant_id) as conn:
        assert (await _lexical(conn, tenant_id, await _forest_id(db, tenant_id)))[0]

    report = await retract(db, settings, backends, tenant_id, "f", "s2")

    assert isinstance(report, RetractReport)
    assert (report.sessions, report.turns, report.cells) == (1, len(s2_turns), 2)
    assert (report.facts_removed, report.facts_detached) == (len(only_s2), len(shared))
    assert report.facts_restored >= 1 and report.trees_removed >= 1 and report.leaves_removed >= len(only_s2)
    assert report.as_dict()["facts_removed"] == len(only_s2) and report.model_calls >= report.summary_calls > 0
    assert await _violations(db, tenant_id) == []
    assert all(v == 0 for v in (await _consistency(db, tenant_id)).values()), await _consistency(db, tenant_id)

    async with db.tenant(tenant_id) as conn:
        left = {int(r["fact_id"]) for r in await fetch_all(conn, "SELECT fact_id FROM facts")}
        sources = await fetch_all(
            conn,
            "SELECT s.fact_id, t.external_id, f.source_count FROM fact_sources s JOIN turns t ON t.turn_id = s.turn_id "
            "JOIN facts f ON f.fact_id = s.fact_id WHERE s.fact_id = ANY(:ids)",
            {"ids": sorted(shared)},
        )
        now_porto = await fetch_one(
            conn, "SELECT superseded_by, valid_to FROM facts WHERE fact_id = :id", {"id": porto["fact_id"]}
        )
        listed = [r["external_id"] for r in await fetch_all(conn, "SELECT external_id FROM sessions ORDER BY 1")]
        provenance = [
            r["external_id"]
            for r in await fetch_all(
                conn, "SELECT t.external_id FROM fact_sources s JOIN turns t ON t.turn_id = s.turn_id"
            )
        ]
        forest_id = await _forest_id(db, tenant_id)
        lexical, lexical_n = await _lexical(conn, tenant_id, forest_id)
    assert not (left & only_s2) and shared <= left
    assert sources and all(r["external_id"].startswith("s1:") and r["source_count"] == 1 for r in sources)
    assert now_porto == {"superseded_by": None, "valid_to": None}  # Porto is current again
    assert listed == ["s1", "s3"] and not any(p.startswith("s2:") for p in provenance)
    assert lexical == [] and lexical_n == []
    assert await _traces(db, tenant_id, S2_MARKERS, s2_turns) == 0
    for q in S2_QUESTIONS:
        for mode in ("emb", "llm"):
            items = await _evidence(db, settings, backends, tenant_id, q, mode)
            assert not _mentions(items, S2_MARKERS, "s2", s2_turns), (q, mode, items)

    # Only touched paths were refreshed: every node of an untouched tree is exactly as before.
    after_nodes = await _nodes(db, tenant_id)
    for node_id, (tree_id, version, h) in before_nodes.items():
        if tree_id not in touched_trees:
            assert after_nodes.get(node_id) == (tree_id, version, h), node_id
    assert 0 < report.nodes_refreshed <= internal_in_touched < len(before_nodes) // 2

    with pytest.raises(NotFoundError):
        await retract(db, settings, backends, tenant_id, "f", "s2")  # idempotent: already gone
    with pytest.raises(NotFoundError):
        await retract(db, settings, backends, tenant_id, "nope", "s1")
    other = await ensure_tenant(db, "other")
    with pytest.raises(NotFoundError):
        await retract(db, settings, backends, other, "f", "s1")  # another tenant sees no forest f


async def test_retracted_session_can_be_ingested_again(db: Database, settings: Settings, backends: Backends) -> None:
    tenant_id = await ensure_tenant(db, "t")
    await _ingest(db, settings, backends, tenant_id)
    async with db.tenant(tenant_id) as conn:
        facts_before = int(await scalar(conn, "SELECT count(*) FROM facts"))
    await retract(db, settings, backends, tenant_id, "f", "s2")
    again = await ingest_sessions(db, settings, backends, tenant_id, "f", _sessions({"s2"}))
    assert again.sessions_accepted == 1 and again.jobs_failed == 0
    async with db.tenant(tenant_id) as conn:
        assert int(await scalar(conn, "SELECT count(*) FROM facts")) == facts_before
    assert await _violations(db, tenant_id) == []
    assert all(v == 0 for v in (await _consistency(db, tenant_id)).values())


# ------------------------------------------------------------------------------ turn retract


async def test_retract_one_turn_keeps_its_cell_mates(db: Database, settings: Settings, backends: Backends) -> None:
    settings = _small_fanout(settings)
    tenant_id = await ensure_tenant(db, "t")
    await _ingest(db, settings, backends, tenant_id)
    markers = ("teodora collects", "antique maps", "azores")
    async with db.tenant(tenant_id) as conn:
        cell = await fetch_one(conn, "SELECT cell_id, text FROM cells WHERE text LIKE '%antique maps%'")
    assert cell is not None and "Porto" in cell["text"]  # s1:1 shares its cell with s1:0

    report = await retract(db, settings, backends, tenant_id, "f", "s1", "s1:1")

    assert (report.sessions, report.turns, report.cells, report.cells_rewritten) == (0, 1, 0, 1)
    assert report.facts_removed >= 1 and report.nodes_refreshed > 0
    assert await _violations(db, tenant_id) == []
    assert all(v == 0 for v in (await _consistency(db, tenant_id)).values())
    assert await _traces(db, tenant_id, markers, ("s1:1",)) == 0
    async with db.tenant(tenant_id) as conn:
        rewritten = await fetch_one(
            conn, "SELECT text, turn_from, turn_to FROM cells WHERE cell_id = :c", {"c": cell["cell_id"]}
        )
        n_turns = await scalar(conn, "SELECT n_turns FROM sessions WHERE external_id = 's1'")
    assert (
        rewritten is not None and rewritten["text"] == "Nadia: I live in Porto and I work as a baker at a small bakery."
    )
    assert (rewritten["turn_from"], rewritten["turn_to"], n_turns) == (0, 0, 4)
    for mode in ("emb", "llm"):
        items = await _evidence(db, settings, backends, tenant_id, "Who collects antique maps of the Azores?", mode)
        assert not _mentions(items, markers, "-", ("s1:1",))
    # The cell mate stays retrievable, with its own turn id.
    items = await _evidence(db, settings, backends, tenant_id, "Where does Nadia live and work as a baker?", "emb")
    assert any("s1:0" in e["turn_ids"] for e in items)

    with pytest.raises(NotFoundError):
        await retract(db, settings, backends, tenant_id, "f", "s1", "s1:1")
    with pytest.raises(NotFoundError):
        await retract(db, settings, backends, tenant_id, "f", "s1", "s1:\x001")
    # "<session>#<seq>" names a turn sent without an id: a seq that is no int4 is no turn
    for seq in ("\u00b2", "99999999999"):
        with pytest.raises(NotFoundError):
            await retract(db, settings, backends, tenant_id, "f", "s1", f"s1#{seq}")
    # Re-sending the original s1 is now a conflict, not a silent "unchanged".
    with pytest.raises(ConflictError):
        await accept_sessions(db, settings, tenant_id, "f", _sessions({"s1"}))


async def test_retracting_every_turn_removes_the_session(db: Database, settings: Settings, backends: Backends) -> None:
    tenant_id = await ensure_tenant(db, "t")
    await _ingest(db, settings, backends, tenant_id)
    reports = [await retract(db, settings, backends, tenant_id, "f", "s3", f"s3:{i}") for i in range(4)]
    assert [r.turns for r in reports] == [1, 1, 1, 1]
    assert [r.cells for r in reports[:3]] == [0, 1, 0]  # a cell goes with the last of its turns
    assert reports[-1].sessions == 1 and reports[-1].trees_removed >= 1
    async with db.tenant(tenant_id) as conn:
        assert await scalar(conn, "SELECT count(*) FROM sessions WHERE external_id = 's3'") == 0
        assert await scalar(conn, "SELECT count(*) FROM trees WHERE kind = 'session' AND key = 's3'") == 0
    assert await _traces(db, tenant_id, ("bruno", "flores", "rye bread"), ()) == 0
    assert await _violations(db, tenant_id) == []
    assert all(v == 0 for v in (await _consistency(db, tenant_id)).values())


async def test_pending_sessions(db: Database, settings: Settings, backends: Backends) -> None:
    tenant_id = await ensure_tenant(db, "t")
    await accept_sessions(db, settings, tenant_id, "f", _sessions({"s1"}))  # queued, not extracted
    with pytest.raises(ConflictError):
        await retract(db, settings, backends, tenant_id, "f", "s1", "s1:1")
    report = await retract(db, settings, backends, tenant_id, "f", "s1")
    assert (report.sessions, report.facts_removed) == (1, 0)
    async with db.tenant(tenant_id) as conn:
        assert await scalar(conn, "SELECT count(*) FROM jobs") == 0  # its queued job went with it
    assert await _violations(db, tenant_id) == []


# ------------------------------------------------------------------------------ CLI


@pytest.fixture
def cli_env(db_env: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path / "home"))
    path = tmp_path / "conv.jsonl"
    lines = [
        {
            "id": s.external_id,
            "time": s.time.isoformat(),
            "turns": [{"speaker": t.speaker, "text": t.text, "id": t.external_id} for t in s.turns],
        }
        for s in _sessions()
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_cli_retract_and_forget(cli_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", str(cli_env), "--forest", "f", "--json"]) == 0
    capsys.readouterr()
    assert main(["retract", "--forest", "f", "--session", "s2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sessions"] == 1 and report["turns"] == 4 and report["facts_removed"] >= 1
    assert main(["retract", "--forest", "f", "--session", "s1", "--turn", "s1:1"]) == 0
    assert "retract" in capsys.readouterr().out
    assert main(["check", "--forest", "f"]) == 0
    capsys.readouterr()
    assert main(["retract", "--forest", "f", "--session", "s2"]) == 2  # already gone: one line, exit 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no session 's2'" in err[0]
    assert main(["retract", "--forest", "f", "--session", "s1", "--tenant", "nobody"]) == 2
    capsys.readouterr()

    assert main(["forget", "--forest", "f", "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert counts["forests"] == 1 and counts["sessions"] == 2 and counts["facts"] > 0 and counts["nodes"] > 0
    assert main(["forget", "--forest", "f", "--json"]) == 0  # idempotent
    assert not any(json.loads(capsys.readouterr().out).values())
    assert main(["forget", "--all"]) == 2  # --all needs --tenant
    assert "--tenant" in capsys.readouterr().err
    assert main(["forget", "--tenant", "local", "--all", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tenants"] == 1
    assert main(["forget", "--tenant", "local", "--all", "--json"]) == 0
    assert not any(json.loads(capsys.readouterr().out).values())


# ------------------------------------------------------------------------------ HTTP API


async def test_api_retract_session_and_turn(db: Database, settings: Settings, backends: Backends) -> None:
    admin = ADMIN_AUTH
    async with app_client(admin_settings(settings), db) as (_, c):
        keys = {}
        for name in ("acme", "evil"):
            tid = (await c.post("/v1/tenants", json={"name": name}, headers=admin)).json()["id"]
            for scopes in (["read", "write"], ["read"]):
                r = await c.post(f"/v1/tenants/{tid}/keys", json={"scopes": scopes}, headers=admin)
                keys[(name, len(scopes))] = {"Authorization": f"Bearer {r.json()['key']}"}
            if name == "acme":
                acme = uuid.UUID(tid)
        await _ingest(db, settings, backends, acme)
        evil, writer, reader = keys[("evil", 2)], keys[("acme", 2)], keys[("acme", 1)]
        assert (await c.post("/v1/forests", json={"name": "f"}, headers=evil)).status_code == 201

        # another tenant (even with a forest of the same name) sees nothing to retract
        for path in ("/v1/forests/f/sessions/s2", "/v1/forests/f/sessions/s1/turns/s1:1"):
            r = await c.delete(path, headers=evil)
            assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json")
        assert (await c.delete("/v1/forests/f/sessions/s2", headers=reader)).status_code == 403

        r = await c.delete("/v1/forests/f/sessions/s2", headers=writer)
        assert r.status_code == 200, r.text
        assert r.json()["sessions"] == 1 and r.json()["facts_removed"] >= 1
        assert (await c.delete("/v1/forests/f/sessions/s2", headers=writer)).status_code == 404
        listed = (await c.get("/v1/forests/f/sessions", headers=reader)).json()["items"]
        assert [s["session_id"] for s in listed] == ["s1", "s3"]
        assert (await c.get("/v1/forests/f/sessions/s2", headers=reader)).status_code == 404

        r = await c.delete("/v1/forests/f/sessions/s1/turns/s1:1", headers=writer)
        assert r.status_code == 200 and r.json()["turns"] == 1 and r.json()["turn"] == "s1:1"
        assert (await c.delete("/v1/forests/f/sessions/s1/turns/s1:1", headers=writer)).status_code == 404
        turns = (await c.get("/v1/forests/f/sessions/s1", headers=reader)).json()["turns"]
        assert [t["id"] for t in turns] == ["s1:0", "s1:2", "s1:3", "s1:4"]
        body = (await c.post("/v1/forests/f/query", json={"query": "Zephyrine kayak Tromso"}, headers=reader)).json()
        assert not _mentions(body["evidence"], S2_MARKERS, "s2", ("s2:1",))
    assert await _violations(db, acme) == []


# ------------------------------------------------------------------------------ bench smoke


def test_bench_retract_quick(db_env: str, tmp_path: Path) -> None:
    conv: dict[str, Any] = {"speaker_a": "Nadia", "speaker_b": "Oskar"}
    for n, (_, when, texts) in enumerate(CONVERSATION, start=1):
        conv[f"session_{n}_date_time"] = (
            f"{when.hour % 12 or 12}:{when.minute:02d} pm on {when.day} {when:%B}, {when.year}"
        )
        conv[f"session_{n}"] = [
            {"speaker": ("Nadia", "Oskar")[i % 2], "dia_id": f"D{n}:{i + 1}", "text": t} for i, t in enumerate(texts)
        ]
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps([{"sample_id": "tiny", "conversation": conv}]))
    args = ["--quick", "--no-progress", "--data", str(data), "--database-url", db_env, "--embed-dim", "64"]
    assert bench_retract.main([*args, "--out", str(tmp_path)]) == 0
    result = json.loads((tmp_path / "retract_quick.json").read_text())
    assert (tmp_path / "retract_quick.png").stat().st_size > 0
    row = result["forests"][0]
    assert row["retracted"]["session"] == "session_2" and result["all_checks_ok"]
    assert row["retract"]["forest_after"]["facts"] == row["rebuild"]["forest_after"]["facts"]
    assert 0 < row["retract"]["summary_calls"] < row["rebuild"]["summary_calls"]
    assert row["retract"]["model_calls"].get("extract", 0) == 0 < row["rebuild"]["model_calls"]["extract"]


_SLOT_FACT = """
INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, subject, attribute, value, valid_from)
VALUES (:t, :f, :x, md5(:x), 'state', 'alice', 'residence', :v, :vf) RETURNING fact_id
"""
_LINK = """
UPDATE facts p SET superseded_by = n.fact_id, valid_to = n.valid_from FROM facts n
WHERE p.tenant_id = :t AND p.fact_id = :p AND n.tenant_id = :t AND n.fact_id = :n
"""


# Slot timelines as the write path (or a merge) leaves them, the facts a retraction removes (in that
# order), and every remaining fact's (superseded_by, supersedes) after, with how many facts were
# counted as restored. Each fact: (name, value, year); links: (older, newer) sets the older's
# superseded_by and valid_to; back: (newer, older) sets the newer's supersedes.
_CHAINS = {
    # Boston -> Miami -> Boston -> Davis without the move and the move back: Boston -> Davis
    "move and move back": (
        (("P", "Boston", 2020), ("B", "Miami", 2021), ("A", "Boston", 2022), ("N", "Davis", 2023)),
        (("P", "B"), ("B", "A"), ("A", "N")), (("B", "P"), ("A", "B"), ("N", "A")),
        ("B", "A"), {"P": ("N", None), "N": (None, "P")}, 0,
    ),
    "move back and move": (
        (("P", "Boston", 2020), ("B", "Miami", 2021), ("A", "Boston", 2022), ("N", "Davis", 2023)),
        (("P", "B"), ("B", "A"), ("A", "N")), (("B", "P"), ("A", "B"), ("N", "A")),
        ("A", "B"), {"P": ("N", None), "N": (None, "P")}, 0,
    ),
    # a restatement (not linked to the first statement) is what the move was linked to
    "restatement before a move": (
        (("P", "Boston", 2020), ("X", "Boston", 2021), ("N", "Davis", 2022)),
        (("X", "N"),), (("N", "X"),),
        ("X",), {"P": ("N", None), "N": (None, "P")}, 0,
    ),
    # the current fact goes, and the first one meets a later state stated before it
    "current fact between": (
        (("P", "Boston", 2020), ("X", "Miami", 2021), ("M", "Miami", 2022), ("N", "Davis", 2023)),
        (("P", "X"), ("M", "N")), (("X", "P"), ("M", "P"), ("N", "M")),
        ("X",), {"P": ("M", None), "M": ("N", "P"), "N": (None, "M")}, 0,
    ),
    # a merge kept a link to an earlier fact: the timeline, not that link, decides
    "successor earlier in time": (
        (("Y", "Davis", 2020), ("P", "Boston", 2021), ("X", "Boston", 2022)),
        (("Y", "P"), ("X", "Y")), (("P", "Y"),),
        ("X",), {"Y": ("P", None), "P": (None, "Y")}, 0,
    ),
    # the neighbours state one value: both stay current
    "same value either side": (
        (("P", "Boston", 2020), ("X", "Miami", 2021), ("A", "Boston", 2022)),
        (("P", "X"), ("X", "A")), (("X", "P"), ("A", "X")),
        ("X",), {"P": (None, None), "A": (None, None)}, 1,
    ),
    # a merge kept the later neighbour superseded by the earlier one: no cycle is made
    "later neighbour linked back": (
        (("P", "Boston", 2020), ("X", "Boston", 2021), ("N", "Davis", 2022)),
        (("X", "N"), ("N", "P")), (("N", "X"),),
        ("X",), {"P": (None, None), "N": ("P", None)}, 0,
    ),
    # an agent's correction (no value) stands between: nothing is linked across it
    "correction between": (
        (("P", "Boston", 2020), ("X", "Boston", 2021), ("C", None, 2022), ("N", "Davis", 2023)),
        (("X", "C"), ("C", "N")), (("C", "X"), ("N", "C")),
        ("X",), {"P": (None, None), "C": ("N", None), "N": (None, "C")}, 0,
    ),
    # the removed fact's successor link points back in time (a merge's): not followed
    "successor link back in time": (
        (("Y", "Davis", 2020), ("P", "Boston", 2021), ("X", "Miami", 2022)),
        (("Y", "P"), ("P", "X"), ("X", "Y")), (("P", "Y"), ("X", "P"), ("Y", "X")),
        ("X",), {"Y": ("P", None), "P": (None, "Y")}, 1,
    ),
    # a merge's backward link closes a loop two steps on: still no cycle
    "loop through an earlier fact": (
        (("Q", "Miami", 2019), ("P", "Boston", 2020), ("X", "Boston", 2021), ("N", "Davis", 2022)),
        (("Q", "P"), ("X", "N"), ("N", "Q")), (("P", "Q"), ("N", "X")),
        ("X",), {"Q": ("P", None), "P": (None, "Q"), "N": ("Q", None)}, 0,
    ),
    # current before, superseded by the first removal, current again after the second: no restoration
    "restatement and the move": (
        (("P", "Boston", 2020), ("X", "Boston", 2021), ("N", "Davis", 2022)),
        (("X", "N"),), (("N", "X"),),
        ("X", "N"), {"P": (None, None)}, 0,
    ),
    # the removed fact's correction starts after a later statement: the timeline's next fact wins
    "correction after a later fact": (
        (("P", "Boston", 2020), ("X", "Miami", 2021), ("M", "Miami", 2022), ("C", None, 2023)),
        (("P", "X"), ("X", "C")), (("X", "P"), ("C", "X")),
        ("X",), {"P": ("M", None), "M": (None, "P"), "C": (None, None)}, 0,
    ),
    # a restatement inserted later between the removed fact and its successor (the write path's shape)
    "restatement inserted before the successor": (
        (("P", "Boston", 2020), ("X", "Miami", 2021), ("M", "Miami", 2022), ("N", "Davis", 2023)),
        (("P", "X"), ("X", "N"), ("M", "N")), (("X", "P"), ("N", "M")),
        ("X",), {"P": ("M", None), "M": ("N", "P"), "N": (None, "M")}, 0,
    ),
    # a fact made current by the first removal is removed next: not counted as restored
    "restored then removed": (
        (("P", "Boston", 2020), ("X", "Miami", 2021), ("A", "Boston", 2022)),
        (("P", "X"), ("X", "A")), (("X", "P"), ("A", "X")),
        ("X", "P"), {"A": (None, None)}, 0,
    ),
}  # fmt: skip


_Facts = list[tuple[str, str | None, int]]


async def _slot(conn: Any, t: uuid.UUID, forest: str, facts: _Facts, *, threaded: bool) -> tuple[int, dict[str, int]]:
    """A forest whose slot holds ``facts`` (name, value, year), inserted in that order; ``threaded``:
    each linked by the write path's own rule (the reference thread_into_slot), else left unlinked."""
    f = int(await scalar(conn, "INSERT INTO forests (tenant_id, name) VALUES (:t, :n) RETURNING forest_id",
                         {"t": t, "n": forest}))  # fmt: skip
    ids: dict[str, int] = {}
    for name, value, year in facts:
        start = datetime(year, 1, 1, tzinfo=UTC)
        row = await fetch_one(
            conn, _SLOT_FACT, {"t": t, "f": f, "x": f"{forest} {name} {value}", "v": value, "vf": start}
        )
        assert row is not None
        ids[name] = int(row["fact_id"])
        if threaded:
            cand = Candidate(text=name, kind=FactKind.STATE, source_turn_seqs=(), valid_from=start,
                             subject="alice", attribute="residence", value=value)  # fmt: skip
            await thread_into_slot(conn, t, f, ids[name], cand)
    return f, ids


async def _remove(conn: Any, t: uuid.UUID, f: int, ids: dict[str, int], removed: Sequence[str]) -> RetractWork:
    """Remove the named facts one by one, as a retraction does; its work (with the report)."""
    work = RetractWork(conn, t, f, RetractReport(forest="f", session=""))
    for name in removed:
        await unlink_supersession(work, ids[name])
        await delete_retracted_fact(conn, t, ids[name])
    return work


async def _links(conn: Any, f: int, ids: dict[str, int]) -> dict[str, tuple[Any, ...]]:
    """Each fact's (superseded_by, supersedes, valid_to), facts named as in ``ids``."""
    names: dict[Any, Any] = {v: k for k, v in ids.items()} | {None: None}
    rows = await fetch_all(
        conn, "SELECT fact_id, supersedes, superseded_by, valid_to FROM facts WHERE forest_id = :f", {"f": f}
    )
    return {names[r["fact_id"]]: (names[r["superseded_by"]], names[r["supersedes"]], r["valid_to"]) for r in rows}


@pytest.mark.parametrize("shape", list(_CHAINS))
async def test_removing_facts_leaves_the_slot_as_canonicalisation_would_have_threaded_it(
    db: Database, shape: str
) -> None:
    facts, links, back, removed, expected, restored = _CHAINS[shape]
    t = await ensure_tenant(db, "t")
    async with db.system() as conn:
        f, ids = await _slot(conn, t, "f", list(facts), threaded=False)
        for older, newer in links:
            await conn.execute(text(_LINK), {"t": t, "p": ids[older], "n": ids[newer]})
        for newer, older in back:
            await conn.execute(
                text("UPDATE facts SET supersedes = :p WHERE tenant_id = :t AND fact_id = :n"),
                {"t": t, "p": ids[older], "n": ids[newer]},
            )
        work = await _remove(conn, t, f, ids, removed)
        got = await _links(conn, f, ids)
    assert {name: (after, before) for name, (after, before, _) in got.items()} == expected
    starts = {name: datetime(year, 1, 1, tzinfo=UTC) for name, _, year in facts}
    # a superseded fact ends where its successor starts; a current one (here) does not end
    assert all(end == (starts[after] if after else None) for after, _, end in got.values())
    assert work.report.facts_restored == restored


async def test_removing_facts_from_a_slot_equals_stating_the_others_alone(db: Database) -> None:
    """Seeded random slots told in time order (as a conversation tells them): removing one or two
    facts leaves every link, back link and end exactly as ingesting the others alone would have
    (before session 21's re-threading, 93 of 400 such cases differed). Told out of order, the write
    path's own result depends on the order, so only the invariants are checked: no fact ends before
    it starts and no chain loops."""
    t = await ensure_tenant(db, "t")
    rng = random.Random(21)
    for trial in range(120):
        n = rng.randint(3, 6)
        facts: _Facts = [
            (chr(65 + i), rng.choice(["Boston", "Miami", "Davis"]), y)
            for i, y in enumerate(rng.sample(range(2000, 2030), n))
        ]
        in_order = trial % 3 != 0
        if in_order:
            facts.sort(key=lambda fact: fact[2])
        removed = sorted(rng.sample([name for name, _, _ in facts], rng.randint(1, 2)))
        async with db.system() as conn:
            f, ids = await _slot(conn, t, f"told-{trial}", facts, threaded=True)
            await _remove(conn, t, f, ids, removed)  # (in fact-id order, as a retraction removes them)
            got = await _links(conn, f, ids)
            others = [fact for fact in facts if fact[0] not in removed]
            g, alone_ids = await _slot(conn, t, f"alone-{trial}", others, threaded=True)
            alone = await _links(conn, g, alone_ids)
        if in_order:
            assert got == alone, (facts, removed)
        starts = {name: datetime(y, 1, 1, tzinfo=UTC) for name, _, y in facts}
        assert all(end is None or end >= starts[name] for name, (_, _, end) in got.items()), (facts, removed)
        for name in got:  # following superseded_by from any fact never comes back to it
            seen, at = set(), name
            while at is not None and at not in seen:
                seen.add(at)
                at = got[at][0]
            assert at is None, (facts, removed)
