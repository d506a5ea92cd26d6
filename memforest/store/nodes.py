"""Node summaries and embeddings as refresh reads and writes them, and forest-level node counts."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
from pgvector import Vector

from memforest.store.sql import Conn, Row, fetch_all, scalar

# Dirty marks are read from ``dirty_nodes`` (its triggers keep it to the nodes whose flag is set):
# no index of ``nodes`` covers ``dirty``, so flipping the flag leaves the node's update HOT (ADR 0051).
_COUNT_DIRTY = "SELECT count(*) FROM dirty_nodes d WHERE tenant_id = :t AND forest_id = :f AND level <= :top "

# With cell vectors from facts (``cell_vectors`` facts, ADR 0105) a refresh passes over a waiting cell
# leaf: one whose cell is neither extracted nor failed while an ingest job of its session is queued or
# running (its vector waits for that job's facts; a cell whose job is gone is embedded from its
# text). The sessions with such a job, once per statement (``waiting_sessions``, a WITH clause); such a
# leaf as the node of a ``dirty_nodes`` row ``d``, and as a dirty child of ``n``:
_WAITING_SESSIONS = (
    "WITH waiting_sessions AS MATERIALIZED (SELECT DISTINCT CAST(j.payload->>'session_id' AS bigint) AS session_id "
    "FROM jobs j WHERE j.tenant_id = :t AND j.forest_id = :f AND j.kind = 'ingest' "
    "AND j.state IN ('queued', 'running'))\n"
)
_UNSETTLED = (
    "w.extracted_at IS NULL AND w.extract_error IS NULL AND w.session_id IN (SELECT session_id FROM waiting_sessions)"
)
_WAITING_LEAF = (
    "EXISTS (SELECT 1 FROM nodes wn JOIN cells w ON w.tenant_id = wn.tenant_id AND w.cell_id = wn.leaf_cell_id "
    f"WHERE wn.tenant_id = d.tenant_id AND wn.node_id = d.node_id AND {_UNSETTLED})"
)
_WAITING_CHILD = (
    "EXISTS (SELECT 1 FROM nodes wc JOIN cells w ON w.tenant_id = wc.tenant_id AND w.cell_id = wc.leaf_cell_id "
    f"WHERE wc.tenant_id = n.tenant_id AND wc.parent_id = n.node_id AND wc.dirty AND {_UNSETTLED})"
)
_NOT_WAITING = f"AND (d.level > 0 OR NOT {_WAITING_LEAF}) "
# a dirty node none of whose children is dirty: one that a waiting leaf holds back is not
_READY = (
    "AND NOT EXISTS (SELECT 1 FROM nodes c WHERE c.tenant_id = d.tenant_id AND c.parent_id = d.node_id AND c.dirty) "
)


async def count_dirty(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, highest: int, *, skip_waiting_cells: bool = False
) -> int:
    """How many dirty nodes of the forest sit at or below level ``highest`` (with
    ``skip_waiting_cells``, not counting the cell leaves that wait for their ingest job)."""
    sql = _WAITING_SESSIONS + _COUNT_DIRTY + _NOT_WAITING if skip_waiting_cells else _COUNT_DIRTY
    return int(await scalar(conn, sql, {"t": tenant_id, "f": forest_id, "top": highest}) or 0)


# A node whose child is still dirty (a stale write below) waits: it must be summarised from its
# children's current summaries, so it stays dirty for the next pass.
_DIRTY_AT_LEVEL = """
SELECT n.node_id, n.version, n.t_start, n.t_end, n.summary, n.summary_hash, n.embedded_hash,
n.embedding IS NULL AS no_embedding, tr.kind, tr.label FROM dirty_nodes d
JOIN nodes n ON n.tenant_id = d.tenant_id AND n.node_id = d.node_id
JOIN trees tr ON tr.tenant_id = n.tenant_id AND tr.tree_id = n.tree_id
WHERE d.tenant_id = :t AND d.forest_id = :f AND d.level = :l
AND NOT EXISTS (SELECT 1 FROM nodes c WHERE c.tenant_id = n.tenant_id AND c.parent_id = n.node_id
AND c.dirty) ORDER BY n.node_id
"""


# Level 1 read with the leaves it sits on (memforest.pipeline.refresh_levels): every dirty node of
# the level, as its dirty children are leaves written in the same transaction, before it.
_DIRTY_AT_LEVEL_OVER_LEAVES = _DIRTY_AT_LEVEL.replace(
    """AND NOT EXISTS (SELECT 1 FROM nodes c WHERE c.tenant_id = n.tenant_id AND c.parent_id = n.node_id
AND c.dirty) """,
    "",
)


# The nodes of the lowest dirty level in l..top (none of them has a dirty child: children sit lower).
_DIRTY_AT_LOWEST = _DIRTY_AT_LEVEL.replace("SELECT n.node_id,", "SELECT n.level, n.node_id,").replace(
    "AND d.level = :l",
    "AND d.level = (SELECT min(level) FROM dirty_nodes WHERE tenant_id = :t AND forest_id = :f "
    "AND level >= :l AND level <= :top)",
)
# ... the lowest level that has a node ready to refresh, waiting cell leaves left out: a node above
# one has a dirty child at every level up, so the lowest ready level is read, not the lowest dirty
_DIRTY_AT_LOWEST_SETTLED = _WAITING_SESSIONS + _DIRTY_AT_LEVEL.replace(
    "SELECT n.node_id,", "SELECT n.level, n.node_id,"
).replace(
    "AND d.level = :l",
    "AND d.level = (SELECT min(d.level) FROM dirty_nodes d WHERE d.tenant_id = :t AND d.forest_id = :f "
    f"AND d.level >= :l AND d.level <= :top {_NOT_WAITING}{_READY}) {_NOT_WAITING}",
)
# ... level 1 over the leaves, but for the nodes with a waiting cell leaf among their dirty children
_DIRTY_AT_LEVEL_OVER_SETTLED_LEAVES = _WAITING_SESSIONS + _DIRTY_AT_LEVEL_OVER_LEAVES.replace(
    "AND d.level = :l", f"AND d.level = :l AND NOT {_WAITING_CHILD}"
)


async def dirty_nodes_at_lowest_level(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, lowest: int, highest: int, *, skip_waiting_cells: bool = False
) -> list[Row]:
    """The dirty nodes of the lowest level in ``lowest..highest`` that has one, with their
    ``level`` and the columns :func:`dirty_nodes_at_level` gives; empty when that range is clean.
    ``skip_waiting_cells``: as if the cell leaves waiting for their ingest job were clean."""
    sql = _DIRTY_AT_LOWEST_SETTLED if skip_waiting_cells else _DIRTY_AT_LOWEST
    return await fetch_all(conn, sql, {"t": tenant_id, "f": forest_id, "l": lowest, "top": highest})


async def dirty_nodes_at_level(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    level: int,
    *,
    leaves_pending: bool = False,
    skip_waiting_cells: bool = False,
) -> list[Row]:
    """The dirty nodes of one level whose children are all clean, by id: node_id, version, t_start,
    t_end, summary, summary_hash, embedded_hash, no_embedding, and the tree's kind and label.
    ``leaves_pending`` (level 1 only): also those whose dirty children are leaves (with
    ``skip_waiting_cells``, none of them a cell leaf waiting for its ingest job)."""
    if leaves_pending and level != 1:
        raise ValueError("leaves_pending reads level 1 only")
    if leaves_pending:
        sql = _DIRTY_AT_LEVEL_OVER_SETTLED_LEAVES if skip_waiting_cells else _DIRTY_AT_LEVEL_OVER_LEAVES
    else:
        sql = _DIRTY_AT_LEVEL
    return await fetch_all(conn, sql, {"t": tenant_id, "f": forest_id, "l": level})


_CHILD_SUMMARIES = """
SELECT parent_id, summary FROM nodes WHERE tenant_id = :t AND parent_id = ANY(:ids)
ORDER BY parent_id, t_start, seq
"""


_CHILD_SUMMARIES_AND_VECTORS = """
SELECT parent_id, node_id, summary, embedding FROM nodes WHERE tenant_id = :t AND parent_id = ANY(:ids)
ORDER BY parent_id, t_start, seq
"""


async def child_summaries(
    conn: Conn, tenant_id: uuid.UUID, parent_ids: list[int], *, with_vectors: bool = False
) -> list[Row]:
    """parent_id and summary of every child of the given nodes, in key order per parent; with
    ``with_vectors`` also each child's node_id and embedding (None where it has none)."""
    sql = _CHILD_SUMMARIES_AND_VECTORS if with_vectors else _CHILD_SUMMARIES
    return await fetch_all(conn, sql, {"t": tenant_id, "ids": parent_ids})


