"""``query``: a short chain of named stages over one parsed question.

``emb`` mode: resolve the forest, recall, read the question's time, plan a temporal answer, browse
and assemble, all in one read-only transaction (no model call in between but the rare embedding of
an event the forest's "now" found). The full-text channels start at once beside it, in a
transaction of the side pool. ``llm`` mode (:func:`_answer_llm`) recalls the same way, then browses
with model calls between short transactions and assembles in a transaction of its own.
"""

from __future__ import annotations

import asyncio
import functools
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Coroutine, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import numpy as np

from memforest.backends.base import ChatModel, Embedder, UsageLedger
from memforest.backends.llm import LLMNavigator, LLMPlanner
from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.retrieval.anchor import resolve_anchor
from memforest.retrieval.assemble import AssembleOptions, Evidence, RecallCandidate, assemble
from memforest.retrieval.beside import beside
from memforest.retrieval.browse import BrowseLeaf, browse_emb, browse_emb_reading, browse_llm
from memforest.retrieval.filters import SourceFilter, apply_filter
from memforest.retrieval.forest_cache import forest_cache
from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.question import Question, without_names
from memforest.retrieval.recall import LexicalRows, RecallResult, lexical_beside, recall
from memforest.retrieval.request import MODES, QueryAnswer, QueryRequest, TreeScore
from memforest.retrieval.stages import Stages
from memforest.retrieval.temporal.casing import recalled_texts
from memforest.retrieval.temporal.plan import TemporalPlan
from memforest.retrieval.temporal.resolve import ProbeRead, probe_asked, probe_beside, temporal_plan
from memforest.retrieval.timecues import TimeCues
from memforest.settings import Settings
from memforest.store.reading import ReadIntent, ReadTransaction, read_transaction
from memforest.store.recall import Vec
from memforest.store.recall_channels import RecallForest
from memforest.store.sql import Conn, RowView

__all__ = [
    "MODES",
    "AskedQuestion",
    "Evidence",
    "QueryAnswer",
    "QueryBackends",
    "QueryRequest",
    "SourceFilter",
    "ask_question",
    "query",
]

LLM_FALLBACK = "llm mode needs a chat model; none is configured (rule-based backend), so emb was used"


class QueryBackends(Protocol):
    """What the read path needs from the process's backends."""

    @property
    def embedder(self) -> Embedder: ...

    @property
    def chat(self) -> ChatModel | None: ...


@dataclass(frozen=True, slots=True)
class QueryContext:
    """One query's inputs, fixed before any stage runs: the request, its parsed question, the
    preset for its ``k`` items, and where it reads and records."""

    db: Database
    backends: QueryBackends
    tenant_id: uuid.UUID
    request: QueryRequest
    question: Question
    preset: RetrievalPreset
    k: int
    ledger: UsageLedger | None
    stages: Stages


@dataclass(frozen=True, slots=True)
class AskedQuestion:
    """A request's question parsed and embedded once (:func:`ask_question`), which the queries of
    several forests share; ``ms``: what that took."""

    question: Question
    vecs: Vec
    ms: float


@dataclass(frozen=True, slots=True)
class Recalled:
    """What the recall stages found: the forest as it is now, the ranked trees and direct hits,
    and the question's time cues read against the forest's "now" with their event's time."""

    found: RecallForest
    result: RecallResult
    cues: TimeCues
    anchor_time: datetime | None


# a question longer than this is analysed in a worker thread: its analysis reads up to
# CUE_PREFIX_CHARS and may take long enough to hold up other requests on the event loop
ANALYSE_OFF_LOOP_CHARS = 300


async def _parse(request: QueryRequest) -> Question:
    """The request's question, analysed once (in a worker thread when it is long)."""
    now = request.as_of or request.now or datetime.now(UTC)
    parse = functools.partial(
        Question.parse, request.question, now=now, has_as_of=request.as_of is not None, speaker=request.speaker,
        asked_at=request.as_of or request.now,
    )  # fmt: skip
    return parse() if len(request.question) <= ANALYSE_OFF_LOOP_CHARS else await asyncio.to_thread(parse)


async def ask_question(
    backends: QueryBackends, request: QueryRequest, ledger: UsageLedger | None = None, *, names: float = 1.0
) -> AskedQuestion:
    """The request's question parsed, and it (with the event of "before/after <event>") embedded;
    ``names``: the preset's ``names_weight``."""
    t0 = time.perf_counter()
    question = await _parse(request)
    vecs = await _embed_asked(backends, ledger, question, names)
    return AskedQuestion(question, vecs, round((time.perf_counter() - t0) * 1000.0, 3))


