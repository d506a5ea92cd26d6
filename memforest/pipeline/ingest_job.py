"""Run one ingest job: extract every pending cell of the session in parallel (no transaction),
then canonicalise, route and insert in one short transaction under the forest lock, then refresh.

Crash safety: a cell is marked extracted in the same transaction that commits its facts, so a
worker killed at any instant leaves either nothing or everything of that commit; the job's lease
expires and another worker redoes only what is missing. Placements and sources are unique, so a
retry never duplicates a fact, leaf or placement."""

from __future__ import annotations

import asyncio
import logging
import random
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from memforest import tracing
from memforest.backends.base import UsageLedger, embed_rows
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.db.tenant_entry import WRITE_PLANS
from memforest.domain import Candidate, CellTurn, CellView
from memforest.errors import MemForestError
from memforest.memtree.model import InsertStats
from memforest.pipeline.canonical import SourceRef, clean_surface
from memforest.pipeline.canonical_batch import canonicalize_many
from memforest.pipeline.commit_order import COMMITS, LOCAL_SESSIONS, OlderPending, commit_in_order
from memforest.pipeline.job_bell import DELIVERIES
from memforest.pipeline.refresh import RefreshStats, refresh_forest
from memforest.pipeline.route import FactForRouting, Router
from memforest.pipeline.slots import declare_calls, release_slot
from memforest.settings import Settings
from memforest.store import cells, jobs, sessions
from memforest.store.sql import Conn, lock_forest

log = logging.getLogger(__name__)


@dataclass(slots=True)
class IngestCounts:
    """Counts one ingest job produced (summed over jobs by the service)."""

    sessions: int = 0
    cells_extracted: int = 0
    cells_failed: int = 0
    candidates: int = 0
    facts_new: int = 0
    facts_merged: int = 0
    facts_duplicate: int = 0
    facts_superseded: int = 0
    leaves: int = 0
    splits: int = 0
    nodes_refreshed: int = 0
    summaries_changed: int = 0
    embedded: int = 0
    entities_activated: int = 0
    scenes_spawned: int = 0
    refresh_handoffs: int = 0  # eager refreshes left to a refresh of the forest already running
    stage_wall_s: dict[str, float] = field(default_factory=dict)

    def add(self, other: IngestCounts) -> None:
        for name in self.__dataclass_fields__:
            if name == "stage_wall_s":
                for k, v in other.stage_wall_s.items():
                    self.stage_wall_s[k] = self.stage_wall_s.get(k, 0.0) + v
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))

    def add_refresh(self, refreshed: RefreshStats) -> None:
        """Fold what a refresh did into these counts."""
        self.nodes_refreshed += refreshed.nodes_refreshed
        self.summaries_changed += refreshed.summaries_changed
        self.embedded += refreshed.embedded
        self.refresh_handoffs += int(refreshed.handed_off)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "stage_wall_s"}
        out["stage_wall_s"] = {k: round(v, 4) for k, v in sorted(self.stage_wall_s.items())}
        return out


@dataclass(slots=True)
class CellWork:
    """A pending cell and what extraction made of it."""

    cell_id: int
    view: CellView
    turn_ids: dict[int, int]  # turn seq -> turn_id
    candidates: list[Candidate] = field(default_factory=list)
    error: str | None = None


async def load_session_cells(
    db: Database, tenant_id: uuid.UUID, session_id: int
) -> tuple[int, list[CellWork], set[str]]:
    """The not yet extracted cells of a session as extraction work (each with its turns' view), in a
    short read transaction. Returns ``(forest_id, work, speakers)``, speakers being every speaker of
    the session's turns; MemForestError when the session is gone."""
    async with db.tenant(tenant_id) as conn:
        rows = await sessions.session_work(conn, tenant_id, session_id)
    if not rows:
        raise MemForestError(f"session {session_id} is gone")
    first = rows[0]
    by_seq = {int(r["seq"]): r for r in rows if r["seq"] is not None}
    pending = {int(r["cell_id"]): r for r in rows if r["cell_id"] is not None}
    work = []
    for c in sorted(pending.values(), key=lambda r: int(r["cell_seq"])):
        members = [by_seq[s] for s in range(int(c["turn_from"]), int(c["turn_to"]) + 1)]
        view = CellView(
            session_external_id=str(first["session_external_id"]),
            session_time=first["session_time"],
            turns=tuple(
                CellTurn(
                    seq=int(m["seq"]), speaker=str(m["speaker"]), text=str(m["text"]), time=m["time"],
                    external_id=m["external_id"], role=m["role"],
                )
                for m in members
            ),
        )  # fmt: skip
        work.append(CellWork(int(c["cell_id"]), view, {int(m["seq"]): int(m["turn_id"]) for m in members}))
    speakers = {str(t["speaker"]) for t in by_seq.values()}
    return int(first["forest_id"]), work, speakers


