"""Evidence assembly reads: the facts and cells the read path proposed, with their similarity to
the query and the trees that hold them (one statement for all candidates), then the provenance
(session and client turn ids) of the few items kept (one statement).

Provenance is read for the kept items only: ranking never looks at it, and reading it for every
candidate (a few hundred, each with its own sources) was most of the cost of the old per-fact
subplans (ADR 0022, "Open").
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memforest.store.recall import Vec
from memforest.store.sql import Conn, Row, fetch_all

# (tree_id, kind, label) of every tree holding a source, as an array of records (the driver hands
# them over as typed tuples: no text to parse), in no particular order: a subplan per row, whose
# cost stays linear in the candidates whatever plan the planner picks (a grouped join was faster
# as a custom plan but its generic plan, estimating a few rows, rescanned it per cell)
_TREES_OF = (
    "(SELECT array_agg(ROW(tr.tree_id, tr.kind, tr.label)) FROM placements p "
    " JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id "
    " WHERE p.tenant_id = :t AND p.forest_id = :f AND p.source_kind = '{kind}' AND p.source_id = {col})"
)
_CANDIDATES = (
    "SELECT 'fact' AS kind, x.fact_id AS id, x.text, x.valid_from AS t_start, x.valid_to AS t_end, x.time_text, "
    "x.superseded_by, x.recorded_at, x.retracted_at, NULL::text AS session_ext, "
    f"coalesce(1 - (x.embedding <=> :q), 0) AS sim, {_TREES_OF.format(kind='fact', col='x.fact_id')} AS trees "
    "FROM facts x WHERE x.tenant_id = :t AND x.forest_id = :f AND x.fact_id = ANY(:fids) "
    "UNION ALL "
    "SELECT 'cell', c.cell_id, c.text, c.t_start, c.t_end, NULL, NULL, NULL, NULL, s.external_id, "
    "(SELECT coalesce(1 - (n.embedding <=> :q), 0) FROM nodes n WHERE n.tenant_id = c.tenant_id "
    " AND n.leaf_cell_id = c.cell_id AND n.embedding IS NOT NULL LIMIT 1), "
    f"{_TREES_OF.format(kind='cell', col='c.cell_id')} "
    "FROM cells c JOIN sessions s ON s.tenant_id = c.tenant_id AND s.session_id = c.session_id "
    "WHERE c.tenant_id = :t AND c.forest_id = :f AND c.cell_id = ANY(:cids)"
)
# a fact's sources: [session external id, client turn id] pairs and the session times, oldest
# session first; a cell's client turn ids in turn order (``times`` NULL)
_TURN_ID = "coalesce(tu.external_id, s.external_id || '#' || tu.seq)"
_PROVENANCE = (
    f"SELECT 'fact' AS kind, fs.fact_id AS id, array_agg(ARRAY[s.external_id, {_TURN_ID}] "
    "ORDER BY s.time, tu.seq, tu.turn_id) AS turns, array_agg(s.time ORDER BY s.time, tu.seq, tu.turn_id) AS times "
    "FROM fact_sources fs JOIN turns tu ON tu.tenant_id = fs.tenant_id AND tu.turn_id = fs.turn_id "
    "JOIN sessions s ON s.tenant_id = tu.tenant_id AND s.session_id = tu.session_id "
    "WHERE fs.tenant_id = :t AND fs.forest_id = :f AND fs.fact_id = ANY(:fids) GROUP BY fs.fact_id "
    "UNION ALL "
    f"SELECT 'cell', c.cell_id, array_agg(ARRAY[s.external_id, {_TURN_ID}] ORDER BY tu.seq), NULL "
    "FROM cells c JOIN sessions s ON s.tenant_id = c.tenant_id AND s.session_id = c.session_id "
    "JOIN turns tu ON tu.tenant_id = c.tenant_id AND tu.session_id = c.session_id "
    "AND tu.seq BETWEEN c.turn_from AND c.turn_to "
    "WHERE c.tenant_id = :t AND c.forest_id = :f AND c.cell_id = ANY(:cids) GROUP BY c.cell_id"
)


async def candidates_with_sim(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_ids: Sequence[int], cell_ids: Sequence[int], q: Vec
) -> list[Row]:
    """The given facts and cells with their cosine to ``q`` (0 without a vector; a cell's is its
    leaf node's) and their trees, in one statement: ``kind`` (``fact`` | ``cell``), ``id, text,
    t_start, t_end`` (a fact's validity interval, a cell's time span)``, time_text, superseded_by,
    recorded_at, retracted_at`` (NULL for cells)``, session_ext`` (a cell's session external id;
    NULL for facts)``, sim, trees`` (``(tree_id, kind, label)`` records in no particular order;
    see :func:`tree_triples`). Facts come first; order within a kind is unspecified."""
    p = {"t": tenant_id, "f": forest_id, "fids": list(fact_ids), "cids": list(cell_ids), "q": q}
    return await fetch_all(conn, _CANDIDATES, p)


async def provenance(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_ids: Sequence[int], cell_ids: Sequence[int]
) -> list[Row]:
    """The sources of the given facts and the turns of the given cells, in one statement: ``kind,
    id, turns`` (``[session external id, client turn id]`` pairs; a fact's oldest session first, a
    cell's in turn order)``, times`` (a fact's session time per pair; NULL for cells). An item with
    no sources or turns has no row."""
    p = {"t": tenant_id, "f": forest_id, "fids": list(fact_ids), "cids": list(cell_ids)}
    return await fetch_all(conn, _PROVENANCE, p)


def tree_triples(value: Sequence[tuple[int, str, str]] | None) -> list[tuple[int, str, str]]:
    """A ``trees`` column as a list of ``(tree_id, kind, label)`` tuples (the driver decodes the
    records as such)."""
    return list(value or ())
