"""Forest recall reads: the candidate channels of the read path (tree roots, nearest facts and
cells, full-text matches, placements, entity labels) and the anchor lookup of time cues.

Vector search always runs under the tenant + forest filter. ``exact=True`` scans the forest
exactly (a MATERIALIZED CTE restricted to the forest, so the planner cannot route it through the
global HNSW index and lose rows to the filter); ``exact=False`` orders by the HNSW index, with the
transaction-local knobs ``use_hnsw`` sets.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from memforest.store.sql import Conn, Row, execute, fetch_all, scalar

Vec = npt.NDArray[np.float32]

# A fact is visible when not retracted; ``as_of`` also asks it to be valid and recorded then.
_FACT_VISIBLE = "x.retracted_at IS NULL"
_FACT_VISIBLE_AS_OF = (
    "(x.retracted_at IS NULL OR x.retracted_at > :as_of) AND x.valid_from <= :as_of "
    "AND x.recorded_at <= :as_of AND (x.valid_to IS NULL OR x.valid_to > :as_of)"
)
# A node is visible as of a time when it starts by then.
_NODE_AS_OF = "AND x.t_start <= :as_of"

_COUNT_FACTS_CAPPED = "SELECT count(*) FROM (SELECT 1 FROM facts WHERE tenant_id = :t AND forest_id = :f LIMIT :cap) s"
_SET_EF_SEARCH = "SET LOCAL hnsw.ef_search = {ef_search:d}"
_SET_ITERATIVE_SCAN = "SET LOCAL hnsw.iterative_scan = relaxed_order"

_NEAREST_FACTS_EXACT = (
    "WITH c AS MATERIALIZED (SELECT x.fact_id, x.embedding FROM facts x "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.embedding IS NOT NULL AND {visible}) "
    "SELECT fact_id, 1 - (embedding <=> :q) AS sim FROM c ORDER BY embedding <=> :q LIMIT :n"
)
_NEAREST_FACTS_HNSW = (
    "WITH c AS MATERIALIZED (SELECT x.fact_id, x.embedding <=> :q AS d FROM facts x "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND {visible} ORDER BY x.embedding <=> :q LIMIT :n) "
    "SELECT fact_id, 1 - d AS sim FROM c ORDER BY d"
)
_CELL_LEAVES = (
    "FROM nodes x WHERE x.tenant_id = :t AND x.forest_id = :f AND x.level = 0 "
    "AND x.leaf_cell_id IS NOT NULL AND x.embedding IS NOT NULL {as_of}"
)
_NEAREST_CELLS_EXACT = (
    "WITH c AS MATERIALIZED (SELECT x.leaf_cell_id, x.embedding {leaves}) "
    "SELECT leaf_cell_id, 1 - (embedding <=> :q) AS sim FROM c ORDER BY embedding <=> :q LIMIT :n"
)
_NEAREST_CELLS_HNSW = (
    "WITH c AS MATERIALIZED (SELECT x.leaf_cell_id, x.embedding <=> :q AS d {leaves} "
    "ORDER BY x.embedding <=> :q LIMIT :n) SELECT leaf_cell_id, 1 - d AS sim FROM c ORDER BY d"
)
_LEXICAL_FACTS = (
    "SELECT x.fact_id, ts_rank_cd(x.tsv, q, 1) AS r FROM facts x, to_tsquery('english', :tsq) q "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.tsv @@ q AND {visible} ORDER BY r DESC, x.fact_id LIMIT :n"
)
_LEXICAL_NODES = (
    "SELECT x.node_id, x.tree_id, x.level, x.leaf_cell_id, ts_rank_cd(x.tsv, q, 1) AS r "
    "FROM nodes x, to_tsquery('english', :tsq) q "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.tsv @@ q AND x.leaf_fact_id IS NULL {as_of} "
    "ORDER BY r DESC, x.node_id LIMIT :n"
)
_PLACEMENT_TREES = (
    "SELECT source_id, tree_id FROM placements WHERE tenant_id = :t AND forest_id = :f "
    "AND source_kind = :k AND source_id = ANY(:ids)"
)
_ROOTED_TREES = (
    "SELECT tree_id, kind, label, root_node_id, height FROM trees "
    "WHERE tenant_id = :t AND forest_id = :f AND kind = ANY(:kinds) AND root_node_id IS NOT NULL"
)
# roots by primary key (a short list), so no plan can wander through the forest's nodes
_ROOT_NODES = (
    "SELECT node_id, coalesce(summary, '') AS summary, coalesce(1 - (embedding <=> :q), -1) AS sim "
    "FROM nodes WHERE tenant_id = :t AND node_id = ANY(:ids) AND forest_id = :f"
)
_ENTITY_TREES_BY_LABEL = (
    "SELECT tree_id FROM trees WHERE tenant_id = :t AND forest_id = :f AND kind = 'entity' "
    "AND lower(label) = ANY(:names) ORDER BY n_leaves DESC"
)
_LATEST_SESSION_TIME = "SELECT max(time) FROM sessions WHERE tenant_id = :t AND forest_id = :f"
_ANCHOR_CANDIDATES = (
    "SELECT 'fact' AS k, fact_id AS id, text, valid_from AS ts FROM facts WHERE tenant_id = :t "
    "AND forest_id = :f AND fact_id = ANY(:fids) UNION ALL "
    "SELECT 'cell', cell_id, text, t_start FROM cells WHERE tenant_id = :t AND forest_id = :f "
    "AND cell_id = ANY(:cids)"
)


def _fact_visibility(as_of: datetime | None) -> str:
    return _FACT_VISIBLE if as_of is None else _FACT_VISIBLE_AS_OF


def _node_visibility(as_of: datetime | None) -> str:
    return _NODE_AS_OF if as_of is not None else ""


async def count_facts_capped(conn: Conn, tenant_id: uuid.UUID, forest_id: int, cap: int) -> int:
    """Facts of the forest, counting at most ``cap + 1`` (cheap either way)."""
    n = await scalar(conn, _COUNT_FACTS_CAPPED, {"t": tenant_id, "f": forest_id, "cap": cap + 1})
    return int(n or 0)


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
    template = _NEAREST_FACTS_EXACT if exact else _NEAREST_FACTS_HNSW
    sql = template.format(visible=_fact_visibility(as_of))
    return await _nearest(conn, sql, "fact_id", tenant_id, forest_id, q, limit, as_of)


async def nearest_cells(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, q: Vec, limit: int, *, exact: bool, as_of: datetime | None = None
) -> list[tuple[int, float]]:
    """The ``limit`` cell leaves (session trees) nearest to ``q``: ``(cell_id, cosine)``, best first."""
    template = _NEAREST_CELLS_EXACT if exact else _NEAREST_CELLS_HNSW
    sql = template.format(leaves=_CELL_LEAVES.format(as_of=_node_visibility(as_of)))
    return await _nearest(conn, sql, "leaf_cell_id", tenant_id, forest_id, q, limit, as_of)


async def lexical_facts(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, tsq: str, limit: int, as_of: datetime | None
) -> list[tuple[int, float]]:
    """Full-text matches over fact texts, best ``ts_rank_cd`` first."""
    rows = await fetch_all(
        conn,
        _LEXICAL_FACTS.format(visible=_fact_visibility(as_of)),
        {"t": tenant_id, "f": forest_id, "tsq": tsq, "n": limit, "as_of": as_of},
    )
    return [(int(r["fact_id"]), float(r["r"])) for r in rows]


async def lexical_nodes(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, tsq: str, limit: int, as_of: datetime | None
) -> list[Row]:
    """Full-text matches over node texts (summaries and cell leaves), best first:
    ``node_id, tree_id, level, leaf_cell_id, r``."""
    return await fetch_all(
        conn,
        _LEXICAL_NODES.format(as_of=_node_visibility(as_of)),
        {"t": tenant_id, "f": forest_id, "tsq": tsq, "n": limit, "as_of": as_of},
    )


async def placement_trees(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, kind: str, ids: Sequence[int]
) -> dict[int, list[int]]:
    """source id -> tree ids holding it (through placements) for sources of ``kind``."""
    if not ids:
        return {}
    rows = await fetch_all(conn, _PLACEMENT_TREES, {"t": tenant_id, "f": forest_id, "k": kind, "ids": list(ids)})
    out: dict[int, list[int]] = {}
    for r in rows:
        out.setdefault(int(r["source_id"]), []).append(int(r["tree_id"]))
    return out


async def rooted_trees(conn: Conn, tenant_id: uuid.UUID, forest_id: int, kinds: Sequence[str]) -> list[Row]:
    """Trees of the given kinds that have a root: ``tree_id, kind, label, root_node_id, height``."""
    return await fetch_all(conn, _ROOTED_TREES, {"t": tenant_id, "f": forest_id, "kinds": list(kinds)})


async def root_nodes(conn: Conn, tenant_id: uuid.UUID, forest_id: int, q: Vec, node_ids: Sequence[int]) -> list[Row]:
    """The given (root) nodes with their summary and cosine to ``q``: ``node_id, summary, sim``."""
    return await fetch_all(conn, _ROOT_NODES, {"t": tenant_id, "f": forest_id, "q": q, "ids": list(node_ids)})


async def entity_trees_by_label(conn: Conn, tenant_id: uuid.UUID, forest_id: int, names: Sequence[str]) -> list[int]:
    """Entity trees whose lower-cased label is one of ``names``, biggest first."""
    rows = await fetch_all(conn, _ENTITY_TREES_BY_LABEL, {"t": tenant_id, "f": forest_id, "names": list(names)})
    return [int(r["tree_id"]) for r in rows]


async def latest_session_time(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> datetime | None:
    """The time of the forest's latest session (None when it has none)."""
    value: datetime | None = await scalar(conn, _LATEST_SESSION_TIME, {"t": tenant_id, "f": forest_id})
    return value


async def anchor_candidates(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_ids: Sequence[int], cell_ids: Sequence[int]
) -> list[Row]:
    """Text and time of the given facts and cells: ``k`` ('fact' | 'cell'), ``id``, ``text``, ``ts``."""
    return await fetch_all(
        conn,
        _ANCHOR_CANDIDATES,
        {"t": tenant_id, "f": forest_id, "fids": list(fact_ids), "cids": list(cell_ids)},
    )
