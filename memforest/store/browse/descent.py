"""Reads of the read path's tree descent (``emb`` beam and ``llm`` navigator): the children of a
frontier of nodes, and the vectors of the leaves reached."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
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


async def node_vectors(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, node_ids: Sequence[int]
) -> dict[int, np.ndarray[Any, Any]]:
    """node id -> its vector (float32 numpy) for the given nodes that have one."""
    rows = await fetch_all(conn, _NODE_VECTORS, {"t": tenant_id, "f": forest_id, "ids": list(node_ids)})
    return {int(r["node_id"]): as_vector(r["embedding"]) for r in rows}
