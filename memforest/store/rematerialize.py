"""Statements of re-materialisation (``memforest.lifecycle.rematerialize``): fact, node and scene
centroid vectors, the summary reset, what a tree rebuild keeps from the trees it drops, and the
deployment-wide change of the embedding dimension."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import text

from memforest.errors import ConfigurationError
from memforest.store.sql import Conn, Row, execute, fetch_all, scalar, writer

# ---------------------------------------------------------------- facts

_FACTS_TO_EMBED = "WHERE tenant_id = :t AND forest_id = :f {missing}"
_ONLY_MISSING = "AND embedding IS NULL "
_COUNT_FACTS = "SELECT count(*) FROM facts " + _FACTS_TO_EMBED
_FACT_PAGE = (
    "SELECT fact_id, text FROM facts WHERE tenant_id = :t AND forest_id = :f AND fact_id > :last {missing}"
    "ORDER BY fact_id LIMIT :n"
)
_SET_FACT_VECTOR = "UPDATE facts SET embedding = :e WHERE tenant_id = :t AND fact_id = :id"

# ---------------------------------------------------------------- nodes

_COPY_FACT_VECTORS = (
    "UPDATE nodes n SET embedding = x.embedding, embedded_hash = md5(n.summary) FROM facts x "
    "WHERE n.tenant_id = :t AND n.forest_id = :f AND n.level = 0 AND n.leaf_fact_id IS NOT NULL "
    "AND x.tenant_id = n.tenant_id AND x.fact_id = n.leaf_fact_id AND x.text = n.summary "
    "AND x.embedding IS NOT NULL"
)
# A fact leaf whose text is its fact's text takes the fact's vector instead of a second model call.
_FACT_LEAF_MATCH = (
    "EXISTS (SELECT 1 FROM facts x WHERE x.tenant_id = n.tenant_id AND x.fact_id = n.leaf_fact_id "
    "AND x.text = n.summary AND x.embedding IS NOT NULL)"
)
_NODES_TO_EMBED = (
    "n.tenant_id = :t AND n.forest_id = :f AND n.summary IS NOT NULL {levels}{cells}"
    f"AND NOT (n.leaf_fact_id IS NOT NULL AND {_FACT_LEAF_MATCH})"
)
_LEAVES_ONLY = "AND n.level = 0 "
# A cell leaf that a fact was drawn from takes its facts' mean (ADR 0105) instead of a model call.
_CELL_WITH_FACTS = (
    "AND NOT (n.leaf_cell_id IS NOT NULL AND EXISTS (SELECT 1 FROM fact_sources s JOIN facts x "
    "ON x.tenant_id = s.tenant_id AND x.fact_id = s.fact_id WHERE s.tenant_id = n.tenant_id "
    "AND s.cell_id = n.leaf_cell_id AND x.embedding IS NOT NULL)) "
)
# ... the mean of their vectors weighted by the facts' lengths (``refresh_levels.weighted_mean_vector``)
_CELL_FACT_MEANS = (
    "UPDATE nodes n SET embedding = l2_normalize(m.s), embedded_hash = md5(n.summary) FROM ("
    "SELECT c.node_id, sum(x.embedding * CAST(array_fill(CAST(length(x.text) AS real), "
    "ARRAY[vector_dims(x.embedding)]) AS vector)) AS s FROM nodes c "
    "JOIN (SELECT DISTINCT cell_id, fact_id FROM fact_sources WHERE tenant_id = :t AND forest_id = :f) d "
    "ON d.cell_id = c.leaf_cell_id JOIN facts x ON x.tenant_id = c.tenant_id AND x.fact_id = d.fact_id "
    "WHERE c.tenant_id = :t AND c.forest_id = :f AND c.level = 0 AND x.embedding IS NOT NULL "
    "GROUP BY c.node_id) m "
    "WHERE n.tenant_id = :t AND n.node_id = m.node_id AND n.summary IS NOT NULL AND vector_norm(m.s) > 1e-12"
)
_COUNT_NODES = "SELECT count(*) FROM nodes n WHERE " + _NODES_TO_EMBED
_NODE_PAGE = (
    "SELECT n.node_id, n.summary FROM nodes n WHERE " + _NODES_TO_EMBED + " AND n.node_id > :last "
    "ORDER BY n.node_id LIMIT :n"
)
# Written only if the summary is still the text that was embedded (refresh may have moved on).
_SET_NODE_VECTOR = (
    "UPDATE nodes SET embedding = :e, embedded_hash = :h WHERE tenant_id = :t AND node_id = :id AND md5(summary) = :h"
)

# ---------------------------------------------------------------- scene centroids

_CENTROIDS_FROM_MEMBERS = (
    "UPDATE scene_clusters c SET centroid = l2_normalize(m.s) FROM ("
    "SELECT t.key, sum(x.embedding) AS s FROM placements pl "
    "JOIN trees t ON t.tenant_id = pl.tenant_id AND t.tree_id = pl.tree_id "
    "JOIN facts x ON x.tenant_id = pl.tenant_id AND x.fact_id = pl.source_id "
    "WHERE pl.tenant_id = :t AND pl.forest_id = :f AND pl.source_kind = 'fact' AND t.kind = 'scene' "
    "AND x.embedding IS NOT NULL GROUP BY t.key) m "
    "WHERE c.tenant_id = :t AND c.forest_id = :f AND CAST(c.cluster_id AS text) = m.key RETURNING c.cluster_id"
)
_SCENE_TOPICS = (
    "SELECT cluster_id, topic_counts FROM scene_clusters WHERE tenant_id = :t AND forest_id = :f ORDER BY cluster_id"
)
_SET_CENTROID = "UPDATE scene_clusters SET centroid = :e WHERE tenant_id = :t AND cluster_id = :id"

# ---------------------------------------------------------------- summaries

_INTERNAL_HASHES = "SELECT node_id, md5(summary) AS h FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level > 0"
_RESET_SUMMARIES = (
    "UPDATE nodes SET dirty = true, summary_hash = NULL, version = version + 1 "
    "WHERE tenant_id = :t AND forest_id = :f AND level > 0"
)

# ---------------------------------------------------------------- tree rebuild

_SCENE_MEMBERS = (
    "SELECT t.key, t.label, pl.source_id FROM trees t LEFT JOIN placements pl ON pl.tenant_id = t.tenant_id "
    "AND pl.tree_id = t.tree_id AND pl.source_kind = 'fact' WHERE t.tenant_id = :t AND t.forest_id = :f "
    "AND t.kind = 'scene' ORDER BY t.tree_id, pl.source_id"
)
_CURRENT_CELL_VECTORS = (
    "SELECT n.leaf_cell_id, n.embedding FROM nodes n JOIN cells c ON c.tenant_id = n.tenant_id "
    "AND c.cell_id = n.leaf_cell_id WHERE n.tenant_id = :t AND n.forest_id = :f AND n.level = 0 "
    "AND n.embedding IS NOT NULL AND n.embedded_hash = md5(c.text)"
)
_DROP_PLACEMENTS = "DELETE FROM placements WHERE tenant_id = :t AND forest_id = :f"
_DROP_NODES = "DELETE FROM nodes WHERE tenant_id = :t AND forest_id = :f"
_DROP_TREES = "DELETE FROM trees WHERE tenant_id = :t AND forest_id = :f"

# ---------------------------------------------------------------- deployment-wide

_ALL_FORESTS = (
    "SELECT f.tenant_id, f.forest_id, t.name AS tenant, f.name FROM forests f JOIN tenants t "
    "ON t.tenant_id = f.tenant_id ORDER BY t.name, f.name"
)
_MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('memforest:migrations', 0))"
_STORED_DIM = "SELECT value FROM memforest_meta WHERE key = 'embedding_dim' FOR UPDATE"
_VECTOR_COLUMNS = (
    "SELECT c.relname AS tbl, a.attname AS col, a.attnotnull AS notnull FROM pg_attribute a "
    "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace ns ON ns.oid = c.relnamespace "
    "JOIN pg_type ty ON ty.oid = a.atttypid WHERE ns.nspname = current_schema() AND c.relkind = 'r' "
    "AND ty.typname = 'vector' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum"
)
_VECTOR_INDEXES = (
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
    "AND (indexdef ILIKE '% USING hnsw %' OR indexdef ILIKE '% USING ivfflat %') ORDER BY indexname"
)
_DROP_INDEX = "DROP INDEX {index}"
# generated columns of vectors (nodes.graph_embedding, migration 0029): a column that one of them
# reads cannot be retyped, so they are dropped first and added again with the same expression
_GENERATED_VECTORS = (
    "SELECT c.relname AS tbl, a.attname AS col, format_type(a.atttypid, a.atttypmod) AS type, "
    "pg_get_expr(d.adbin, d.adrelid) AS expr FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
    "JOIN pg_namespace ns ON ns.oid = c.relnamespace JOIN pg_type ty ON ty.oid = a.atttypid "
    "JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE ns.nspname = current_schema() "
    "AND c.relkind = 'r' AND a.attgenerated = 's' AND ty.typname IN ('vector', 'halfvec') AND a.attnum > 0 "
    "AND NOT a.attisdropped ORDER BY c.relname, a.attnum"
)
_DROP_COLUMN = "ALTER TABLE {table} DROP COLUMN {column}"
_ADD_GENERATED = "ALTER TABLE {table} ADD COLUMN {column} {type} GENERATED ALWAYS AS ({expr}) STORED"
_ZERO_VECTOR = "CAST(array_fill(CAST(0 AS real), ARRAY[{dim:d}]) AS vector({dim:d}))"
_NULL_VECTOR = "CAST(NULL AS vector({dim:d}))"
_RETYPE_COLUMN = "ALTER TABLE {table} ALTER COLUMN {column} TYPE vector({dim:d}) USING {placeholder}"
# a half-precision key's dimension in an index definition (whatever it was built for)
_HALFVEC_KEY = re.compile(r"halfvec\(\d+\)")
_SET_STORED_DIM = "UPDATE memforest_meta SET value = :v WHERE key = 'embedding_dim'"


async def _executemany(conn: Conn, sql: str, params: Sequence[dict[str, Any]]) -> None:
    """Run ``sql`` once per parameter set in one round trip (nothing for no sets)."""
    if params:
        await writer(conn).execute(text(sql), list(params))


def _params(tenant_id: uuid.UUID, forest_id: int) -> dict[str, Any]:
    return {"t": tenant_id, "f": forest_id}


async def count_facts_to_embed(conn: Conn, tenant_id: uuid.UUID, forest_id: int, *, only_missing: bool) -> int:
    """Facts of the forest (only those without a vector with ``only_missing``)."""
    sql = _COUNT_FACTS.format(missing=_ONLY_MISSING if only_missing else "")
    return int(await scalar(conn, sql, _params(tenant_id, forest_id)))


async def facts_to_embed(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, *, only_missing: bool, after: int, limit: int
) -> list[Row]:
    """The next ``limit`` facts (``fact_id, text``) with an id above ``after``, by id."""
    sql = _FACT_PAGE.format(missing=_ONLY_MISSING if only_missing else "")
    return await fetch_all(conn, sql, {**_params(tenant_id, forest_id), "last": after, "n": limit})


async def set_fact_vectors(conn: Conn, tenant_id: uuid.UUID, vectors: Sequence[tuple[int, Any]]) -> None:
    """Store ``(fact_id, vector)`` pairs."""
    await _executemany(conn, _SET_FACT_VECTOR, [{"e": v, "t": tenant_id, "id": fid} for fid, v in vectors])


async def copy_fact_vectors_to_leaves(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """Give every fact leaf whose text is its fact's text the fact's vector; the number of leaves."""
    return await execute(conn, _COPY_FACT_VECTORS, _params(tenant_id, forest_id))


def _node_filter(internal: bool, cells_from_facts: bool) -> dict[str, str]:
    return {"levels": "" if internal else _LEAVES_ONLY, "cells": _CELL_WITH_FACTS if cells_from_facts else ""}


async def count_nodes_to_embed(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, *, internal: bool, cells_from_facts: bool = False
) -> int:
    """Nodes with text that cannot copy a fact's vector (leaves only unless ``internal``; with
    ``cells_from_facts``, not the cell leaves a fact with a vector was drawn from)."""
    sql = _COUNT_NODES.format(**_node_filter(internal, cells_from_facts))
    return int(await scalar(conn, sql, _params(tenant_id, forest_id)))


async def nodes_to_embed(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    internal: bool,
    after: int,
    limit: int,
    cells_from_facts: bool = False,
) -> list[Row]:
    """The next ``limit`` of those nodes (``node_id, summary``) with an id above ``after``, by id."""
    sql = _NODE_PAGE.format(**_node_filter(internal, cells_from_facts))
    return await fetch_all(conn, sql, {**_params(tenant_id, forest_id), "last": after, "n": limit})


async def set_cell_fact_means(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """Give every cell leaf that facts with vectors were drawn from the unit-norm mean of those
    vectors weighted by the facts' lengths (ADR 0105); returns how many leaves were set."""
    return await execute(conn, _CELL_FACT_MEANS, _params(tenant_id, forest_id))