async def _context(
    db: Database,
    settings: Settings,
    backends: QueryBackends,
    tenant_id: uuid.UUID,
    request: QueryRequest,
    preset: RetrievalPreset | None,
    ledger: UsageLedger | None,
    asked: AskedQuestion | None,
) -> QueryContext:
    """The query's context: its question parsed once (or ``asked`` already), its ``k`` checked, the
    preset's budgets for it."""
    stages = Stages()
    question = asked.question if asked is not None else await _parse(request)
    preset = preset or RetrievalPreset.for_settings(settings)
    k = request.top_k if request.top_k is not None else preset.top_k
    if not 1 <= k <= settings.api.max_top_k:
        raise InputError(f"top_k must be between 1 and {settings.api.max_top_k}", location="top_k")
    return QueryContext(db, backends, tenant_id, request, question, preset.for_top_k(k), k, ledger, stages)


async def query(
    db: Database,
    settings: Settings,
    backends: QueryBackends,
    tenant_id: uuid.UUID,
    request: QueryRequest,
    *,
    preset: RetrievalPreset | None = None,
    ledger: UsageLedger | None = None,
    asked: AskedQuestion | None = None,
) -> QueryAnswer:
    """Answer ``request`` from the tenant's forest with time-stamped evidence; ``asked``: its
    question parsed and embedded already (:func:`ask_question`, shared by several forests)."""
    ctx = await _context(db, settings, backends, tenant_id, request, preset, ledger, asked)
    known = forest_cache(db).get(tenant_id, request.forest)
    async with _lexical_beside(ctx, known) as lexical, _probe_beside(ctx, known) as probe:
        vecs = asked.vecs if asked is not None else await _embed_question(ctx)
        if request.mode == "llm" and backends.chat is not None:
            return await _answer_llm(ctx, backends.chat, vecs, known, lexical, probe)
        fallback = LLM_FALLBACK if request.mode == "llm" else None
        intent = ReadIntent(
            forest_known=known is not None,
            key_lookups_after_recall=ctx.question.anchor_text is None and request.source_filter is None,
            key_lookups_after_browse=request.source_filter is None,
        )
        async with read_transaction(db, tenant_id, ctx.preset.hnsw_ef_search, intent) as tx:
            recalled = await _recall_stage(ctx, tx, vecs, known, lexical)
            plan = await _temporal_stage(ctx, tx.conn, recalled, probe)
            evidence = await _browse_assemble_stage(ctx, tx, recalled, plan, vecs[0])
    return _answer(ctx, "emb", recalled, plan, evidence, fallback=fallback)


@asynccontextmanager
async def _lexical_beside(
    ctx: QueryContext, known: RecallForest | None
) -> AsyncIterator[asyncio.Future[LexicalRows | None] | None]:
    """The full-text channels' rows, read at once in a transaction of the side pool (they need no
    vector, ``beside.beside``), when the process has one, the question has words to look for and
    the forest is not one known to be read exactly (a small forest: its full text is cheaper in the
    query's own statement than in a transaction of its own)."""
    if ctx.db.side_engine is None or not ctx.question.search_terms or (known is not None and not known.indexed):
        yield None
        return

    def start(rows: asyncio.Future[LexicalRows | None]) -> Coroutine[Any, Any, LexicalRows | None]:
        return lexical_beside(
            ctx.db, ctx.tenant_id, ctx.request.forest, ctx.question, ctx.preset,
            as_of=ctx.request.as_of, scope_kinds=ctx.request.scope_kinds, known=known, handed=rows,
        )  # fmt: skip

    async with beside(start) as rows:
        yield rows


@asynccontextmanager
async def _probe_beside(
    ctx: QueryContext, known: RecallForest | None
) -> AsyncIterator[asyncio.Future[ProbeRead | None] | None]:
    """A temporal question's subject probe (its first temporal statement), read at once in a
    transaction of the side pool (it needs only the question's names, ``beside.beside``), when the
    process has one and the forest is known to have its own indexes (a large forest, whose probe
    scans many of its facts for the texts naming the subject)."""
    if ctx.db.side_engine is None or known is None or not known.indexed:
        yield None
        return
    asked = probe_asked(ctx.question.temporal)
    if asked is None:
        yield None
        return
    forest_id = known.forest.forest_id

    def start(handed: asyncio.Future[ProbeRead | None]) -> Coroutine[Any, Any, ProbeRead | None]:
        return probe_beside(ctx.db, ctx.tenant_id, forest_id, asked, handed)

    async with beside(start) as probe:
        yield probe


