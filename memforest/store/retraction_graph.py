"""Named queries of a retraction's clean-up (``memforest.lifecycle.retract_settle``): entities
recounted and dropped when left without facts, scene clusters shrunk or deleted, and the trees
emptied on the way. The caller holds the transaction and the forest lock.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from memforest.domain import TreeKind
from memforest.store.sql import Conn, Row, execute, fetch_all, fetch_one, scalar

_FIND_TREE = "SELECT tree_id, n_leaves FROM trees WHERE tenant_id = :t AND forest_id = :f AND kind = :k AND key = :key"
_EMPTY_GRAPH_TREES = """
SELECT tree_id FROM trees WHERE tenant_id = :t AND tree_id = ANY(:ids) AND kind <> 'session' AND n_leaves = 0
"""
_SESSION_TREE_ID = """
SELECT tr.tree_id FROM trees tr JOIN sessions s ON s.tenant_id = tr.tenant_id AND s.external_id = tr.key
AND s.forest_id = tr.forest_id WHERE tr.tenant_id = :t AND s.session_id = :s AND tr.kind = 'session'
"""


async def find_tree(conn: Conn, tenant_id: uuid.UUID, forest_id: int, kind: TreeKind, key: str) -> Row | None:
    """The tree (``tree_id``, ``n_leaves``) of this kind and key, or None."""
    return await fetch_one(conn, _FIND_TREE, {"t": tenant_id, "f": forest_id, "k": kind.value, "key": key})


async def session_tree_id(conn: Conn, tenant_id: uuid.UUID, session_id: int) -> int | None:
    """The id of the session's tree, or None."""
    tree_id = await scalar(conn, _SESSION_TREE_ID, {"t": tenant_id, "s": session_id})
    return None if tree_id is None else int(tree_id)


async def empty_graph_trees(conn: Conn, tenant_id: uuid.UUID, tree_ids: Iterable[int]) -> list[int]:
    """Those of these trees that are entity or scene trees without leaves."""
    rows = await fetch_all(conn, _EMPTY_GRAPH_TREES, {"t": tenant_id, "ids": sorted(tree_ids)})
    return [int(r["tree_id"]) for r in rows]


# ------------------------------------------------------------------------------ entities

_RECOUNT_ENTITIES = """
UPDATE entities e SET fact_count = x.n, session_count = x.s, first_time = x.ft, last_time = x.lt
FROM (SELECT e2.entity_id, count(f.fact_id) AS n, count(DISTINCT ef.session_id) AS s,
 min(f.valid_from) AS ft, max(f.valid_from) AS lt FROM entities e2
 LEFT JOIN entity_facts ef ON ef.tenant_id = e2.tenant_id AND ef.entity_id = e2.entity_id
 LEFT JOIN facts f ON f.tenant_id = ef.tenant_id AND f.fact_id = ef.fact_id
 WHERE e2.tenant_id = :t AND e2.entity_id = ANY(:ids) GROUP BY e2.entity_id) x
WHERE e.tenant_id = :t AND e.entity_id = x.entity_id RETURNING e.entity_id, e.key, e.fact_count
"""
_ENTITY_BY_KEY = "SELECT entity_id, fact_count FROM entities WHERE tenant_id = :t AND forest_id = :f AND key = :k"
_SPEAKS = "SELECT 1 FROM turns WHERE tenant_id = :t AND forest_id = :f AND speaker = ANY(:l) LIMIT 1"
_IS_SPEAKER = "SELECT is_speaker FROM entities WHERE tenant_id = :t AND entity_id = :e"
_DEACTIVATE_ENTITY = """
UPDATE entities SET activated = false, fact_count = 0, session_count = 0, first_time = NULL,
last_time = NULL WHERE tenant_id = :t AND entity_id = :e
"""
_DELETE_ENTITY = "DELETE FROM entities WHERE tenant_id = :t AND entity_id = :e"


