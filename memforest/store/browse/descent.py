"""Reads of the read path's tree descent (``emb`` beam and ``llm`` navigator): the children of a
frontier of nodes, the leaves of the whole ``emb`` beam descent in one statement, and the vectors
of the leaves reached."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memforest.db.engine import KEY_LOOKUP_PLANS
from memforest.store.recall import Vec
from memforest.store.sql import Conn, Row, RowView, as_vector, fetch_all, fetch_rows

_CHILDREN = (
    "SELECT node_id, parent_id, tree_id, level, leaf_fact_id, leaf_cell_id, t_start, t_end, "
    "coalesce(summary, '') AS summary, coalesce({sim}, 0) AS sim FROM nodes "
    "WHERE tenant_id = :t AND forest_id = :f AND parent_id = ANY(:p) ORDER BY parent_id, t_start, seq"
)
_SIM_TO_QUERY = "1 - (embedding <=> :q)"
_NO_SIM = "NULL::float8"
# The emb beam descent in one statement, which chooses the beam itself: every level's children of
# the nodes the level above kept, ``kept`` = among the ``:beam`` best internal children of their
# tree at that level, then the leaves reached. "Best" is one order throughout: the cosine to the
# query less ``:penalty`` outside the ``[:after, :before)`` window, a NaN score (a node or query
# without content words: pgvector's cosine of a zero vector) after every number, then inside the
# window before outside, then the node id. ``OFFSET 0`` keeps each level a subquery: the cosine is
# computed once per node and the window sorts narrow rows (flattened, the sort carried every node's
# vector and the cosine ran twice). Only the leaves come back; the internal rows, which the client
# once re-read to check the beam, stay on the server.
_SCORE = "({n}.sim - CASE WHEN {n}.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END)"
_ORDER = "{s} = 'NaN'::float8, {s} DESC, {n}.outside, {n}.node_id"
_BEAM_RANK = (
    "k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY "
    + _ORDER.format(s=_SCORE.format(n="k"), n="k")
    + ") <= :beam"
)
_BEAM_COLS = (
    "n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, "
    "coalesce(1 - (n.embedding <=> :q), 0) AS sim, "
    "coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside"
)
_WALK = (
    f"WITH RECURSIVE walk AS (SELECT k.*, {_BEAM_RANK} AS kept FROM ("
    f" SELECT 1 AS depth, {_BEAM_COLS} FROM nodes n"
    " WHERE n.tenant_id = :t AND n.forest_id = :f AND n.parent_id = ANY(:p) OFFSET 0) k"
    f" UNION ALL SELECT k.*, {_BEAM_RANK} FROM ("
    f" SELECT w.depth + 1, {_BEAM_COLS} FROM walk w JOIN nodes n"
    " ON n.tenant_id = :t AND n.parent_id = w.node_id AND n.forest_id = :f WHERE w.kept OFFSET 0) k"
    ") SELECT node_id, tree_id, leaf_fact_id, leaf_cell_id, sim{plans} "
)
_LEVEL_ORDER = " ORDER BY depth, parent_id, t_start, seq"
# every leaf reached
_BEAM = _WALK + "FROM walk WHERE level = 0" + _LEVEL_ORDER
# the :leaves best live leaves of each tree: a superseded or retracted fact's leaf is left out first
# (a query without a time filter shows such a fact only when its temporal plan pins it, and pinned
# facts join the candidates without browse; it must not take a live leaf's place)
_BEAM_LIVE = (
    _WALK
    + "FROM (SELECT w.*, row_number() OVER (PARTITION BY w.tree_id ORDER BY "
    + _ORDER.format(s=_SCORE.format(n="w"), n="w")
    + ") AS r FROM walk w LEFT JOIN facts x ON x.tenant_id = :t AND x.fact_id = w.leaf_fact_id"
    " WHERE w.level = 0 AND x.superseded_by IS NULL AND x.retracted_at IS NULL) l WHERE r <= :leaves" + _LEVEL_ORDER
)
# (live leaves only, the caller's later statements on generic plans) -> the statement
_STATEMENTS = {
    (live, plans): sql.format(plans=f", {KEY_LOOKUP_PLANS} AS plans" if plans else "")
    for live, sql in ((False, _BEAM), (True, _BEAM_LIVE))
    for plans in (False, True)
}
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
    live_leaves: int = 0,
    *,
    key_lookups_after: bool = False,
) -> list[RowView]:
    """The leaves of a beam descent from ``roots``, in one statement: from each level keep the
    ``beam`` best internal children of each tree, "best" by the cosine to ``q`` less ``penalty``
    outside ``[after, before)``, a NaN after every number, then inside before outside, then the
    node id. Every leaf reached comes back, or with ``live_leaves`` > 0 the ``live_leaves`` best of
    each tree among those not of a superseded or retracted fact (for a query that shows live facts
    only). Rows ``node_id, tree_id, leaf_fact_id, leaf_cell_id, sim`` (the plain cosine), level by
    level and each level as :func:`children_of` orders its rows. ``key_lookups_after``: the
    caller's statements after this one read rows by key only and may run on cached generic plans
    (:data:`~memforest.db.engine.KEY_LOOKUP_PLANS`; the rows then carry a ``plans`` column, to
    ignore)."""
    p = {"t": tenant_id, "f": forest_id, "p": list(roots), "q": q, "beam": beam, "leaves": live_leaves}
    sql = _STATEMENTS[(live_leaves > 0, key_lookups_after)]
    return await fetch_rows(conn, sql, p | {"after": after, "before": before, "penalty": penalty})


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
