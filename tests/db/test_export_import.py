"""Export / import (ADR 0008): a forest exported as JSON Lines and imported into a fresh tenant has the
same facts (text, times, sources by external ids), the same tree shapes and the same query results,
with and without derived artifacts; bad files fail with the line named and write nothing."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from test_merge import ADMIN, ALPHA, BETA, forest_id, ingest, stats, violations

from memforest.app.jobs import run_worker
from memforest.backends.base import UsageLedger
from memforest.backends.factory import build_backends
from memforest.cli import main
from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.lifecycle.export import export_lines
from memforest.lifecycle.importer import import_parsed, parse_export
from memforest.memtree.layout import layout
from memforest.retrieval import QueryRequest
from memforest.retrieval.service import query
from memforest.servers import create_app
from memforest.settings import Settings
from memforest.store.sql import fetch_all, scalar
from memforest.store.tenants import ensure_tenant

QUESTIONS = (
    "Where does Ysolde breed carrier pigeons?",
    "What does Odalys keep in her greenhouse?",
    "Which city did Odalys move to?",
    "What did Perrin win?",
)


async def export_text(db: Database, settings: Settings, tenant_id: uuid.UUID, forest: str, derived: bool) -> str:
    return "".join([line async for line in export_lines(db, settings, tenant_id, forest, with_derived=derived)])


async def facts_view(db: Database, tenant_id: uuid.UUID, forest: str) -> list[tuple[Any, ...]]:
    """Facts with their times and sources named by the client's ids (no database ids)."""
    fid = await forest_id(db, tenant_id, forest)
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn,
            "SELECT x.text, x.kind, x.valid_from, x.valid_to, x.recorded_at, x.source_count, "
            "(SELECT y.text FROM facts y WHERE y.tenant_id = x.tenant_id AND y.fact_id = x.superseded_by) AS by, "
            "array(SELECT s.external_id || '#' || coalesce(tu.external_id, '') FROM fact_sources fs "
            "JOIN sessions s ON s.tenant_id = fs.tenant_id AND s.session_id = fs.session_id "
            "JOIN turns tu ON tu.tenant_id = fs.tenant_id AND tu.turn_id = fs.turn_id "
            "WHERE fs.tenant_id = x.tenant_id AND fs.fact_id = x.fact_id ORDER BY 1) AS sources "
            "FROM facts x WHERE x.tenant_id = :t AND x.forest_id = :f ORDER BY x.text",
            {"t": tenant_id, "f": fid},
        )
    return [tuple(r.values()) for r in rows]


async def tree_shapes(db: Database, tenant_id: uuid.UUID, forest: str) -> list[tuple[Any, ...]]:
    """(kind, key, leaves, height, child counts of every internal node in key order per level) per
    tree: the whole shape. Scene keys are cluster ids, so scenes go by label."""
    fid = await forest_id(db, tenant_id, forest)
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn,
            "SELECT tr.kind, CASE WHEN tr.kind = 'scene' THEN tr.label ELSE tr.key END AS k, tr.n_leaves, tr.height, "
            "array(SELECT n.n_children FROM nodes n WHERE n.tenant_id = tr.tenant_id AND n.tree_id = tr.tree_id "
            "AND n.level > 0 ORDER BY n.level DESC, n.t_start, n.seq) AS fanouts FROM trees tr "
            "WHERE tr.tenant_id = :t AND tr.forest_id = :f ORDER BY 1, 2, 3, 4",
            {"t": tenant_id, "f": fid},
        )
    return [tuple(r.values()) for r in rows]


async def answers(db: Database, settings: Settings, tenant_id: uuid.UUID, forest: str) -> list[list[str]]:
    backends = build_backends(settings)
    try:
        return [
            [
                e.text
                for e in (await query(db, settings, backends, tenant_id, QueryRequest(forest, q, top_k=5))).evidence
            ]
            for q in QUESTIONS
        ]
    finally:
        await backends.aclose()


async def import_text(
    db: Database, settings: Settings, tenant_id: uuid.UUID, data: str, forest: str
) -> tuple[dict[str, Any], UsageLedger]:
    backends = build_backends(settings)
    ledger = UsageLedger()
    try:
        parsed = parse_export(data.splitlines(keepends=True), source="test.jsonl")
        report = await import_parsed(db, settings, backends, tenant_id, parsed, forest, ledger=ledger)
    finally:
        await backends.aclose()
    return report.as_dict(), ledger


