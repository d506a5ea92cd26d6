"""Forest recall: candidate trees from root similarity, fact-to-tree and full-text matches,
fused by reciprocal-rank fusion; plus the direct fact/cell hits, kept as evidence candidates.

A forest with at most ``exact_scan_max_rows`` facts is scanned exactly; larger forests use the
HNSW index with ``hnsw.ef_search`` from the preset (the reads live in ``memforest.store.recall``).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memforest.retrieval.preset import RetrievalPreset
from memforest.store import recall as store
from memforest.store.recall import Vec
from memforest.store.sql import Conn, Row
from memforest.text.lexicon import STOPWORDS
from memforest.text.terms import tokenize

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


async def use_hnsw(conn: Conn, preset: RetrievalPreset) -> None:
    """Session knobs for a filtered HNSW scan with the preset's ``hnsw_ef_search`` (transaction-local)."""
    await store.use_hnsw(conn, preset.hnsw_ef_search)


async def recall(
    conn: Conn,
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
    rows = await store.count_facts_capped(conn, tenant_id, forest_id, preset.exact_scan_max_rows)
    exact = rows <= preset.exact_scan_max_rows
    if not exact:
        await use_hnsw(conn, preset)
    kinds = list(scope_kinds) if scope_kinds else ["session", "entity", "scene"]
    tree_rows = await store.rooted_trees(conn, tenant_id, forest_id, kinds)
    root_rows = await store.root_nodes(conn, tenant_id, forest_id, q, [int(r["root_node_id"]) for r in tree_rows])
    roots = {int(r["node_id"]): r for r in root_rows}
    trees = {int(r["tree_id"]): r for r in tree_rows if int(r["root_node_id"]) in roots}
    root_order = sorted(trees, key=lambda tid: (-float(roots[int(trees[tid]["root_node_id"])]["sim"]), tid))
    fact_hits = await store.nearest_facts(
        conn, tenant_id, forest_id, q, preset.fact_candidates, exact=exact, as_of=as_of
    )
    cell_hits = await store.nearest_cells(
        conn, tenant_id, forest_id, q, preset.cell_candidates, exact=exact, as_of=as_of
    )
    tsq = or_tsquery(question)
    lex_facts: list[tuple[int, float]] = []
    lex_nodes: list[Row] = []
    if tsq is not None:
        lex_facts = await store.lexical_facts(conn, tenant_id, forest_id, tsq, preset.lexical_candidates, as_of)
        lex_nodes = await store.lexical_nodes(conn, tenant_id, forest_id, tsq, preset.lexical_candidates, as_of)
    fact_trees = await store.placement_trees(conn, tenant_id, forest_id, "fact", [f for f, _ in fact_hits + lex_facts])
    cell_trees = await store.placement_trees(conn, tenant_id, forest_id, "cell", [c for c, _ in cell_hits])
    lex_tree_order: list[int] = []
    for r in lex_nodes:
        if int(r["tree_id"]) not in lex_tree_order:
            lex_tree_order.append(int(r["tree_id"]))
    names = sorted({t.lower() for t in tokenize(question)} - STOPWORDS)
    label_trees = await store.entity_trees_by_label(conn, tenant_id, forest_id, names)
    rankings = {
        "root": root_order[: preset.root_candidates],
        "fact": _tree_ranking(fact_hits, fact_trees),
        "cell": _tree_ranking(cell_hits, cell_trees),
        "lexical_fact": _tree_ranking(lex_facts, fact_trees),
        "lexical_node": lex_tree_order,
        "label": label_trees,
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
