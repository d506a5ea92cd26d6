"""Evidence assembly: resolve leaves to facts and cells, filter by time/validity/scope,
deduplicate, rerank deterministically and keep the top k.

Rerank score (deterministic, documented in docs/adr/0005-recall-fusion.md)::

    score = w_sim * cosine(query, item) + w_lex * lexical(query, item) + w_tree * tree(item)
            + time adjustments

``lexical`` is the IDF-weighted share of the query's content terms found in the item (IDF over
the candidate pool), ``tree`` the best fused recall score of a tree holding the item (divided by
the best tree's), and the time adjustments reward items inside the question's time window, prefer
the end of the window nearest its anchor ("before X": the latest before X), and favour items with
a stated time for "when" questions.
"""

from __future__ import annotations

import itertools
import math
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from operator import attrgetter

from memforest.retrieval.breadth import fused_with_shift
from memforest.retrieval.corroborate import corroborate
from memforest.retrieval.echoes import without_echoes
from memforest.retrieval.evidence import Evidence as Evidence  # (re-exported: callers import it from here)
from memforest.retrieval.follow_on import place, seed
from memforest.retrieval.pins import Key, placed_within
from memforest.retrieval.pins import place_pins as place_pins  # (re-exported)
from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.temporal.plan import ANSWER
from memforest.retrieval.timecues import TimeCues
from memforest.store import evidence as evidence_store
from memforest.store.recall import Vec
from memforest.store.sql import Conn, RowView
from memforest.text.terms import content_terms

# candidate texts whose content terms are kept (a few hundred per query, each a short text)
DOC_TERMS_CACHE = 8192
_BY_KEY = attrgetter("kind", "source_id")  # an item's Key
# provenance is read for this many times the items kept: cells that echo a fact above them
# (``retrieval.echoes``) are left out after it, and the next items move up into their places
ECHO_READ = 2
_TIES, _SCORE = attrgetter("start", "kind", "source_id"), attrgetter("score")  # the rerank's order


@dataclass(slots=True)
class RecallCandidate:
    """A fact or cell that some stage proposed, with what that stage knew about it."""

    kind: str  # "fact" | "cell"
    source_id: int
    sim: float | None = None  # the best cosine a stage saw (assembly reads every candidate's own too)


@dataclass(frozen=True, slots=True)
class AssembleOptions:
    """Filters the caller asked for."""

    top_k: int
    as_of: datetime | None = None
    time_from: datetime | None = None
    time_to: datetime | None = None
    scope_kinds: tuple[str, ...] | None = None
    include_superseded: bool = False
    token_budget: int | None = None
    filtered: bool = False  # a source filter chose the candidates
    # the question asks for several things: its order is fused with the one this much of ``w_lex``
    # moved to ``w_sim`` gives (0: the rerank's order; ``retrieval.breadth``, ADR 0076)
    several_shift: float = 0.0
    # the follow-on is read only when the first item's score leads the second's by this much (0:
    # always; a several-question's, ``preset.several_follow_lead``, ADR 0076)
    follow_lead: float = 0.0

    @property
    def narrowed(self) -> bool:
        """The caller narrowed the evidence by time, scope, source or size."""
        times = (self.as_of, self.time_from, self.time_to)
        return self.filtered or self.scope_kinds is not None or self.token_budget is not None or times != (None,) * 3


@dataclass(slots=True)
class _Item:
    kind: str
    source_id: int
    text: str
    start: datetime
    end: datetime | None
    valid_from: datetime | None
    valid_to: datetime | None
    session_id: str | None
    turn_ids: tuple[str, ...]
    sim: float
    tree_ids: tuple[int, ...]  # the scoring trees holding it (every tree when read for a scoped query)
    # (tree_id, kind, label) of all its trees: read for a scoped query only, which filters on kinds
    trees: tuple[tuple[int, str, str], ...] = ()
    first_tree: int | None = None  # the smallest id of its trees (when ``trees`` is not read)
    label: str = ""  # "kind:label" of the tree it is shown in (set for the items kept)
    has_time_text: bool = False
    superseded: bool = False
    recorded_at: datetime | None = None
    retracted_at: datetime | None = None
    score: float = 0.0
    lexical: float = 0.0  # the rerank's term-overlap share
    sources: tuple[tuple[str, str, datetime], ...] = ()  # a fact's (session, turn, time), oldest first
    roles: tuple[str, ...] = ()  # a cell's turns' roles, in turn order ("" for none)