@pytest.fixture
async def source(db: Database, settings: Settings) -> uuid.UUID:
    tenant_id = await ensure_tenant(db, "origin")
    await ingest(
        db, settings, tenant_id, "alpha", ALPHA + [(f"b{s}", t.replace(year=2023), turns) for s, t, turns in BETA]
    )
    return tenant_id


async def all_rows(db: Database) -> dict[str, int]:
    tables = ("forests", "sessions", "turns", "cells", "facts", "fact_sources", "entities", "trees", "nodes", "jobs")
    async with db.system() as conn:
        return {t: int(await scalar(conn, f"SELECT count(*) FROM {t}")) for t in tables}


# ---------------------------------------------------------------- round trip


@pytest.mark.parametrize("derived", [False, True])
async def test_round_trip_into_a_fresh_tenant(
    db: Database, settings: Settings, source: uuid.UUID, derived: bool
) -> None:
    data = await export_text(db, settings, source, "alpha", derived)
    header = json.loads(data.splitlines()[0])
    assert header["format"] == "memforest-forest" and header["version"] == 1 and header["with_derived"] is derived
    assert header["embedding"]["dim"] == settings.embedding.dim and header["settings"]["fanout"]["entity"] == 8
    kinds = {json.loads(line)["type"] for line in data.splitlines()[1:]}
    assert ({"tree", "node", "placement"} <= kinds) is derived and "fact_source" in kinds

    fresh = await ensure_tenant(db, "elsewhere")
    report, ledger = await import_text(db, settings, fresh, data, "copy")
    assert "extract" not in ledger.as_dict()
    assert report["reused_vectors"] is derived and report["rebuilt_trees"] is not derived
    assert report["merge"]["facts_new"] == header["counts"]["fact"]
    assert await violations(db, fresh, "copy") == []
    assert await facts_view(db, fresh, "copy") == await facts_view(db, source, "alpha")
    assert await tree_shapes(db, fresh, "copy") == await tree_shapes(db, source, "alpha")
    assert await answers(db, settings, fresh, "copy") == await answers(db, settings, source, "alpha")
    assert (await stats(db, fresh, "copy"))["dirty_nodes"] == 0
    async with db.tenant(fresh) as conn:  # the staging forest is gone
        assert await scalar(conn, "SELECT count(*) FROM forests WHERE tenant_id = :t", {"t": fresh}) == 1
    if derived:  # copied as they were: summaries reused, nothing to summarise or embed again
        assert report["merge"]["nodes_refreshed"] == 0 and "embed" not in ledger.as_dict()


async def test_round_trip_without_derived_keeps_deep_tree_shapes(db: Database, settings: Settings) -> None:
    """Fan-out 2 everywhere makes deep trees whose shapes depend on the order leaves went in: an import
    without derived artifacts replays the write path's order (ADR 0009), so every node of every tree
    comes back with the same children count, where a bottom-up bulk build would differ."""
    small = settings.model_copy(
        update={
            "pipeline": settings.pipeline.model_copy(
                update={"fanout_session": 2, "fanout_entity": 2, "fanout_scene": 2}
            )
        }
    )
    origin = await ensure_tenant(db, "origin")
    await ingest(db, small, origin, "alpha", ALPHA + [(f"b{s}", t.replace(year=2023), turns) for s, t, turns in BETA])
    data = await export_text(db, small, origin, "alpha", False)
    assert json.loads(data.splitlines()[0])["settings"]["fanout"] == {"session": 2, "entity": 2, "scene": 2}
    fresh = await ensure_tenant(db, "elsewhere")
    report, _ = await import_text(db, small, fresh, data, "copy")
    assert report["rebuilt_trees"] is True
    assert await violations(db, fresh, "copy") == []
    shapes = await tree_shapes(db, origin, "alpha")
    assert await tree_shapes(db, fresh, "copy") == shapes
    assert await answers(db, small, fresh, "copy") == await answers(db, small, origin, "alpha")
    assert max(height for _, _, _, height, _ in shapes) >= 3
    bulk = [[c for level in reversed(layout(n, 2)) for c in level] for _, _, n, _, _ in shapes]
    assert any(list(fanouts) != b for (*_, fanouts), b in zip(shapes, bulk, strict=True))


