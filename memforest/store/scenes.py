"""Scene clusters (the persistent state of online scene clustering): named statements."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from memforest.store.sql import Conn, Row, execute, fetch_all, scalar, vector_array

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


# vector i of ``:v`` (1-based)
_SLICE = "(CAST(:v AS vector[]))[{i}]"

_NEAREST_MANY = f"""
WITH q AS MATERIALIZED (  -- each vector sliced and cast once, not once per cluster it is compared with
    SELECT g.i, {_SLICE.format(i="g.i")} AS e, (CAST(:lim AS int[]))[g.i] AS lim FROM generate_series(1, :n) AS g(i)
)
SELECT q.i, k.cluster_id, k.sim,
CASE WHEN row_number() OVER (PARTITION BY k.cluster_id ORDER BY q.i) = 1 THEN k.member_count END AS member_count,
CASE WHEN row_number() OVER (PARTITION BY k.cluster_id ORDER BY q.i) = 1 THEN k.topic_counts END AS topic_counts,
CASE WHEN row_number() OVER (PARTITION BY k.cluster_id ORDER BY q.i) = 1 THEN k.centroid END AS centroid
FROM q
CROSS JOIN LATERAL (
    SELECT cluster_id, member_count, topic_counts, centroid, 1 - (centroid <=> q.e) AS sim FROM scene_clusters
    WHERE tenant_id = :t AND forest_id = :f AND merged_into IS NULL ORDER BY centroid <=> q.e LIMIT q.lim
) k
ORDER BY q.i, k.centroid <=> q.e
"""


async def nearest_clusters_many(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    embeddings: Sequence[np.ndarray[Any, Any]],
    limits: Sequence[int],
) -> list[Row]:
    """For each embedding ``i`` (1-based) its ``limits[i - 1]`` live clusters nearest by centroid, in
    one statement: rows (i, cluster_id, cosine ``sim``) in distance order per ``i``; member_count,
    topic_counts and centroid only on a cluster's first row (None on its later ones)."""
    if not embeddings:
        return []
    params = {"t": tenant_id, "f": forest_id, "v": vector_array(embeddings), "n": len(embeddings), "lim": list(limits)}
    return await fetch_all(conn, _NEAREST_MANY, params)


@dataclass(frozen=True, slots=True)
class ClusterState:
    """A cluster's state after a batch of members: its centroid, topic counts and latest time;
    ``added`` members joined it in this batch."""

    centroid: np.ndarray[Any, Any]
    topic_counts: Mapping[str, int]
    last_time: datetime
    added: int


_WRITE_CLUSTERS = f"""
WITH src AS MATERIALIZED (
    SELECT u.i, nextval(pg_get_serial_sequence('scene_clusters', 'cluster_id')) AS id, u.mc, u.tc, u.ts
    FROM unnest(CAST(:mc AS int[]), CAST(:tc AS text[]), CAST(:ts AS timestamptz[])) WITH ORDINALITY
    AS u(mc, tc, ts, i) ORDER BY u.i
),
ins AS (
    INSERT INTO scene_clusters (tenant_id, cluster_id, forest_id, centroid, member_count, topic_counts, last_time)
    SELECT :t, src.id, :f, {_SLICE.format(i="src.i")}, src.mc, CAST(src.tc AS jsonb), src.ts FROM src ORDER BY src.i
),
upd AS (
    UPDATE scene_clusters sc SET centroid = {_SLICE.format(i="(u.i + :n)")}, member_count = sc.member_count + u.n,
    topic_counts = CAST(u.tc AS jsonb), last_time = GREATEST(sc.last_time, u.ts)
    FROM unnest(CAST(:uid AS bigint[]), CAST(:un AS int[]), CAST(:utc AS text[]), CAST(:uts AS timestamptz[]))
    WITH ORDINALITY AS u(id, n, tc, ts, i) WHERE sc.tenant_id = :t AND sc.cluster_id = u.id
)
SELECT id FROM src ORDER BY i
"""


async def write_clusters(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    spawned: Sequence[ClusterState],
    updated: Mapping[int, ClusterState],
) -> list[int]:
    """Create the ``spawned`` clusters (ids in that order) and set the state of the ``updated`` ones
    (cluster_id -> state, ``added`` members counted in), in one statement; returns the new ids."""
    if not spawned and not updated:
        return []
    ups = list(updated.items())
    vectors = vector_array([s.centroid for s in spawned] + [s.centroid for _, s in ups])

    def dumps(counts: Mapping[str, int]) -> str:
        return json.dumps(counts, sort_keys=True)

    params = {
        "t": tenant_id, "f": forest_id, "v": vectors, "n": len(spawned),
        "mc": [s.added for s in spawned], "tc": [dumps(s.topic_counts) for s in spawned],
        "ts": [s.last_time for s in spawned], "uid": [cid for cid, _ in ups], "un": [s.added for _, s in ups],
        "utc": [dumps(s.topic_counts) for _, s in ups], "uts": [s.last_time for _, s in ups],
    }  # fmt: skip
    return [int(r["id"]) for r in await fetch_all(conn, _WRITE_CLUSTERS, params)]
