"""Evidence assembly reads: the facts and cells the read path proposed, with their provenance
(session and client turn ids), their similarity to the query and the trees that hold them."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memforest.store.recall import Vec
from memforest.store.sql import Conn, Row, fetch_all

_FACTS = (
    "SELECT x.fact_id, x.text, x.valid_from, x.valid_to, x.time_text, x.superseded_by, x.recorded_at, "
    "x.retracted_at, "
    "coalesce(1 - (x.embedding <=> :q), 0) AS sim FROM facts x "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.fact_id = ANY(:ids)"
)
_FACT_SOURCES = (
    "SELECT fs.fact_id, s.external_id AS session_ext, coalesce(tu.external_id, s.external_id || '#' || tu.seq) "
    "AS turn_ext FROM fact_sources fs "
    "JOIN turns tu ON tu.tenant_id = fs.tenant_id AND tu.turn_id = fs.turn_id "
    "JOIN sessions s ON s.tenant_id = tu.tenant_id AND s.session_id = tu.session_id "
    "WHERE fs.tenant_id = :t AND fs.forest_id = :f AND fs.fact_id = ANY(:ids) "
    "ORDER BY fs.fact_id, s.time, tu.seq"
)
_CELLS = (
    "SELECT c.cell_id, c.text, c.t_start, c.t_end, s.external_id AS session_ext, "
    "(SELECT coalesce(1 - (n.embedding <=> :q), 0) FROM nodes n WHERE n.tenant_id = c.tenant_id "
    " AND n.leaf_cell_id = c.cell_id AND n.embedding IS NOT NULL LIMIT 1) AS sim, "
    "(SELECT array_agg(coalesce(tu.external_id, s.external_id || '#' || tu.seq) ORDER BY tu.seq) FROM turns tu "
    " WHERE tu.tenant_id = c.tenant_id AND tu.session_id = c.session_id "
    " AND tu.seq BETWEEN c.turn_from AND c.turn_to) AS turn_ids "
    "FROM cells c JOIN sessions s ON s.tenant_id = c.tenant_id AND s.session_id = c.session_id "
    "WHERE c.tenant_id = :t AND c.forest_id = :f AND c.cell_id = ANY(:ids)"
)
_PLACEMENTS = (
    "SELECT p.source_id, tr.tree_id, tr.kind, tr.label FROM placements p "
    "JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id "
    "WHERE p.tenant_id = :t AND p.forest_id = :f AND p.source_kind = :k AND p.source_id = ANY(:ids) "
    "ORDER BY p.source_id, tr.tree_id"
)


async def facts_with_sim(conn: Conn, tenant_id: uuid.UUID, forest_id: int, ids: Sequence[int], q: Vec) -> list[Row]:
    """The given facts with their cosine to ``q`` (0 without a vector): ``fact_id, text, valid_from,
    valid_to, time_text, superseded_by, recorded_at, retracted_at, sim``."""
    return await fetch_all(conn, _FACTS, {"t": tenant_id, "f": forest_id, "ids": list(ids), "q": q})


async def fact_turns(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, ids: Sequence[int]
) -> dict[int, list[tuple[str, str]]]:
    """fact id -> its sources as ``(session external id, client turn id)``, oldest session first."""
    rows = await fetch_all(conn, _FACT_SOURCES, {"t": tenant_id, "f": forest_id, "ids": list(ids)})
    out: dict[int, list[tuple[str, str]]] = {}
    for r in rows:
        out.setdefault(int(r["fact_id"]), []).append((str(r["session_ext"]), str(r["turn_ext"])))
    return out


async def cells_with_sim(conn: Conn, tenant_id: uuid.UUID, forest_id: int, ids: Sequence[int], q: Vec) -> list[Row]:
    """The given cells with their session, client turn ids and the cosine of their leaf to ``q``:
    ``cell_id, text, t_start, t_end, session_ext, sim, turn_ids``."""
    return await fetch_all(conn, _CELLS, {"t": tenant_id, "f": forest_id, "ids": list(ids), "q": q})


async def source_trees(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, kind: str, ids: Sequence[int]
) -> dict[int, list[tuple[int, str, str]]]:
    """source id -> ``(tree_id, kind, label)`` of every tree holding it, by tree id."""
    rows = await fetch_all(conn, _PLACEMENTS, {"t": tenant_id, "f": forest_id, "k": kind, "ids": list(ids)})
    out: dict[int, list[tuple[int, str, str]]] = {}
    for r in rows:
        out.setdefault(int(r["source_id"]), []).append((int(r["tree_id"]), str(r["kind"]), str(r["label"])))
    return out
