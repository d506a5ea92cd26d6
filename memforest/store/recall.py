"""Forest recall reads: nearest facts, cells and roots, the HNSW knobs, and the anchor lookup of
time cues (statements named in ``memforest/store/queries/recall.sql``: ADR 0037).

Vector search always runs under the tenant + forest filter. ``exact=True`` scans the forest
exactly (a MATERIALIZED CTE restricted to the forest, so the planner cannot route it through the
global HNSW index and lose rows to the filter); ``exact=False`` orders by the HNSW index, with the
transaction-local knobs ``use_hnsw`` sets. The node graphs (roots, cell leaves) are read by their
half-precision key (ADR 0026); the distance a row keeps is the full-precision one either way.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from memforest.store import queries
from memforest.store.sql import Conn, Row, execute, fetch_all

Vec = npt.NDArray[np.float32]

# Rows at the same distance (equal vectors: a statement restated in several sessions) are kept by
# id, the smallest first: an exact scan orders by distance, then id; an HNSW scan reads
# ``TIE_MARGIN`` rows past the limit (written in the statements: ``LIMIT :n + 8``), then keeps the
# nearest of them by full-precision distance and id, so the two keep the same rows of a tie of up
# to ``TIE_MARGIN`` rows past the limit that the graph finds. Those extra rows may also replace a
# row that the iterative scan's relaxed order, or a node graph's half-precision key, put before a
# nearer one (ADR 0024).
TIE_MARGIN = 8
_Q = queries.load("recall")
NearestKind = Literal["facts", "cells", "roots"]
# (kind, scanned exactly, as of a time) -> the statement; roots are read as they are now
_NEAREST = {
    ("facts", True, False): _Q["nearest_facts_exact"],
    ("facts", True, True): _Q["nearest_facts_exact_as_of"],
    ("facts", False, False): _Q["nearest_facts_hnsw"],
    ("facts", False, True): _Q["nearest_facts_hnsw_as_of"],
    ("cells", True, False): _Q["nearest_cells_exact"],
    ("cells", True, True): _Q["nearest_cells_exact_as_of"],
    ("cells", False, False): _Q["nearest_cells_hnsw"],
    ("cells", False, True): _Q["nearest_cells_hnsw_as_of"],
    ("roots", True, False): _Q["nearest_roots_exact"],
    ("roots", True, True): _Q["nearest_roots_exact"],
    ("roots", False, False): _Q["nearest_roots_hnsw"],
    ("roots", False, True): _Q["nearest_roots_hnsw"],
}
_SET_EF_SEARCH = _Q["set_ef_search"]
_SET_ITERATIVE_SCAN = _Q["set_iterative_scan"]
_ANCHOR_CANDIDATES = _Q["anchor_candidates"]


def nearest_sql(kind: NearestKind, *, exact: bool, as_of: datetime | None = None, dim: int = 0) -> str:
    """The statement of the ``:n`` ``kind`` nearest to ``:q``, scanned exactly or through the
    forest's graph (a node graph by its half-precision key, for vectors of ``dim``): rows of the
    kind's key (``fact_id``, ``leaf_cell_id``, ``node_id``) and ``sim``, nearest first."""
    if not exact and kind != "facts" and dim < 1:
        raise ValueError("a node graph's key needs the vectors' dimension")
    return queries.fill(_NEAREST[(kind, exact, as_of is not None)], dim=dim)


async def use_hnsw(conn: Conn, ef_search: int) -> None:
    """Session knobs for a filtered HNSW scan (transaction-local)."""
    await execute(conn, queries.fill(_SET_EF_SEARCH, ef_search=ef_search))
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
    sql = nearest_sql("facts", exact=exact, as_of=as_of)
    return await _nearest(conn, sql, "fact_id", tenant_id, forest_id, q, limit, as_of)


async def nearest_cells(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, q: Vec, limit: int, *, exact: bool, as_of: datetime | None = None
) -> list[tuple[int, float]]:
    """The ``limit`` cell leaves (session trees) nearest to ``q``: ``(cell_id, cosine)``, best first."""
    sql = nearest_sql("cells", exact=exact, as_of=as_of, dim=len(q))
    return await _nearest(conn, sql, "leaf_cell_id", tenant_id, forest_id, q, limit, as_of)


async def nearest_roots(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, q: Vec, limit: int, *, exact: bool, as_of: datetime | None = None
) -> list[tuple[int, float]]:
    """The ``limit`` tree roots of the forest nearest to ``q``: ``(node_id, cosine)``, best first
    (``as_of`` is accepted for a common signature: roots are read as they are now)."""
    sql = nearest_sql("roots", exact=exact, dim=len(q))
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
