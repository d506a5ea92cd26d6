"""The read path's candidate budgets follow the number of items asked for (ADR 0024, session 12):
the preset's budgets serve ``budget_full_k`` items or more, a smaller ``top_k`` reads its share of
them (one below ``budget_min_k`` as one of ``budget_min_k``), and a query reads with the budgets of
its own ``top_k``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from support import record_leaf_caps
from support.sessions import noon_utc
from test_retrieval import FactSpec, build_forest

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.retrieval import QueryRequest, query
from memforest.retrieval.preset import RetrievalPreset
from memforest.settings import RetrievalSettings, Settings
from memforest.store import recall_channels
from memforest.store.recall import TIE_MARGIN
from memforest.store.sql import fetch_one

FACTS = [
    FactSpec("Alice bought a Leica camera in Berlin.", noon_utc(2021, 3, 1), noon_utc(2021, 3, 1), entity="Alice"),
    FactSpec(
        "Alice sold her Leica camera and bought a Fuji.", noon_utc(2023, 5, 1), noon_utc(2023, 5, 1), entity="Alice"
    ),
    FactSpec("Bob repaired his bicycle in the garage.", noon_utc(2022, 6, 1), noon_utc(2022, 6, 1)),
    FactSpec("Bob moved to Lisbon for a job at a bakery.", noon_utc(2022, 9, 1), noon_utc(2022, 9, 1)),
]

BUDGETS = ("fact_candidates", "cell_candidates", "lexical_candidates", "leaves_per_tree")


def _budgets(preset: RetrievalPreset) -> tuple[int, ...]:
    return tuple(getattr(preset, name) for name in BUDGETS)


def test_a_small_top_k_gets_its_share_of_the_budgets_rounded_up() -> None:
    full = RetrievalPreset(fact_candidates=60, cell_candidates=40, lexical_candidates=60, leaves_per_tree=7)
    assert (full.budget_full_k, full.budget_min_k) == (20, 10)
    assert _budgets(full.for_top_k(15)) == (45, 30, 45, 6)  # 3/4; 5.25 leaves rounded up
    assert _budgets(full.for_top_k(10)) == (30, 20, 30, 4)
    assert _budgets(full.for_top_k(1)) == (30, 20, 30, 4)  # a k below 10 reads as 10
    assert full.for_top_k(20) is full and full.for_top_k(200) is full
    small = full.for_top_k(10)
    # the tree ranking, the full-text scan cap and the weights are not budgets of candidates
    kept = {name: getattr(full, name) for name in (*BUDGETS, "hnsw_ef_search", "budget_full_k", "budget_min_k")}
    assert replace(small, **kept) == full


def test_a_small_top_k_searches_its_share_of_the_hnsw_candidate_list_down_to_a_floor() -> None:
    """Fewer rows asked from each graph, a shorter search of it (ADR 0034): the share of the
    budgets, not below the floor, and never longer than the settings' own list."""
    wide = RetrievalPreset(hnsw_ef_search=200, hnsw_ef_search_floor=80)
    assert [wide.for_top_k(k).hnsw_ef_search for k in (20, 15, 10, 1)] == [200, 150, 100, 100]
    default = RetrievalPreset()
    assert (default.hnsw_ef_search, default.hnsw_ef_search_floor) == (128, 96)
    assert default.for_top_k(10).hnsw_ef_search == 96  # 64, raised to the floor
    assert default.for_top_k(19).hnsw_ef_search == 122  # ceil(128 * 19 / 20)
    assert RetrievalPreset(hnsw_ef_search=60).for_top_k(10).hnsw_ef_search == 60  # the setting is shorter
    assert default.for_top_k(10).for_top_k(10).hnsw_ef_search == 96  # (scaled once)
    whole = RetrievalPreset(hnsw_ef_search_floor=128)  # a floor of the whole list: no scaling
    assert whole.for_top_k(10).hnsw_ef_search == 128


def test_the_settings_give_the_preset_its_candidate_list_and_floor() -> None:
    preset = RetrievalPreset.from_settings(RetrievalSettings(hnsw_ef_search=300, hnsw_ef_search_floor=50))
    assert (preset.hnsw_ef_search, preset.hnsw_ef_search_floor) == (300, 50)
    assert preset.for_top_k(10).hnsw_ef_search == 150
    assert RetrievalPreset.from_settings(RetrievalSettings()).for_top_k(10).hnsw_ef_search == 96


