"""Evidence assembly reads: the facts and cells the read path proposed, with their similarity to
the query and the scoring trees that hold them (one statement for all candidates), then the
provenance (session and client turn ids) and tree labels of the few items kept (one statement).

Provenance is read for the kept items only: ranking never looks at it, and reading it for every
candidate (a few hundred, each with its own sources) was most of the cost of the old per-fact
subplans (ADR 0022, "Open").
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memforest.store.recall import Vec
from memforest.store.sql import Conn, RowView, fetch_rows

# (tree_id, kind, label) of every tree holding a source, as an array of records (the driver hands
# them over as typed tuples: no text to parse), in no particular order: a subplan per row, whose
# cost stays linear in the candidates whatever plan the planner picks (a grouped join was faster
# as a custom plan but its generic plan, estimating a few rows, rescanned it per cell)
_TREES_OF = (
    "(SELECT array_agg(ROW(tr.tree_id, tr.kind, tr.label)) FROM placements p "
    " JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id "
    " WHERE p.tenant_id = :t AND p.forest_id = :f AND p.source_kind = '{kind}' AND p.source_id = {col})"
)
# the ids of those scoring trees (``:rt``, the recalled ones) that hold a source, and the smallest id
# of every tree holding it, in one lookup of its placements: ranking looks at the scoring trees
# only, and an item's label names its best scoring tree, else that first tree (the one the label
# rule picks when no tree scores). Reading every tree of every candidate with its kind and label
# (above) cost assembly 0.3-0.6 ms more a query at 1K-100K facts (ADR 0024, session 15); the labels
# of the few items kept come from :func:`provenance`. (One scan of placements by the scoring trees' key,
# joined to the candidates, was slower: those trees hold thousands of sources at 100K facts.)
# A candidate whose trees the caller knows already (``:k{kind}``: read by the query's own vector
# channels, an earlier statement of this READ COMMITTED transaction) skips the lookup: the test of
# its id is a one-time filter of each rescan, which then reads no placements (both columns NULL;
# the caller fills them in).
_IN_TREES = (
    "LEFT JOIN LATERAL (SELECT min(p.tree_id) AS first_tree, "
    "array_agg(p.tree_id) FILTER (WHERE p.tree_id = ANY(:rt)) AS in_trees FROM placements p "
    "WHERE p.tenant_id = :t AND p.source_kind = '{kind}' AND p.source_id = {col} "
    "AND NOT ({col} = ANY(:k{kind}))) pt ON true "
)
_CANDIDATES_OF = (
    "SELECT 'fact' AS kind, x.fact_id AS id, x.text, x.valid_from AS t_start, x.valid_to AS t_end, x.time_text, "
    "x.superseded_by, x.recorded_at, x.retracted_at, NULL::text AS session_ext, "
    "coalesce(1 - (x.embedding <=> :q), 0) AS sim, {fact_trees} AS trees, {in_trees} AS in_trees, "
    "{first_tree} AS first_tree "
    "FROM facts x {fact_join}WHERE x.tenant_id = :t AND x.forest_id = :f AND x.fact_id = ANY(:fids) "
    "UNION ALL "
    "SELECT 'cell', c.cell_id, c.text, c.t_start, c.t_end, NULL, NULL, NULL, NULL, s.external_id, "
    "(SELECT coalesce(1 - (n.embedding <=> :q), 0) FROM nodes n WHERE n.tenant_id = c.tenant_id "
    " AND n.leaf_cell_id = c.cell_id AND n.embedding IS NOT NULL {cell_sim_known} LIMIT 1), {cell_trees}, {in_trees}, "
    "{first_tree} "
    "FROM cells c JOIN sessions s ON s.tenant_id = c.tenant_id AND s.session_id = c.session_id {cell_join}"
    "WHERE c.tenant_id = :t AND c.forest_id = :f AND c.cell_id = ANY(:cids)"
)
# every tree of every candidate (a scoped query filters on their kinds)
_CANDIDATES = _CANDIDATES_OF.format(
    fact_trees=_TREES_OF.format(kind="fact", col="x.fact_id"),
    cell_trees=_TREES_OF.format(kind="cell", col="c.cell_id"),
    in_trees="NULL::bigint[]",
    first_tree="NULL::bigint",
    fact_join="",
    cell_join="",
    cell_sim_known="",
)
# the scoring trees of every candidate only; a known cell (``:kcell``) reads no leaf vector either
# (its ``sim`` NULL: the caller knows it, the same leaf's cosine)
_CANDIDATES_IN_TREES = _CANDIDATES_OF.format(
    fact_trees="NULL",
    cell_trees="NULL",
    in_trees="pt.in_trees",
    first_tree="pt.first_tree",
    fact_join=_IN_TREES.format(kind="fact", col="x.fact_id"),
    cell_join=_IN_TREES.format(kind="cell", col="c.cell_id"),
    cell_sim_known="AND NOT (c.cell_id = ANY(:kcell))",
)
# a fact's sources: [session external id, client turn id] pairs and the session times, oldest
# session first; a cell's client turn ids in turn order (``times`` NULL); and ``kind:label`` of the
# trees asked for (their labels)
_TURN_ID = "coalesce(tu.external_id, s.external_id || '#' || tu.seq)"
_PROVENANCE = (
    f"SELECT 'fact' AS kind, fs.fact_id AS id, array_agg(ARRAY[s.external_id, {_TURN_ID}] "
    "ORDER BY s.time, tu.seq, tu.turn_id) AS turns, array_agg(s.time ORDER BY s.time, tu.seq, tu.turn_id) AS times, "
    "NULL::text AS tree "
    "FROM fact_sources fs JOIN turns tu ON tu.tenant_id = fs.tenant_id AND tu.turn_id = fs.turn_id "
    "JOIN sessions s ON s.tenant_id = tu.tenant_id AND s.session_id = tu.session_id "
    "WHERE fs.tenant_id = :t AND fs.forest_id = :f AND fs.fact_id = ANY(:fids) GROUP BY fs.fact_id "
    "UNION ALL "
    f"SELECT 'cell', c.cell_id, array_agg(ARRAY[s.external_id, {_TURN_ID}] ORDER BY tu.seq), NULL, NULL "
    "FROM cells c JOIN sessions s ON s.tenant_id = c.tenant_id AND s.session_id = c.session_id "
    "JOIN turns tu ON tu.tenant_id = c.tenant_id AND tu.session_id = c.session_id "
    "AND tu.seq BETWEEN c.turn_from AND c.turn_to "
    "WHERE c.tenant_id = :t AND c.forest_id = :f AND c.cell_id = ANY(:cids) GROUP BY c.cell_id "
    "UNION ALL "
    "SELECT 'tree', tr.tree_id, NULL, NULL, tr.kind || ':' || tr.label FROM trees tr "
    "WHERE tr.tenant_id = :t AND tr.forest_id = :f AND tr.tree_id = ANY(:tids)"
)


async def candidates_with_sim(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    fact_ids: Sequence[int],
    cell_ids: Sequence[int],
    q: Vec,
    scoring_trees: Sequence[int] | None = None,
    known_facts: Sequence[int] = (),
    known_cells: Sequence[int] = (),
) -> list[RowView]:
    """The given facts and cells with their cosine to ``q`` (0 without a vector; a cell's is its
    leaf node's) and their trees, in one statement: ``kind`` (``fact`` | ``cell``), ``id, text,
    t_start, t_end`` (a fact's validity interval, a cell's time span)``, time_text, superseded_by,
    recorded_at, retracted_at`` (NULL for cells)``, session_ext`` (a cell's session external id;
    NULL for facts)``, sim, trees, in_trees, first_tree``. Without ``scoring_trees``, ``trees``
    holds every tree of the item as ``(tree_id, kind, label)`` records in no particular order (see
    :func:`tree_triples`), the other two NULL; with them, ``trees`` is NULL, ``in_trees`` the ids of
    those of ``scoring_trees`` that hold the item (NULL for none) and ``first_tree`` the smallest id
    of every tree holding it. With ``scoring_trees``, the ``known_facts`` and ``known_cells`` (whose
    trees the caller read in an earlier statement of this transaction) read no placements:
    ``in_trees`` and ``first_tree`` NULL, and a known cell's ``sim`` NULL too (ADR 0035). Facts
    come first; order within a kind is unspecified."""
    p = {"t": tenant_id, "f": forest_id, "fids": list(fact_ids), "cids": list(cell_ids), "q": q}
    if scoring_trees is None:
        return await fetch_rows(conn, _CANDIDATES, p)
    known = {"kfact": list(known_facts), "kcell": list(known_cells)}
    return await fetch_rows(conn, _CANDIDATES_IN_TREES, p | {"rt": list(scoring_trees)} | known)


async def provenance(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    fact_ids: Sequence[int],
    cell_ids: Sequence[int],
    tree_ids: Sequence[int] = (),
) -> list[RowView]:
    """The sources of the given facts, the turns of the given cells and the names of the given
    trees, in one statement: ``kind, id, turns`` (``[session external id, client turn id]`` pairs;
    a fact's oldest session first, a cell's in turn order)``, times`` (a fact's session time per
    pair; NULL for cells)``, tree`` (NULL); and for each tree a row ``tree, id, NULL, NULL,
    kind:label``. A fact or cell with no sources or turns has no row."""
    p = {"t": tenant_id, "f": forest_id, "fids": list(fact_ids), "cids": list(cell_ids), "tids": list(tree_ids)}
    return await fetch_rows(conn, _PROVENANCE, p)


def tree_triples(value: Sequence[tuple[int, str, str]] | None) -> list[tuple[int, str, str]]:
    """A ``trees`` column as a list of ``(tree_id, kind, label)`` tuples (the driver decodes the
    records as such)."""
    return list(value or ())
