"""Re-materialisation (ADR 0009): rebuild trees with a new fan-out, regenerate summaries, re-embed,
change the embedding dimension deployment-wide; CLI and API surfaces; never an extraction call."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from support import ADMIN_AUTH, admin_settings, app_client, session_body, session_input, tenant_url
from support.vectors import facts_by_cell, weighted_unit_mean

from memforest.app.jobs import run_worker
from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends, build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.cli import main
from memforest.db.engine import Database
from memforest.db.runtime import open_database
from memforest.domain import SessionInput
from memforest.errors import ConfigurationError, InputError
from memforest.lifecycle.rematerialize import change_embedding_dimension, rebuild_trees, reembed, resummarize
from memforest.memtree.layout import layout
from memforest.pipeline.forest_indexes import ensure_forest_indexes
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, RetrievalPreset, query
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.forest_indexes import FOREST_INDEXES
from memforest.store.rematerialize import set_node_means
from memforest.store.sql import as_vector, execute, fetch_all, scalar
from memforest.store.tenants import ensure_tenant

TENANT = "local"  # the CLI's default tenant
FOREST = "harbour"

CONVERSATION = [
    (
        "h1",
        datetime(2024, 2, 3, 17, 0, tzinfo=UTC),
        [
            "I bought a green kayak from a small shop in Galway.",
            "My bakery on Quay Street opened last Tuesday.",
            "I paddled the kayak across Lough Corrib with my cousin Fintan.",
            "My cat Pixel sleeps on the flour sacks every afternoon.",
            "Fintan is training for a marathon in Cork.",
            "I bake sourdough loaves with rye from a farm in Clare.",
            "I am learning to play the bodhran at a music school.",
            "Pixel knocked a tray of scones off the counter.",
        ],
    ),
    (
        "h2",
        datetime(2024, 4, 12, 18, 30, tzinfo=UTC),
        [
            "Fintan finished the Cork marathon in four hours.",
            "The bakery now sells cardamom buns on Saturdays.",
            "I capsized the green kayak near Inchagoill island yesterday.",
            "Pixel caught a mouse in the storeroom last week.",
            "My bodhran teacher is called Siobhan.",
            "I hired an apprentice baker named Declan.",
        ],
    ),
    (
        "h3",
        datetime(2024, 7, 1, 9, 45, tzinfo=UTC),
        [
            "I sold the green kayak and bought a sailing dinghy.",
            "Declan invented a seaweed focaccia for the bakery.",
            "Fintan wants to run the Dublin marathon in October.",
            "Pixel turned fourteen years old in June.",
            "Siobhan invited me to play the bodhran at a session in Westport.",
            "The bakery won a regional prize for its sourdough.",
            "Declan is moving to Kinsale next spring.",
            "I will visit the bakery before my sailing lesson.",
        ],
    ),
]

# question -> a phrase of the one fact that answers it
QUESTIONS = {
    "What did Declan invent for the bakery?": "seaweed focaccia",
    "Where did Orla capsize the green kayak?": "Inchagoill",
    "How long did the Cork marathon take Fintan?": "four hours",
}


def _sessions() -> list[SessionInput]:
    speakers = ("Orla", "Tamsin")
    return [
        session_input(ext, when, texts, speakers, turn_ids=False, minutes=True) for ext, when, texts in CONVERSATION
    ]


async def _ingest(db: Database, settings: Settings, backends: Backends) -> tuple[uuid.UUID, int]:
    tenant_id = await ensure_tenant(db, TENANT)
    report = await ingest_sessions(db, settings, backends, tenant_id, FOREST, _sessions())
    assert report.jobs_failed == 0 and report.counts.facts_new > 0
    async with db.tenant(tenant_id) as conn:
        forest_id = int(await scalar(conn, "SELECT forest_id FROM forests WHERE name = :n", {"n": FOREST}))
    return tenant_id, forest_id


async def _snapshot(db: Database, tenant_id: uuid.UUID, forest_id: int) -> dict[str, Any]:
    """Trees by scope with their leaf sources, fan-out and height; every node; the placed sources."""
    p = {"t": tenant_id, "f": forest_id}
    async with db.tenant(tenant_id) as conn:
        trees = await fetch_all(
            conn,
            "SELECT tree_id, kind, key, fanout, height, n_leaves FROM trees WHERE tenant_id = :t AND forest_id = :f",
            p,
        )
        leaves = await fetch_all(
            conn,
            "SELECT t.kind, t.key, pl.source_kind, pl.source_id FROM placements pl JOIN trees t "
            "ON t.tenant_id = pl.tenant_id AND t.tree_id = pl.tree_id WHERE pl.tenant_id = :t AND pl.forest_id = :f",
            p,
        )
        internal = int(
            await scalar(conn, "SELECT count(*) FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level > 0", p)
        )
        dirty = int(
            await scalar(conn, "SELECT count(*) FROM nodes WHERE tenant_id = :t AND forest_id = :f AND dirty", p)
        )
        unembedded = int(
            await scalar(
                conn, "SELECT count(*) FROM nodes WHERE tenant_id = :t AND forest_id = :f AND embedding IS NULL", p
            )
        )
        report = await check_forest(conn, tenant_id, forest_id)
    by_tree: dict[tuple[str, str], set[tuple[str, int]]] = {(str(t["kind"]), str(t["key"])): set() for t in trees}
    for r in leaves:
        by_tree[(str(r["kind"]), str(r["key"]))].add((str(r["source_kind"]), int(r["source_id"])))
    return {
        "tree_ids": {int(t["tree_id"]) for t in trees},
        "fanouts": {(str(t["kind"]), str(t["key"])): int(t["fanout"]) for t in trees},
        "heights": {(str(t["kind"]), str(t["key"])): int(t["height"]) for t in trees},
        "n_leaves": {(str(t["kind"]), str(t["key"])): int(t["n_leaves"]) for t in trees},
        "leaves": by_tree,
        "facts_reachable": {sid for _, _, kind, sid in map(dict.values, leaves) if kind == "fact"},
        "internal": internal,
        "dirty": dirty,
        "unembedded": unembedded,
        "violations": report.violations,
    }


async def _answer_fact(db: Database, tenant_id: uuid.UUID, forest_id: int, phrase: str) -> int:
    async with db.tenant(tenant_id) as conn:
        ids = await fetch_all(
            conn,
            "SELECT fact_id FROM facts WHERE tenant_id = :t AND forest_id = :f AND text ILIKE :p ORDER BY fact_id",
            {"t": tenant_id, "f": forest_id, "p": f"%{phrase}%"},
        )
    assert len(ids) == 1, (phrase, ids)
    return int(ids[0]["fact_id"])


async def _answers(
    db: Database, settings: Settings, backends: Backends, tenant_id: uuid.UUID, preset: RetrievalPreset | None = None
) -> dict[str, tuple[list[int], str]]:
    """For every question: the fact ids in the evidence, and the recall strategy used."""
    out = {}
    for question in QUESTIONS:
        result = await query(db, settings, backends, tenant_id, QueryRequest(FOREST, question), preset=preset)
        out[question] = ([e.source_id for e in result.evidence if e.kind == "fact"], result.strategy)
    return out


async def _assert_answered(
    db: Database, settings: Settings, backends: Backends, tenant_id: uuid.UUID, forest_id: int, **kw: Any
) -> dict[str, list[int]]:
    answers = await _answers(db, settings, backends, tenant_id, **kw)
    for question, phrase in QUESTIONS.items():
        expected = await _answer_fact(db, tenant_id, forest_id, phrase)
        assert expected in answers[question][0], (question, phrase, answers[question])
    return {q: ids for q, (ids, _) in answers.items()}


@pytest.fixture
async def backends(settings: Settings) -> AsyncIterator[Backends]:
    b = build_backends(settings)
    yield b
    await b.aclose()


# ---------------------------------------------------------------- rebuild


async def test_rebuild_with_k4_then_k3_keeps_every_leaf_and_answer(
    db: Database, settings: Settings, backends: Backends
) -> None:
    tenant_id, forest_id = await _ingest(db, settings, backends)
    before = await _snapshot(db, tenant_id, forest_id)
    assert before["violations"] == [] and set(before["fanouts"].values()) == {8}
    await _assert_answered(db, settings, backends, tenant_id, forest_id)
    n_leaves = sum(len(v) for v in before["leaves"].values())

    previous_ids = before["tree_ids"]
    for k in (4, 3):
        ledger = UsageLedger()
        report = await rebuild_trees(db, settings, backends, tenant_id, forest_id, fanout=k, ledger=ledger)
        after = await _snapshot(db, tenant_id, forest_id)
        assert after["violations"] == []
        assert set(after["fanouts"].values()) == {k}
        assert after["leaves"] == before["leaves"]  # same scopes, same sources in each
        assert after["n_leaves"] == before["n_leaves"]
        # bulk-built bottom-up: every tree at the least height its leaves allow with fan-out k
        assert all(after["heights"][t] == len(layout(n, k)) for t, n in after["n_leaves"].items() if n)
        assert after["facts_reachable"] == before["facts_reachable"]
        assert after["tree_ids"].isdisjoint(previous_ids)  # really rebuilt, not left in place
        previous_ids = after["tree_ids"]
        assert (report.trees_rebuilt, report.leaves) == (len(before["fanouts"]), n_leaves)
        assert after["dirty"] == 0 and after["unembedded"] == 0
        # Fact leaves copy the fact vector and cell leaves keep theirs: only new summaries are embedded.
        assert report.embedded_nodes == after["internal"] == report.nodes_refreshed
        assert "extract" not in ledger.stages and report.model_calls.get("extract", 0) == 0
        assert report.model_calls["summarize"] == after["internal"]
        await _assert_answered(db, settings, backends, tenant_id, forest_id)
    assert max(after["heights"].values()) > max(before["heights"].values())  # k=3 makes taller trees


async def test_rebuild_rejects_a_bad_fanout_and_changes_nothing(
    db: Database, settings: Settings, backends: Backends
) -> None:
    tenant_id, forest_id = await _ingest(db, settings, backends)
    before = await _snapshot(db, tenant_id, forest_id)
    for bad in (1, 17, 0):
        with pytest.raises(InputError):
            await rebuild_trees(db, settings, backends, tenant_id, forest_id, fanout=bad)
    assert await _snapshot(db, tenant_id, forest_id) == before


async def test_rebuild_places_facts_without_a_recorded_scene(
    db: Database, settings: Settings, backends: Backends
) -> None:
    """The import path: facts whose scene assignment and vectors are gone are embedded and clustered."""
    tenant_id, forest_id = await _ingest(db, settings, backends)
    p = {"t": tenant_id, "f": forest_id}
    async with db.tenant(tenant_id) as conn:
        n_facts = int(await scalar(conn, "SELECT count(*) FROM facts WHERE tenant_id = :t AND forest_id = :f", p))
        await execute(conn, "DELETE FROM trees WHERE tenant_id = :t AND forest_id = :f", p)
        await execute(conn, "DELETE FROM scene_clusters WHERE tenant_id = :t AND forest_id = :f", p)
        await execute(conn, "UPDATE facts SET embedding = NULL WHERE tenant_id = :t AND forest_id = :f", p)
    report = await rebuild_trees(db, settings, backends, tenant_id, forest_id)
    after = await _snapshot(db, tenant_id, forest_id)
    assert after["violations"] == [] and report.embedded_facts == n_facts
    async with db.tenant(tenant_id) as conn:
        in_one_scene = await scalar(
            conn,
            "SELECT count(*) FROM facts f WHERE f.tenant_id = :t AND f.forest_id = :f AND (SELECT count(*) "
            "FROM placements pl JOIN trees tr ON tr.tenant_id = pl.tenant_id AND tr.tree_id = pl.tree_id "
            "WHERE tr.kind = 'scene' AND pl.tenant_id = f.tenant_id AND pl.source_kind = 'fact' "
            "AND pl.source_id = f.fact_id) = 1",
            p,
        )
        members = await scalar(
            conn, "SELECT sum(member_count) FROM scene_clusters WHERE tenant_id = :t AND forest_id = :f", p
        )
    assert in_one_scene == n_facts and members == n_facts
    await _assert_answered(db, settings, backends, tenant_id, forest_id)


# ---------------------------------------------------------------- summaries


async def test_resummarize_regenerates_every_internal_node_without_extraction(
    db: Database, settings: Settings, backends: Backends
) -> None:
    tenant_id, forest_id = await _ingest(db, settings, backends)
    before = await _snapshot(db, tenant_id, forest_id)
    async with db.tenant(tenant_id) as conn:
        stale = await fetch_all(
            conn,
            "SELECT node_id, summary FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level > 0 "
            "ORDER BY node_id LIMIT 1",
            {"t": tenant_id, "f": forest_id},
        )
        # A summary written by an older prompt (its embedding still matches the current text).
        await execute(
            conn,
            "UPDATE nodes SET summary = 'an outdated summary', summary_hash = md5('an outdated summary') "
            "WHERE tenant_id = :t AND node_id = :n",
            {"t": tenant_id, "n": stale[0]["node_id"]},
        )
    ledger = UsageLedger()
    report = await resummarize(db, settings, backends, tenant_id, forest_id, ledger=ledger)
    after = await _snapshot(db, tenant_id, forest_id)
    assert after["violations"] == [] and after["dirty"] == 0
    assert report.nodes_refreshed == before["internal"] == ledger.stages["summarize"].calls
    assert "extract" not in ledger.stages
    assert report.summaries_changed == 1  # the deterministic summariser reproduces every other one
    assert report.embedded_nodes == 0  # the restored text is the text that was embedded
    async with db.tenant(tenant_id) as conn:
        restored = await scalar(
            conn,
            "SELECT summary FROM nodes WHERE tenant_id = :t AND node_id = :n",
            {"t": tenant_id, "n": stale[0]["node_id"]},
        )
        missing_hash = await scalar(
            conn,
            "SELECT count(*) FROM nodes WHERE tenant_id = :t AND forest_id = :f AND summary_hash IS NULL",
            {"t": tenant_id, "f": forest_id},
        )
    assert restored == stale[0]["summary"] and missing_hash == 0


# ---------------------------------------------------------------- embeddings


async def test_reembed_recomputes_every_vector_and_keeps_answers(
    db: Database, settings: Settings, backends: Backends
) -> None:
    tenant_id, forest_id = await _ingest(db, settings, backends)
    answers_before = await _assert_answered(db, settings, backends, tenant_id, forest_id)
    emb = HashedEmbedder(settings.embedding.dim)
    junk = emb.embed_sync(["an unrelated vector from another model"])[0]
    p = {"t": tenant_id, "f": forest_id, "j": junk}
    async with db.tenant(tenant_id) as conn:  # as if written by another embedding model
        await execute(conn, "UPDATE facts SET embedding = :j WHERE tenant_id = :t AND forest_id = :f", p)
        await execute(conn, "UPDATE nodes SET embedding = :j WHERE tenant_id = :t AND forest_id = :f", p)
        await execute(conn, "UPDATE scene_clusters SET centroid = :j WHERE tenant_id = :t AND forest_id = :f", p)
    ledger = UsageLedger()
    report = await reembed(db, settings, backends, tenant_id, forest_id, ledger=ledger)
    assert "extract" not in ledger.stages and "summarize" not in ledger.stages
    async with db.tenant(tenant_id) as conn:
        facts = await fetch_all(
            conn, "SELECT fact_id, text, embedding FROM facts WHERE tenant_id = :t AND forest_id = :f", p
        )
        nodes = await fetch_all(
            conn,
            "SELECT summary, embedding FROM nodes WHERE tenant_id = :t AND forest_id = :f AND summary IS NOT NULL",
            p,
        )
        scenes = await fetch_all(
            conn,
            "SELECT c.centroid, array_agg(pl.source_id) AS members FROM scene_clusters c JOIN trees tr "
            "ON tr.tenant_id = c.tenant_id AND tr.kind = 'scene' AND tr.key = c.cluster_id::text "
            "JOIN placements pl ON pl.tenant_id = tr.tenant_id AND pl.tree_id = tr.tree_id "
            "WHERE c.tenant_id = :t AND c.forest_id = :f GROUP BY c.cluster_id, c.centroid",
            p,
        )
    assert report.embedded_facts == len(facts) and report.centroids == len(scenes) > 0
    for f in facts:
        np.testing.assert_allclose(as_vector(f["embedding"]), emb.embed_sync([f["text"]])[0], atol=1e-6)
    for n in nodes:
        np.testing.assert_allclose(as_vector(n["embedding"]), emb.embed_sync([n["summary"]])[0], atol=1e-6)
    vec_of = {int(f["fact_id"]): as_vector(f["embedding"]) for f in facts}
    for s in scenes:
        total = np.sum([vec_of[int(m)] for m in s["members"]], axis=0)
        np.testing.assert_allclose(as_vector(s["centroid"]), total / np.linalg.norm(total), atol=1e-5)
    assert await _assert_answered(db, settings, backends, tenant_id, forest_id) == answers_before


@pytest.mark.parametrize("cell_vectors", ["text", "facts"])
async def test_reembed_with_children_node_vectors_sets_inner_nodes_to_their_childrens_mean(
    db: Database, settings: Settings, cell_vectors: str
) -> None:
    """Re-embedded with ``node_vectors = children``: a leaf takes its text's vector (with
    ``cell_vectors = facts``, a cell leaf that facts were drawn from takes their weighted mean),
    an inner node its children's mean."""
    settings.embedding.node_vectors = "children"
    settings.embedding.cell_vectors = cell_vectors  # type: ignore[assignment]
    backends = build_backends(settings)
    tenant_id, forest_id = await _ingest(db, settings, backends)  # ingest's refresh takes the means too
    answers_before = await _assert_answered(db, settings, backends, tenant_id, forest_id)
    emb = HashedEmbedder(settings.embedding.dim)
    p = {"t": tenant_id, "f": forest_id, "j": emb.embed_sync(["an unrelated vector from another model"])[0]}
    async with db.tenant(tenant_id) as conn:
        await execute(conn, "UPDATE nodes SET embedding = :j WHERE tenant_id = :t AND forest_id = :f", p)
    await reembed(db, settings, backends, tenant_id, forest_id)
    async with db.tenant(tenant_id) as conn:
        nodes = await fetch_all(
            conn,
            "SELECT node_id, parent_id, level, summary, embedding, leaf_cell_id FROM nodes "
            "WHERE tenant_id = :t AND forest_id = :f",
            p,
        )
        facts_of = await facts_by_cell(conn, forest_id)
    assert facts_of, "no cell had a fact drawn from it"
    if cell_vectors == "text":
        facts_of = {}
    kids: dict[int, list[np.ndarray[Any, Any]]] = {}
    for n in nodes:
        if n["parent_id"] is not None:
            kids.setdefault(int(n["parent_id"]), []).append(as_vector(n["embedding"]))
    for n in nodes:
        if int(n["level"]) == 0 and n["leaf_cell_id"] is not None and int(n["leaf_cell_id"]) in facts_of:
            np.testing.assert_allclose(
                as_vector(n["embedding"]), weighted_unit_mean(facts_of[int(n["leaf_cell_id"])]), atol=1e-5
            )
        elif int(n["level"]) == 0:
            np.testing.assert_allclose(as_vector(n["embedding"]), emb.embed_sync([n["summary"]])[0], atol=1e-6)
        else:
            mean = np.mean(kids[int(n["node_id"])], axis=0)
            np.testing.assert_allclose(as_vector(n["embedding"]), mean / np.linalg.norm(mean), atol=1e-5)
    assert await _assert_answered(db, settings, backends, tenant_id, forest_id) == answers_before