# The vector and length of every fact drawn from each cell leaf's turns among the nodes (one row per
# fact; a fact leaf, or a cell no fact with a vector came from, has no row).
_CELL_FACT_VECTORS = """
SELECT n.node_id, f.embedding, length(f.text) AS chars FROM nodes n
JOIN LATERAL (SELECT DISTINCT s.fact_id FROM fact_sources s
    WHERE s.tenant_id = n.tenant_id AND s.cell_id = n.leaf_cell_id) drawn ON true
JOIN facts f ON f.tenant_id = n.tenant_id AND f.fact_id = drawn.fact_id
WHERE n.tenant_id = :t AND n.node_id = ANY(:ids) AND f.embedding IS NOT NULL ORDER BY n.node_id, drawn.fact_id
"""


async def cell_fact_vectors(conn: Conn, tenant_id: uuid.UUID, node_ids: list[int]) -> list[Row]:
    """node_id, embedding and length (``chars``) of every fact drawn from the cell of each cell leaf
    among ``node_ids``, in fact order per node."""
    return await fetch_all(conn, _CELL_FACT_VECTORS, {"t": tenant_id, "ids": node_ids})


# Every node of a level in one statement; a node whose version moved on stays dirty.
_WRITE_SUMMARIES = """
UPDATE nodes n SET summary = u.s, summary_hash = u.h, dirty = false,
embedding = CASE WHEN u.has_vec THEN u.v ELSE n.embedding END,
embedded_hash = CASE WHEN u.has_vec THEN u.h ELSE n.embedded_hash END
FROM unnest(CAST(:id AS bigint[]), CAST(:ver AS int[]), CAST(:s AS text[]), CAST(:h AS text[]),
CAST(:has_vec AS boolean[]), CAST(:v AS vector[])) AS u(id, ver, s, h, has_vec, v)
WHERE n.tenant_id = :t AND n.node_id = u.id AND n.version = u.ver RETURNING n.node_id
"""
# Level 1 read with its leaves: written only where no child is dirty still (a leaf hung after the
# leaves were read, and not refreshed by this write).
_WRITE_SUMMARIES_OVER_CLEAN = _WRITE_SUMMARIES.replace(
    "AND n.version = u.ver",
    "AND n.version = u.ver AND NOT EXISTS (SELECT 1 FROM nodes c WHERE c.tenant_id = n.tenant_id "
    "AND c.parent_id = n.node_id AND c.dirty)",
)