async def _extract_all(work: list[CellWork], backends: Backends, settings: Settings, ledger: UsageLedger) -> None:
    gate = asyncio.Semaphore(settings.pipeline.extract_concurrency)
    attempts = settings.pipeline.extract_max_attempts

    async def one(cell: CellWork) -> None:
        for attempt in range(1, attempts + 1):
            try:
                async with gate:
                    cell.candidates = await backends.extractor.extract(cell.view, ledger=ledger)
                cell.error = None
                return
            except MemForestError as exc:
                cell.error = str(exc)
                log.warning("extraction of cell %s failed (attempt %s/%s): %s", cell.cell_id, attempt, attempts, exc)
                if attempt < attempts:
                    await asyncio.sleep(min(8.0, 0.2 * 2**attempt) * random.random())

    await asyncio.gather(*(one(c) for c in work))


async def embed_candidates(
    work: list[CellWork], backends: Backends, ledger: UsageLedger
) -> dict[tuple[int, int], np.ndarray[Any, Any]]:
    """Put each cell's candidates in time order (the order :func:`commit_cells` writes them) and embed them in
    one batch, keyed by (cell_id, position in that order)."""
    keys: list[tuple[int, int]] = []
    texts: list[str] = []
    for cell in work:
        cell.candidates.sort(key=lambda c: (c.valid_from, c.source_turn_seqs))
        for i, cand in enumerate(cell.candidates):
            keys.append((cell.cell_id, i))
            texts.append(clean_surface(cand.text))
    vectors = await embed_rows(backends.embedder, texts, stage="embed", ledger=ledger)
    return dict(zip(keys, vectors, strict=True))


async def mark_cells(
    conn: Conn, tenant_id: uuid.UUID, work: Sequence[CellWork], counts: IngestCounts
) -> list[CellWork]:
    """Record failed cells' errors and mark the others extracted (two statements for all cells).
    Returns the cells this transaction marked, in order: those another worker committed meanwhile
    are left out."""
    failed = [c for c in work if c.error is not None]
    if failed:
        await cells.record_extract_errors(
            conn, tenant_id, [c.cell_id for c in failed], [(c.error or "")[:2000] for c in failed]
        )
        counts.cells_failed += len(failed)
    ok = [c for c in work if c.error is None]
    if not ok:
        return []
    marked = await cells.mark_extracted(conn, tenant_id, [c.cell_id for c in ok])
    counts.cells_extracted += len(marked)
    return [c for c in ok if c.cell_id in marked]


async def commit_candidates(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    session_id: int,
    router: Router,
    picks: Sequence[tuple[CellWork, int]],
    embeddings: dict[tuple[int, int], np.ndarray[Any, Any]],
    settings: Settings,
    counts: IngestCounts,
) -> None:
    """Canonicalise the picked candidates ``(cell, index)`` in order (one batch: as canonicalising each
    in turn would), then route every new fact, hanging all their leaves with one batched insert.
    Routing reads nothing canonicalisation writes besides the new facts themselves, so this equals
    routing each new fact right after canonicalising it."""
    items = []
    for cell, i in picks:
        cand = cell.candidates[i]  # already in time order; i keys the embedding
        turn_ids = tuple(cell.turn_ids[s] for s in cand.source_turn_seqs if s in cell.turn_ids)
        source = SourceRef(session_id, cell.cell_id, turn_ids or tuple(cell.turn_ids.values()), said_at=cell.view.t_end)
        items.append((cand, embeddings[(cell.cell_id, i)], source))
    with tracing.span("canonicalise", stage="canonicalise", candidates=len(items)):
        outcomes = await canonicalize_many(
            conn, tenant_id, forest_id, items, near_threshold=settings.pipeline.near_duplicate_threshold
        )
    new: list[FactForRouting] = []
    for (cand, emb, _), outcome in zip(items, outcomes, strict=True):
        counts.candidates += 1
        if outcome.status == "merged":
            counts.facts_merged += 1
        elif outcome.status == "duplicate":
            counts.facts_duplicate += 1
        else:
            counts.facts_new += 1
            if outcome.superseded is not None:
                counts.facts_superseded += 1
            new.append(
                FactForRouting(
                    fact_id=outcome.fact_id, session_id=session_id, text=clean_surface(cand.text),
                    entities=cand.entities, topics=cand.topics, valid_from=cand.valid_from, embedding=emb,
                )
            )  # fmt: skip
    await router.route_many(new, fresh=True)


