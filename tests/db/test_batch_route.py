"""Batched routing (``Router.route_many``) against routing fact by fact (``Router.route``): entity
counts, activation and backfill, scene clusters, trees and leaves end up identical; and the batched
cell marking of the commit (``mark_cells``) skips cells another worker committed."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from support.reference.canonical import canonicalize

from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.domain import Candidate, CellTurn, CellView, FactKind, SessionInput, TurnInput
from memforest.memtree.model import InsertStats
from memforest.pipeline.canonical import SourceRef, clean_surface
from memforest.pipeline.ingest_job import CellWork, IngestCounts, mark_cells
from memforest.pipeline.route import FactForRouting, Router
from memforest.pipeline.service import accept_sessions
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.sql import as_vector, fetch_all, scalar
from memforest.store.tenants import ensure_tenant

START = datetime(2022, 6, 1, 8, 0, tzinfo=UTC)
EMBEDDER = HashedEmbedder(64)
# (session index, text, entities, topics, hours after the session start)
FACTS: list[tuple[int, str, tuple[str, ...], tuple[str, ...], int]] = [
    (0, "Ottilie repaired a tandem bicycle.", ("Ottilie", "Alice"), ("bikes",), 1),
    (0, "Ottilie rode the tandem to Quarry Lake.", ("Ottilie", "Quarry Lake"), ("bikes", "travel"), 2),
    (0, "Alice baked rye bread for the market.", ("Alice",), ("baking",), 3),
    (0, "Bob tuned a harpsichord in the chapel.", ("Bob", "chapel"), ("music",), 0),
    (1, "Ottilie sold the tandem to Bob.", ("Ottilie", "Bob", "ottilie's"), ("bikes",), 5),
    (1, "Alice and Ottilie swam across Quarry Lake.", ("Alice", "Ottilie", "Quarry Lake"), ("travel",), 1),
    (1, "Bob played the harpsichord at the chapel fair.", ("Bob", "Chapel"), ("music",), 2),
    (1, "Alice sold rye bread at the market.", ("Alice",), ("baking",), 3),
    (2, "Quarry Lake froze over in January.", ("Quarry Lake",), ("travel", "weather"), 4),
    (2, "Ottilie bought a cargo bike.", ("Ottilie",), ("bikes",), 0),
    (2, "The chapel choir sang with Bob.", ("chapel", "Bob"), ("music",), 6),
] + [
    (2, f"Alice traded {thing} for {other} near the mill.", ("Alice", f"Stall {i % 3}"), ("baking",), 7 + i)
    for i, (thing, other) in enumerate(
        zip(
            (
                "plums",
                "walnuts",
                "honey",
                "cider",
                "lentils",
                "quinces",
                "barley",
                "saffron",
                "figs",
                "cheese",
                "pickles",
                "apricots",
            ),
            (
                "yarn",
                "nails",
                "candles",
                "rope",
                "soap",
                "ink",
                "buttons",
                "lanterns",
                "kettles",
                "brooms",
                "combs",
                "thimbles",
            ),
            strict=True,
        )
    )
]


async def _forest(db: Database, settings: Settings, name: str) -> tuple[uuid.UUID, int, list[tuple[int, int, int]]]:
    tenant_id = await ensure_tenant(db, name)
    sessions = [
        SessionInput(
            external_id=f"s{i}",
            time=START + timedelta(days=9 * i),
            turns=(TurnInput("Alice", f"morning {i}"), TurnInput("Bob", f"evening {i}")),
        )
        for i in range(3)
    ]
    forest, results = await accept_sessions(db, settings, tenant_id, "f", sessions)
    out = []
    async with db.tenant(tenant_id) as conn:
        for r in results:
            cell = await scalar(conn, "SELECT min(cell_id) FROM cells WHERE session_id = :s", {"s": r.session_id})
            turn = await scalar(conn, "SELECT min(turn_id) FROM turns WHERE session_id = :s", {"s": r.session_id})
            out.append((r.session_id, int(cell), int(turn)))
    return tenant_id, forest.forest_id, out


async def _ingest(db: Database, settings: Settings, name: str, *, batched: bool) -> dict[str, Any]:
    tenant_id, forest_id, sessions = await _forest(db, settings, name)
    stats = InsertStats()
    activated = spawned = 0
    for s_index, (session_id, cell_id, turn_id) in enumerate(sessions):
        async with db.tenant(tenant_id) as conn:  # one commit per session, as the ingest job does
            router = Router(conn, tenant_id, forest_id, settings.pipeline, stats)
            await router.register_speakers({"Alice", "Bob"})
            new = []
            for s, text, entities, topics, hours in FACTS:
                if s != s_index:
                    continue
                when = START + timedelta(days=9 * s, hours=hours)
                cand = Candidate(
                    text=text, kind=FactKind.EVENT, source_turn_seqs=(0,), valid_from=when, entities=entities,
                    topics=topics, speaker="Alice",
                )  # fmt: skip
                emb = EMBEDDER.embed_sync([clean_surface(text)])[0]
                out = await canonicalize(
                    conn, tenant_id, forest_id, cand, emb, SourceRef(session_id, cell_id, (turn_id,)),
                    near_threshold=settings.pipeline.near_duplicate_threshold,
                )  # fmt: skip
                assert out.status == "new", text
                new.append(FactForRouting(out.fact_id, session_id, clean_surface(text), entities, topics, when, emb))
            if batched:
                await router.route_many(new)
            else:
                for fact in new:
                    await router.route(fact)
            activated += router.stats.entities_activated
            spawned += router.stats.scenes_spawned
    async with db.tenant(tenant_id) as conn:
        report = await check_forest(conn, tenant_id, forest_id, allow_dirty=True)
        facts = await fetch_all(conn, "SELECT fact_id FROM facts ORDER BY fact_id")
        nodes = await fetch_all(
            conn,
            "SELECT node_id, tree_id, level, parent_id, t_start, t_end, n_children, version, dirty, summary, "
            "leaf_fact_id, leaf_cell_id FROM nodes ORDER BY node_id",
        )
        trees = await fetch_all(conn, "SELECT tree_id, kind, key, label, root_node_id, height, n_leaves FROM trees "
                                "ORDER BY tree_id")  # fmt: skip
        entity_rows = await fetch_all(
            conn,
            "SELECT key, label, is_speaker, fact_count, session_count, activated, first_time, last_time "
            "FROM entities ORDER BY entity_id",
        )
        links = await fetch_all(conn, "SELECT e.key, ef.fact_id FROM entity_facts ef JOIN entities e "
                                "ON e.entity_id = ef.entity_id ORDER BY e.key, ef.fact_id")  # fmt: skip
        clusters = await fetch_all(
            conn,
            "SELECT cluster_id, member_count, topic_counts, last_time, centroid FROM scene_clusters "
            "ORDER BY cluster_id",
        )
    assert report.violations == []
    fr = {int(f["fact_id"]): i for i, f in enumerate(facts)}
    nr = {int(n["node_id"]): i for i, n in enumerate(nodes)}
    tr = {int(t["tree_id"]): i for i, t in enumerate(trees)}
    cr = {str(c["cluster_id"]): i for i, c in enumerate(clusters)}  # scene trees are keyed by cluster id
    return {
        "nodes": [
            (
                tr[int(n["tree_id"])],
                n["level"],
                nr.get(n["parent_id"]),
                n["t_start"],
                n["t_end"],
                n["n_children"],
                n["version"],
                n["dirty"],
                n["summary"],
                fr.get(n["leaf_fact_id"]),
                n["leaf_cell_id"] is not None,
            )
            for n in nodes
        ],
        "trees": [
            (t["kind"], cr.get(t["key"], t["key"]), t["label"], nr.get(t["root_node_id"]), t["height"], t["n_leaves"])
            for t in trees
        ],
        "entities": [tuple(e.values()) for e in entity_rows],
        "links": [(r["key"], fr[int(r["fact_id"])]) for r in links],
        "clusters": [
            (c["member_count"], c["topic_counts"], c["last_time"], as_vector(c["centroid"]).tolist()) for c in clusters
        ],
        "stats": (stats.leaves, stats.skipped, stats.splits, stats.nodes_created, stats.marks, activated, spawned),
    }


async def test_route_many_equals_routing_one_fact_at_a_time(db: Database, settings: Settings) -> None:
    settings.pipeline.fanout_entity = 3
    settings.pipeline.fanout_scene = 3
    one_by_one = await _ingest(db, settings, "a", batched=False)
    batched = await _ingest(db, settings, "b", batched=True)
    assert batched == one_by_one
    keys = {e[0]: e for e in batched["entities"]}
    assert keys["ottilie"][5] and keys["quarry lake"][5]  # activated mid-run, then backfilled
    assert keys["stall 0"][3] == 4 and keys["stall 0"][4] == 1 and not keys["stall 0"][5]  # one session only
    assert batched["stats"][2] > 0  # splits happened


async def test_mark_cells_leaves_out_cells_already_committed(db: Database, settings: Settings) -> None:
    tenant_id, _, sessions = await _forest(db, settings, "c")
    view = CellView("s0", START, (CellTurn(0, "Alice", "morning 0", START),))
    cells = [CellWork(sessions[i][1], view, {0: sessions[i][2]}) for i in range(3)]
    cells[1].error = "the model said no"
    counts = IngestCounts()
    async with db.tenant(tenant_id) as conn:
        marked = await mark_cells(conn, tenant_id, cells[2:], counts)  # another worker got here first
    assert [c.cell_id for c in marked] == [cells[2].cell_id]
    counts = IngestCounts()
    async with db.tenant(tenant_id) as conn:
        marked = await mark_cells(conn, tenant_id, cells, counts)
        rows = await fetch_all(
            conn,
            "SELECT cell_id, extracted_at IS NOT NULL AS done, extract_attempts, extract_error FROM cells "
            "WHERE cell_id = ANY(:ids) ORDER BY cell_id",
            {"ids": [c.cell_id for c in cells]},
        )
    assert [c.cell_id for c in marked] == [cells[0].cell_id]
    assert (counts.cells_extracted, counts.cells_failed) == (1, 1)
    by_id = {int(r["cell_id"]): r for r in rows}
    assert by_id[cells[0].cell_id]["done"] and by_id[cells[0].cell_id]["extract_attempts"] == 1
    assert not by_id[cells[1].cell_id]["done"] and by_id[cells[1].cell_id]["extract_error"] == "the model said no"
    assert by_id[cells[2].cell_id]["extract_attempts"] == 1  # not counted twice
