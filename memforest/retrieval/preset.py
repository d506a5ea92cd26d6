"""Retrieval presets: plain data, so benchmarks can sweep them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from memforest.settings import RetrievalSettings, Settings

# corroboration's weight with a real embedding model; off with the hashed vectors (ADR 0042)
SUPPORT_WITH_A_MODEL = 0.025
# the question as asked in its vector with a real embedding model, the rest the text without its
# names (ADR 0068, 0069); the hashed vectors read the question as asked (1.0)
NAMES_WEIGHT_WITH_A_MODEL = 0.55
# a question asking for several things is also ordered with this much rerank weight moved from term
# overlap to similarity, with a real embedding model (ADR 0076); hashed vectors rank it as any (0.0)
SEVERAL_SHIFT_WITH_A_MODEL = 0.2
# the lead a several-question's first item needs for its follow-on with a real embedding model (ADR 0076)
SEVERAL_FOLLOW_LEAD_WITH_A_MODEL = 0.02


@dataclass(frozen=True, slots=True)
class RetrievalPreset:
    """Every knob of the read path in one value object.

    The first seven fields mirror :class:`~memforest.settings.RetrievalSettings`; the rest are the
    read path's internal candidate budgets and rerank weights.
    """

    top_trees: int = 10
    top_k: int = 10
    beam_width: int = 4
    exact_scan_max_rows: int = 5_000
    # HNSW candidate list of a query asking budget_full_k items or more; a smaller top_k scales it
    # like the candidate budgets, never below hnsw_ef_search_floor (nor above hnsw_ef_search): ADR 0034
    hnsw_ef_search: int = 128
    rrf_k: int = 60
    hnsw_ef_search_floor: int = 96
    # candidate budgets of forest recall
    fact_candidates: int = 60
    cell_candidates: int = 40
    lexical_candidates: int = 60
    root_candidates: int = 50
    # live leaves kept per tree by emb browse for a query without time filters or window, the best
    # by the beam's order (0: every leaf the beam reaches; ADR 0024)
    leaves_per_tree: int = 8
    # full-text rows ranked per lexical channel of a forest with its own indexes: up to this many
    # matching every term (only those when they fill the channel), as many matching >= 2, as many any
    lexical_scan_cap: int = 300
    # rerank weights (score = sim * w_sim + lexical * w_lex + tree * w_tree + time adjustments)
    w_sim: float = 0.45
    w_lex: float = 0.40
    w_tree: float = 0.15
    time_in_window: float = 0.10
    time_out_of_window: float = -0.35
    time_stated_bonus: float = 0.04
    recency_bonus: float = 0.06
    # corroboration: added per other candidate citing an item's most cited turn (0: off; ADR 0042);
    # a deployment's preset (:meth:`for_settings`) sets it from the embedder
    w_support: float = 0.0
    # follow-on: the rank (from 1) given to the cell said right after the first item's turn (0: off; ADR 0052)
    follow_on_rank: int = 3
    # a temporal plan reads at most this many of the newest facts of each (subject, attribute) slot
    # (``RetrievalSettings.temporal_slot_rows``, ADR 0091)
    temporal_slot_rows: int = 64
    # the weight of the question as asked in the question's vector (1.0: that text alone; below it,
    # the unit weighted mean of that and of the text without its names, ``question.without_names``);
    # a deployment's preset sets it from the embedder: ADR 0068, 0069
    names_weight: float = 1.0
    # a question that asks for several things (``question.several``) is ranked by the reciprocal-rank
    # fusion (``rrf_k``) of the rerank's order and of the order with this much of ``w_lex`` moved to
    # ``w_sim`` (0: the rerank's order alone); a deployment's preset sets it from the embedder: ADR 0076
    several_shift: float = 0.0
    # such a question reads the follow-on only when its first item's score leads the second's by at
    # least this much (0: always); a deployment's preset sets it from the embedder: ADR 0076
    several_follow_lead: float = 0.0
    # navigator: leaves picked per chosen parent in ``llm`` mode
    llm_leaf_choices: int = 6
    # the candidate budgets above (facts, cells, full text, leaves a tree) serve a top_k of
    # budget_full_k or more; a smaller top_k reads the share top_k / budget_full_k of each, and
    # one below budget_min_k reads as one asking for budget_min_k (ADR 0024)
    budget_full_k: int = 20
    budget_min_k: int = 10

    @classmethod
    def from_settings(cls, settings: RetrievalSettings, **overrides: Any) -> RetrievalPreset:
        """The preset the settings describe, with optional overrides."""
        base = cls(
            top_trees=settings.top_trees,
            top_k=settings.top_k,
            beam_width=settings.beam_width,
            exact_scan_max_rows=settings.exact_scan_max_rows,
            hnsw_ef_search=settings.hnsw_ef_search,
            rrf_k=settings.rrf_k,
            hnsw_ef_search_floor=settings.hnsw_ef_search_floor,
            follow_on_rank=settings.follow_on_rank,
            temporal_slot_rows=settings.temporal_slot_rows,
        )
        return replace(base, **overrides) if overrides else base

    @classmethod
    def for_settings(cls, settings: Settings, **overrides: Any) -> RetrievalPreset:
        """The preset a deployment reads with: its retrieval settings, and corroboration weighted as
        ``retrieval.support_weight`` says or, when that is None, on only with a real embedding model;
        the question's vector leaned away from its names with a real embedding model (ADR 0068)."""
        weight = settings.retrieval.support_weight
        if weight is None:
            weight = 0.0 if settings.embedding.backend == "hashed" else SUPPORT_WITH_A_MODEL
        hashed = settings.embedding.backend == "hashed"
        names = 1.0 if hashed else NAMES_WEIGHT_WITH_A_MODEL
        several = {
            "several_shift": 0.0 if hashed else SEVERAL_SHIFT_WITH_A_MODEL,
            "several_follow_lead": 0.0 if hashed else SEVERAL_FOLLOW_LEAD_WITH_A_MODEL,
        }
        return cls.from_settings(
            settings.retrieval, **{"w_support": weight, "names_weight": names, **several, **overrides}
        )

    def for_top_k(self, k: int) -> RetrievalPreset:
        """This preset with its candidate budgets scaled to a query asking for ``k`` items: each
        budget times ``k / budget_full_k``, ``k`` taken between ``budget_min_k`` and
        ``budget_full_k``, rounded up (a budget of 0 stays 0: ``leaves_per_tree`` 0 is every leaf).
        The returned preset's budgets are marked as those of that ``k`` (``budget_min_k`` and
        ``budget_full_k`` both set to it), so scaling it again changes nothing. The budgets shape
        the tree ranking too (its fact, cell and full-text channels rank trees by their candidates)
        and the rerank's IDF (over the pool), so the first 10 items asked for are not always the
        first 10 of 20; ``root_candidates`` and the full-text scan cap are not scaled. The HNSW
        candidate list (``hnsw_ef_search``) takes the same share, but not below
        ``hnsw_ef_search_floor`` nor above its own value: fewer rows asked from each graph, a shorter
        search of it (ADR 0034)."""
        served = max(1, min(max(k, self.budget_min_k), self.budget_full_k))
        if served >= self.budget_full_k:
            return self

        def part(budget: int) -> int:
            return -(-budget * served // self.budget_full_k)  # (integer ceiling)

        return replace(
            self,
            fact_candidates=part(self.fact_candidates),
            cell_candidates=part(self.cell_candidates),
            lexical_candidates=part(self.lexical_candidates),
            leaves_per_tree=part(self.leaves_per_tree),
            hnsw_ef_search=min(self.hnsw_ef_search, max(self.hnsw_ef_search_floor, part(self.hnsw_ef_search))),
            budget_min_k=served,
            budget_full_k=served,
        )
