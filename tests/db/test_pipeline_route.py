"""Routing (DESIGN.md 2.4): entity trees (speakers at once; others after enough support, then
backfilled), persistent scene clusters, and exactly one scene tree per fact."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from support.reference.canonical import canonicalize

from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.domain import Candidate, FactKind, SessionInput, TurnInput
from memforest.memtree.model import InsertStats
from memforest.pipeline.canonical import SourceRef, clean_surface
from memforest.pipeline.route import FactForRouting, Router
from memforest.pipeline.service import accept_sessions
from memforest.rules import entity_key
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.sql import fetch_all, scalar
from memforest.store.tenants import ensure_tenant

JAN = datetime(2023, 1, 10, 9, 0, tzinfo=UTC)
EMBEDDER = HashedEmbedder(64)


@dataclass
class _Forest:
    tenant_id: uuid.UUID
    forest_id: int
    sessions: dict[str, tuple[int, int, int]]  # external id -> (session_id, cell_id, first turn_id)


async def _forest(db: Database, settings: Settings, n_sessions: int) -> _Forest:
    tenant_id = await ensure_tenant(db, "t")
    sessions = [
        SessionInput(
            external_id=f"s{i}",
            time=JAN + timedelta(days=30 * i),
            turns=(TurnInput("Alice", f"hello {i}"), TurnInput("Bob", f"hi {i}")),
        )
        for i in range(1, n_sessions + 1)
    ]
    forest, results = await accept_sessions(db, settings, tenant_id, "f", sessions)
    out: dict[str, tuple[int, int, int]] = {}
    async with db.tenant(tenant_id) as conn:
        for r in results:
            cell = await scalar(conn, "SELECT cell_id FROM cells WHERE session_id = :s", {"s": r.session_id})
            turn = await scalar(conn, "SELECT min(turn_id) FROM turns WHERE session_id = :s", {"s": r.session_id})
            out[r.external_id] = (r.session_id, int(cell), int(turn))
    return _Forest(tenant_id, forest.forest_id, out)


async def _route(
    db: Database,
    settings: Settings,
    fx: _Forest,
    session: str,
    facts: list[tuple[str, tuple[str, ...], tuple[str, ...], datetime]],
) -> dict[str, int]:
    """Canonicalise and route ``facts`` (text, entities, topics, time) of one session in one transaction,
    with speakers registered as the ingest job does. Returns text -> fact_id."""
    session_id, cell_id, turn_id = fx.sessions[session]
    ids: dict[str, int] = {}
    async with db.tenant(fx.tenant_id) as conn:
        router = Router(conn, fx.tenant_id, fx.forest_id, settings.pipeline, InsertStats())
        await router.register_speakers({"Alice", "Bob"})
        for text, entities, topics, when in facts:
            cand = Candidate(
                text=text, kind=FactKind.OTHER, source_turn_seqs=(0,), valid_from=when, entities=entities,
                topics=topics, speaker="Alice",
            )  # fmt: skip
            emb = EMBEDDER.embed_sync([clean_surface(text)])[0]
            out = await canonicalize(
                conn, fx.tenant_id, fx.forest_id, cand, emb, SourceRef(session_id, cell_id, (turn_id,)),
                near_threshold=settings.pipeline.near_duplicate_threshold,
            )  # fmt: skip
            assert out.status == "new", text
            await router.route(
                FactForRouting(out.fact_id, session_id, clean_surface(text), entities, topics, when, emb)
            )
            ids[text] = out.fact_id
    return ids


async def _entity_leaves(db: Database, fx: _Forest, key: str) -> list[int] | None:
    """Fact ids hung in the entity tree ``key`` in leaf order, or None when there is no such tree."""
    async with db.tenant(fx.tenant_id) as conn:
        tree = await scalar(conn, "SELECT tree_id FROM trees WHERE kind = 'entity' AND key = :k", {"k": key})
        if tree is None:
            return None
        rows = await fetch_all(
            conn,
            "SELECT leaf_fact_id FROM nodes WHERE tree_id = :tr AND level = 0 ORDER BY t_start, seq",
            {"tr": tree},
        )
    return [int(r["leaf_fact_id"]) for r in rows]


def test_entity_key_normalises_labels() -> None:
    assert entity_key("  Maria ") == entity_key("maria") == entity_key("Maria's") == entity_key("MARIA’s") == "maria"
    assert entity_key("Mount   Tam") == "mount tam"


async def test_entity_activation_thresholds_and_backfill(db: Database, settings: Settings) -> None:
    settings.pipeline.entity_min_facts = 3
    settings.pipeline.entity_min_sessions = 2
    fx = await _forest(db, settings, 3)
    first = await _route(
        db,
        settings,
        fx,
        "s1",
        [
            ("Alice met Maria at the gym.", ("Alice", "Maria"), ("gym",), JAN),
            ("Maria grew up in Porto.", ("maria",), ("porto",), JAN - timedelta(days=3000)),  # an earlier time
            ("Maria's favourite music is jazz.", ("Maria's",), ("jazz",), JAN + timedelta(hours=1)),
            ("Lisbon is sunny.", ("Lisbon",), ("weather",), JAN + timedelta(hours=2)),
        ],
    )
    # Speaker: a tree at once, with its single fact. Maria: 3 facts but 1 session -> no tree yet.
    assert await _entity_leaves(db, fx, "alice") == [first["Alice met Maria at the gym."]]
    assert await _entity_leaves(db, fx, "maria") is None
    assert await _entity_leaves(db, fx, "lisbon") is None
    async with db.tenant(fx.tenant_id) as conn:
        maria = await fetch_all(conn, "SELECT fact_count, session_count, activated FROM entities WHERE key = 'maria'")
    assert [(r["fact_count"], r["session_count"], r["activated"]) for r in maria] == [(3, 1, False)]

    second = await _route(
        db, settings, fx, "s2", [("Maria started a pottery class.", ("Maria",), ("pottery",), JAN + timedelta(days=30))]
    )
    # 4 facts over 2 sessions: activated and every earlier fact backfilled, in time order.
    assert await _entity_leaves(db, fx, "maria") == [
        first["Maria grew up in Porto."],
        first["Alice met Maria at the gym."],
        first["Maria's favourite music is jazz."],
        second["Maria started a pottery class."],
    ]
    third = await _route(
        db, settings, fx, "s3", [("Maria sold a vase.", ("Maria",), ("pottery",), JAN + timedelta(days=60))]
    )
    leaves = await _entity_leaves(db, fx, "maria")
    assert leaves is not None and len(leaves) == 5 and leaves[-1] == third["Maria sold a vase."]
    assert await _entity_leaves(db, fx, "lisbon") is None
    async with db.tenant(fx.tenant_id) as conn:
        ents = await fetch_all(conn, "SELECT key, fact_count, session_count, activated FROM entities ORDER BY key")
        report = await check_forest(conn, fx.tenant_id, fx.forest_id, allow_dirty=True)
    assert [(e["key"], e["fact_count"], e["session_count"], e["activated"]) for e in ents] == [
        ("alice", 1, 1, True),
        ("bob", 0, 0, False),
        ("lisbon", 1, 1, False),
        ("maria", 5, 3, True),
    ]
    assert report.violations == []


async def test_scene_clusters_persist_and_each_fact_has_one_scene_tree(db: Database, settings: Settings) -> None:
    fx = await _forest(db, settings, 3)
    cello = "Maria plays the cello in an orchestra."
    quartet = "Maria plays the cello in a string quartet."
    truck = "Bob repaired the engine of his old truck."
    a = await _route(db, settings, fx, "s1", [(cello, ("Maria",), ("cello", "orchestra"), JAN)])
    async with db.tenant(fx.tenant_id) as conn:
        assert await scalar(conn, "SELECT count(*) FROM scene_clusters") == 1
    # A new transaction with a new Router: the stored cluster is found and joined, not respawned.
    b = await _route(db, settings, fx, "s2", [(quartet, ("Maria",), ("cello", "quartet"), JAN + timedelta(days=30))])
    c = await _route(db, settings, fx, "s3", [(truck, ("Bob",), ("truck", "engine"), JAN + timedelta(days=60))])
    async with db.tenant(fx.tenant_id) as conn:
        clusters = await fetch_all(
            conn, "SELECT cluster_id, member_count, topic_counts, last_time FROM scene_clusters ORDER BY cluster_id"
        )
        scene_of = await fetch_all(
            conn,
            "SELECT p.source_id, t.key FROM placements p JOIN trees t ON t.tree_id = p.tree_id "
            "WHERE t.kind = 'scene' AND p.source_kind = 'fact' ORDER BY p.source_id",
        )
        scene_trees = await fetch_all(conn, "SELECT key, n_leaves FROM trees WHERE kind = 'scene' ORDER BY key")
    assert [(r["member_count"], r["topic_counts"]) for r in clusters] == [
        (2, {"cello": 2, "orchestra": 1, "quartet": 1}),
        (1, {"engine": 1, "truck": 1}),
    ]
    assert clusters[0]["last_time"] == JAN + timedelta(days=30)
    first, second = (str(r["cluster_id"]) for r in clusters)
    # Exactly one scene placement per fact, in the tree keyed by its cluster.
    assert [(r["source_id"], r["key"]) for r in scene_of] == [
        (a[cello], first),
        (b[quartet], first),
        (c[truck], second),
    ]
    assert sorted((r["key"], r["n_leaves"]) for r in scene_trees) == sorted([(first, 2), (second, 1)])