def add_structure_counts(counts: IngestCounts, insert_stats: InsertStats, router: Router) -> None:
    """Fold a commit's structural counters into ``counts``."""
    counts.leaves += insert_stats.leaves
    counts.splits += insert_stats.splits
    counts.entities_activated += router.stats.entities_activated
    counts.scenes_spawned += router.stats.scenes_spawned


async def commit_cells(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    session_id: int,
    work: list[CellWork],
    speakers: set[str],
    embeddings: dict[tuple[int, int], np.ndarray[Any, Any]],
    settings: Settings,
    counts: IngestCounts,
    check_order: bool = False,
) -> bool:
    """Commit extracted cells in one transaction under the forest lock (:func:`mark_cells`: record
    failed cells' errors, mark the others extracted, leaving out those another worker committed
    meanwhile), canonicalise, route and insert the candidates of the cells this call marked with
    their ``embeddings`` (keyed as :func:`embed_candidates` returns), and, with coalesced refresh,
    schedule the forest's refresh job. Adds to ``counts``. Returns whether, with coalesced and burst
    refresh, a session of the forest accepted after this one has yet to commit. With ``check_order``,
    raises OlderPending (nothing written) when an older session of the forest is still to commit
    (ADR 0014)."""
    more_coming = False
    insert_stats = InsertStats()
    async with db.tenant(tenant_id, knobs=WRITE_PLANS) as conn:
        if not check_order:
            await lock_forest(conn, tenant_id, forest_id, "graph")
        elif await jobs.older_uncommitted_or_lock(conn, tenant_id, forest_id, session_id):
            raise OlderPending(session_id)
        router = Router(conn, tenant_id, forest_id, settings.pipeline, insert_stats)
        router.defer_speakers(speakers)
        live = await mark_cells(conn, tenant_id, work, counts)
        picks = [(cell, i) for cell in live for i in range(len(cell.candidates))]
        await commit_candidates(conn, tenant_id, forest_id, session_id, router, picks, embeddings, settings, counts)
        await router.finish()
        if coalesced(settings):
            await jobs.schedule_refresh(
                conn, tenant_id, forest_id, due_commits=settings.pipeline.refresh_coalesce_commits,
                delay_s=settings.pipeline.refresh_coalesce_delay_s,
            )  # fmt: skip
            if settings.pipeline.burst_refresh_handoff:
                more_coming = await jobs.younger_uncommitted(conn, tenant_id, forest_id, session_id)
    add_structure_counts(counts, insert_stats, router)
    return more_coming


def coalesced(settings: Settings) -> bool:
    """Whether ingest jobs leave the upper levels to a coalesced per-forest refresh job (ADR 0013)."""
    return settings.pipeline.refresh_coalesce_commits > 1


async def run_coalesced_refresh(
    db: Database, settings: Settings, backends: Backends, tenant_id: uuid.UUID, forest_id: int, ledger: UsageLedger
) -> IngestCounts:
    """The refresh job: every dirty node of the forest, all levels, bottom-up."""
    t0 = time.perf_counter()
    with tracing.span("refresh", stage="refresh"):
        refreshed = await refresh_forest(
            db, tenant_id, forest_id, summarizer=backends.summarizer, embedder=backends.embedder,
            concurrency=settings.pipeline.refresh_concurrency, ledger=ledger,
            relook=settings.pipeline.burst_refresh_handoff,
        )  # fmt: skip
    wall = time.perf_counter() - t0
    counts = IngestCounts(stage_wall_s={"refresh_wait": refreshed.lock_wait_s, "refresh": wall - refreshed.lock_wait_s})
    counts.add_refresh(refreshed)
    return counts