async def set_node_vectors(conn: Conn, tenant_id: uuid.UUID, vectors: Sequence[tuple[int, str, Any]]) -> None:
    """Store ``(node_id, summary hash, vector)``; a node whose summary changed since is left alone."""
    await _executemany(
        conn, _SET_NODE_VECTOR, [{"e": v, "h": h, "t": tenant_id, "id": node_id} for node_id, h, v in vectors]
    )


# Level by level from the bottom: an inner node's vector is the normalised sum (= mean) of its
# children's (ADR 0058, ``embedding.node_vectors = children``); children whose vectors cancel out
# leave the node as it was rather than give it a zero vector, whose cosine distance is undefined.
_MAX_LEVEL = "SELECT coalesce(max(level), 0) FROM nodes WHERE tenant_id = :t AND forest_id = :f"
_NODE_MEANS = (
    "UPDATE nodes n SET embedding = l2_normalize(m.s), embedded_hash = md5(n.summary) FROM ("
    "SELECT parent_id, sum(embedding) AS s FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level = :l - 1 "
    "AND parent_id IS NOT NULL AND embedding IS NOT NULL GROUP BY parent_id "
    "HAVING vector_norm(sum(embedding)) > 1e-12) m "
    "WHERE n.tenant_id = :t AND n.node_id = m.parent_id AND n.summary IS NOT NULL RETURNING n.node_id"
)


