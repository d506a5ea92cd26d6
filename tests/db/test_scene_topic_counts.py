"""A scene cluster's topic map grows with its members (hundreds of topics): a commit writes back only
the counts it changed, merged into the stored map, which ends as counting every topic over the whole
map would leave it (ADR 0095)."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from memforest.db.engine import Database
from memforest.memtree.model import InsertStats
from memforest.pipeline.route import FactForRouting, Router
from memforest.settings import Settings
from memforest.store import scenes
from memforest.store.sql import execute, fetch_all
from memforest.store.tenants import ensure_forest, ensure_tenant

WHEN = datetime(2023, 3, 14, 9, 0, tzinfo=UTC)


def _unit(dim: int) -> np.ndarray[Any, Any]:
    v = np.random.default_rng(7).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def _big_map() -> dict[str, int]:
    """400 topics: counts with many ties (so the name order decides the top), names with letters
    past ASCII (code point order, not a locale's, breaks those ties)."""
    counts = {f"craft {i:03d}": 1 + (i * 7) % 13 for i in range(400)}
    counts |= {"zither": 13, "Ångström": 13, "étude": 13, "Zebra": 13, "apiary": 12}
    return counts


async def _forest_with_cluster(db: Database, dim: int, name: str, counts: dict[str, int]) -> tuple[uuid.UUID, int, int]:
    tenant_id = await ensure_tenant(db, name)
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, "f")
        cid = await scenes.spawn(conn, tenant_id, forest.forest_id, centroid=_unit(dim), topic_counts={}, time=WHEN)
        await execute(
            conn,
            "UPDATE scene_clusters SET topic_counts = CAST(:tc AS jsonb), member_count = 900 WHERE cluster_id = :c",
            {"tc": json.dumps(counts), "c": cid},
        )
    return tenant_id, forest.forest_id, cid


async def test_a_clusters_update_merges_the_changed_counts_into_its_stored_map(
    db: Database, settings: Settings
) -> None:
    dim = settings.embedding.dim
    counts = _big_map()
    tenant_id, forest_id, cid = await _forest_with_cluster(db, dim, "store", counts)
    state = scenes.ClusterState(_unit(dim), {"craft 005": 40, "never counted": 1}, WHEN, 2)
    async with db.tenant(tenant_id) as conn:
        await scenes.write_clusters(conn, tenant_id, forest_id, [], {cid: state})
        stored = await fetch_all(conn, "SELECT topic_counts, member_count FROM scene_clusters WHERE cluster_id = :c",
                                 {"c": cid})  # fmt: skip
    assert stored[0]["member_count"] == 902
    assert stored[0]["topic_counts"] == counts | {"craft 005": 40, "never counted": 1}


async def test_routing_merges_the_changed_counts_into_the_stored_map(db: Database, settings: Settings) -> None:
    dim = settings.embedding.dim
    counts = _big_map()
    tenant_id, forest_id, cid = await _forest_with_cluster(db, dim, "route", counts)
    topics = [("craft 005", "zither"), ("lute making",), ("craft 005", "lute making", "craft 398")]
    async with db.tenant(tenant_id) as conn:
        ids = []
        for i, text in enumerate(("A luthier strung a lute.", "The lute got new frets.", "Frets were polished.")):
            row = await fetch_all(
                conn,
                "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, valid_from, embedding) "
                "VALUES (:t, :f, :x, md5(:x), 'event', :vf, :e) RETURNING fact_id",
                {"t": tenant_id, "f": forest_id, "x": text, "vf": WHEN + timedelta(hours=i), "e": _unit(dim)},
            )
            ids.append(int(row[0]["fact_id"]))
        router = Router(conn, tenant_id, forest_id, settings.pipeline, InsertStats())
        facts = [
            FactForRouting(fid, 0, f"fact {fid}", (), ts, WHEN + timedelta(hours=i), _unit(dim))
            for i, (fid, ts) in enumerate(zip(ids, topics, strict=True))
        ]
        await router.route_many(facts)
        stored = await fetch_all(conn, "SELECT topic_counts, member_count FROM scene_clusters WHERE cluster_id = :c",
                                 {"c": cid})  # fmt: skip
    expected = dict(counts)
    for ts in topics:
        for t in ts:
            expected[t] = expected.get(t, 0) + 1
    assert stored[0]["member_count"] == 903
    assert stored[0]["topic_counts"] == expected