async def _embed(backends: QueryBackends, ledger: UsageLedger | None, texts: Sequence[str]) -> Vec:
    """The query embeddings of ``texts``, one row each (float32)."""
    vecs = await backends.embedder.embed(texts, stage="query_embed", ledger=ledger)
    return np.asarray(vecs, dtype=np.float32)


def _embedded_texts(question: Question, names: float) -> list[str]:
    """What a query embeds: the question (its ``matched_text``) and, for "before/after <event>", the
    event; with a ``names`` weight below 1, last, the question without its names when that differs."""
    anchor = question.anchor_text
    asked = question.matched_text
    plain = asked if names >= 1.0 else without_names(asked)
    return [asked] + ([anchor] if anchor else []) + ([plain] if plain != asked else [])


async def _embed_asked(backends: QueryBackends, ledger: UsageLedger | None, question: Question, names: float) -> Vec:
    """The question's vector (and the event's): with a ``names`` weight below 1, the unit weighted
    mean of the vectors of the question as asked (``names``) and without its names (the rest):
    ADR 0068, 0069."""
    texts = _embedded_texts(question, names)
    vecs = await _embed(backends, ledger, texts)
    if len(texts) == 1 + bool(question.anchor_text):
        return vecs
    mean = names * vecs[0] + (1.0 - names) * vecs[-1]
    out = vecs[:-1].copy()
    out[0] = mean / max(float(np.linalg.norm(mean)), 1e-12)
    return out


async def _embed_question(ctx: QueryContext) -> Vec:
    """The question's vector and, for "before/after <event>", the event's: outside any
    transaction (a model server's embedding call holds no pooled connection)."""
    with ctx.stages.timed("embed"):
        return await _embed_asked(ctx.backends, ctx.ledger, ctx.question, ctx.preset.names_weight)


async def _recall_stage(
    ctx: QueryContext,
    tx: ReadTransaction,
    vecs: Vec,
    known: RecallForest | None,
    lexical: asyncio.Future[LexicalRows | None] | None,
) -> Recalled:
    """Resolve the forest, recall its trees, and read the question's time against the forest."""
    req, name, ef = ctx.request, ctx.request.forest, ctx.preset.hnsw_ef_search

    async def recall_in(found: RecallForest, beside: asyncio.Future[LexicalRows | None] | None) -> RecallResult:
        return await recall(
            tx, found.forest.forest_id, ctx.question, vecs[0], ctx.preset,
            as_of=req.as_of, scope_kinds=req.scope_kinds, indexed=found.indexed, lexical=beside,
        )  # fmt: skip

    with ctx.stages.timed("forest"):
        found = known or await tx.forest(name, ef)
    with ctx.stages.timed("recall"):
        result = await recall_in(found, lexical)
    if known is not None and (result.forest is None or result.forest.forest.name != name):
        forest_cache(ctx.db).drop(ctx.tenant_id, name)  # the name means another forest now, or none
        with ctx.stages.timed("forest"):
            found = await tx.forest(name, ef)
        with ctx.stages.timed("recall"):
            result = await recall_in(found, None)
    found = result.forest or found  # (indexes and latest session as they are now)
    forest_cache(ctx.db).put(found)
    with ctx.stages.timed("cues"):
        cues, anchor_time = await _time_stage(ctx, tx, found, result, vecs)
    return Recalled(found, result, cues, anchor_time)


async def _time_stage(
    ctx: QueryContext, tx: ReadTransaction, found: RecallForest, result: RecallResult, vecs: Vec
) -> tuple[TimeCues, datetime | None]:
    """The question's time cues read against the forest's "now" (the query's as_of, else its
    latest session), narrowed by the time of "before/after <event>" when the forest finds it."""
    now = ctx.request.as_of or ctx.request.now or found.latest or datetime.now(UTC)
    cues = ctx.question.cues(now)
    if not cues.anchor_text:
        return cues, None
    await tx.plans_for_parameters()  # (a search by the event's vector)
    same_event = cues.anchor_text == ctx.question.anchor_text  # (else the forest's "now" read another)
    anchor_vec = vecs[1] if same_event else (await _embed(ctx.backends, ctx.ledger, [cues.anchor_text]))[0]
    anchor_time = await resolve_anchor(
        tx.conn, ctx.tenant_id, found.forest.forest_id, cues.anchor_text, anchor_vec,
        exact=result.strategy == "exact", as_of=ctx.request.as_of,
    )  # fmt: skip
    if anchor_time is None:
        return cues, None
    if cues.anchor_side == "before":
        return cues.with_window(None, anchor_time), anchor_time
    return cues.with_window(anchor_time, None), anchor_time


