"""Forest recall: candidate trees from root similarity, fact-to-tree and full-text matches,
fused by reciprocal-rank fusion; plus the direct fact/cell hits, kept as evidence candidates.

A forest with its own HNSW indexes (built once it passed ``exact_scan_max_rows`` facts, ADR 0024)
is searched through them with ``hnsw.ef_search`` from the preset; any other forest is scanned
exactly (the reads live in ``memforest.store.recall``).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memforest.db.engine import Database
from memforest.errors import NotFoundError
from memforest.retrieval.beside import hand_on
from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.question import Question
from memforest.store import recall_channels as channels
from memforest.store.reading import ReadTransaction, read_beside
from memforest.store.recall import Vec
from memforest.store.sql import RowView


@dataclass(slots=True)
class RankedTree:
    """One recalled tree: its fused score and the rank it had in each channel (1 = best)."""

    tree_id: int
    kind: str
    label: str
    root_node_id: int | None
    height: int
    score: float = 0.0
    ranks: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class RecallResult:
    """Top trees and the direct hits found on the way."""

    trees: list[RankedTree]
    fact_sims: dict[int, float]  # fact_id -> cosine
    cell_sims: dict[int, float]  # cell_id -> cosine (of its leaf node)
    fact_lex: dict[int, float]  # fact_id -> ts_rank_cd
    cell_lex: dict[int, float]  # cell_id -> ts_rank_cd
    strategy: str  # "exact" | "hnsw"
    # the forest as the vector channels' statement found it (None: no forest of that id any more)
    forest: channels.RecallForest | None = None


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


# channels looked up by id, never ranked: their rows keep the statements' order (a tree read by
# both transactions: the query's own row last, the one kept; ADR 0035)
_LOOKED_UP = frozenset({"tree", "forest"})


def _best_first(r: RowView) -> tuple[float, int]:
    return -float(r["s"] or 0.0), int(r["id"])


def _by_channel(rows: Sequence[RowView]) -> dict[str, list[RowView]]:
    """The rows of each channel, the ranked ones best first (ties by id, as the statements order them)."""
    out: dict[str, list[RowView]] = {}
    for r in rows:
        out.setdefault(str(r["ch"]), []).append(r)
    for channel, channel_rows in out.items():
        if channel not in _LOOKED_UP:
            channel_rows.sort(key=_best_first)
    return out


def _hits(rows: Sequence[RowView]) -> tuple[list[tuple[int, float]], dict[int, list[int]]]:
    """``(id, score)`` best first (first row of an id wins) and id -> trees holding it."""
    hits: dict[int, float] = {}
    trees: dict[int, list[int]] = {}
    for r in rows:
        hits.setdefault(int(r["id"]), float(r["s"]))
        trees.setdefault(int(r["id"]), list(r["trees"] or ()))  # bigint[]: ints already
    return list(hits.items()), trees


async def _read_channels(
    tx: ReadTransaction,
    forest_id: int,
    question: Question,
    q: Vec | None,
    preset: RetrievalPreset,
    parts: Sequence[channels.ChannelPart],
    *,
    indexed: bool,
    as_of: datetime | None,
    scope_kinds: Sequence[str] | None,
) -> list[RowView]:
    """The rows of the channels of ``parts`` for ``question`` (``q`` None without vector channels):
    through the forest's own indexes when it has them, else by scanning it, full text included."""
    limits = channels.ChannelLimits(
        roots=preset.root_candidates,
        facts=preset.fact_candidates,
        cells=preset.cell_candidates,
        lexical=preset.lexical_candidates,
        lexical_cap=preset.lexical_scan_cap,
        roots_read=channels.roots_read(preset.root_candidates, scoped=bool(scope_kinds)),
    )
    kinds = list(scope_kinds) if scope_kinds else ["session", "entity", "scene"]
    return await tx.channels(
        forest_id, q, question.search_terms, kinds, question.entity_keys, limits,
        indexed=indexed, as_of=as_of, parts=parts,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class LexicalRows:
    """The full-text channels' rows read beside a query, and the forest they were read from."""

    forest_id: int
    rows: list[RowView]


async def lexical_beside(
    db: Database,
    tenant_id: uuid.UUID,
    forest_name: str,
    question: Question,
    preset: RetrievalPreset,
    *,
    as_of: datetime | None = None,
    scope_kinds: Sequence[str] | None = None,
    known: channels.RecallForest | None = None,
    handed: asyncio.Future[LexicalRows | None] | None = None,
) -> LexicalRows | None:
    """The full-text channels' rows for :func:`recall` (its ``lexical``), read in a transaction of
    the side pool that needs nothing from the query's own: started with the query, they run while
    the question is embedded and the vector channels read (ADR 0024). The forest is the ``known``
    one (the query's cache entry), else looked up by name here too. None when the side pool had no
    free connection or found no forest of that name: recall then reads them in the query's own
    transaction, whose own lookup decides whether the forest exists (it may have been made between
    the two lookups). ``handed``: set to the rows as soon as they are read, before the side
    transaction's COMMIT, which is then off the query's path."""

    async def read(side: ReadTransaction) -> LexicalRows | None:
        try:
            found = known or await side.forest(forest_name, preset.hnsw_ef_search)
        except NotFoundError:
            return None
        rows = await _read_channels(
            side, found.forest.forest_id, question, None, preset, ("lexical",),
            indexed=found.indexed, as_of=as_of, scope_kinds=scope_kinds,
        )  # fmt: skip
        return hand_on(handed, LexicalRows(found.forest.forest_id, rows))

    return await read_beside(db, tenant_id, read)


async def recall(
    tx: ReadTransaction,
    forest_id: int,
    question: Question,
    q: Vec,
    preset: RetrievalPreset,
    *,
    as_of: datetime | None = None,
    scope_kinds: Sequence[str] | None = None,
    indexed: bool | None = None,
    lexical: Awaitable[LexicalRows | None] | None = None,
) -> RecallResult:
    """Rank the forest's trees for ``question`` and keep the top ``preset.top_trees``: every channel
    in one statement, or the vector channels alone when the full-text channels' rows come as
    ``lexical`` (:func:`lexical_beside`, awaited after the vector channels' statement; read here
    after all when it brings none, or rows of another forest of that name). First, unless the
    caller says whether the forest has its own indexes, a round trip to ask the catalogue and set
    the HNSW knobs."""
    if indexed is None:
        indexed = await tx.indexed(forest_id, preset.hnsw_ef_search)

    async def read(parts: Sequence[channels.ChannelPart]) -> list[RowView]:
        return await _read_channels(
            tx, forest_id, question, q, preset, parts, indexed=indexed, as_of=as_of, scope_kinds=scope_kinds
        )

    if lexical is None:
        got = await read(channels.PARTS)
    else:
        got = await read(("vector",))
        beside = await lexical
        if beside is not None and beside.forest_id == forest_id:
            got = beside.rows + got  # (this transaction's tree rows last: they are the ones kept)
        else:  # the side pool was busy, or the name found no forest yet or another one (deleted and made again)
            got = await read(("lexical",)) + got
    return _fused(tx.tenant_id, _by_channel(got), preset, exact=not indexed)


def _fused(
    tenant_id: uuid.UUID, channel: dict[str, list[RowView]], preset: RetrievalPreset, *, exact: bool
) -> RecallResult:
    """The recall result of the channels' rows: their tree rankings fused, the top trees kept."""
    trees = {int(r["id"]): r for r in channel.get("tree", ())}
    fact_hits, fact_trees = _hits(channel.get("fact", []))
    cell_hits, cell_trees = _hits(channel.get("cell", []))
    lex_facts, lex_fact_trees = _hits(channel.get("lexical_fact", []))
    lex_nodes = channel.get("lexical_node", [])
    lex_tree_order: list[int] = []
    for r in lex_nodes:
        if int(r["trees"][0]) not in lex_tree_order:
            lex_tree_order.append(int(r["trees"][0]))
    rankings = {
        "root": [int(r["id"]) for r in channel.get("root", ())],
        "fact": _tree_ranking(fact_hits, fact_trees),
        "cell": _tree_ranking(cell_hits, cell_trees),
        "lexical_fact": _tree_ranking(lex_facts, lex_fact_trees),
        "lexical_node": lex_tree_order,
        "label": [int(r["id"]) for r in channel.get("label", ())],
    }
    fused = rrf(rankings, preset.rrf_k)
    hits: list[RankedTree] = []  # the top ``top_trees``, best first (ties: the smaller id), built for those only
    for tid, (score, ranks) in sorted(fused.items(), key=lambda item: (-item[1][0], item[0])):
        if len(hits) >= preset.top_trees:
            break
        row = trees.get(tid)
        if row is None:  # a tree of another scope kind, or one without a root yet
            continue
        hits.append(
            RankedTree(
                tree_id=tid,
                kind=str(row["kind"]),
                label=str(row["label"]),
                root_node_id=int(row["root"]),
                height=int(row["height"]),
                score=score,
                ranks=ranks,
            )
        )
    return RecallResult(
        trees=hits,
        fact_sims=dict(fact_hits),
        cell_sims=dict(cell_hits),
        fact_lex=dict(lex_facts),
        cell_lex={int(r["cell"]): float(r["s"]) for r in lex_nodes if r["cell"] is not None},
        strategy="exact" if exact else "hnsw",
        forest=channels.forest_of_rows(tenant_id, channel.get("forest", ())),
    )
