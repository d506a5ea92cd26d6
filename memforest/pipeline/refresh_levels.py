"""The passes of a refresh: read a forest's lowest dirty level, summarise and embed it outside any
transaction, write it with one statement under the forest's graph lock, and read the next level
after that transaction, outside the lock.

Reads need no lock: every write is checked against what was read. A node is written only where
its version is still the one read, and a commit that hangs a leaf, splits a node or dirties it
again bumps the version of every node it changes, so a summary computed from children read before
such a commit is never written (the node stays dirty for the next pass or refresh). Another
refresh of the forest cannot write meanwhile: refreshes of a forest hold its refresh lock
(``memforest.pipeline.refresh``). Level 1 read with the leaves under it is written only where no
child is dirty still.

A leaf's refresh keeps its summary (it only embeds it), so when the lowest dirty level is the
leaves, level 1 is read with them and summarised from that same read: both levels are then written
in one transaction (leaves first), and the embedder is called once for both.

An embedder whose ``node_vectors`` is ``"children"`` (a model backend by default, ADR 0058) embeds
only the leaves' texts: an inner node's vector is the normalised mean of its children's vectors,
read with the children (a leaf refreshed in the same pass gives its new vector), so no summary is
sent to the model. The summaries are still made and stored (the read path shows them).

An embedder whose ``cell_vectors`` is ``"facts"`` (ADR 0105) gives a cell leaf the mean of the
vectors of the facts drawn from its turns, weighted by their length, so only the texts of cells no
fact came from reach the model. Its refresh passes over a cell leaf that is neither extracted nor
failed while an ingest job of its session is queued or running, and over its ancestors: they stay
dirty until a refresh after that job's commit (a cell whose job is gone is embedded from its text)."""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from memforest.backends.base import BatchSummarizer, Embedder, Summarizer, SummaryInput, UsageLedger, embed_rows
from memforest.db.engine import Database
from memforest.db.tenant_entry import WRITE_PLANS
from memforest.domain import TreeKind
from memforest.store import nodes as store
from memforest.store.sql import Conn, Row, as_vector, lock_forest


@dataclass(slots=True)
class RefreshStats:
    """What one refresh did."""

    levels: list[int] = field(default_factory=list)
    nodes_refreshed: int = 0
    summaries_changed: int = 0
    embedded: int = 0
    stale_writes: int = 0
    lock_wait_s: float = 0.0  # waiting for another refresh of the forest to end
    handed_off: bool = False  # another refresh of the forest was running and took this one's work

    def add(self, other: RefreshStats) -> None:
        self.levels = sorted(set(self.levels) | set(other.levels))
        self.nodes_refreshed += other.nodes_refreshed
        self.summaries_changed += other.summaries_changed
        self.embedded += other.embedded
        self.stale_writes += other.stale_writes
        self.lock_wait_s += other.lock_wait_s
        self.handed_off = self.handed_off or other.handed_off


def summary_hash(summary: str) -> str:
    """The md5 of a summary (the same function the database uses for leaves)."""
    return hashlib.md5(summary.encode()).hexdigest()


@dataclass(slots=True)
class LevelRead:
    """The dirty nodes of one level that a pass refreshes, and their children's summaries."""

    level: int
    nodes: list[Row]
    children: dict[int, list[str]]
    over_leaves: bool = False  # level 1 read with the dirty leaves under it
    # per node, its children's ids and stored vectors (None: none), when read for ``node_vectors``
    child_vectors: dict[int, list[tuple[int, Any]]] = field(default_factory=dict)
    # leaves only, read for ``cell_vectors`` facts: per cell leaf, the vector and length of each fact
    # drawn from it
    cell_facts: dict[int, list[tuple[Any, int]]] = field(default_factory=dict)


@dataclass(slots=True)
class NextRead:
    """The next levels to refresh (one, or the leaves and level 1); when none, how many dirty
    nodes at or below the top level are left."""

    levels: list[LevelRead]
    remaining: int = 0