async def _temporal_stage(
    ctx: QueryContext, conn: Conn, recalled: Recalled, probe: Awaitable[ProbeRead | None] | None
) -> TemporalPlan | None:
    """The temporal plan of the question: the states it asks for, pinned into the evidence
    (``probe``: its first statement read beside, :func:`_probe_beside`)."""
    with ctx.stages.timed("temporal"):
        question = await _with_names(ctx, conn, recalled)
        return await temporal_plan(
            conn, ctx.tenant_id, recalled.found.forest.forest_id, question.temporal, ctx.request.as_of,
            recalled.anchor_time, recalled.result.fact_sims, beside=probe,
            slot_rows=ctx.preset.temporal_slot_rows,
        )  # fmt: skip


async def _with_names(ctx: QueryContext, conn: Conn, recalled: Recalled) -> Question:
    """The question, its temporal part read again with the names the facts recall found write
    (``Question.with_names_of``) when it asks about time and is typed all in lower case."""
    question, found = ctx.question, recalled.result
    if question.temporal.operator is None or not question.uncased:
        return question
    forest_id = recalled.found.forest.forest_id
    return question.with_names_of(await recalled_texts(conn, ctx.tenant_id, forest_id, found.fact_sims, found.fact_lex))


async def _browse_assemble_stage(
    ctx: QueryContext, tx: ReadTransaction, recalled: Recalled, plan: TemporalPlan | None, qvec: Vec
) -> list[Evidence]:
    """Browse the recalled trees, then assemble the evidence. Without a source filter (which
    chooses the candidates after browse) or a scope (which reads every tree of each), the beam
    descent's statement also reads assembly's candidates: recall's, the temporal plan's states and
    the leaves it reaches."""
    req, forest_id, result = ctx.request, recalled.found.forest.forest_id, recalled.result
    if req.source_filter is not None or req.scope_kinds is not None:
        with ctx.stages.timed("browse"):
            leaves = await browse_emb(
                tx, forest_id, result.trees, qvec, ctx.preset, recalled.cues, live_only=req.live_only
            )
        return await _assemble_stage(ctx, tx.conn, recalled, leaves, plan, qvec)
    fact_ids = sorted({*result.fact_sims, *result.fact_lex, *(plan.roles if plan is not None else ())})
    cell_ids = sorted({*result.cell_sims, *result.cell_lex})
    read = (fact_ids, cell_ids, sorted({t.tree_id for t in result.trees}))
    with ctx.stages.timed("browse"):
        leaves, rows = await browse_emb_reading(
            tx, forest_id, result.trees, qvec, ctx.preset, recalled.cues, read, live_only=req.live_only
        )
    return await _assemble_stage(ctx, tx.conn, recalled, leaves, plan, qvec, rows)


def _candidates(recalled: RecallResult, leaves: Sequence[BrowseLeaf]) -> dict[tuple[str, int], RecallCandidate]:
    """The candidates of recall and browse, each with the best cosine seen."""
    out = {("fact", fid): RecallCandidate("fact", fid, sim) for fid, sim in recalled.fact_sims.items()}
    out.update((("cell", cid), RecallCandidate("cell", cid, sim)) for cid, sim in recalled.cell_sims.items())
    for kind, lexical in (("fact", recalled.fact_lex), ("cell", recalled.cell_lex)):
        for source_id in lexical:
            if (kind, source_id) not in out:
                out[(kind, source_id)] = RecallCandidate(kind, source_id)
    for lf in leaves:
        if lf.fact_id is not None:
            key = ("fact", int(lf.fact_id))
        elif lf.cell_id is not None:
            key = ("cell", int(lf.cell_id))
        else:
            continue
        cand, sim = out.get(key), lf.sim
        if cand is None:
            out[key] = RecallCandidate(key[0], key[1], sim)
        elif sim is not None:
            cand.sim = sim if cand.sim is None else max(cand.sim, sim)
    return out


