"""Stored vectors that tests compare: each cell's facts' vectors, and their weighted mean."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from memforest.store.sql import Conn, as_vector, fetch_all

Vector = npt.NDArray[np.float32]


async def facts_by_cell(conn: Conn, forest_id: int | None = None) -> dict[int, list[tuple[Vector, int]]]:
    """cell_id -> the vector and length of each distinct fact drawn from its turns (the whole
    tenant, or one forest)."""
    where = "" if forest_id is None else "WHERE s.forest_id = :f "
    rows = await fetch_all(
        conn,
        "SELECT DISTINCT s.cell_id, s.fact_id, x.embedding, length(x.text) AS chars FROM fact_sources s "
        f"JOIN facts x ON x.tenant_id = s.tenant_id AND x.fact_id = s.fact_id {where}",
        {"f": forest_id},
    )
    out: dict[int, list[tuple[Vector, int]]] = {}
    for r in rows:
        out.setdefault(int(r["cell_id"]), []).append((as_vector(r["embedding"]), int(r["chars"])))
    return out


def weighted_unit_mean(weighted: list[tuple[Vector, int]]) -> Vector:
    """The unit-norm mean of the vectors, each weighted by its weight (computed here, not by the
    code under test)."""
    total: Vector = np.zeros_like(weighted[0][0])
    for vector, weight in weighted:
        total = total + vector * np.float32(weight)
    return total / np.float32(np.linalg.norm(total))
