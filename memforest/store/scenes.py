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

# Per vector i: its nearest clusters' ids and cosine sims in distance order, as arrays (one row per
# vector, not per cluster); then one row per cluster named (i = 0) with its state.
_NEAREST_MANY = f"""
WITH q AS MATERIALIZED (  -- each vector sliced and cast once, not once per cluster it is compared with
    SELECT g.i, {_SLICE.format(i="g.i")} AS e, (CAST(:lim AS int[]))[g.i] AS lim FROM generate_series(1, :n) AS g(i)
),
k AS MATERIALIZED (
    SELECT q.i, k.cluster_id, 1 - k.d AS sim, k.d FROM q
    CROSS JOIN LATERAL (  -- the distance once per cluster scanned (the sort key); the cosine of those kept
        SELECT cluster_id, centroid <=> q.e AS d FROM scene_clusters
        WHERE tenant_id = :t AND forest_id = :f AND merged_into IS NULL ORDER BY centroid <=> q.e LIMIT q.lim
    ) k
)
SELECT k.i, array_agg(k.cluster_id ORDER BY k.d) AS ids, array_agg(k.sim ORDER BY k.d) AS sims,
CAST(NULL AS int) AS member_count, CAST(NULL AS jsonb) AS topic_counts, CAST(NULL AS vector) AS centroid
FROM k GROUP BY k.i
UNION ALL
SELECT 0, ARRAY[c.cluster_id], NULL, c.member_count, c.topic_counts, c.centroid FROM scene_clusters c
WHERE c.tenant_id = :t AND c.cluster_id IN (SELECT cluster_id FROM k)
"""


@dataclass(frozen=True, slots=True)
class NearestClusters:
    """What :func:`nearest_clusters_many` read: per vector (0-based) its nearest clusters' ids and
    cosine sims in distance order, and each of those clusters' row (member_count, topic_counts,
    centroid) by id."""

    nearest: dict[int, tuple[list[int], list[float]]]
    clusters: dict[int, Row]


async def nearest_clusters_many(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    embeddings: Sequence[np.ndarray[Any, Any]],
    limits: Sequence[int],
) -> NearestClusters:
    """For each embedding its ``limits[i]`` live clusters nearest by centroid, with their state, in
    one statement."""
    out = NearestClusters({}, {})
    if not embeddings:
        return out
    params = {"t": tenant_id, "f": forest_id, "v": vector_array(embeddings), "n": len(embeddings), "lim": list(limits)}
    for r in await fetch_all(conn, _NEAREST_MANY, params):
        if int(r["i"]) == 0:
            out.clusters[int(r["ids"][0])] = r
        else:
            out.nearest[int(r["i"]) - 1] = ([int(c) for c in r["ids"]], [float(x) for x in r["sims"]])
    return out


@dataclass(frozen=True, slots=True)
class ClusterState:
    """A cluster's state after a batch of members: its centroid, topic counts and latest time;
    ``added`` members joined it in this batch. For a cluster the batch spawned ``topic_counts`` is
    its whole map; for a stored one, only the counts the batch changed (their new values), which
    :func:`write_clusters` merges into the stored map."""

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
    topic_counts = sc.topic_counts || CAST(u.tc AS jsonb), last_time = GREATEST(sc.last_time, u.ts)
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
    (cluster_id -> state, ``added`` members counted in, its changed topic counts merged into the
    stored map: a cluster's map grows with its members, and a batch changes a few of its counts),
    in one statement; returns the new ids."""
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