@dataclass(slots=True)
class LevelWork:
    """What the model work made of a level: a summary, its hash and a new vector (or None) per node."""

    summaries: list[str]
    hashes: list[str]
    vectors: list[Any | None]


def vectors_from_children(embedder: Embedder) -> bool:
    """Whether ``embedder`` gives inner nodes their children's mean vector instead of embedding
    their summaries (its ``node_vectors``, set by the backend factory; absent: summaries)."""
    return getattr(embedder, "node_vectors", "summary") == "children"


def cell_vectors_from_facts(embedder: Embedder) -> bool:
    """Whether ``embedder`` gives cell leaves their facts' mean vector instead of embedding their
    texts (its ``cell_vectors``, set by the backend factory; absent: texts)."""
    return getattr(embedder, "cell_vectors", "text") == "facts"


async def read_next(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    lowest: int,
    top: int,
    *,
    count: bool = True,
    with_vectors: bool = False,
    facts_for_cells: bool = False,
) -> NextRead:
    """The lowest dirty level in ``lowest..top`` (with level 1 when it is the leaves and ``top``
    allows), or, when there is none, the count of dirty nodes left up to ``top`` (-1 without
    ``count``: not counted); ``with_vectors``: with the children's vectors too; ``facts_for_cells``:
    with each cell leaf's facts' vectors, passing over the cell leaves waiting for their ingest job
    and the level-1 nodes above them."""
    waiting = facts_for_cells  # the cell leaves waiting for their job are passed over
    nodes = (
        await store.dirty_nodes_at_lowest_level(conn, tenant_id, forest_id, lowest, top, skip_waiting_cells=waiting)
        if lowest <= top
        else []
    )
    if not nodes:
        left = await store.count_dirty(conn, tenant_id, forest_id, top, skip_waiting_cells=waiting) if count else -1
        return NextRead([], left)
    level = int(nodes[0]["level"])
    reads = [await _with_children(conn, tenant_id, LevelRead(level, nodes, {}), with_vectors, facts_for_cells)]
    if level == 0 and top >= 1:
        # every dirty level-1 node whose dirty children are leaves read here, written before it
        upper = await store.dirty_nodes_at_level(
            conn, tenant_id, forest_id, 1, leaves_pending=True, skip_waiting_cells=waiting
        )
        if upper:
            over = LevelRead(1, upper, {}, over_leaves=True)
            reads.append(await _with_children(conn, tenant_id, over, with_vectors, facts_for_cells))
    return NextRead(reads)


async def _with_children(
    conn: Conn, tenant_id: uuid.UUID, read: LevelRead, with_vectors: bool, facts_for_cells: bool
) -> LevelRead:
    """``read`` with its nodes' children's summaries (none for leaves), and their ids and vectors
    when ``with_vectors``; leaves with ``facts_for_cells``: each cell leaf's facts' vectors."""
    children: dict[int, list[str]] = defaultdict(list)
    vectors: dict[int, list[tuple[int, Any]]] = defaultdict(list)
    if read.level > 0 and read.nodes:
        ids = [int(n["node_id"]) for n in read.nodes]
        for r in await store.child_summaries(conn, tenant_id, ids, with_vectors=with_vectors):
            children[int(r["parent_id"])].append(str(r["summary"] or ""))
            if with_vectors:
                vectors[int(r["parent_id"])].append((int(r["node_id"]), r["embedding"]))
    read.children = children
    read.child_vectors = vectors
    if read.level == 0 and read.nodes and facts_for_cells:
        for r in await store.cell_fact_vectors(conn, tenant_id, [int(n["node_id"]) for n in read.nodes]):
            read.cell_facts.setdefault(int(r["node_id"]), []).append((r["embedding"], int(r["chars"])))
    return read


def mean_vector(vectors: Sequence[Any]) -> list[float] | None:
    """The unit-norm mean of ``vectors`` (None when there are none or they cancel out)."""
    return weighted_mean_vector([(v, 1) for v in vectors])


