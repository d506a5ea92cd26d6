"""``query``: forest recall -> tree browse (``emb`` or ``llm``) -> evidence assembly."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import numpy as np

from memforest.backends.base import ChatModel, Embedder, UsageLedger
from memforest.backends.llm import LLMNavigator, LLMPlanner
from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.retrieval.assemble import AssembleOptions, Candidate, Evidence, assemble
from memforest.retrieval.browse import Leaf, browse_emb, browse_llm
from memforest.retrieval.filters import SourceFilter, apply_filter
from memforest.retrieval.forest_cache import forest_cache
from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.recall import LexicalRows, RecallResult, lexical_beside, query_terms, recall
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import TemporalPlan
from memforest.retrieval.temporal.resolve import temporal_plan
from memforest.retrieval.timecues import TimeCues, parse_time_cues
from memforest.settings import Settings
from memforest.store.recall import Vec, anchor_candidates, nearest_cells, nearest_facts
from memforest.store.recall_channels import (
    LEXICAL_BESIDE_KNOBS,
    RecallForest,
    forest_for_recall,
    plans_as_usual,
    recall_knobs,
)
from memforest.store.sql import Conn
from memforest.text.terms import content_terms

__all__ = ["MODES", "Evidence", "QueryBackends", "QueryResult", "SourceFilter", "query"]

MODES = ("emb", "llm")
SCOPE_KINDS = ("session", "entity", "scene")


class QueryBackends(Protocol):
    """What the read path needs from the process's backends."""

    @property
    def embedder(self) -> Embedder: ...

    @property
    def chat(self) -> ChatModel | None: ...


@dataclass(slots=True)
class QueryResult:
    """The answer to one query. ``evidence`` is best first; ``context`` shows it in time order."""

    question: str
    forest: str
    mode: str
    mode_used: str
    evidence: list[Evidence]
    fallback: str | None = None
    strategy: str = "exact"
    trees: list[dict[str, Any]] = field(default_factory=list)
    time_cues: str | None = None
    temporal: str | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    llm_calls: dict[str, int] = field(default_factory=dict)

    def in_time_order(self) -> list[Evidence]:
        """The same items ordered by time (then rank)."""
        return sorted(self.evidence, key=lambda e: (e.time, e.rank))

    def context(self) -> str:
        """Prompt-ready context: one line per item, in time order, with time and provenance."""
        lines = []
        for e in self.in_time_order():
            where = f"{e.session_id} {','.join(e.turn_ids)}".strip()
            validity = ""
            if e.valid_to is not None:
                validity = f" (valid until {e.valid_to.date().isoformat()})"
            lines.append(f"[{e.time.date().isoformat()}] {' '.join(e.text.split())}{validity} <{where}>")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {
            "question": self.question,
            "forest": self.forest,
            "mode": self.mode,
            "mode_used": self.mode_used,
            "fallback": self.fallback,
            "evidence": [e.to_json() for e in self.evidence],
            "context": self.context(),
            "strategy": self.strategy,
            "trees": self.trees,
            "time_cues": self.time_cues,
            "temporal": self.temporal,
            "timings_ms": self.timings_ms,
            "llm_calls": self.llm_calls,
        }


def _aware(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000.0, 3)


async def _resolve_anchor(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    anchor: str,
    vec: Vec,
    recalled: RecallResult,
    as_of: datetime | None,
) -> datetime | None:
    """The time of the best-matching fact or cell for an event anchor ("before <event>")."""
    exact = recalled.strategy == "exact"
    facts = await nearest_facts(conn, tenant_id, forest_id, vec, 10, exact=exact, as_of=as_of)
    cells = await nearest_cells(conn, tenant_id, forest_id, vec, 10, exact=exact, as_of=as_of)
    terms = set(content_terms(anchor))
    rows = await anchor_candidates(conn, tenant_id, forest_id, [i for i, _ in facts], [i for i, _ in cells])
    sims = {("fact", i): s for i, s in facts} | {("cell", i): s for i, s in cells}
    best: tuple[float, datetime] | None = None
    for r in rows:
        doc = set(content_terms(str(r["text"])))
        overlap = len(terms & doc) / len(terms) if terms else 0.0
        score = sims.get((str(r["k"]), int(r["id"])), 0.0) + overlap
        if overlap > 0 and (best is None or score > best[0]):
            best = (score, r["ts"])
    return best[1] if best is not None else None