async def _assemble_stage(
    ctx: QueryContext,
    conn: Conn,
    recalled: Recalled,
    leaves: Sequence[BrowseLeaf],
    plan: TemporalPlan | None,
    qvec: Vec,
    loaded: Sequence[RowView] | None = None,
) -> list[Evidence]:
    """The evidence: recall's and browse's candidates, the temporal plan's states pinned first,
    filtered, reranked and cut to ``k`` (``loaded``: the candidates' rows, read with the descent)."""
    req, forest_id = ctx.request, recalled.found.forest.forest_id
    with ctx.stages.timed("assemble"):
        candidates = _candidates(recalled.result, leaves)
        pinned: dict[tuple[str, int], str] = {}
        if plan is not None:  # the plan's answer states join the pool (browse may not reach them)
            pinned = {("fact", fid): role for fid, role in plan.roles.items()}
            for key in pinned:
                candidates.setdefault(key, RecallCandidate(kind="fact", source_id=key[1]))
        if req.source_filter is not None:  # only matching sources; their nearest items join the pool
            candidates = await apply_filter(
                conn, ctx.tenant_id, forest_id, candidates, req.source_filter, qvec, 3 * ctx.k
            )
        opts = AssembleOptions(
            top_k=ctx.k, as_of=req.as_of, time_from=req.time_from, time_to=req.time_to,
            scope_kinds=None if req.scope_kinds is None else tuple(req.scope_kinds),
            include_superseded=req.include_superseded, token_budget=req.token_budget,
            filtered=req.source_filter is not None,
            several_shift=ctx.preset.several_shift if ctx.question.several else 0.0,
            follow_lead=ctx.preset.several_follow_lead if ctx.question.several else 0.0,
        )  # fmt: skip
        tree_scores = {t.tree_id: t.score for t in recalled.result.trees}
        return await assemble(
            conn, ctx.tenant_id, forest_id, candidates, qvec, ctx.question.rerank_terms, tree_scores,
            recalled.cues, opts, ctx.preset, pinned, loaded,
        )  # fmt: skip


async def _answer_llm(
    ctx: QueryContext,
    chat: ChatModel,
    vecs: Vec,
    known: RecallForest | None,
    lexical: asyncio.Future[LexicalRows | None] | None,
    probe: asyncio.Future[ProbeRead | None] | None,
) -> QueryAnswer:
    """``llm`` mode: recall and the temporal plan in one read transaction, the planner and
    navigator's browse with model calls between short transactions, then assembly in its own."""
    async with read_transaction(ctx.db, ctx.tenant_id, ctx.preset.hnsw_ef_search, ReadIntent(known is not None)) as tx:
        recalled = await _recall_stage(ctx, tx, vecs, known, lexical)
        plan = await _temporal_stage(ctx, tx.conn, recalled, probe)
    backends = ctx.backends
    with ctx.stages.timed("browse"):
        leaves, stats = await browse_llm(
            lambda: ctx.db.tenant(ctx.tenant_id), ctx.tenant_id, recalled.found.forest.forest_id,
            recalled.result.trees, ctx.question.text, backends.embedder,
            getattr(backends, "planner", None) or LLMPlanner(chat),
            getattr(backends, "navigator", None) or LLMNavigator(chat),
            ctx.preset, recalled.cues, ctx.ledger,
        )  # fmt: skip
    async with ctx.db.tenant(ctx.tenant_id) as conn:
        evidence = await _assemble_stage(ctx, conn, recalled, leaves, plan, vecs[0])
    llm_calls = {"plan": stats.planner_calls, "navigate": stats.navigator_calls}
    return _answer(ctx, "llm", recalled, plan, evidence, llm_calls=llm_calls)


def _answer(
    ctx: QueryContext,
    mode_used: str,
    recalled: Recalled,
    plan: TemporalPlan | None,
    evidence: list[Evidence],
    *,
    fallback: str | None = None,
    llm_calls: dict[str, int] | None = None,
) -> QueryAnswer:
    """The query's answer, with what it read and how long each stage took."""
    result = recalled.result
    return QueryAnswer(
        question=ctx.question.text,
        forest=ctx.request.forest,
        mode=ctx.request.mode,
        mode_used=mode_used,
        evidence=evidence,
        fallback=fallback,
        strategy=result.strategy,
        trees=[TreeScore(f"{t.kind}:{t.label}", round(t.score, 6), t.ranks) for t in result.trees],
        time_cues=recalled.cues.describe(),
        temporal=plan.describe() if plan is not None else None,
        timings_ms=ctx.stages.report(),
        llm_calls=llm_calls or {},
    )
