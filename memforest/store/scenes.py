"""Scene clusters (the persistent state of online scene clustering): named statements."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import numpy as np

from memforest.rules import SCENE_CANDIDATES
from memforest.store.sql import Conn, Row, execute, fetch_all, scalar

_NEAREST = f"""
SELECT cluster_id, member_count, topic_counts, centroid, 1 - (centroid <=> :e) AS sim
FROM scene_clusters WHERE tenant_id = :t AND forest_id = :f AND merged_into IS NULL
ORDER BY centroid <=> :e LIMIT {SCENE_CANDIDATES}
"""


async def nearest_clusters(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, embedding: np.ndarray[Any, Any]
) -> list[Row]:
    """The ``SCENE_CANDIDATES`` live clusters nearest to ``embedding`` by centroid (cluster_id, member_count,
    topic_counts, centroid, cosine ``sim``)."""
    return await fetch_all(conn, _NEAREST, {"t": tenant_id, "f": forest_id, "e": embedding})


_ASSIGN = """
UPDATE scene_clusters SET centroid = :c, member_count = member_count + 1,
topic_counts = CAST(:tc AS jsonb), last_time = GREATEST(last_time, :ts)
WHERE tenant_id = :t AND cluster_id = :id
"""


async def add_member(
    conn: Conn,
    tenant_id: uuid.UUID,
    cluster_id: int,
    *,
    centroid: np.ndarray[Any, Any],
    topic_counts: Mapping[str, int],
    time: datetime,
) -> None:
    """Count one more member into a cluster with its new centroid and topic counts."""
    params = {"c": centroid, "tc": json.dumps(topic_counts, sort_keys=True), "ts": time, "t": tenant_id,
              "id": cluster_id}  # fmt: skip
    await execute(conn, _ASSIGN, params)


_SPAWN = """
INSERT INTO scene_clusters (tenant_id, forest_id, centroid, member_count, topic_counts, last_time)
VALUES (:t, :f, :e, 1, CAST(:tc AS jsonb), :ts) RETURNING cluster_id
"""


async def spawn(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    centroid: np.ndarray[Any, Any],
    topic_counts: Mapping[str, int],
    time: datetime,
) -> int:
    """Create a cluster of one member; returns its id."""
    params = {"t": tenant_id, "f": forest_id, "e": centroid, "tc": json.dumps(topic_counts, sort_keys=True),
              "ts": time}  # fmt: skip
    return int(await scalar(conn, _SPAWN, params))