def weighted_mean_vector(weighted: Sequence[tuple[Any, int]]) -> list[float] | None:
    """The unit-norm mean of the ``(vector, weight)`` pairs' vectors, each weighted by its weight
    (None when there are none or they cancel out)."""
    if not weighted:
        return None
    vectors = np.asarray([as_vector(v) for v, _ in weighted], dtype=np.float32)
    weights = np.asarray([w for _, w in weighted], dtype=np.float32)
    total = (vectors * weights[:, None]).sum(axis=0)
    norm = float(np.linalg.norm(total))
    return [float(x) for x in total / norm] if norm > 1e-12 else None


def _cells_from_facts(
    reads: list[LevelRead], works: list[LevelWork], wanted: list[tuple[LevelWork, int]]
) -> list[tuple[LevelWork, int]]:
    """Give each wanted cell leaf that facts were drawn from the mean of their vectors weighted by
    their length; returns the rest of ``wanted`` (fact leaves, cells no fact came from), whose
    texts go to the model."""
    read_of = {id(w): r for r, w in zip(reads, works, strict=True)}
    rest = []
    for work, i in wanted:
        read = read_of[id(work)]
        work.vectors[i] = weighted_mean_vector(read.cell_facts.get(int(read.nodes[i]["node_id"]), []))
        if work.vectors[i] is None:
            rest.append((work, i))
    return rest


def _children_means(reads: list[LevelRead], works: list[LevelWork]) -> list[tuple[LevelWork, int]]:
    """Set each inner node's vector to its children's mean (a child refreshed in this pass counts
    with its new vector); returns the inner nodes left without one (no child has a vector)."""
    fresh: dict[int, Any] = {}
    left: list[tuple[LevelWork, int]] = []
    for read, work in zip(reads, works, strict=True):
        for i, node in enumerate(read.nodes):
            if read.level > 0:
                kids = read.child_vectors.get(int(node["node_id"]), [])
                got = [fresh.get(cid, v) for cid, v in kids]
                work.vectors[i] = mean_vector([v for v in got if v is not None])
                if work.vectors[i] is None:
                    left.append((work, i))
            if work.vectors[i] is not None:
                fresh[int(node["node_id"])] = work.vectors[i]
    return left


async def summarise_levels(
    reads: list[LevelRead], summarizer: Summarizer, embedder: Embedder, concurrency: int, ledger: UsageLedger | None
) -> list[LevelWork]:
    """Model work for the levels read, outside any transaction: summaries (a leaf keeps its own),
    then one embedder call for every node whose summary has no vector yet (with ``node_vectors``
    ``"children"``: every leaf whose text has none; inner nodes take their children's mean, and
    only those with no child vector embed their summary; with ``cell_vectors`` ``"facts"``, a cell
    leaf that facts were drawn from takes their weighted mean instead of a model call)."""
    gate = asyncio.Semaphore(concurrency)

    async def summarise(read: LevelRead, node: Row) -> str:
        async with gate:
            return await summarizer.summarize(_summary_input(read, node), ledger=ledger)

    works = []
    for read in reads:
        if read.level == 0:
            summaries = [str(n["summary"] or "") for n in read.nodes]
        elif isinstance(summarizer, BatchSummarizer):
            summaries = await summarizer.summarize_many([_summary_input(read, n) for n in read.nodes], ledger=ledger)
        else:
            summaries = list(await asyncio.gather(*(summarise(read, n) for n in read.nodes)))
        works.append(LevelWork(summaries, [summary_hash(s) for s in summaries], [None] * len(summaries)))
    from_children = vectors_from_children(embedder)
    wanted = [
        (w, i)
        for r, w in zip(reads, works, strict=True)
        for i, n in enumerate(r.nodes)
        if (n["no_embedding"] or n["embedded_hash"] != w.hashes[i]) and not (from_children and r.level > 0)
    ]
    if cell_vectors_from_facts(embedder):
        wanted = _cells_from_facts(reads, works, wanted)
    await _embed_summaries(wanted, embedder, ledger)
    if from_children:
        await _embed_summaries(_children_means(reads, works), embedder, ledger)
    return works


