"""Forest recall reads: nearest facts and cells (the templates the one-statement recall of
``memforest.store.recall_channels`` reuses), the HNSW knobs, and the anchor lookup of time cues.

Vector search always runs under the tenant + forest filter. ``exact=True`` scans the forest
exactly (a MATERIALIZED CTE restricted to the forest, so the planner cannot route it through the
global HNSW index and lose rows to the filter); ``exact=False`` orders by the HNSW index, with the
transaction-local knobs ``use_hnsw`` sets. The node graphs (roots, cell leaves) are read by their
half-precision key (:func:`node_graph_order`, ADR 0026); the distance a row keeps is the
full-precision one either way.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from memforest.store.forest_indexes import half_precision
from memforest.store.sql import Conn, Row, execute, fetch_all

Vec = npt.NDArray[np.float32]

# A fact is visible when not retracted; ``as_of`` also asks it to be valid and recorded then.
_FACT_VISIBLE = "x.retracted_at IS NULL"
_FACT_VISIBLE_AS_OF = (
    "(x.retracted_at IS NULL OR x.retracted_at > :as_of) AND x.valid_from <= :as_of "
    "AND x.recorded_at <= :as_of AND (x.valid_to IS NULL OR x.valid_to > :as_of)"
)
# A node is visible as of a time when it starts by then.
_NODE_AS_OF = "AND x.t_start <= :as_of"

_SET_EF_SEARCH = "SET LOCAL hnsw.ef_search = {ef_search:d}"
_SET_ITERATIVE_SCAN = "SET LOCAL hnsw.iterative_scan = relaxed_order"

# The exact scans materialise the distance, not the vector: a CTE of 10K 1.5 KB vectors spilled to
# temporary files (ADR 0022); (id, distance) pairs stay in memory.
# Rows at the same distance (equal vectors: a statement restated in several sessions) are kept by
# id, the smallest first: an exact scan orders by distance, then id; an HNSW scan reads
# ``TIE_MARGIN`` rows past the limit (which of several equal rows a graph meets first is its own
# affair), then keeps the nearest of them by full-precision distance and id, so the two keep the
# same rows of a tie of up to ``TIE_MARGIN`` rows past the limit that the graph finds. Those extra
# rows may also replace a row that the iterative scan's relaxed order, or a node graph's
# half-precision key, put before a nearer one (ADR 0024, session 18).
TIE_MARGIN = 8
NEAREST_FACTS_EXACT = (
    "WITH c AS MATERIALIZED (SELECT x.fact_id, x.embedding <=> :q AS d FROM facts x "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.embedding IS NOT NULL AND {visible}) "
    "SELECT fact_id, 1 - d AS sim FROM c ORDER BY d, fact_id LIMIT {lim}"
)
NEAREST_FACTS_HNSW = (
    "WITH c AS MATERIALIZED (SELECT x.fact_id, x.embedding <=> :q AS d FROM facts x "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND {visible} ORDER BY x.embedding <=> :q "
    f"LIMIT {{lim}} + {TIE_MARGIN}) "
    "SELECT fact_id, 1 - d AS sim FROM c ORDER BY d, fact_id LIMIT {lim}"
)
_CELL_LEAVES = (
    "FROM nodes x WHERE x.tenant_id = :t AND x.forest_id = :f AND x.level = 0 "
    "AND x.leaf_cell_id IS NOT NULL AND x.embedding IS NOT NULL {as_of}"
)
NEAREST_CELLS_EXACT = (
    "WITH c AS MATERIALIZED (SELECT x.leaf_cell_id, x.embedding <=> :q AS d {leaves}) "
    "SELECT leaf_cell_id, 1 - d AS sim FROM c ORDER BY d, leaf_cell_id LIMIT {lim}"
)
NEAREST_CELLS_HNSW = (
    "WITH c AS MATERIALIZED (SELECT x.leaf_cell_id, x.embedding <=> :q AS d {leaves} "
    f"ORDER BY {{order}} LIMIT {{lim}} + {TIE_MARGIN}) "
    "SELECT leaf_cell_id, 1 - d AS sim FROM c ORDER BY d, leaf_cell_id LIMIT {lim}"
)
# the forest's tree roots (nodes without a parent; the partial indexes ``ix_nodes_roots`` and the
# forest's ``ix_nodes_root_vec_f<forest>`` hold only them): the root channel of recall reads them
# through ``memforest.store.recall_channels``, which also checks each root's tree
_ROOTS = "FROM nodes x WHERE x.tenant_id = :t AND x.forest_id = :f AND x.parent_id IS NULL AND x.embedding IS NOT NULL"
NEAREST_ROOTS_EXACT = (
    f"WITH c AS MATERIALIZED (SELECT x.node_id, x.embedding <=> :q AS d {_ROOTS}) "
    "SELECT node_id, 1 - d AS sim FROM c ORDER BY d, node_id LIMIT {lim}"
)
NEAREST_ROOTS_HNSW = (
    f"WITH c AS MATERIALIZED (SELECT x.node_id, x.embedding <=> :q AS d {_ROOTS} "
    f"ORDER BY {{order}} LIMIT {{lim}} + {TIE_MARGIN}) "
    "SELECT node_id, 1 - d AS sim FROM c ORDER BY d, node_id LIMIT {lim}"
)
_ANCHOR_CANDIDATES = (
    "SELECT 'fact' AS k, fact_id AS id, text, valid_from AS ts FROM facts WHERE tenant_id = :t "
    "AND forest_id = :f AND fact_id = ANY(:fids) UNION ALL "
    "SELECT 'cell', cell_id, text, t_start FROM cells WHERE tenant_id = :t AND forest_id = :f "
    "AND cell_id = ANY(:cids)"
)


def node_graph_order(dim: int) -> str:
    """The ``ORDER BY`` key of a node ``x`` nearest to ``:q`` (``dim`` dimensions) that a forest's
    half-precision node graph serves (``memforest.store.forest_indexes``)."""
    return f"{half_precision('x.embedding', dim)} <=> {half_precision('CAST(:q AS vector)', dim)}"


def fact_visibility(as_of: datetime | None) -> str:
    """The predicate on facts ``x`` of visibility (as of ``as_of`` when given)."""
    return _FACT_VISIBLE if as_of is None else _FACT_VISIBLE_AS_OF


def node_visibility(as_of: datetime | None) -> str:
    """The ``AND ...`` clause of node visibility as of ``as_of`` (empty without one)."""
    return _NODE_AS_OF if as_of is not None else ""


def cell_leaves_sql(as_of: datetime | None) -> str:
    """``FROM nodes x WHERE ...``: the forest's cell leaves visible as of ``as_of``."""
    return _CELL_LEAVES.format(as_of=node_visibility(as_of))