async def test_node_means_leave_a_node_whose_children_cancel_out_as_it_was(db: Database, settings: Settings) -> None:
    settings.embedding.node_vectors = "children"
    tenant_id, forest_id = await _ingest(db, settings, build_backends(settings))
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id}
    async with db.tenant(tenant_id) as conn:
        parent = await scalar(
            conn,
            "SELECT parent_id FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level = 0 "
            "AND parent_id IS NOT NULL GROUP BY parent_id HAVING count(*) >= 2 ORDER BY parent_id LIMIT 1",
            p,
        )
        p["parent"] = parent
        kids = [
            int(r["node_id"])
            for r in await fetch_all(
                conn, "SELECT node_id FROM nodes WHERE tenant_id = :t AND parent_id = :parent ORDER BY node_id", p
            )
        ]
        before = as_vector(
            await scalar(conn, "SELECT embedding FROM nodes WHERE tenant_id = :t AND node_id = :parent", p)
        )
        unit = np.zeros(settings.embedding.dim, dtype=np.float32)
        unit[0] = 1.0
        for kid, vector in zip(kids, [unit, -unit], strict=False):
            await execute(
                conn,
                "UPDATE nodes SET embedding = :e WHERE tenant_id = :t AND node_id = :k",
                {**p, "k": kid, "e": vector},
            )
        await execute(
            conn,
            "UPDATE nodes SET embedding = NULL WHERE tenant_id = :t AND node_id = ANY(:rest)",
            {**p, "rest": kids[2:]},
        )
        await set_node_means(conn, tenant_id, forest_id)
        after = as_vector(
            await scalar(conn, "SELECT embedding FROM nodes WHERE tenant_id = :t AND node_id = :parent", p)
        )
    np.testing.assert_array_equal(after, before)  # not the zero vector, whose cosine distance is undefined


