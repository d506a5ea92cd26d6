"""Merge step 4: A's entities (by key) and scene clusters (matched or copied) in B."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from memforest.store.sql import Conn, Row, execute, fetch_all
from memforest.store.transfer.batch import execute_many
from memforest.store.transfer.columns import insert_select
from memforest.store.transfer.snapshot import create_map, new_ids, sequence_of

__all__ = [
    "a_clusters",
    "b_clusters",
    "clusters_of",
    "copy_entities",
    "copy_new_clusters",
    "map_clusters",
    "matched_cluster_pairs",
    "update_clusters",
]

_MAP_MATCHED_ENTITIES = (
    "INSERT INTO mm_entity_map SELECT a.entity_id, b.entity_id, true FROM mm_entities a JOIN entities b "
    "ON b.tenant_id = :t AND b.forest_id = :f AND b.key = a.key"
)

_COPY_ENTITIES = insert_select(
    "entities",
    "FROM mm_entities a JOIN mm_entity_map m ON m.old = a.entity_id AND NOT m.matched",
    {"entity_id": "m.new", "activated": "false"},
    alias="a",
)

_UNION_MATCHED_ENTITIES = (
    "UPDATE entities e SET is_speaker = e.is_speaker OR a.is_speaker, "
    "first_time = LEAST(e.first_time, a.first_time), last_time = GREATEST(e.last_time, a.last_time) "
    "FROM mm_entities a JOIN mm_entity_map m ON m.old = a.entity_id AND m.matched "
    "WHERE e.tenant_id = :t AND e.entity_id = m.new"
)

_COPY_ENTITY_LINKS = (
    insert_select(
        "entity_facts",
        "FROM mm_entity_facts x JOIN mm_entity_map em ON em.old = x.entity_id JOIN mm_fact_map fm "
        "ON fm.old = x.fact_id AND fm.how = 'new' JOIN mm_session_map sm ON sm.old = x.session_id",
        {"entity_id": "em.new", "fact_id": "fm.new", "session_id": "sm.new"},
        alias="x",
    )
    + " ON CONFLICT DO NOTHING"
)

# Counts as routing keeps them: one per linked fact, one per session seen.
_RECOUNT_ENTITIES = (
    "UPDATE entities e SET fact_count = c.n, session_count = c.s FROM (SELECT m.new AS entity_id, "
    "count(ef.fact_id) AS n, count(DISTINCT ef.session_id) AS s FROM mm_entity_map m LEFT JOIN entity_facts ef "
    "ON ef.tenant_id = :t AND ef.entity_id = m.new GROUP BY m.new) c "
    "WHERE e.tenant_id = :t AND e.entity_id = c.entity_id"
)

# A's live clusters with the number of members they keep (facts copied as new).
_CLUSTER_NEW = (
    "CREATE TEMP TABLE mm_cluster_new ON COMMIT DROP AS SELECT c.cluster_id, (SELECT count(*) FROM mm_trees x "
    "JOIN mm_nodes n ON n.tree_id = x.tree_id AND n.level = 0 JOIN mm_fact_map m ON m.old = n.leaf_fact_id "
    "AND m.how = 'new' WHERE x.kind = 'scene' AND x.key = CAST(c.cluster_id AS text)) AS n "
    "FROM mm_scene_clusters c WHERE c.merged_into IS NULL"
)
_DROP_EMPTY_CLUSTERS = "DELETE FROM mm_cluster_new WHERE n = 0"

_A_CLUSTERS = (
    "SELECT a.cluster_id, a.centroid, a.topic_counts, cn.n FROM mm_scene_clusters a JOIN mm_cluster_new cn "
    "ON cn.cluster_id = a.cluster_id ORDER BY a.cluster_id"
)
_B_CLUSTERS = (
    "SELECT cluster_id, centroid, topic_counts FROM scene_clusters WHERE tenant_id = :t AND forest_id = :f "
    "AND merged_into IS NULL ORDER BY cluster_id"
)

_MAP_MATCHED_CLUSTER = "INSERT INTO mm_cluster_map (old, new, matched, members) VALUES (:old, :new, true, :n)"

_MAP_NEW_CLUSTERS = (
    "INSERT INTO mm_cluster_map SELECT k, nextval(CAST(:seq AS regclass)), false, n FROM (SELECT cn.cluster_id "
    "AS k, cn.n FROM mm_cluster_new cn WHERE NOT EXISTS (SELECT 1 FROM mm_cluster_map m "
    "WHERE m.old = cn.cluster_id) ORDER BY cn.cluster_id) y"
)

_COPY_CLUSTERS = insert_select(
    "scene_clusters",
    "FROM mm_scene_clusters a JOIN mm_cluster_map m ON m.old = a.cluster_id AND NOT m.matched",
    {"cluster_id": "m.new", "member_count": "m.members", "merged_into": None},
    alias="a",
)

_MATCHED_PAIRS = (
    "SELECT m.new, m.members, a.centroid, a.topic_counts, a.last_time FROM mm_scene_clusters a "
    "JOIN mm_cluster_map m ON m.old = a.cluster_id AND m.matched ORDER BY m.new, a.cluster_id"
)

_CLUSTERS_BY_ID = (
    "SELECT cluster_id, centroid, member_count, topic_counts, last_time FROM scene_clusters "
    "WHERE tenant_id = :t AND cluster_id = ANY(:ids)"
)

_UPDATE_CLUSTER = (
    "UPDATE scene_clusters SET centroid = :c, member_count = :n, topic_counts = CAST(:tc AS jsonb), "
    "last_time = :lt WHERE tenant_id = :t AND cluster_id = :id"
)


async def copy_entities(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> tuple[int, int, int]:
    """Map A's entities by key (``mm_entity_map``), copy the unmatched ones (not yet activated), union
    the matched ones, copy the links of new facts and recount. Returns (matched, new, links)."""
    p = {"t": tenant_id, "f": forest_id}
    await create_map(conn, "mm_entity_map")
    matched = await execute(conn, _MAP_MATCHED_ENTITIES, p)
    await new_ids(conn, "entities", "mm_entity_map")
    new = await execute(conn, _COPY_ENTITIES, p)
    await execute(conn, _UNION_MATCHED_ENTITIES, p)
    links = await execute(conn, _COPY_ENTITY_LINKS, p)
    await execute(conn, _RECOUNT_ENTITIES, p)
    return matched, new, links


async def a_clusters(conn: Conn) -> list[Row]:
    """Create ``mm_cluster_new`` and ``mm_cluster_map``; A's live clusters that keep members
    (``cluster_id, centroid, topic_counts, n``)."""
    await execute(conn, _CLUSTER_NEW)
    await execute(conn, _DROP_EMPTY_CLUSTERS)
    await create_map(conn, "mm_cluster_map")
    return await fetch_all(conn, _A_CLUSTERS)


async def b_clusters(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[Row]:
    """B's live clusters (``cluster_id, centroid, topic_counts``) in id order."""
    return await fetch_all(conn, _B_CLUSTERS, {"t": tenant_id, "f": forest_id})