async def set_node_means(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """Give every inner node with a summary the unit-norm mean of its children's vectors, bottom
    up; returns how many nodes were set."""
    top = int(await scalar(conn, _MAX_LEVEL, _params(tenant_id, forest_id)))
    done = 0
    for level in range(1, top + 1):
        done += len(await fetch_all(conn, _NODE_MEANS, {**_params(tenant_id, forest_id), "l": level}))
    return done


async def centroids_from_members(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> set[int]:
    """Set each scene cluster's centroid to the normalised sum of its placed facts' vectors; the
    ids of the clusters updated (those with at least one member vector)."""
    rows = await fetch_all(conn, _CENTROIDS_FROM_MEMBERS, _params(tenant_id, forest_id))
    return {int(r["cluster_id"]) for r in rows}


async def scene_topic_counts(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[Row]:
    """Every scene cluster of the forest: ``cluster_id, topic_counts``, by id."""
    return await fetch_all(conn, _SCENE_TOPICS, _params(tenant_id, forest_id))


async def set_centroids(conn: Conn, tenant_id: uuid.UUID, vectors: Sequence[tuple[int, Any]]) -> None:
    """Store ``(cluster_id, centroid)`` pairs."""
    await _executemany(conn, _SET_CENTROID, [{"e": v, "t": tenant_id, "id": cid} for cid, v in vectors])


async def internal_summary_hashes(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> dict[int, str | None]:
    """node id -> md5 of its summary, for every internal node of the forest."""
    rows = await fetch_all(conn, _INTERNAL_HASHES, _params(tenant_id, forest_id))
    return {int(r["node_id"]): r["h"] for r in rows}


async def reset_summaries(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """Mark every internal node dirty with its summary hash cleared, so refresh rewrites them all."""
    return await execute(conn, _RESET_SUMMARIES, _params(tenant_id, forest_id))


async def scene_members(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[Row]:
    """Every scene tree with its placed facts: ``key, label, source_id`` (None for an empty tree)."""
    return await fetch_all(conn, _SCENE_MEMBERS, _params(tenant_id, forest_id))


async def current_cell_vectors(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> dict[int, Any]:
    """cell id -> its leaf's vector, for cell leaves whose vector still matches the cell's text."""
    rows = await fetch_all(conn, _CURRENT_CELL_VECTORS, _params(tenant_id, forest_id))
    return {int(r["leaf_cell_id"]): r["embedding"] for r in rows}


async def drop_forest_trees(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> None:
    """Delete every placement, node and tree of the forest (the caller holds the forest lock)."""
    p = _params(tenant_id, forest_id)
    await execute(conn, _DROP_PLACEMENTS, p)
    await execute(conn, _DROP_NODES, p)
    await execute(conn, _DROP_TREES, p)


async def all_forests(conn: Conn) -> list[Row]:
    """Every forest of the deployment: ``tenant_id, forest_id, tenant, name``, by tenant and name."""
    return await fetch_all(conn, _ALL_FORESTS)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


async def change_vector_dimension(conn: Conn, new_dim: int) -> int | None:
    """Retype every ``vector`` column to ``vector(new_dim)`` under the migration lock: drop the
    vector indexes and the generated vector columns, retype (values become NULL, or a zero
    placeholder in NOT NULL columns), add the generated columns again, update
    ``memforest_meta.embedding_dim``, recreate the indexes (a half-precision key at the new
    dimension). The old dimension, or None when it already was ``new_dim``. ConfigurationError
    when the database is not initialised."""
    await execute(conn, _MIGRATION_LOCK)
    stored = await scalar(conn, _STORED_DIM)
    if stored is None:
        raise ConfigurationError("the database is not initialised (no memforest_meta.embedding_dim)")
    old = int(stored)
    if old == new_dim:
        return None
    columns = await fetch_all(conn, _VECTOR_COLUMNS)
    indexes = await fetch_all(conn, _VECTOR_INDEXES)
    generated = await fetch_all(conn, _GENERATED_VECTORS)
    for ix in indexes:
        await execute(conn, _DROP_INDEX.format(index=_quote(str(ix["indexname"]))))
    for g in generated:
        await execute(conn, _DROP_COLUMN.format(table=_quote(str(g["tbl"])), column=_quote(str(g["col"]))))
    for c in columns:
        placeholder = (_ZERO_VECTOR if c["notnull"] else _NULL_VECTOR).format(dim=new_dim)
        retype = _RETYPE_COLUMN.format(
            table=_quote(str(c["tbl"])), column=_quote(str(c["col"])), dim=new_dim, placeholder=placeholder
        )
        await execute(conn, retype)
    for g in generated:
        add = _ADD_GENERATED.format(
            table=_quote(str(g["tbl"])), column=_quote(str(g["col"])), type=g["type"], expr=g["expr"]
        )
        await execute(conn, add)
    await execute(conn, _SET_STORED_DIM, {"v": str(new_dim)})
    for ix in indexes:  # a half-precision graph's key names the dimension too (ADR 0026)
        await execute(conn, _HALFVEC_KEY.sub(f"halfvec({new_dim})", str(ix["indexdef"])))
    return old