async def test_change_dimension_rejects_what_hnsw_cannot_index(db: Database) -> None:
    with pytest.raises(InputError):
        await change_embedding_dimension(db, 5000)
    assert await change_embedding_dimension(db, 64) is None  # already 64: nothing to do


def _cli_env(monkeypatch: pytest.MonkeyPatch, db_url: str, tmp_path: Path, dim: int) -> None:
    monkeypatch.setenv("MEMFOREST_DATABASE_URL", db_url)
    monkeypatch.setenv("MEMFOREST_DATABASE_TENANT_URL", tenant_url(db_url))
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMFOREST_EMBEDDING__DIM", str(dim))


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("memforest: error:"), err
    return err[0]


def _index_everything(settings: Settings) -> Settings:
    """Settings under which any forest gets its own indexes (ADR 0024), however small."""
    return settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update={"exact_scan_max_rows": 0})})


async def _ingest_fresh(db_url: str, settings: Settings, *, indexed: bool = False) -> tuple[uuid.UUID, int]:
    """A fresh tenant's forest (with its own indexes when ``indexed``)."""
    db = Database(db_url, tenant_url=tenant_url(db_url), pool_size=2, max_overflow=2)
    b = build_backends(settings)
    try:
        tenant_id, forest_id = await _ingest(db, settings, b)
        if indexed:
            built = await ensure_forest_indexes(db, _index_everything(settings), tenant_id, forest_id)
            assert len(built.built) == len(FOREST_INDEXES)
        return tenant_id, forest_id
    finally:
        await b.aclose()
        await db.dispose()