def test_rounding_is_exact_and_a_budget_of_zero_stays_zero() -> None:
    # 100 * 11 / 20 is 55 exactly (55.00000000000001 in floating point)
    preset = RetrievalPreset(fact_candidates=100, cell_candidates=0, lexical_candidates=1, leaves_per_tree=0)
    assert _budgets(preset.for_top_k(11)) == (55, 0, 1, 0)
    assert _budgets(preset.for_top_k(1)) == (50, 0, 1, 0)
    no_scaling = replace(preset, budget_min_k=20)
    assert no_scaling.for_top_k(1) is no_scaling
    high_floor = replace(preset, budget_min_k=30)
    assert high_floor.for_top_k(1) is high_floor  # a floor above the full k: no share
    # no floor at all: a query for 0 items still reads as one for 1 (every leaf never becomes "none")
    assert _budgets(RetrievalPreset(budget_min_k=0).for_top_k(0)) == (3, 2, 3, 1)


def test_a_scaled_preset_is_not_scaled_again() -> None:
    """A caller may pass ``query`` a preset it scaled itself (a benchmark does): no second share."""
    once = RetrievalPreset().for_top_k(10)
    assert once.for_top_k(10) is once and once.for_top_k(1) is once
    assert _budgets(once) == (30, 20, 30, 4)


def _recorded_limits(monkeypatch: pytest.MonkeyPatch) -> list[recall_channels.ChannelLimits]:
    """The channel limits of every recall statement from now on (the list fills as they run)."""
    limits: list[recall_channels.ChannelLimits] = []
    read = recall_channels.recall_channels

    async def reading(*args: Any, **kwargs: Any) -> Any:
        limits.append(args[7])
        return await read(*args, **kwargs)

    monkeypatch.setattr(recall_channels, "recall_channels", reading)
    return limits


@pytest.mark.parametrize("top_k", [None, 5, 15, 50])
async def test_a_query_reads_with_the_budgets_of_its_own_top_k(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch, top_k: int | None
) -> None:
    """Both channels' statements (the vector ones here, the full-text ones beside) and the browse's
    leaf cap see the budgets of the query's top_k (the settings' default when it names none)."""
    tenant_id = await build_forest(db, "t", "gear", FACTS)
    limits = _recorded_limits(monkeypatch)
    caps = record_leaf_caps(monkeypatch)
    backends = build_backends(settings)
    result = await query(
        db, settings, backends, tenant_id, QueryRequest("gear", "Which camera did Alice buy?", top_k=top_k)
    )
    assert result.evidence
    want = RetrievalPreset.from_settings(settings.retrieval).for_top_k(top_k or settings.retrieval.top_k)
    assert len(limits) == 2  # the vector channels here, the full-text ones beside (both scaled)
    assert all(
        (lim.facts, lim.cells, lim.lexical) == (want.fact_candidates, want.cell_candidates, want.lexical_candidates)
        for lim in limits
    )
    assert caps == [want.leaves_per_tree]


@pytest.mark.parametrize("top_k", [None, 15, 50])
async def test_a_query_searches_its_graphs_with_the_candidate_list_of_its_own_top_k(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch, top_k: int | None
) -> None:
    """The transaction of the vector channels' statement has ``hnsw.ef_search`` set to the query's
    share of the candidate list (ADR 0034), read back from the server there."""
    tenant_id = await build_forest(db, "t", "gear", FACTS)
    seen: list[str] = []
    read = recall_channels.recall_channels

    async def reading(*args: Any, **kwargs: Any) -> Any:
        if args[3] is not None:  # (a vector: the vector channels' statement)
            row = await fetch_one(args[0], "SELECT current_setting('hnsw.ef_search') AS ef")
            seen.append(str(row["ef"]))
        return await read(*args, **kwargs)

    monkeypatch.setattr(recall_channels, "recall_channels", reading)
    backends = build_backends(settings)
    for _ in range(2):  # the forest looked up, then known to the process (its lookup skipped)
        await query(db, settings, backends, tenant_id, QueryRequest("gear", "Which camera did Alice buy?", top_k=top_k))
    want = RetrievalPreset.from_settings(settings.retrieval).for_top_k(top_k or settings.retrieval.top_k)
    assert want.hnsw_ef_search == {None: 96, 15: 96, 50: settings.retrieval.hnsw_ef_search}[top_k]
    assert seen == [str(want.hnsw_ef_search)] * 2


@pytest.mark.parametrize("scope", [None, ["entity"]])
async def test_a_query_reads_its_root_graph_a_margin_past_the_root_budget(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch, scope: list[str] | None
) -> None:
    """The root nodes read from a forest's root graph before their trees are checked (ADR 0033): the
    other graphs' margin past the root budget when every kind is asked (every root's tree passes),
    twice the budget for a query scoped to some kinds (roots of the others drop out after the graph)."""
    tenant_id = await build_forest(db, "t", "gear", FACTS)
    limits = _recorded_limits(monkeypatch)
    backends = build_backends(settings)
    await query(
        db, settings, backends, tenant_id, QueryRequest("gear", "Which camera did Alice buy?", scope_kinds=scope)
    )
    roots = RetrievalPreset.from_settings(settings.retrieval).root_candidates
    want = 2 * roots if scope else roots + TIE_MARGIN
    assert limits and {lim.roots_read for lim in limits} == {want}
