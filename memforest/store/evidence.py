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
    "coalesce(1 - (x.embedding <=> :q), 0) AS sim, "
    "(SELECT array_agg(ARRAY[s.external_id, coalesce(tu.external_id, s.external_id || '#' || tu.seq)] "
    " ORDER BY s.time, tu.seq) FROM fact_sources fs "
    " JOIN turns tu ON tu.tenant_id = fs.tenant_id AND tu.turn_id = fs.turn_id "
    " JOIN sessions s ON s.tenant_id = tu.tenant_id AND s.session_id = tu.session_id "
    " WHERE fs.tenant_id = x.tenant_id AND fs.fact_id = x.fact_id AND fs.forest_id = :f) AS sources, "
    "(SELECT array_agg(s.time ORDER BY s.time, tu.seq) FROM fact_sources fs "
    " JOIN turns tu ON tu.tenant_id = fs.tenant_id AND tu.turn_id = fs.turn_id "
    " JOIN sessions s ON s.tenant_id = tu.tenant_id AND s.session_id = tu.session_id "
    " WHERE fs.tenant_id = x.tenant_id AND fs.fact_id = x.fact_id AND fs.forest_id = :f) AS source_times, "
    "{trees} AS trees FROM facts x "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.fact_id = ANY(:ids)"
)
# (tree_id, kind, label) of every tree holding a source, as a text[][] by tree id
_TREES_OF = (
    "(SELECT array_agg(ARRAY[tr.tree_id::text, tr.kind, tr.label] ORDER BY tr.tree_id) FROM placements p "
    " JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id "
    " WHERE p.tenant_id = :t AND p.forest_id = :f AND p.source_kind = '{kind}' AND p.source_id = {col})"
)
_CELLS = (
    "SELECT c.cell_id, c.text, c.t_start, c.t_end, s.external_id AS session_ext, "
    "(SELECT coalesce(1 - (n.embedding <=> :q), 0) FROM nodes n WHERE n.tenant_id = c.tenant_id "
    " AND n.leaf_cell_id = c.cell_id AND n.embedding IS NOT NULL LIMIT 1) AS sim, "
    "(SELECT array_agg(coalesce(tu.external_id, s.external_id || '#' || tu.seq) ORDER BY tu.seq) FROM turns tu "
    " WHERE tu.tenant_id = c.tenant_id AND tu.session_id = c.session_id "
    " AND tu.seq BETWEEN c.turn_from AND c.turn_to) AS turn_ids, "
    "{trees} AS trees FROM cells c JOIN sessions s ON s.tenant_id = c.tenant_id AND s.session_id = c.session_id "
    "WHERE c.tenant_id = :t AND c.forest_id = :f AND c.cell_id = ANY(:ids)"
)


async def facts_with_sim(conn: Conn, tenant_id: uuid.UUID, forest_id: int, ids: Sequence[int], q: Vec) -> list[Row]:
    """The given facts with their cosine to ``q`` (0 without a vector), their sources and trees in
    one statement: ``fact_id, text, valid_from, valid_to, time_text, superseded_by, recorded_at,
    retracted_at, sim, sources`` (``[session external id, client turn id]`` pairs, oldest session
    first) ``, source_times`` (each source's session time, in the same order) ``, trees``
    (``[tree_id, kind, label]`` triples by tree id; see :func:`tree_triples`)."""
    sql = _FACTS.format(trees=_TREES_OF.format(kind="fact", col="x.fact_id"))
    return await fetch_all(conn, sql, {"t": tenant_id, "f": forest_id, "ids": list(ids), "q": q})


async def cells_with_sim(conn: Conn, tenant_id: uuid.UUID, forest_id: int, ids: Sequence[int], q: Vec) -> list[Row]:
    """The given cells with their session, client turn ids, the cosine of their leaf to ``q`` and
    their trees: ``cell_id, text, t_start, t_end, session_ext, sim, turn_ids, trees``."""
    sql = _CELLS.format(trees=_TREES_OF.format(kind="cell", col="c.cell_id"))
    return await fetch_all(conn, sql, {"t": tenant_id, "f": forest_id, "ids": list(ids), "q": q})


def tree_triples(value: Sequence[Sequence[str]] | None) -> list[tuple[int, str, str]]:
    """A ``trees`` column as ``(tree_id, kind, label)`` tuples."""
    return [(int(t[0]), str(t[1]), str(t[2])) for t in value or ()]