def _with_dim(settings: Settings, dim: int) -> Settings:
    return settings.model_copy(update={"embedding": settings.embedding.model_copy(update={"dim": dim})}, deep=True)


async def _verify_dim_32(db_url: str, settings: Settings, tenant_id: uuid.UUID, forest_id: int) -> None:
    s32 = _with_dim(settings, 32)
    b = build_backends(s32)
    async with open_database(s32) as db:  # the start-up check passes again
        try:
            async with db.system() as conn:
                meta = await scalar(conn, "SELECT value FROM memforest_meta WHERE key = 'embedding_dim'")
                types = await fetch_all(
                    conn,
                    "SELECT c.relname AS tbl, format_type(a.atttypid, a.atttypmod) AS ty FROM pg_attribute a "
                    "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_type t ON t.oid = a.atttypid "
                    "WHERE t.typname = 'vector' AND c.relkind = 'r' AND a.attnum > 0",
                )
                indexes = await fetch_all(
                    conn, "SELECT indexname FROM pg_indexes WHERE indexdef ILIKE '% USING hnsw %' ORDER BY indexname"
                )
                dims = await fetch_all(
                    conn,
                    "SELECT 'facts' AS t, vector_dims(embedding) AS d, count(*) AS n FROM facts GROUP BY 2 UNION ALL "
                    "SELECT 'nodes', vector_dims(embedding), count(*) FROM nodes GROUP BY 2 UNION ALL "
                    "SELECT 'scene_clusters', vector_dims(centroid), count(*) FROM scene_clusters GROUP BY 2",
                )
                zero_centroids = await scalar(
                    conn, "SELECT count(*) FROM scene_clusters WHERE vector_norm(centroid) = 0"
                )
            assert meta == "32"
            assert {str(r["tbl"]) for r in types} >= {"facts", "nodes", "scene_clusters"}
            assert {str(r["ty"]) for r in types} == {"vector(32)"}
            assert not [r for r in indexes if not str(r["indexname"]).startswith(("ix_facts_vec_f", "ix_nodes_"))]
            assert {(str(r["t"]), r["d"]) for r in dims} == {("facts", 32), ("nodes", 32), ("scene_clusters", 32)}
            assert zero_centroids == 0
            async with db.tenant(tenant_id) as conn:
                assert (await check_forest(conn, tenant_id, forest_id)).violations == []
            await _assert_answered(db, s32, b, tenant_id, forest_id)
            # The forest's own indexes (built before the change although it is far below the
            # threshold) came through it, the half-precision node graphs at the new dimension
            # (re-embedding wrote 32-dimensional vectors into them), and the HNSW path finds them too.
            assert (await ensure_forest_indexes(db, _index_everything(s32), tenant_id, forest_id)).built == []
            async with db.system() as conn:
                graphs = await fetch_all(
                    conn, "SELECT indexdef FROM pg_indexes WHERE indexdef ILIKE '%halfvec_cosine_ops%'"
                )
            assert len(graphs) == 2 and all("halfvec(32)" in str(r["indexdef"]) for r in graphs)
            answers = await _answers(db, s32, b, tenant_id)
            assert {strategy for _, strategy in answers.values()} == {"hnsw"}
            await _assert_answered(db, s32, b, tenant_id, forest_id)
        finally:
            await b.aclose()