async def use_hnsw(conn: Conn, ef_search: int) -> None:
    """Session knobs for a filtered HNSW scan (transaction-local)."""
    await execute(conn, _SET_EF_SEARCH.format(ef_search=int(ef_search)))
    await execute(conn, _SET_ITERATIVE_SCAN)


async def _nearest(
    conn: Conn, sql: str, key: str, tenant_id: uuid.UUID, forest_id: int, q: Vec, limit: int, as_of: datetime | None
) -> list[tuple[int, float]]:
    """``(id, cosine)`` of the rows of ``sql`` in order, the first row of each ``key`` id only."""
    params: dict[str, Any] = {"t": tenant_id, "f": forest_id, "q": q, "n": limit, "as_of": as_of}
    out: dict[int, float] = {}
    for r in await fetch_all(conn, sql, params):
        out.setdefault(int(r[key]), float(r["sim"]))
    return list(out.items())


async def nearest_facts(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, q: Vec, limit: int, *, exact: bool, as_of: datetime | None = None
) -> list[tuple[int, float]]:
    """The ``limit`` facts of the forest nearest to ``q``: ``(fact_id, cosine)``, best first."""
    template = NEAREST_FACTS_EXACT if exact else NEAREST_FACTS_HNSW
    sql = template.format(visible=fact_visibility(as_of), lim=":n")
    return await _nearest(conn, sql, "fact_id", tenant_id, forest_id, q, limit, as_of)


async def nearest_cells(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, q: Vec, limit: int, *, exact: bool, as_of: datetime | None = None
) -> list[tuple[int, float]]:
    """The ``limit`` cell leaves (session trees) nearest to ``q``: ``(cell_id, cosine)``, best first."""
    template = NEAREST_CELLS_EXACT if exact else NEAREST_CELLS_HNSW
    sql = template.format(leaves=cell_leaves_sql(as_of), lim=":n", order=node_graph_order(len(q)))
    return await _nearest(conn, sql, "leaf_cell_id", tenant_id, forest_id, q, limit, as_of)


async def nearest_roots(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, q: Vec, limit: int, *, exact: bool, as_of: datetime | None = None
) -> list[tuple[int, float]]:
    """The ``limit`` tree roots of the forest nearest to ``q``: ``(node_id, cosine)``, best first
    (``as_of`` is accepted for a common signature: roots are read as they are now)."""
    template = NEAREST_ROOTS_EXACT if exact else NEAREST_ROOTS_HNSW
    sql = template.format(lim=":n", order=node_graph_order(len(q)))
    return await _nearest(conn, sql, "node_id", tenant_id, forest_id, q, limit, as_of)


async def anchor_candidates(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_ids: Sequence[int], cell_ids: Sequence[int]
) -> list[Row]:
    """Text and time of the given facts and cells: ``k`` ('fact' | 'cell'), ``id``, ``text``, ``ts``."""
    return await fetch_all(
        conn,
        _ANCHOR_CANDIDATES,
        {"t": tenant_id, "f": forest_id, "fids": list(fact_ids), "cids": list(cell_ids)},
    )
