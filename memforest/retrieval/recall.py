"""Forest recall: candidate trees from root similarity, fact-to-tree and full-text matches,
fused by reciprocal-rank fusion; plus the direct fact/cell hits, kept as evidence candidates.

Vector search always runs under the tenant + forest filter. A forest with at most
``exact_scan_max_rows`` rows is scanned exactly (a MATERIALIZED CTE restricted to the forest,
so the planner cannot route it through the global HNSW index and lose rows to the filter);
larger forests use HNSW with ``hnsw.iterative_scan = relaxed_order`` and ``hnsw.ef_search``.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.retrieval.preset import RetrievalPreset
from memforest.store.sql import execute, fetch_all, scalar
from memforest.text.lexicon import STOPWORDS
from memforest.text.terms import tokenize

Vec = npt.NDArray[np.float32]
_TERM_RE = re.compile(r"[^a-z0-9]+")


@dataclass(slots=True)
class TreeHit:
    """One recalled tree: its fused score and the rank it had in each channel (1 = best)."""

    tree_id: int
    kind: str
    label: str
    root_node_id: int | None
    height: int
    score: float = 0.0
    ranks: dict[str, int] = field(default_factory=dict)
    root_summary: str = ""


@dataclass(slots=True)
class RecallResult:
    """Top trees and the direct hits found on the way."""

    trees: list[TreeHit]
    fact_sims: dict[int, float]  # fact_id -> cosine
    cell_sims: dict[int, float]  # cell_id -> cosine (of its leaf node)
    fact_lex: dict[int, float]  # fact_id -> ts_rank_cd
    cell_lex: dict[int, float]  # cell_id -> ts_rank_cd
    strategy: str  # "exact" | "hnsw"
    forest_rows: int  # facts counted (capped at exact_scan_max_rows + 1)


def or_tsquery(text: str) -> str | None:
    """An OR-of-terms tsquery string for ``to_tsquery('english', ...)``; None when no terms remain."""
    terms: list[str] = []
    for tok in tokenize(text):
        t = _TERM_RE.sub("", tok.lower())
        if len(t) < 2 or t in STOPWORDS or tok in STOPWORDS or t in terms:
            continue
        terms.append(t)
    return " | ".join(terms) if terms else None


def fact_visibility_sql(alias: str, as_of: datetime | None) -> str:
    """SQL condition: the fact is not retracted, and (with ``as_of``) valid and recorded then."""
    if as_of is None:
        return f"{alias}.retracted_at IS NULL"
    return (
        f"({alias}.retracted_at IS NULL OR {alias}.retracted_at > :as_of) AND {alias}.valid_from <= :as_of "
        f"AND {alias}.recorded_at <= :as_of AND ({alias}.valid_to IS NULL OR {alias}.valid_to > :as_of)"
    )


async def count_capped(conn: AsyncConnection, table: str, tenant_id: uuid.UUID, forest_id: int, cap: int) -> int:
    """Rows of ``table`` in the forest, counting at most ``cap + 1`` (cheap either way)."""
    n = await scalar(
        conn,
        f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE tenant_id = :t AND forest_id = :f LIMIT :cap) s",
        {"t": tenant_id, "f": forest_id, "cap": cap + 1},
    )
    return int(n or 0)


async def use_hnsw(conn: AsyncConnection, preset: RetrievalPreset) -> None:
    """Session knobs for a filtered HNSW scan (transaction-local)."""
    await execute(conn, f"SET LOCAL hnsw.ef_search = {int(preset.hnsw_ef_search)}")
    await execute(conn, "SET LOCAL hnsw.iterative_scan = relaxed_order")


async def nearest_facts(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    q: Vec,
    limit: int,
    *,
    exact: bool,
    as_of: datetime | None = None,
) -> list[tuple[int, float]]:
    """The ``limit`` facts of the forest nearest to ``q`` (cosine), best first."""
    vis = fact_visibility_sql("x", as_of)
    params: dict[str, Any] = {"t": tenant_id, "f": forest_id, "q": q, "n": limit, "as_of": as_of}
    if exact:
        sql = (
            "WITH c AS MATERIALIZED (SELECT x.fact_id, x.embedding FROM facts x "
            f"WHERE x.tenant_id = :t AND x.forest_id = :f AND x.embedding IS NOT NULL AND {vis}) "
            "SELECT fact_id, 1 - (embedding <=> :q) AS sim FROM c ORDER BY embedding <=> :q LIMIT :n"
        )
    else:
        sql = (
            "WITH c AS MATERIALIZED (SELECT x.fact_id, x.embedding <=> :q AS d FROM facts x "
            f"WHERE x.tenant_id = :t AND x.forest_id = :f AND {vis} ORDER BY x.embedding <=> :q LIMIT :n) "
            "SELECT fact_id, 1 - d AS sim FROM c ORDER BY d"
        )
    rows = await fetch_all(conn, sql, params)
    return [(int(r["fact_id"]), float(r["sim"])) for r in rows]


async def nearest_cells(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    q: Vec,
    limit: int,
    *,
    exact: bool,
    as_of: datetime | None = None,
) -> list[tuple[int, float]]:
    """The ``limit`` cell leaves (session trees) nearest to ``q``: ``(cell_id, cosine)``, best first."""
    time_cond = "AND x.t_start <= :as_of" if as_of is not None else ""
    params: dict[str, Any] = {"t": tenant_id, "f": forest_id, "q": q, "n": limit, "as_of": as_of}
    base = (
        "FROM nodes x WHERE x.tenant_id = :t AND x.forest_id = :f AND x.level = 0 "
        f"AND x.leaf_cell_id IS NOT NULL AND x.embedding IS NOT NULL {time_cond}"
    )
    if exact:
        sql = (
            f"WITH c AS MATERIALIZED (SELECT x.leaf_cell_id, x.embedding {base}) "
            "SELECT leaf_cell_id, 1 - (embedding <=> :q) AS sim FROM c ORDER BY embedding <=> :q LIMIT :n"
        )
    else:
        sql = (
            f"WITH c AS MATERIALIZED (SELECT x.leaf_cell_id, x.embedding <=> :q AS d {base} "
            "ORDER BY x.embedding <=> :q LIMIT :n) SELECT leaf_cell_id, 1 - d AS sim FROM c ORDER BY d"
        )
    rows = await fetch_all(conn, sql, params)
    out: dict[int, float] = {}
    for r in rows:
        out.setdefault(int(r["leaf_cell_id"]), float(r["sim"]))
    return list(out.items())


async def lexical_facts(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, tsq: str, limit: int, as_of: datetime | None
) -> list[tuple[int, float]]:
    """Full-text matches over fact texts, best ``ts_rank_cd`` first."""
    vis = fact_visibility_sql("x", as_of)
    rows = await fetch_all(
        conn,
        "SELECT x.fact_id, ts_rank_cd(x.tsv, q, 1) AS r FROM facts x, to_tsquery('english', :tsq) q "
        f"WHERE x.tenant_id = :t AND x.forest_id = :f AND x.tsv @@ q AND {vis} ORDER BY r DESC, x.fact_id LIMIT :n",
        {"t": tenant_id, "f": forest_id, "tsq": tsq, "n": limit, "as_of": as_of},
    )
    return [(int(r["fact_id"]), float(r["r"])) for r in rows]


async def lexical_nodes(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, tsq: str, limit: int, as_of: datetime | None
) -> list[dict[str, Any]]:
    """Full-text matches over node texts (summaries and cell leaves), best first."""
    time_cond = "AND x.t_start <= :as_of" if as_of is not None else ""
    return await fetch_all(
        conn,
        "SELECT x.node_id, x.tree_id, x.level, x.leaf_cell_id, ts_rank_cd(x.tsv, q, 1) AS r "
        "FROM nodes x, to_tsquery('english', :tsq) q "
        f"WHERE x.tenant_id = :t AND x.forest_id = :f AND x.tsv @@ q AND x.leaf_fact_id IS NULL {time_cond} "
        "ORDER BY r DESC, x.node_id LIMIT :n",
        {"t": tenant_id, "f": forest_id, "tsq": tsq, "n": limit, "as_of": as_of},
    )


async def _trees_of(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, kind: str, ids: Sequence[int]
) -> dict[int, list[int]]:
    """source id -> tree ids holding it (through placements)."""
    if not ids:
        return {}
    rows = await fetch_all(
        conn,
        "SELECT source_id, tree_id FROM placements WHERE tenant_id = :t AND forest_id = :f "
        "AND source_kind = :k AND source_id = ANY(:ids)",
        {"t": tenant_id, "f": forest_id, "k": kind, "ids": list(ids)},
    )
    out: dict[int, list[int]] = {}
    for r in rows:
        out.setdefault(int(r["source_id"]), []).append(int(r["tree_id"]))
    return out


def _tree_ranking(hits: Sequence[tuple[int, float]], trees_of: dict[int, list[int]]) -> list[int]:
    """Trees in order of their best hit (hits are best first)."""
    order: list[int] = []
    seen: set[int] = set()
    for source_id, _ in hits:
        for tid in trees_of.get(source_id, ()):
            if tid not in seen:
                seen.add(tid)
                order.append(tid)
    return order


def rrf(rankings: dict[str, list[int]], k: int) -> dict[int, tuple[float, dict[str, int]]]:
    """Reciprocal-rank fusion: ``score(t) = sum over channels c of 1 / (k + rank_c(t))``."""
    out: dict[int, tuple[float, dict[str, int]]] = {}
    for channel, ranking in rankings.items():
        for i, tid in enumerate(ranking, start=1):
            score, ranks = out.get(tid, (0.0, {}))
            ranks[channel] = i
            out[tid] = (score + 1.0 / (k + i), ranks)
    return out


async def recall(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    question: str,
    q: Vec,
    preset: RetrievalPreset,
    *,
    as_of: datetime | None = None,
    scope_kinds: Sequence[str] | None = None,
) -> RecallResult:
    """Rank the forest's trees for ``question`` and keep the top ``preset.top_trees``."""
    rows = await count_capped(conn, "facts", tenant_id, forest_id, preset.exact_scan_max_rows)
    exact = rows <= preset.exact_scan_max_rows
    if not exact:
        await use_hnsw(conn, preset)
    kinds = list(scope_kinds) if scope_kinds else ["session", "entity", "scene"]
    tree_rows = await fetch_all(
        conn,
        "SELECT tree_id, kind, label, root_node_id, height FROM trees "
        "WHERE tenant_id = :t AND forest_id = :f AND kind = ANY(:kinds) AND root_node_id IS NOT NULL",
        {"t": tenant_id, "f": forest_id, "kinds": kinds},
    )
    # roots by primary key (a short list), so no plan can wander through the forest's nodes
    root_rows = await fetch_all(
        conn,
        "SELECT node_id, coalesce(summary, '') AS summary, coalesce(1 - (embedding <=> :q), -1) AS sim "
        "FROM nodes WHERE tenant_id = :t AND node_id = ANY(:ids) AND forest_id = :f",
        {"t": tenant_id, "f": forest_id, "q": q, "ids": [int(r["root_node_id"]) for r in tree_rows]},
    )
    roots = {int(r["node_id"]): r for r in root_rows}
    trees = {int(r["tree_id"]): r for r in tree_rows if int(r["root_node_id"]) in roots}
    root_order = sorted(trees, key=lambda tid: (-float(roots[int(trees[tid]["root_node_id"])]["sim"]), tid))
    fact_hits = await nearest_facts(conn, tenant_id, forest_id, q, preset.fact_candidates, exact=exact, as_of=as_of)
    cell_hits = await nearest_cells(conn, tenant_id, forest_id, q, preset.cell_candidates, exact=exact, as_of=as_of)
    tsq = or_tsquery(question)
    lex_facts: list[tuple[int, float]] = []
    lex_nodes: list[dict[str, Any]] = []
    if tsq is not None:
        lex_facts = await lexical_facts(conn, tenant_id, forest_id, tsq, preset.lexical_candidates, as_of)
        lex_nodes = await lexical_nodes(conn, tenant_id, forest_id, tsq, preset.lexical_candidates, as_of)
    fact_trees = await _trees_of(conn, tenant_id, forest_id, "fact", [f for f, _ in fact_hits + lex_facts])
    cell_trees = await _trees_of(conn, tenant_id, forest_id, "cell", [c for c, _ in cell_hits])
    lex_tree_order: list[int] = []
    for r in lex_nodes:
        if int(r["tree_id"]) not in lex_tree_order:
            lex_tree_order.append(int(r["tree_id"]))
    label_rows = await fetch_all(
        conn,
        "SELECT tree_id FROM trees WHERE tenant_id = :t AND forest_id = :f AND kind = 'entity' "
        "AND lower(label) = ANY(:names) ORDER BY n_leaves DESC",
        {"t": tenant_id, "f": forest_id, "names": sorted({t.lower() for t in tokenize(question)} - STOPWORDS)},
    )
    rankings = {
        "root": root_order[: preset.root_candidates],
        "fact": _tree_ranking(fact_hits, fact_trees),
        "cell": _tree_ranking(cell_hits, cell_trees),
        "lexical_fact": _tree_ranking(lex_facts, fact_trees),
        "lexical_node": lex_tree_order,
        "label": [int(r["tree_id"]) for r in label_rows],
    }
    fused = rrf(rankings, preset.rrf_k)
    hits: list[TreeHit] = []
    for tid, (score, ranks) in fused.items():
        row = trees.get(tid)
        if row is None:  # a tree of another scope kind, or one without a root yet
            continue
        hits.append(
            TreeHit(
                tree_id=tid,
                kind=str(row["kind"]),
                label=str(row["label"]),
                root_node_id=int(row["root_node_id"]),
                height=int(row["height"]),
                score=score,
                ranks=ranks,
                root_summary=str(roots[int(row["root_node_id"])]["summary"]),
            )
        )
    hits.sort(key=lambda h: (-h.score, h.tree_id))
    return RecallResult(
        trees=hits[: preset.top_trees],
        fact_sims=dict(fact_hits),
        cell_sims=dict(cell_hits),
        fact_lex=dict(lex_facts),
        cell_lex={int(r["leaf_cell_id"]): float(r["r"]) for r in lex_nodes if r["leaf_cell_id"] is not None},
        strategy="exact" if exact else "hnsw",
        forest_rows=rows,
    )
