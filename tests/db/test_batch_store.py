"""The set-based store statements of a batched commit (ADR 0023) on their edge cases: one scope
asked twice in one get_or_create_trees, a new entity named by two facts of one batch (one entity,
one tree, both leaves), and a batch whose facts join a cluster spawned earlier in the same batch."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from memforest.db.engine import Database
from memforest.domain import Candidate, FactKind, SessionInput, TreeKind, TurnInput
from memforest.memtree.model import InsertStats
from memforest.pipeline.canonical import SourceRef
from memforest.pipeline.canonical_batch import canonicalize_many
from memforest.pipeline.route import FactForRouting, Router
from memforest.pipeline.service import accept_sessions
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.sql import fetch_all, scalar
from memforest.store.tenants import ensure_tenant
from memforest.store.trees import get_or_create_tree, get_or_create_trees

START = datetime(2024, 2, 1, 9, 0, tzinfo=UTC)


async def test_get_or_create_trees_creates_missing_scopes_once_in_order(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "t")
    forest, _ = await accept_sessions(
        db, settings, tenant_id, "f", [SessionInput("s", START, (TurnInput("Alice", "hi"),))]
    )
    fid = forest.forest_id
    async with db.tenant(tenant_id) as conn:
        alice = await get_or_create_tree(conn, tenant_id, fid, TreeKind.ENTITY, "alice", "Alice", 8)
        stats = InsertStats()
        scopes = [
            (TreeKind.ENTITY, "bob", "Bob", 8),
            (TreeKind.ENTITY, "alice", "ALICE", 8),
            (TreeKind.SCENE, "7", "music", 4),
            (TreeKind.ENTITY, "bob", "bob again", 8),
        ]
        bob, alice_again, scene, bob_again = await get_or_create_trees(conn, tenant_id, fid, scopes, stats)
        assert alice_again.tree_id == alice.tree_id and alice_again.label == "Alice"  # existing: kept as is
        assert bob_again.tree_id == bob.tree_id and bob.label == "Bob"  # first label wins
        assert bob.tree_id < scene.tree_id  # created in the given order
        assert (scene.kind, scene.key, scene.fanout, scene.root_node_id) == (TreeKind.SCENE, "7", 4, None)
        assert stats.trees_created == 2
        assert await get_or_create_trees(conn, tenant_id, fid, [], stats) == []


async def test_a_new_entity_named_twice_in_one_batch_gets_one_tree_with_both_facts(
    db: Database, settings: Settings
) -> None:
    settings.pipeline.entity_min_facts = 2
    settings.pipeline.entity_min_sessions = 1
    tenant_id = await ensure_tenant(db, "t")
    forest, (res,) = await accept_sessions(
        db, settings, tenant_id, "f", [SessionInput("s", START, (TurnInput("Alice", "hi"), TurnInput("Bob", "yo")))]
    )
    fid = forest.forest_id
    async with db.tenant(tenant_id) as conn:
        cell_id = int(await scalar(conn, "SELECT min(cell_id) FROM cells"))
        turn_id = int(await scalar(conn, "SELECT min(turn_id) FROM turns"))
    texts = ["Zed fixed the old radio.", "Zed sold the radio at the fair.", "Alice bought a kite."]
    rng = np.random.default_rng(3)
    base = rng.normal(size=64).astype(np.float32)
    items = []
    for i, text in enumerate(texts):
        cand = Candidate(
            text=text, kind=FactKind.EVENT, source_turn_seqs=(0,), valid_from=START + timedelta(hours=i),
            entities=("Zed",) if i < 2 else ("Alice",), topics=("radio",), speaker="Alice",
        )  # fmt: skip
        emb = base + 0.05 * rng.normal(size=64).astype(np.float32)  # one scene for all three
        items.append((cand, emb, SourceRef(res.session_id, cell_id, (turn_id,))))
    async with db.tenant(tenant_id) as conn:
        outcomes = await canonicalize_many(conn, tenant_id, fid, items, near_threshold=0.999)
        assert [o.status for o in outcomes] == ["new", "new", "new"]
        router = Router(conn, tenant_id, fid, settings.pipeline, InsertStats())
        await router.register_speakers({"Alice", "Bob"})
        await router.route_many(
            [
                FactForRouting(o.fact_id, res.session_id, c.text, c.entities, c.topics, c.valid_from, e)
                for o, (c, e, _) in zip(outcomes, items, strict=True)
            ]
        )
        assert router.stats.entities_activated == 2  # zed at its second fact, alice (a speaker) at once
        assert router.stats.scenes_spawned == 1 and router.stats.scene_assignments == 2
        zed = await fetch_all(conn, "SELECT entity_id, fact_count, session_count, activated FROM entities "
                              "WHERE key = 'zed'")  # fmt: skip
        assert [(r["fact_count"], r["session_count"], r["activated"]) for r in zed] == [(2, 1, True)]
        links = await scalar(conn, "SELECT count(*) FROM entity_facts WHERE entity_id = :e", {"e": zed[0]["entity_id"]})
        trees = await fetch_all(conn, "SELECT kind, key, n_leaves FROM trees WHERE kind <> 'session' ORDER BY tree_id")
        clusters = await fetch_all(conn, "SELECT member_count FROM scene_clusters")
        report = await check_forest(conn, tenant_id, fid, allow_dirty=True)
    assert links == 2
    assert [(t["kind"], t["n_leaves"]) for t in trees if t["key"] == "zed"] == [("entity", 2)]
    assert [t["n_leaves"] for t in trees if t["kind"] == "scene"] == [3]
    assert [c["member_count"] for c in clusters] == [3]
    assert report.violations == []