async def test_import_into_an_existing_forest_merges(db: Database, settings: Settings, source: uuid.UUID) -> None:
    data = await export_text(db, settings, source, "alpha", True)
    report, _ = await import_text(db, settings, source, data, "alpha")  # into itself: everything is already there
    merge = report["merge"]
    assert merge["facts_new"] == 0 and merge["sessions_copied"] == 0 and merge["sessions_shared"] == 4
    assert await violations(db, source, "alpha") == []


async def test_foreign_embedding_space_is_re_materialised(db: Database, settings: Settings, source: uuid.UUID) -> None:
    lines = (await export_text(db, settings, source, "alpha", True)).splitlines(keepends=True)
    header = json.loads(lines[0])
    header["embedding"]["model"] = "some-other-model"
    data = json.dumps(header) + "\n" + "".join(lines[1:])
    fresh = await ensure_tenant(db, "elsewhere")
    report, ledger = await import_text(db, settings, fresh, data, "copy")
    assert report["reused_vectors"] is False and report["embedded_facts"] == header["counts"]["fact"]
    assert ledger.as_dict()["embed"]["calls"] >= 1 and "extract" not in ledger.as_dict()
    assert await violations(db, fresh, "copy") == []
    assert await facts_view(db, fresh, "copy") == await facts_view(db, source, "alpha")


# ---------------------------------------------------------------- bad files


def _mutations(lines: list[str]) -> dict[str, tuple[str, str]]:
    """name -> (file text, expected message fragment)."""
    header = json.loads(lines[0])
    docs = [json.loads(line) for line in lines]
    fact_at = next(i for i, d in enumerate(docs) if d.get("type") == "fact")
    node_at = next(i for i, d in enumerate(docs) if d.get("type") == "node" and d["embedding"])
    v2 = dict(header, version=2)
    wrong_type = json.loads(lines[fact_at])
    wrong_type["valid_from"] = "not a time"
    unknown = json.loads(lines[fact_at])
    unknown["type"] = "banana"
    short_vec = json.loads(lines[node_at])
    short_vec["embedding"] = short_vec["embedding"][:-8]
    body = lines[1:]
    twin = dict(docs[fact_at], id=10**9)  # same text (hash) as another fact: the database would refuse it
    turn_at = next(i for i, d in enumerate(docs) if d.get("type") == "turn")
    nul = dict(docs[turn_at], text="bad\u0000text")
    return {
        "duplicate fact": (
            "".join(lines[: fact_at + 1]) + json.dumps(twin) + "\n" + "".join(lines[fact_at + 1 :]),
            f"line {fact_at + 2}: duplicate fact text_hash",
        ),
        "NUL character": (
            "".join(lines[:turn_at]) + json.dumps(nul) + "\n" + "".join(lines[turn_at + 1 :]),
            f"line {turn_at + 1}: NUL characters",
        ),
        "version": (json.dumps(v2) + "\n" + "".join(body), "line 1: unsupported export version 2"),
        "truncated line": (
            "".join(lines[:fact_at]) + lines[fact_at][: len(lines[fact_at]) // 2],
            f"line {fact_at + 1}:",
        ),
        "truncated file": ("".join(lines[: fact_at + 1]), "truncated?"),
        "wrong field type": (
            "".join(lines[:fact_at]) + json.dumps(wrong_type) + "\n" + "".join(lines[fact_at + 1 :]),
            f"line {fact_at + 1}: fact.valid_from",
        ),
        "unknown record type": (
            "".join(lines[:fact_at]) + json.dumps(unknown) + "\n" + "".join(lines[fact_at + 1 :]),
            f"line {fact_at + 1}: unknown record type 'banana'",
        ),
        "vector size": (
            "".join(lines[:node_at]) + json.dumps(short_vec) + "\n" + "".join(lines[node_at + 1 :]),
            f"line {node_at + 1}: node.embedding",
        ),
        "not an export": ('{"hello": 1}\n', "line 1: not a MemForest export"),
    }


async def test_bad_files_fail_with_the_line_and_write_nothing(
    db: Database, settings: Settings, source: uuid.UUID
) -> None:
    lines = (await export_text(db, settings, source, "alpha", True)).splitlines(keepends=True)
    before = await all_rows(db)
    for name, (data, fragment) in _mutations(lines).items():
        with pytest.raises(InputError) as info:
            await import_text(db, settings, source, data, "target")
        assert fragment in str(info.value), (name, str(info.value))
        assert "\n" not in str(info.value)
    assert await all_rows(db) == before


# ---------------------------------------------------------------- CLI


@pytest.fixture
def cli_env(db_env: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path / "home"))