async def _embed(embedder: Embedder, texts: Sequence[str], ledger: UsageLedger | None) -> Vec:
    """The query embeddings of ``texts``, one row each (float32)."""
    return np.asarray(await embedder.embed(texts, stage="query_embed", ledger=ledger), dtype=np.float32)


def _collect(
    recalled: RecallResult, leaves: Sequence[Leaf], *, with_trees: bool = False
) -> dict[tuple[str, int], Candidate]:
    """The candidates of recall and browse, each with the best cosine seen; ``with_trees``: the
    vector channels' hits bring the trees holding them (they were read in the transaction that
    assembles: :class:`~memforest.retrieval.assemble.Candidate`)."""
    out: dict[tuple[str, int], Candidate] = {}

    def add(kind: str, source_id: int, sim: float | None) -> None:
        cand = out.setdefault((kind, source_id), Candidate(kind=kind, source_id=source_id))
        if sim is not None:
            cand.sim = sim if cand.sim is None else max(cand.sim, sim)

    for fid, sim in recalled.fact_sims.items():
        add("fact", fid, sim)
    for cid, sim in recalled.cell_sims.items():
        add("cell", cid, sim)
    if with_trees:
        for kind, trees_of in (("fact", recalled.fact_trees), ("cell", recalled.cell_trees)):
            for source_id, trees in trees_of.items():
                out[(kind, source_id)].trees = tuple(trees)
    for fid in recalled.fact_lex:
        add("fact", fid, None)
    for cid in recalled.cell_lex:
        add("cell", cid, None)
    for lf in leaves:
        if lf.fact_id is not None:
            add("fact", int(lf.fact_id), lf.sim)
        elif lf.cell_id is not None:
            add("cell", int(lf.cell_id), lf.sim)
    return out