def _summary_input(read: LevelRead, node: Row) -> SummaryInput:
    """What the summariser gets for an inner node of ``read``."""
    return SummaryInput(
        tree_kind=TreeKind(node["kind"]),
        tree_label=str(node["label"]),
        t_start=node["t_start"],
        t_end=node["t_end"],
        child_texts=tuple(read.children.get(int(node["node_id"]), [])),
        level=read.level,
    )


async def _embed_summaries(wanted: list[tuple[LevelWork, int]], embedder: Embedder, ledger: UsageLedger | None) -> None:
    """Embed the summaries of the ``(work, index)`` nodes in one embedder call."""
    if wanted:
        vectors = await embed_rows(embedder, [w.summaries[i] for w, i in wanted], stage="embed", ledger=ledger)
        for (w, i), v in zip(wanted, vectors, strict=True):
            w.vectors[i] = v


async def write_levels(
    conn: Conn, tenant_id: uuid.UUID, reads: list[LevelRead], works: list[LevelWork]
) -> tuple[RefreshStats, int]:
    """Write the levels in order, one statement each, each node only where its version is still the
    one read; a level with a stale write ends the writes (the levels above it wait for the next
    pass, as their children are still dirty). Returns the stats and the last level written."""
    stats = RefreshStats()
    last = reads[0].level
    for read, work in zip(reads, works, strict=True):
        nodes = read.nodes
        last = read.level
        stats.levels.append(read.level)
        stats.embedded += sum(1 for v in work.vectors if v is not None)
        stats.summaries_changed += sum(1 for i, n in enumerate(nodes) if n["summary_hash"] != work.hashes[i])
        if not nodes:
            continue
        written = await store.write_summaries(
            conn, tenant_id, [int(n["node_id"]) for n in nodes], [int(n["version"]) for n in nodes],
            work.summaries, work.hashes, work.vectors, children_clean=read.over_leaves,
        )  # fmt: skip
        stats.nodes_refreshed += len(written)
        stats.stale_writes += len(nodes) - len(written)
        if len(written) < len(nodes):
            break
    return stats, last


async def passes(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    top: int,
    model: tuple[Summarizer, Embedder, int, UsageLedger | None],
    max_passes: int,
    stats: RefreshStats,
) -> bool:
    """Passes over the dirty levels up to ``top`` (under the refresh lock) until none is left dirty
    (returns True) or a pass made no progress or ``max_passes`` ran out (False; the last pass does
    not count what is left). A pass opens one transaction to read its first level, then per level
    (or pair of levels) one that takes the forest's graph lock and writes it, and one that reads
    the next level (none when there is nothing above to read or count)."""
    summarizer, embedder, concurrency, ledger = model
    vec, facts = vectors_from_children(embedder), cell_vectors_from_facts(embedder)
    for n in range(max_passes):
        progressed, count = False, n + 1 < max_passes
        async with db.tenant(tenant_id) as conn:
            nxt = await read_next(
                conn, tenant_id, forest_id, 0, top, count=count, with_vectors=vec, facts_for_cells=facts
            )
        while nxt.levels:
            works = await summarise_levels(nxt.levels, summarizer, embedder, concurrency, ledger)
            async with db.tenant(tenant_id, knobs=WRITE_PLANS) as conn:
                if any(r.nodes for r in nxt.levels):
                    await lock_forest(conn, tenant_id, forest_id, "graph")  # short write, ordered with structural edits
                done, last = await write_levels(conn, tenant_id, nxt.levels, works)
            progressed = progressed or done.nodes_refreshed > 0
            stats.add(done)
            nxt = NextRead([], -1)
            if last + 1 <= top or count:
                # after the write's transaction, without the lock: as the pass's first read (see read_next)
                async with db.tenant(tenant_id) as conn:
                    nxt = await read_next(
                        conn, tenant_id, forest_id, last + 1, top, count=count, with_vectors=vec, facts_for_cells=facts
                    )
        if not nxt.remaining:
            return True
        if not progressed:
            return False
    return False