def _cli_stats(capsys: pytest.CaptureFixture[str], forest: str, tenant: str) -> dict[str, Any]:
    assert main(["stats", "--forest", forest, "--tenant", tenant, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out.strip().splitlines()[-1]))


def test_cli_export_and_import(
    source: uuid.UUID, cli_env: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "alpha.jsonl"
    assert main(["export", "--forest", "alpha", "-o", str(out), "--tenant", "origin", "--with-derived"]) == 0
    assert json.loads(out.read_text().splitlines()[0])["with_derived"] is True
    assert main(["import", str(out), "--forest", "restored", "--tenant", "fresh", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["forest"] == "restored" and report["merge"]["facts_new"] > 0
    assert main(["check", "--forest", "restored", "--tenant", "fresh"]) == 0
    capsys.readouterr()
    assert _cli_stats(capsys, "restored", "fresh") == _cli_stats(capsys, "alpha", "origin")

    assert main(["export", "--forest", "nope", "-o", str(tmp_path / "x.jsonl"), "--tenant", "origin"]) == 2
    assert "no forest named 'nope'" in capsys.readouterr().err and not (tmp_path / "x.jsonl").exists()
    bad = tmp_path / "bad.jsonl"
    bad.write_text(out.read_text().splitlines()[0] + "\n{broken\n")
    assert main(["import", str(bad), "--forest", "never", "--tenant", "fresh"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 2" in err[0]
    assert main(["stats", "--forest", "never", "--tenant", "fresh"]) == 2  # nothing was created


# ---------------------------------------------------------------- API


@pytest.fixture
async def client(settings: Settings, db: Database) -> AsyncIterator[httpx.AsyncClient]:
    s = settings.model_copy(update={"admin_key": SecretStr(ADMIN)}, deep=True)
    app = create_app(s, db=db, start_worker=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            yield c


async def _key(client: httpx.AsyncClient, tenant_id: uuid.UUID, scopes: list[str]) -> dict[str, str]:
    r = await client.post(
        f"/v1/tenants/{tenant_id}/keys", json={"scopes": scopes}, headers={"Authorization": f"Bearer {ADMIN}"}
    )
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['key']}"}


async def test_api_export_stream_and_import_job(
    db: Database, settings: Settings, source: uuid.UUID, client: httpx.AsyncClient
) -> None:
    reader = await _key(client, source, ["read"])
    r = await client.get("/v1/forests/alpha/export", params={"with_derived": "true"}, headers=reader)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    data = r.text
    assert json.loads(data.splitlines()[0])["forest"] == "alpha"
    assert (await client.get("/v1/forests/nope/export", headers=reader)).status_code == 404
    assert (await client.post("/v1/forests/x/import", content=data, headers=reader)).status_code == 403

    fresh = await ensure_tenant(db, "fresh")
    writer = await _key(client, fresh, ["read", "write"])
    before = await all_rows(db)
    bad = await client.post(
        "/v1/forests/restored/import", content=data.replace('"version":1', '"version":9'), headers=writer
    )
    assert bad.status_code == 422 and "line 1" in bad.json()["detail"]
    truncated = data[: len(data) - 40]
    bad = await client.post("/v1/forests/restored/import", content=truncated, headers=writer)
    assert bad.status_code == 422 and "line" in bad.json()["detail"]
    assert await all_rows(db) == before

    r = await client.post("/v1/forests/restored/import", content=data, headers=writer)
    assert r.status_code == 202, r.text
    job_id = r.json()["job_id"]
    assert [f["name"] for f in (await client.get("/v1/forests", headers=writer)).json()["items"]] == ["restored"]
    backends = build_backends(settings)
    await run_worker(db, settings, backends, stop_when_idle=True, tenant_id=fresh)
    await backends.aclose()
    job = (await client.get(f"/v1/jobs/{job_id}", headers=writer)).json()
    assert job["state"] == "succeeded", job
    assert job["kind"] == "import" and "extract" not in job["usage"]
    assert await violations(db, fresh, "restored") == []
    assert await facts_view(db, fresh, "restored") == await facts_view(db, source, "alpha")
    async with db.tenant(fresh) as conn:  # the staging forest is gone
        assert await scalar(conn, "SELECT count(*) FROM forests WHERE tenant_id = :t", {"t": fresh}) == 1