def test_dimension_change_through_the_cli(
    db_url: str, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tenant_id, forest_id = asyncio.run(_ingest_fresh(db_url, settings, indexed=True))
    _cli_env(monkeypatch, db_url, tmp_path, 32)
    # Start-up refuses the mismatch with one line naming the fix, for every other command.
    assert main(["check", "--forest", FOREST]) == 2
    line = _one_line_error(capsys)
    assert "64" in line and "32" in line and "memforest rematerialize --embeddings --all" in line
    assert main(["rematerialize", "--forest", FOREST, "--embeddings"]) == 2
    _one_line_error(capsys)
    with pytest.raises(ConfigurationError):
        asyncio.run(_open_and_close(_with_dim(settings, 32)))

    assert main(["rematerialize", "--embeddings", "--all", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["dimension"] == {"from": 64, "to": 32} and report["forests"] == 1
    assert report["embedded_facts"] > 0 and "extract" not in report["model_calls"]
    asyncio.run(_verify_dim_32(db_url, settings, tenant_id, forest_id))
    assert main(["check", "--forest", FOREST]) == 0
    # Again: nothing to retype, every vector recomputed at the same dimension.
    assert main(["rematerialize", "--embeddings", "--all", "--json"]) == 0
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert again["dimension"] is None and again["embedded_facts"] == report["embedded_facts"]


async def _open_and_close(settings: Settings) -> None:
    async with open_database(settings):
        pass


# ---------------------------------------------------------------- CLI


def test_cli_bad_arguments_exit_2_and_change_nothing(
    db_url: str, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tenant_id, forest_id = asyncio.run(_ingest_fresh(db_url, settings))
    _cli_env(monkeypatch, db_url, tmp_path, settings.embedding.dim)

    async def snap() -> dict[str, Any]:
        db = Database(db_url, tenant_url=tenant_url(db_url), pool_size=2, max_overflow=2)
        try:
            return await _snapshot(db, tenant_id, forest_id)
        finally:
            await db.dispose()

    before = asyncio.run(snap())
    bad = [
        ["--forest", FOREST],  # no action
        ["--forest", FOREST, "--summaries", "--k", "3"],  # --k without --rebuild-trees
        ["--forest", FOREST, "--rebuild-trees", "--k", "1"],
        ["--forest", FOREST, "--rebuild-trees", "--k", "17"],
        ["--rebuild-trees"],  # neither --forest nor --all
        ["--forest", FOREST, "--all", "--summaries"],
        ["--all", "--tenant", TENANT, "--summaries"],
        ["--forest", "no-such-forest", "--summaries"],
        ["--forest", FOREST, "--tenant", "no-such-tenant", "--summaries"],
    ]
    for args in bad:
        assert main(["rematerialize", *args]) == 2, args
        _one_line_error(capsys)
    assert asyncio.run(snap()) == before

    assert main(["rematerialize", "--forest", FOREST, "--rebuild-trees", "--k", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    after = asyncio.run(snap())
    assert set(after["fanouts"].values()) == {5} and after["violations"] == []
    assert report["trees_rebuilt"] == len(before["fanouts"]) and after["leaves"] == before["leaves"]
    assert main(["rematerialize", "--forest", FOREST, "--summaries", "--embeddings"]) == 0
    assert "rematerialize" in capsys.readouterr().out
    assert asyncio.run(snap())["violations"] == []


# ---------------------------------------------------------------- API


async def test_api_queues_a_job_the_worker_completes(db: Database, settings: Settings) -> None:
    s = admin_settings(settings)
    async with app_client(s, db) as (app, c):
        admin = ADMIN_AUTH
        tid = (await c.post("/v1/tenants", json={"name": "acme"}, headers=admin)).json()["id"]
        key = (await c.post(f"/v1/tenants/{tid}/keys", json={"scopes": ["read", "write"]}, headers=admin)).json()
        reader = (await c.post(f"/v1/tenants/{tid}/keys", json={"scopes": ["read"]}, headers=admin)).json()
        auth = {"Authorization": f"Bearer {key['key']}"}
        assert (await c.post("/v1/forests", json={"name": FOREST}, headers=auth)).status_code == 201
        for sid, when, lines in CONVERSATION:
            body = session_body(sid, when.isoformat(), lines, ("Orla", "Tamsin"))
            r = await c.post(f"/v1/forests/{FOREST}/sessions", json=body, headers=auth)
            assert r.status_code == 202, r.text
        await run_worker(db, s, app.state.backends, stop_when_idle=True)

        url = f"/v1/forests/{FOREST}/rematerialize"
        bad_bodies: list[Any] = [
            {},
            {"embeddings": False},
            {"summaries": True, "k": 3},
            {"rebuild_trees": True, "k": 1},
            {"rebuild_trees": True, "k": 17},
            {"embeddings": "yes"},
            {"embeddings": True, "dimension": 32},
            [],
        ]
        for body in bad_bodies:
            r = await c.post(url, json=body, headers=auth)
            assert r.status_code == 422, (body, r.text)
            assert r.headers["content-type"].startswith("application/problem+json")
        r = await c.post(url, json={"summaries": True}, headers={"Authorization": f"Bearer {reader['key']}"})
        assert r.status_code == 403
        r = await c.post("/v1/forests/elsewhere/rematerialize", json={"summaries": True}, headers=auth)
        assert r.status_code == 404

        r = await c.post(url, json={"rebuild_trees": True, "k": 3, "embeddings": True}, headers=auth)
        assert r.status_code == 202, r.text
        job_id = r.json()["job_id"]
        assert (await c.get(f"/v1/jobs/{job_id}", headers=auth)).json()["state"] == "queued"
        await run_worker(db, s, app.state.backends, stop_when_idle=True)
        job = (await c.get(f"/v1/jobs/{job_id}", headers=auth)).json()
        assert job["state"] == "succeeded", job
        assert job["kind"] == "rematerialize" and job["result"]["trees_rebuilt"] > 0
        assert job["result"]["embedded_facts"] > 0 and "extract" not in job["usage"]

    tenant_id = uuid.UUID(tid)
    async with db.tenant(tenant_id) as conn:
        forest_id = int(await scalar(conn, "SELECT forest_id FROM forests WHERE name = :n", {"n": FOREST}))
        jobs = await scalar(conn, "SELECT count(*) FROM jobs WHERE kind = 'rematerialize'")
    snap = await _snapshot(db, tenant_id, forest_id)
    assert jobs == 1 and snap["violations"] == [] and set(snap["fanouts"].values()) == {3}
