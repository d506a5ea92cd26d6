"""Reads of the read path's tree descent (``emb`` beam and ``llm`` navigator): the children of a
frontier of nodes, the leaves of the whole ``emb`` beam descent in one statement, and the vectors
of the leaves reached."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memforest.store.recall import Vec
from memforest.store.sql import Conn, Row, as_vector, fetch_all

_CHILDREN = (
    "SELECT node_id, parent_id, tree_id, level, leaf_fact_id, leaf_cell_id, t_start, t_end, "
    "coalesce(summary, '') AS summary, coalesce({sim}, 0) AS sim FROM nodes "
    "WHERE tenant_id = :t AND forest_id = :f AND parent_id = ANY(:p) ORDER BY parent_id, t_start, seq"
)
_SIM_TO_QUERY = "1 - (embedding <=> :q)"
_NO_SIM = "NULL::float8"
# The emb beam descent in one statement, which chooses the beam itself: every level's children of
# the nodes the level above kept, ``kept`` = among the ``:beam`` best internal children of their
# tree at that level; at the bottom, the ``:leaves`` best leaves of each tree (0: all). "Best" is
# one score throughout: the cosine to the query, less ``:penalty`` outside the ``[:after, :before)``
# window, a NaN score (a node or query without content words: pgvector's cosine of a zero vector)
# last, ties by node id. ``OFFSET 0`` keeps each level a subquery: the cosine is computed once per
# node and the window sorts narrow rows (flattened, the sort carried every node's vector and the
# cosine ran twice). Only the leaves come back: the internal rows were read only to check the beam.
_SCORE = "({n}.sim - CASE WHEN {n}.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END)"
_RANK = (
    "row_number() OVER (PARTITION BY {n}.tree_id, {n}.level > 0 ORDER BY {s} = 'NaN'::float8, {s} DESC, {n}.node_id)"
)
_BEAM_RANK = "k.level > 0 AND " + _RANK.format(n="k", s=_SCORE.format(n="k")) + " <= :beam"
_LEAF_RANK = "CAST(:leaves AS int) <= 0 OR " + _RANK.format(n="w", s=_SCORE.format(n="w")) + " <= :leaves"
_BEAM_COLS = (
    "n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, "
    "coalesce(1 - (n.embedding <=> :q), 0) AS sim, "
    "coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside"
)
_BEAM = (
    f"WITH RECURSIVE walk AS (SELECT k.*, {_BEAM_RANK} AS kept FROM ("
    f" SELECT 1 AS depth, {_BEAM_COLS} FROM nodes n"
    " WHERE n.tenant_id = :t AND n.forest_id = :f AND n.parent_id = ANY(:p) OFFSET 0) k"
    f" UNION ALL SELECT k.*, {_BEAM_RANK} FROM ("
    f" SELECT w.depth + 1, {_BEAM_COLS} FROM walk w JOIN nodes n"
    " ON n.tenant_id = :t AND n.parent_id = w.node_id AND n.forest_id = :f WHERE w.kept OFFSET 0) k"
    ") SELECT node_id, tree_id, leaf_fact_id, leaf_cell_id, sim "
    f"FROM (SELECT w.*, {_LEAF_RANK} AS shown FROM walk w WHERE w.level = 0) x WHERE shown "
    "ORDER BY depth, parent_id, t_start, seq"
)
_NODE_SUMMARIES = "SELECT node_id, summary FROM nodes WHERE tenant_id = :t AND forest_id = :f AND node_id = ANY(:ids)"
_NODE_VECTORS = (
    "SELECT node_id, embedding FROM nodes WHERE tenant_id = :t AND forest_id = :f "
    "AND node_id = ANY(:ids) AND embedding IS NOT NULL"
)


async def children_of(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, parents: Sequence[int], q: Vec | None
) -> list[Row]:
    """Children of ``parents`` in time order (by parent), with ``sim``, the cosine to ``q`` (0 when
    ``q`` is None or the node has no vector): ``node_id, parent_id, tree_id, level, leaf_fact_id,
    leaf_cell_id, t_start, t_end, summary, sim``."""
    sql = _CHILDREN.format(sim=_SIM_TO_QUERY if q is not None else _NO_SIM)
    return await fetch_all(conn, sql, {"t": tenant_id, "f": forest_id, "p": list(parents), "q": q})


async def beam_descent(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    roots: Sequence[int],
    q: Vec,
    beam: int,
    after: datetime | None,
    before: datetime | None,
    penalty: float,
    leaves: int = 0,
) -> list[Row]:
    """The leaves of a beam descent from ``roots``, in one statement: from each level keep the
    ``beam`` best internal children of each tree, then the ``leaves`` best leaves of each tree (0:
    all), "best" by the cosine to ``q`` less ``penalty`` outside ``[after, before)``, a NaN last,
    ties by node id. Rows ``node_id, tree_id, leaf_fact_id, leaf_cell_id, sim`` (the plain
    cosine), level by level and each level as :func:`children_of` orders its rows."""
    p = {"t": tenant_id, "f": forest_id, "p": list(roots), "q": q, "beam": beam, "leaves": leaves}
    return await fetch_all(conn, _BEAM, p | {"after": after, "before": before, "penalty": penalty})


async def node_vectors(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, node_ids: Sequence[int]
) -> dict[int, np.ndarray[Any, Any]]:
    """node id -> its vector (float32 numpy) for the given nodes that have one."""
    rows = await fetch_all(conn, _NODE_VECTORS, {"t": tenant_id, "f": forest_id, "ids": list(node_ids)})
    return {int(r["node_id"]): as_vector(r["embedding"]) for r in rows}


async def node_summaries(conn: Conn, tenant_id: uuid.UUID, forest_id: int, node_ids: Sequence[int]) -> dict[int, str]:
    """node id -> its summary ('' when it has none) for the given nodes."""
    rows = await fetch_all(conn, _NODE_SUMMARIES, {"t": tenant_id, "f": forest_id, "ids": list(node_ids)})
    return {int(r["node_id"]): str(r["summary"] or "") for r in rows}
