"""Reads of the read path's tree descent (``emb`` beam and ``llm`` navigator): the children of a
frontier of nodes, the leaves of the whole ``emb`` beam descent in one statement, and the vectors
of the leaves reached (statements named in ``memforest/store/queries/descent.sql``: ADR 0037)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memforest.store import queries
from memforest.store.recall import Vec
from memforest.store.sql import Conn, Row, RowView, as_vector, fetch_all, fetch_rows

_Q = queries.load("descent")
# the children of a frontier by (with the cosine to a query)
_CHILDREN = {True: _Q["children_with_sim"], False: _Q["children_without_sim"]}
# The emb beam descent in one statement, which chooses the beam itself (its order and shape:
# ``descent.sql``), by (live leaves only, the caller's later statements on generic plans)
_STATEMENTS = {
    (False, False): _Q["beam_every_leaf"],
    (False, True): _Q["beam_every_leaf_then_key_lookups"],
    (True, False): _Q["beam_live_leaves"],
    (True, True): _Q["beam_live_leaves_then_key_lookups"],
}
# the same descent and assembly's candidates in one statement, by (live leaves only); the caller's
# later statements on generic plans
_WITH_CANDIDATES = {
    False: _Q["beam_every_leaf_and_candidates_then_key_lookups"],
    True: _Q["beam_live_leaves_and_candidates_then_key_lookups"],
}
_NODE_SUMMARIES = _Q["node_summaries"]
_NODE_VECTORS = _Q["node_vectors"]


async def children_of(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, parents: Sequence[int], q: Vec | None
) -> list[Row]:
    """Children of ``parents`` in time order (by parent), with ``sim``, the cosine to ``q`` (0 when
    ``q`` is None or the node has no vector): ``node_id, parent_id, tree_id, level, leaf_fact_id,
    leaf_cell_id, t_start, t_end, summary, sim``."""
    sql = _CHILDREN[q is not None]
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


async def beam_descent_and_candidates(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    roots: Sequence[int],
    q: Vec,
    beam: int,
    after: datetime | None,
    before: datetime | None,
    penalty: float,
    live_leaves: int,
    candidates: tuple[Sequence[int], Sequence[int], Sequence[int]],
) -> tuple[list[RowView], list[RowView]]:
    """:func:`beam_descent` (``key_lookups_after``) and, in the same statement, what
    ``evidence.candidates_with_sim`` reads with scoring trees for ``candidates`` = ``(fact_ids,
    cell_ids, scoring_trees)`` plus the facts and cells of the leaves reached: the leaf rows
    (``id`` the node id, ``tree_id, leaf_fact_id, leaf_cell_id, sim``, in :func:`beam_descent`'s
    order) and the candidate rows (in no particular order)."""
    fact_ids, cell_ids, scoring_trees = candidates
    p = {"t": tenant_id, "f": forest_id, "p": list(roots), "q": q, "beam": beam, "leaves": live_leaves}
    p |= {"after": after, "before": before, "penalty": penalty}
    p |= {"fids": list(fact_ids), "cids": list(cell_ids), "rt": list(scoring_trees)}
    rows = await fetch_rows(conn, _WITH_CANDIDATES[live_leaves > 0], p)
    cut = next((i for i, r in enumerate(rows) if r["kind"] != "leaf"), len(rows))
    return rows[:cut], rows[cut:]


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