def _item(r: RowView) -> _Item:
    """A candidate row of :func:`evidence_store.candidates_with_sim` (provenance comes later; the
    driver gives ``kind`` and ``text`` as str and ``id`` as int)."""
    kind, start, end, trees, sim = r["kind"], r["t_start"], r["t_end"], r["trees"], r["sim"]
    every = tuple(evidence_store.tree_triples(trees)) if trees is not None else ()
    if kind == "fact":
        valid_from, valid_to, session = start, end, None
    else:
        valid_from, valid_to, session = None, None, str(r["session_ext"])
    return _Item(
        kind,
        r["id"],
        r["text"],
        start,
        end,
        valid_from,
        valid_to,
        session,
        (),
        sim if type(sim) is float and -math.inf < sim < math.inf else _finite(sim),
        tuple(t[0] for t in every) if every else tuple(r["in_trees"] or ()),
        every,
        r["first_tree"],
        "",
        bool(r["time_text"]),
        r["superseded_by"] is not None,
        r["recorded_at"],
        r["retracted_at"],
    )


async def _load(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    candidates: Mapping[tuple[str, int], RecallCandidate],
    q: Vec,
    scoring_trees: Sequence[int] | None,
    loaded: Sequence[RowView] | None = None,
) -> list[_Item]:
    """The candidates (in no particular order: assembly sorts them), each with the ids of the
    ``scoring_trees`` that hold it, or with all its trees when ``scoring_trees`` is None; a
    candidate's similarity is the best of its own and the one its stages saw. ``loaded``: their
    rows read already (with the beam descent), else they are read here."""
    if loaded is not None:
        rows: Sequence[RowView] = loaded
    else:
        fact_ids, cell_ids = _candidate_ids(candidates)
        if not fact_ids and not cell_ids:
            return []
        rows = await evidence_store.candidates_with_sim(
            conn, tenant_id, forest_id, fact_ids, cell_ids, q, scoring_trees
        )
    items: list[_Item] = []
    for r in rows:
        it = _item(r)
        seen = candidates[(it.kind, it.source_id)].sim
        if seen is not None and seen > it.sim:
            it.sim = seen
        items.append(it)
    return items


def _candidate_ids(candidates: Mapping[tuple[str, int], RecallCandidate]) -> tuple[list[int], list[int]]:
    """The fact ids and the cell ids of ``candidates``, each sorted."""
    fact_ids = sorted(c.source_id for c in candidates.values() if c.kind == "fact")
    cell_ids = sorted(c.source_id for c in candidates.values() if c.kind == "cell")
    return fact_ids, cell_ids


async def _add_provenance(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    items: Sequence[_Item],
    tree_scores: dict[int, float],
    follow: tuple[str, int] | None = None,
) -> _Item | None:
    """Fill in the session, turns, label, (for facts) sources and (for cells) roles of ``items``, the
    ones that may be kept; return the cell that follows the item ``follow``
    (:mod:`memforest.retrieval.follow_on`), read with them, or None."""
    fact_ids = [it.source_id for it in items if it.kind == "fact"]
    cell_ids = [it.source_id for it in items if it.kind == "cell"]
    if not fact_ids and not cell_ids:
        return None
    shown = {(it.kind, it.source_id): _shown_tree(it, tree_scores) for it in items}
    named = sorted({tid for tid in shown.values() if tid is not None})
    rows = await evidence_store.provenance(conn, tenant_id, forest_id, fact_ids, cell_ids, named, follow)
    by_key = {(str(r["kind"]), int(r["id"])): r for r in rows}
    for it in items:
        tid = shown[(it.kind, it.source_id)]
        tree = by_key.get(("tree", tid)) if tid is not None else None
        it.label = str(tree["tree"]) if tree is not None else ""
        r = by_key.get((it.kind, it.source_id))
        pairs = [(str(a), str(b)) for a, b in (r["turns"] or ())] if r is not None else []
        if it.kind == "cell":
            it.turn_ids = tuple(b for _, b in pairs)
            it.roles = tuple(str(role) for role in (r["roles"] or ())) if r is not None else ()
            continue
        it.turn_ids = tuple(dict.fromkeys(b for _, b in pairs))
        it.session_id = pairs[0][0] if pairs else None
        times = list(r["times"] or ()) if r is not None else []
        it.sources = tuple((a, b, when) for (a, b), when in zip(pairs, times, strict=False))
    return next((_follow_on(r) for r in rows if r["kind"] == "next"), None)