async def write_summaries(
    conn: Conn,
    tenant_id: uuid.UUID,
    node_ids: list[int],
    versions: list[int],
    summaries: list[str],
    hashes: list[str],
    vectors: list[Any | None],
    *,
    children_clean: bool = False,
) -> list[int]:
    """Store each node's summary (and embedding where given) and clear its dirty flag, only where
    its version is still the one read (and, with ``children_clean``, no child of it is dirty);
    returns the nodes written."""
    rows = await fetch_all(
        conn,
        _WRITE_SUMMARIES_OVER_CLEAN if children_clean else _WRITE_SUMMARIES,
        {
            "t": tenant_id,
            "id": node_ids,
            "ver": versions,
            "s": summaries,
            "h": hashes,
            "has_vec": [v is not None for v in vectors],
            "v": [Vector(np.asarray(v, dtype=np.float32)) if v is not None else None for v in vectors],
        },
    )
    return [int(r["node_id"]) for r in rows]


_TREES_BY_KIND = "SELECT kind, count(*) AS n FROM trees WHERE tenant_id = :t AND forest_id = :f GROUP BY kind"
_COUNT_NODES = "SELECT count(*) AS n FROM nodes WHERE tenant_id = :t AND forest_id = :f"


async def count_trees_by_kind(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> dict[str, int]:
    """How many trees of each kind the forest has."""
    rows = await fetch_all(conn, _TREES_BY_KIND, {"t": tenant_id, "f": forest_id})
    return {str(r["kind"]): int(r["n"]) for r in rows}


async def count_nodes(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """How many nodes the forest has."""
    return int(await scalar(conn, _COUNT_NODES, {"t": tenant_id, "f": forest_id}) or 0)