async def run_ingest(
    db: Database, settings: Settings, backends: Backends, tenant_id: uuid.UUID, session_id: int, ledger: UsageLedger
) -> tuple[IngestCounts, list[dict[str, Any]]]:
    """Bring one accepted session all the way through the write path. Returns counts and errors."""
    counts = IngestCounts(sessions=1)
    t0 = time.perf_counter()
    forest_id, work, speakers = await load_session_cells(db, tenant_id, session_id)
    with LOCAL_SESSIONS.pending((tenant_id, forest_id), session_id) as committed:
        return await _ingest_loaded(
            db, settings, backends, tenant_id, session_id, ledger, (forest_id, work, speakers), counts, t0, committed
        )


async def _ingest_loaded(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    session_id: int,
    ledger: UsageLedger,
    loaded: tuple[int, list[CellWork], set[str]],
    counts: IngestCounts,
    t0: float,
    committed: Callable[[], None],
) -> tuple[IngestCounts, list[dict[str, Any]]]:
    forest_id, work, speakers = loaded
    declare_calls(min(len(work), settings.pipeline.extract_concurrency))  # (the worker's admission, ADR 0099)
    with tracing.span("extract", stage="extract", cells=len(work)):
        await _extract_all(work, backends, settings, ledger)
    t1 = time.perf_counter()
    with tracing.span("embed", stage="embed"):
        embeddings = await embed_candidates(work, backends, ledger)
    t2 = time.perf_counter()
    release_slot()  # extraction and embedding are done: the worker may start the next job (worker.commit_overlap)
    t_wait = time.perf_counter()
    waited = [0.0]

    async def attempt(check_order: bool) -> bool:
        waited[0] = time.perf_counter() - t_wait  # (the last attempt's start: what came before was waiting)
        return await commit_cells(
            db, tenant_id, forest_id, session_id, work, speakers, embeddings, settings, counts, check_order
        )

    try:
        more_coming = await commit_in_order(
            tenant_id, forest_id, session_id, settings.pipeline.commit_order_wait_s, attempt
        )
    finally:
        committed()
        COMMITS.ring((tenant_id, forest_id))  # younger sessions of this forest may commit now
        DELIVERIES.ring()  # (the commit's memory.changed deliveries go out now)
    t_wait += waited[0]
    t3 = time.perf_counter()
    # With coalescing, only the lowest levels now (this job's own leaves and their parents); the
    # upper levels, shared by many sessions' paths, wait for the forest's refresh job. With
    # burst_refresh_handoff (opt-in, ADR 0025), while a younger session of the forest is still to
    # commit, only the leaves: its commit dirties the same parents again, and the last session of
    # the burst summarises them once; such a job never waits for a running refresh of the forest
    # either (that one takes its dirty leaves over, and the worker goes on to the next session).
    # With coalescing, one pass: what a younger session's commit dirtied meanwhile is refreshed by
    # that session's own job, and the forest's refresh job (queued by every commit) refreshes anything
    # left behind.
    eager = settings.pipeline.refresh_eager_max_level
    burst = more_coming and settings.pipeline.burst_refresh_handoff
    with tracing.span("refresh", stage="refresh"):
        refreshed: RefreshStats = await refresh_forest(
            db, tenant_id, forest_id, summarizer=backends.summarizer, embedder=backends.embedder,
            concurrency=settings.pipeline.refresh_concurrency, ledger=ledger,
            max_level=(0 if burst else eager) if coalesced(settings) else None, hand_off=burst,
            relook=settings.pipeline.burst_refresh_handoff, max_passes=1 if coalesced(settings) else 8,
        )  # fmt: skip
    t4 = time.perf_counter()
    counts.add_refresh(refreshed)
    counts.stage_wall_s = {
        "extract": t1 - t0, "embed": t2 - t1, "commit_wait": t_wait - t2, "commit": t3 - t_wait,
        "refresh_wait": refreshed.lock_wait_s, "refresh": t4 - t3 - refreshed.lock_wait_s,
    }  # fmt: skip
    errors = [{"cell_id": c.cell_id, "error": c.error} for c in work if c.error is not None]
    return counts, errors