async def map_clusters(conn: Conn, matches: Sequence[Mapping[str, int]]) -> None:
    """Record matched clusters (``old``, ``new``, ``n`` members) in ``mm_cluster_map``."""
    await execute_many(conn, _MAP_MATCHED_CLUSTER, matches)


async def copy_new_clusters(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """Fresh ids for A's unmatched clusters, copied with their new member counts; returns how many."""
    p = {"t": tenant_id, "f": forest_id}
    await execute(conn, _MAP_NEW_CLUSTERS, {"seq": await sequence_of(conn, "scene_clusters")})
    return await execute(conn, _COPY_CLUSTERS, p)


async def matched_cluster_pairs(conn: Conn) -> list[Row]:
    """A's matched clusters (``new, members, centroid, topic_counts, last_time``)."""
    return await fetch_all(conn, _MATCHED_PAIRS)


async def clusters_of(conn: Conn, tenant_id: uuid.UUID, ids: Sequence[int]) -> list[Row]:
    """B's clusters by id (``cluster_id, centroid, member_count, topic_counts, last_time``)."""
    return await fetch_all(conn, _CLUSTERS_BY_ID, {"t": tenant_id, "ids": list(ids)})


async def update_clusters(conn: Conn, tenant_id: uuid.UUID, updates: Sequence[Mapping[str, Any]]) -> None:
    """Set centroid ``c``, member count ``n``, topic counts ``tc`` (JSON text) and last time ``lt``
    of clusters ``id``."""
    await execute_many(conn, _UPDATE_CLUSTER, [{**u, "t": tenant_id} for u in updates])