def _follow_on(r: RowView) -> _Item:
    """The follow-on cell of a provenance row (``next``) as a kept item: no similarity read, shown
    in its first tree."""
    (start, end), pairs = r["times"], [(str(a), str(b)) for a, b in r["turns"]]
    session, turns = pairs[0][0], tuple(b for _, b in pairs)
    item = _Item("cell", int(r["id"]), str(r["text"]), start, end, None, None, session, turns, 0.0, ())
    item.label = str(r["tree"] or "")
    return item


def _overlaps(item: _Item, after: datetime | None, before: datetime | None) -> bool:
    """The item's time (a point, or its validity interval when closed) meets ``[after, before)``."""
    end = item.end if item.end is not None else item.start
    if before is not None and item.start >= before:
        return False
    return not (after is not None and end < after)


def _visible(item: _Item, opts: AssembleOptions, cues: TimeCues, pinned: str | None = None) -> bool:
    """Whether ``item`` is shown; ``pinned``: its role in a temporal plan, if any. The plan's answer
    holds as of the query's time by its own chain, so a validity end set by a change of another kind
    filed under the same verb-class slot (a bike bought after a club joined) does not hide it."""
    if opts.as_of is None:
        if item.retracted_at is not None:
            return False
    else:
        if item.start > opts.as_of:
            return False
        ended = item.kind == "fact" and item.end is not None and item.end <= opts.as_of
        if ended and pinned != ANSWER:
            return False
        if item.recorded_at is not None and item.recorded_at > opts.as_of:
            return False
        if item.retracted_at is not None and item.retracted_at <= opts.as_of:
            return False
    if (opts.time_from is not None or opts.time_to is not None) and not _overlaps(item, opts.time_from, opts.time_to):
        return False
    if opts.scope_kinds is not None and item.trees and not any(k in opts.scope_kinds for _, k, _ in item.trees):
        return False
    if item.superseded and opts.as_of is None and not opts.include_superseded and pinned is None:
        # a superseded fact is shown only as of its own validity: when asked as_of, or when the
        # question's time window reaches into its validity interval
        return cues.has_window and _overlaps(item, cues.after, cues.before)
    return True


def _shown(items: list[_Item], opts: AssembleOptions, cues: TimeCues, pinned: Mapping[Key, str]) -> list[_Item]:
    """The ``items`` :func:`_visible` keeps (``pinned`` ones superseded or not). Without a time or
    scope filter an item neither retracted nor superseded is visible: only the others are checked."""
    if opts.as_of is None and opts.time_from is None and opts.time_to is None and opts.scope_kinds is None:
        plain = [it for it in items if it.retracted_at is None and not it.superseded]
        if len(plain) == len(items):
            return plain
    if pinned:
        return [it for it in items if _visible(it, opts, cues, pinned.get((it.kind, it.source_id)))]
    return [it for it in items if _visible(it, opts, cues)]


def _cited(item: _Item, opts: AssembleOptions, cues: TimeCues) -> tuple[str | None, tuple[str, ...], int]:
    """The session, turns and count of uncited other turns of an item: a fact restated in several
    turns cites those said in the question's time window (its cues' window, the asked time range,
    up to as_of), else the latest one (the earliest when the question asks when or for the first)."""
    if len(item.sources) < 2:
        return item.session_id, item.turn_ids, 0
    after = max((t for t in (cues.after, opts.time_from) if t is not None), default=None)
    before = min((t for t in (cues.before, opts.time_to) if t is not None), default=None)
    window = after is not None or before is not None or opts.as_of is not None
    inside = [
        s
        for s in item.sources
        if window
        and (after is None or s[2] >= after)
        and (before is None or s[2] < before)
        and (opts.as_of is None or s[2] <= opts.as_of)
    ]
    if not inside:
        inside = [item.sources[0] if cues.asks_when or cues.wants_earliest else item.sources[-1]]
    turns = tuple(dict.fromkeys(t for _, t, _ in inside))
    return inside[0][0], turns, len(item.turn_ids) - len(turns)