async def query(
    db: Database,
    settings: Settings,
    backends: QueryBackends,
    tenant_id: uuid.UUID,
    forest_name: str,
    question: str,
    *,
    mode: str = "emb",
    top_k: int | None = None,
    as_of: datetime | None = None,
    time_from: datetime | None = None,
    time_to: datetime | None = None,
    scope_kinds: Sequence[str] | None = None,
    include_superseded: bool = False,
    token_budget: int | None = None,
    preset: RetrievalPreset | None = None,
    ledger: UsageLedger | None = None,
    source_filter: SourceFilter | None = None,
) -> QueryResult:
    """Answer ``question`` from forest ``forest_name`` of the tenant with time-stamped evidence."""
    question = " ".join(question.split())
    if not question:
        raise InputError("question must not be empty", location="question")
    if mode not in MODES:
        raise InputError(f"mode must be one of {', '.join(MODES)}", location="mode")
    if scope_kinds is not None:
        bad = [k for k in scope_kinds if k not in SCOPE_KINDS]
        if bad or not scope_kinds:
            raise InputError(f"scope kinds must be among {', '.join(SCOPE_KINDS)}", location="scope")
    preset = preset or RetrievalPreset.from_settings(settings.retrieval)
    k = top_k if top_k is not None else preset.top_k
    if not 1 <= k <= settings.api.max_top_k:
        raise InputError(f"top_k must be between 1 and {settings.api.max_top_k}", location="top_k")
    preset = preset.for_top_k(k)  # candidate budgets for k items (the full ones from budget_full_k)
    as_of, time_from, time_to = _aware(as_of), _aware(time_from), _aware(time_to)
    filtered = source_filter is not None
    timings: dict[str, float] = {}
    t_all = time.perf_counter()

    # the full-text channels start at once, beside the rest (they need no vector): a transaction of
    # the side pool, when there is one and the question has words to look for (ADR 0024, session 10)
    cache = forest_cache(db)
    known = cache.get(tenant_id, forest_name)  # (the forest this name meant at this process's last query)
    lexical: asyncio.Task[LexicalRows | None] | None = None
    if db.side_engine is not None and query_terms(question):
        lexical = asyncio.create_task(
            lexical_beside(
                lambda: db.reading(tenant_id, side=True, knobs=LEXICAL_BESIDE_KNOBS),
                tenant_id,
                forest_name,
                question,
                preset,
                as_of=as_of,
                scope_kinds=scope_kinds,
                known=known,
            )
        )
    try:
        # the vectors first, outside any transaction (a model server's embedding call holds no pooled
        # connection): the question's, and the event's of "before/after <event>" (the cues read against
        # now; the forest's own "now" comes with its lookup, which opens the one transaction of recall,
        # browse and assembly: ADR 0024 addendum, session 9)
        t0 = time.perf_counter()
        anchor_text = parse_time_cues(question, as_of or datetime.now(UTC)).anchor_text
        texts = [question] + ([anchor_text] if anchor_text else [])
        vecs = await _embed(backends.embedder, texts, ledger)
        qvec = vecs[0]
        timings["embed"] = _ms(t0)
        mode_used, fallback = mode, None
        chat = backends.chat
        if mode == "llm" and chat is None:
            mode_used = "emb"
            fallback = "llm mode needs a chat model; none is configured (rule-based backend), so emb was used"

        leaves: list[Leaf] = []
        evidence: list[Evidence] = []
        llm_calls: dict[str, int] = {}
        plan: TemporalPlan | None = None

        async def assemble_in(conn: Conn) -> list[Evidence]:
            """Assemble the evidence of ``recalled`` and ``leaves`` (times itself as ``assemble``)."""
            t0 = time.perf_counter()
            tree_scores = {t.tree_id: t.score for t in recalled.trees}
            opts = AssembleOptions(
                top_k=k,
                as_of=as_of,
                time_from=time_from,
                time_to=time_to,
                scope_kinds=tuple(scope_kinds) if scope_kinds is not None else None,
                include_superseded=include_superseded,
                token_budget=token_budget,
            )
            candidates = _collect(recalled, leaves, with_trees=mode_used == "emb")  # (recall's transaction)
            pinned: dict[tuple[str, int], str] = {}
            if plan is not None:  # the temporal plan's answer states join the pool (browse may not reach them)
                pinned = {("fact", fid): role for fid, role in plan.roles.items()}
                for key in pinned:
                    candidates.setdefault(key, Candidate(kind="fact", source_id=key[1]))
            if source_filter is not None:  # only matching sources; their nearest items join the pool
                candidates = await apply_filter(
                    conn, tenant_id, forest.forest_id, candidates, source_filter, qvec, 3 * k
                )
            out = await assemble(
                conn, tenant_id, forest.forest_id, candidates, qvec, question, tree_scores, cues, opts, preset, pinned
            )
            timings["assemble"] = _ms(t0)
            return out

        # emb mode: forest lookup (none when the cache knows the name), recall, browse and assembly
        # in one tenant transaction (no model call in between but the rare anchor embedding)
        planned_once = known is not None  # (recall_knobs: its vector channels' plan)
        # after recall, an emb query without an event anchor or a source filter reads by key only
        # (temporal plan, beam descent, assembly): on generic plans, made once per connection
        key_lookups_next = mode_used == "emb" and anchor_text is None and not filtered and lexical is not None
        async with db.reading(tenant_id, knobs=recall_knobs(preset.hnsw_ef_search, planned_once=planned_once)) as conn:
            t0 = time.perf_counter()
            found = known or await forest_for_recall(conn, tenant_id, forest_name, preset.hnsw_ef_search)
            timings["forest"] = _ms(t0)
            t0 = time.perf_counter()

            async def recall_in(found: RecallForest, beside: Awaitable[LexicalRows | None] | None) -> RecallResult:
                return await recall(
                    conn, tenant_id, found.forest.forest_id, question, qvec, preset, as_of=as_of,
                    scope_kinds=scope_kinds, indexed=found.indexed, lexical=beside,
                    generic_next=key_lookups_next,
                )  # fmt: skip

            recalled = await recall_in(found, lexical)
            if known is not None and (recalled.forest is None or recalled.forest.forest.name != forest_name):
                # the name means another forest now, or none: look it up (NotFoundError) and read again
                cache.drop(tenant_id, forest_name)
                if planned_once or key_lookups_next:  # (the forest row's switch, or no row to turn them back)
                    await plans_as_usual(conn)
                t_lookup = time.perf_counter()
                found = await forest_for_recall(conn, tenant_id, forest_name, preset.hnsw_ef_search)
                timings["forest"] += _ms(t_lookup)
                recalled = await recall_in(found, None)
            found = recalled.forest or found  # (indexes and latest session as they are now)
            cache.put(found)
            forest = found.forest
            t_cues = time.perf_counter()  # (the question's time cues read against the forest's "now")
            cues: TimeCues = parse_time_cues(question, as_of or found.latest or datetime.now(UTC))
            timings["cues"] = _ms(t_cues)
            anchor_time = None
            if cues.anchor_text and key_lookups_next and recalled.forest is not None:
                await plans_as_usual(conn)  # (the forest's "now" found an anchor the first reading did not)
            if cues.anchor_text:
                if cues.anchor_text == anchor_text:
                    anchor_vec = vecs[1]
                else:  # the forest's "now" read the question differently (rare): embed its event here
                    anchor_vec = (await _embed(backends.embedder, [cues.anchor_text], ledger))[0]
                anchor_time = await _resolve_anchor(
                    conn, tenant_id, forest.forest_id, cues.anchor_text, anchor_vec, recalled, as_of
                )
                if anchor_time is not None:
                    if cues.anchor_side == "before":
                        cues = cues.with_window(None, anchor_time)
                    else:
                        cues = cues.with_window(anchor_time, None)
            timings["recall"] = round(_ms(t0) - timings["cues"], 3)
            t0 = time.perf_counter()
            tq = parse_question(question, has_as_of=as_of is not None)
            plan = await temporal_plan(conn, tenant_id, forest.forest_id, tq, as_of, anchor_time)
            timings["temporal"] = _ms(t0)
            if mode_used == "emb":
                t0 = time.perf_counter()
                live_only = (
                    as_of is None and time_from is None and time_to is None and not include_superseded and not filtered
                )
                # assembly reads its candidates and their provenance by key: on cached generic plans
                # (a source filter's nearest items may need a large forest's own graphs: planned as before)
                leaves = await browse_emb(
                    conn, tenant_id, forest.forest_id, recalled.trees, qvec, preset, cues,
                    live_only=live_only, key_lookups_after=not filtered,
                )  # fmt: skip
                timings["browse"] = _ms(t0)
                evidence = await assemble_in(conn)

        if mode_used == "llm" and chat is not None:
            t0 = time.perf_counter()
            planner = getattr(backends, "planner", None) or LLMPlanner(chat)
            navigator = getattr(backends, "navigator", None) or LLMNavigator(chat)
            leaves, stats = await browse_llm(
                lambda: db.tenant(tenant_id),
                tenant_id,
                forest.forest_id,
                recalled.trees,
                question,
                backends.embedder,
                planner,
                navigator,
                preset,
                cues,
                ledger,
            )
            llm_calls = {"plan": stats.planner_calls, "navigate": stats.navigator_calls}
            timings["browse"] = _ms(t0)

        if mode_used != "emb":  # emb mode assembled in the recall transaction above
            async with db.tenant(tenant_id) as conn:
                evidence = await assemble_in(conn)
        timings["total"] = _ms(t_all)
        return QueryResult(
            question=question,
            forest=forest_name,
            mode=mode,
            mode_used=mode_used,
            evidence=evidence,
            fallback=fallback,
            strategy=recalled.strategy,
            trees=[
                {"tree": f"{t.kind}:{t.label}", "score": round(t.score, 6), "ranks": t.ranks} for t in recalled.trees
            ],
            time_cues=cues.describe(),
            temporal=plan.describe() if plan is not None else None,
            timings_ms=timings,
            llm_calls=llm_calls,
        )
    finally:
        if lexical is not None and not lexical.done():  # an error came first: end the side transaction
            lexical.cancel()
            await asyncio.wait({lexical})
        if lexical is not None and not lexical.cancelled():
            lexical.exception()  # (its error, if any, is read: the query's own error is the one raised)