async def recount_entities(conn: Conn, tenant_id: uuid.UUID, entity_ids: Iterable[int]) -> list[Row]:
    """Recount the facts, sessions and time span of these entities from their links; their
    ``entity_id``, ``key`` and new ``fact_count``."""
    return await fetch_all(conn, _RECOUNT_ENTITIES, {"t": tenant_id, "ids": sorted(entity_ids)})


async def entity_by_key(conn: Conn, tenant_id: uuid.UUID, forest_id: int, key: str) -> Row | None:
    """The entity (``entity_id``, ``fact_count``) with this key, or None."""
    return await fetch_one(conn, _ENTITY_BY_KEY, {"t": tenant_id, "f": forest_id, "k": key})


async def speaks_in_forest(conn: Conn, tenant_id: uuid.UUID, forest_id: int, labels: Iterable[str]) -> bool:
    """Whether any turn of the forest is spoken under one of these labels."""
    return await scalar(conn, _SPEAKS, {"t": tenant_id, "f": forest_id, "l": sorted(labels)}) is not None


async def entity_is_speaker(conn: Conn, tenant_id: uuid.UUID, entity_id: int) -> bool:
    """Whether the entity is a speaker (False when there is no such entity)."""
    return bool(await scalar(conn, _IS_SPEAKER, {"t": tenant_id, "e": entity_id}))


async def deactivate_entity(conn: Conn, tenant_id: uuid.UUID, entity_id: int) -> None:
    """Keep the entity's row with no facts, sessions or time span, and not activated."""
    await execute(conn, _DEACTIVATE_ENTITY, {"t": tenant_id, "e": entity_id})


async def delete_entity(conn: Conn, tenant_id: uuid.UUID, entity_id: int) -> None:
    """Delete the entity's row."""
    await execute(conn, _DELETE_ENTITY, {"t": tenant_id, "e": entity_id})


# ------------------------------------------------------------------------------ scene clusters

_SCENE_CLUSTER = (
    "SELECT member_count, topic_counts, centroid FROM scene_clusters WHERE tenant_id = :t AND cluster_id = :c"
)
_DELETE_SCENE_CLUSTER = "DELETE FROM scene_clusters WHERE tenant_id = :t AND cluster_id = :c"
_UPDATE_SCENE_CLUSTER = """
UPDATE scene_clusters SET member_count = :n, centroid = :c, topic_counts = CAST(:tc AS jsonb)
WHERE tenant_id = :t AND cluster_id = :id
"""
_SET_SCENE_LABEL = "UPDATE trees SET label = :l WHERE tenant_id = :t AND forest_id = :f AND kind = 'scene' AND key = :k"


async def scene_cluster(conn: Conn, tenant_id: uuid.UUID, cluster_id: int) -> Row | None:
    """The cluster's ``member_count``, ``topic_counts`` and ``centroid``, or None."""
    return await fetch_one(conn, _SCENE_CLUSTER, {"t": tenant_id, "c": cluster_id})


async def delete_scene_cluster(conn: Conn, tenant_id: uuid.UUID, cluster_id: int) -> None:
    """Delete the cluster's row (its tree goes separately)."""
    await execute(conn, _DELETE_SCENE_CLUSTER, {"t": tenant_id, "c": cluster_id})


async def update_scene_cluster(
    conn: Conn, tenant_id: uuid.UUID, cluster_id: int, member_count: int, centroid: Any, topic_counts: Mapping[str, int]
) -> None:
    """Store the cluster's new member count, centroid and topic counts."""
    params = {
        "n": member_count,
        "c": centroid,
        "tc": json.dumps(topic_counts, sort_keys=True),
        "t": tenant_id,
        "id": cluster_id,
    }
    await execute(conn, _UPDATE_SCENE_CLUSTER, params)


async def set_scene_label(conn: Conn, tenant_id: uuid.UUID, forest_id: int, cluster_id: int, label: str) -> None:
    """Relabel the cluster's scene tree."""
    await execute(conn, _SET_SCENE_LABEL, {"t": tenant_id, "f": forest_id, "l": label, "k": str(cluster_id)})