def _finite(value: object) -> float:
    """A similarity as a float; pgvector answers NaN for a zero vector (no content words), which JSON cannot carry."""
    x = float(value) if isinstance(value, int | float) else 0.0
    return x if math.isfinite(x) else 0.0


@lru_cache(maxsize=DOC_TERMS_CACHE)
def _doc_terms(text: str) -> frozenset[str]:
    """The content terms of a candidate's text, memoised: the same facts come back query after
    query, and tokenising them was most of the rerank's cost."""
    return frozenset(content_terms(text))


@lru_cache(maxsize=DOC_TERMS_CACHE)
def _same_text(text: str) -> str:
    """A candidate's text as deduplication compares it (case folded, runs of white space as one
    space), memoised like :func:`_doc_terms`."""
    return " ".join(text.casefold().split())


def _lexical(items: Sequence[_Item], query_terms: frozenset[str]) -> list[float]:
    """Each item's share of the query terms' BM25-style idf weight (idf over the candidates)."""
    if not query_terms:
        return [0.0] * len(items)
    order = list(query_terms)  # (sums in the set's order, as before: the same floats to the last bit)
    hits = [query_terms & _doc_terms(it.text) for it in items]  # (frozenset intersections: the loops in C)
    df = dict.fromkeys(order, 0)
    for h in hits:
        for t in h:
            df[t] += 1
    n = len(hits)
    idf = {t: math.log(1.0 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
    total = sum(idf.values()) or 1.0
    weights = [(t, idf[t]) for t in order]
    shares: dict[frozenset[str], float] = {}  # (items that hold the same query terms share one sum)
    for h in hits:
        if h and h not in shares:
            shares[h] = sum([w for t, w in weights if t in h]) / total
    return [shares[h] if h else 0.0 for h in hits]


def rerank(
    items: list[_Item],
    rerank_terms: Sequence[str],
    tree_scores: dict[int, float],
    cues: TimeCues,
    preset: RetrievalPreset,
) -> list[_Item]:
    """Score every item deterministically and sort best first (ties: time, kind, id)."""
    if not items:
        return []
    lex = _lexical(items, frozenset(rerank_terms))
    best_tree = max(tree_scores.values(), default=0.0) or 1.0
    window = cues.has_window
    in_window = [_overlaps(it, cues.after, cues.before) for it in items] if window else [True] * len(items)
    prefer_late = (cues.anchor_side == "before" or cues.wants_latest or cues.present_tense) and not cues.wants_earliest
    prefer_early = cues.anchor_side == "after" or cues.wants_earliest
    position = _positions(items, in_window) if prefer_late or prefer_early else {}
    w_sim, w_lex, w_tree, tree_score = preset.w_sim, preset.w_lex, preset.w_tree, tree_scores.get
    for it, lx, ok in zip(items, lex, in_window, strict=True):
        ids = it.tree_ids
        if len(ids) == 1:
            tree = tree_score(ids[0], 0.0) / best_tree
        else:
            tree = max([tree_score(tid, 0.0) for tid in ids], default=0.0) / best_tree
        it.lexical = lx
        score = w_sim * it.sim + w_lex * lx + w_tree * tree
        if window:
            score += preset.time_in_window if ok else preset.time_out_of_window
        if ok and it.start in position:
            pos = position[it.start]
            score += preset.recency_bonus * (pos if prefer_late else 1.0 - pos)
        if cues.asks_when and it.has_time_text:
            score += preset.time_stated_bonus
        if it.superseded and not window and cues.present_tense:
            score -= preset.recency_bonus
        it.score = score
    items.sort(key=_TIES)  # then by score, best first: a stable sort keeps the ties' order
    items.sort(key=_SCORE, reverse=True)
    return items


def _positions(items: Sequence[_Item], in_window: Sequence[bool]) -> dict[datetime, float]:
    """Each distinct time of the items in the window, as its place from 0 (earliest) to 1 (latest)."""
    times = sorted({it.start for it, ok in zip(items, in_window, strict=True) if ok})
    return {t: (i / (len(times) - 1) if len(times) > 1 else 1.0) for i, t in enumerate(times)}


def scoring_trees(tree_scores: Mapping[int, float], opts: AssembleOptions) -> list[int] | None:
    """The trees whose placements assembly reads for each candidate: the recalled ones
    (``tree_scores``), which ranking scores an item by; None (every tree of each) for a scoped
    query, which also filters on the kinds of all its trees."""
    return None if opts.scope_kinds is not None else sorted(tree_scores)


def _fitting(items: Sequence[_Item], opts: AssembleOptions) -> int:
    """How many of ``items`` the list keeps: at most ``top_k``, within the token budget (the first always)."""
    used = itertools.accumulate(max(1, len(it.text) // 4) for it in items[: opts.top_k])
    over = (n for n, total in enumerate(used) if n and opts.token_budget is not None and total > opts.token_budget)
    return next(over, min(opts.top_k, len(items)))


def _pinned_order(ranked: Sequence[_Item], pinned: Sequence[Key], opts: AssembleOptions) -> list[_Item]:
    """``ranked`` with a plan's states placed within the count the list keeps (``pins.placed_within``)."""
    by_key = {(it.kind, it.source_id): it for it in ranked}
    order = placed_within(list(by_key), pinned, opts.top_k, lambda keys: _fitting([by_key[k] for k in keys], opts))
    return [by_key[k] for k in order]


def _shown_tree(item: _Item, tree_scores: dict[int, float]) -> int | None:
    """The tree an item is shown in: its best scoring tree (ties: the smallest id), else its
    first tree (no tree of it scores; None when it has none)."""
    ids = item.tree_ids if item.tree_ids else ((item.first_tree,) if item.first_tree is not None else ())
    return max(ids, key=lambda tid: (tree_scores.get(tid, 0.0), -tid), default=None)


async def assemble(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    candidates: dict[tuple[str, int], RecallCandidate],
    q: Vec,
    rerank_terms: Sequence[str],
    tree_scores: dict[int, float],
    cues: TimeCues,
    opts: AssembleOptions,
    preset: RetrievalPreset,
    pinned: Mapping[tuple[str, int], str] | None = None,
    loaded: Sequence[RowView] | None = None,
) -> list[Evidence]:
    """Resolve, filter, dedupe, rerank and cut ``candidates`` to the final evidence list. ``pinned``
    items (a temporal question's answer state and its neighbours, with their roles, in rank order)
    come first, superseded or not; the reranked rest follows. ``loaded``: the candidates' rows read
    already, with the scoring trees (:func:`scoring_trees`), by the beam descent's statement."""
    pinned = pinned or {}
    items = _shown(
        await _load(conn, tenant_id, forest_id, candidates, q, scoring_trees(tree_scores, opts), loaded),
        opts,
        cues,
        pinned,
    )
    seen_text: set[str] = set()
    unique: list[_Item] = []
    for it in sorted(items, key=_BY_KEY):
        norm = _same_text(it.text)
        if norm in seen_text:
            continue
        seen_text.add(norm)
        unique.append(it)
    ranked = rerank(unique, rerank_terms, tree_scores, cues, preset)
    ranked = await corroborate(conn, tenant_id, forest_id, ranked, preset.w_support, cues)
    ranked = fused_with_shift(ranked, min(opts.several_shift, preset.w_lex), preset.rrf_k)
    if pinned:
        ranked = _pinned_order(ranked, list(pinned), opts)
    kept = ranked[: _fitting(ranked, opts)]
    follow = None if pinned or opts.narrowed else seed(kept, cues, preset.follow_on_rank, opts.follow_lead)
    read = ranked[: ECHO_READ * len(kept)]  # (the cells echoing a kept fact leave room for the next ones)
    after = await _add_provenance(conn, tenant_id, forest_id, read, tree_scores, follow)
    unechoed = without_echoes(read, pinned)
    kept = unechoed[: _fitting(unechoed, opts)]
    if after is not None:
        kept = place(kept, after, preset.follow_on_rank, opts.top_k)
    out: list[Evidence] = []
    for it in kept:
        session_id, turn_ids, others = _cited(it, opts, cues)
        out.append(
            Evidence(
                rank=len(out) + 1,
                kind=it.kind,
                text=it.text,
                time=it.start,
                valid_from=it.valid_from,
                valid_to=it.valid_to,
                tree=it.label,
                score=it.score,
                session_id=session_id,
                turn_ids=turn_ids,
                source_id=it.source_id,
                superseded=it.superseded,
                temporal_role=pinned.get((it.kind, it.source_id)),
                other_turns=others,
            )
        )
    return out
