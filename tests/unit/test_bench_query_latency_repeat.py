"""``bench.query_latency --repeat N``: the runs of a scenario fold into their medians, each run's
value and the spread beside them, and the goals are read on the medians."""

from __future__ import annotations

from typing import Any

from bench.query_latency import gate_of, goals_of
from bench.query_latency_repeat import combined, run_summary, spread


def _entry(p50: float, p95: float, flat50: float, trips: int) -> dict[str, Any]:
    side = {"p50_ms": p50, "p95_ms": p95, "n": 60, "round_trips": trips, "stages_p50_ms": {"recall": p50 / 2}}
    flat = {"p50_ms": flat50, "p95_ms": flat50 * 2, "n": 60, "round_trips": 2}
    return {"name": "one-100k", "facts_per_forest": 100_000, "forests": 1, "memforest": side, "flat": flat,
            "ratio_p50": round(p50 / flat50, 2), "hnsw_overlap": 0.97}  # fmt: skip


def test_three_runs_fold_into_their_medians_and_the_goals_read_them() -> None:
    runs = [[_entry(18.0, 40.0, 5.0, 6)], [_entry(25.0, 60.0, 5.0, 7)], [_entry(19.0, 45.0, 6.0, 6)]]
    (one,) = combined(runs, goals_of)
    m = one["memforest"]
    assert one["runs"] == 3
    assert (m["p50_ms"], m["p50_ms_runs"], m["p50_ms_spread"]) == (19.0, [18.0, 25.0, 19.0], [18.0, 25.0])
    assert (m["p95_ms"], m["p95_ms_spread"]) == (45.0, [40.0, 60.0])  # (the slow run's 60 alone fails p95)
    assert m["n"] == 180 and m["round_trips"] == 6 and m["stages_p50_ms"] == {"recall": 9.5}
    assert one["ratio_p50"] == 3.6 and one["ratio_p50_runs"] == [3.6, 5.0, 3.17]
    assert one["goals_met"] == {"p50": True, "p95": True, "ratio": True, "overlap": True}
    assert spread(m, "p50_ms") == "19.0 (18.0..25.0)"
    assert run_summary(runs[1][0])["memforest"] == {"p50_ms": 25.0, "p95_ms": 60.0, "n": 60}


def test_one_run_is_reported_as_it_was() -> None:
    (one,) = combined([[_entry(30.0, 70.0, 5.0, 6)]], goals_of)
    assert one["memforest"]["p50_ms"] == 30.0 and spread(one["memforest"], "p50_ms") == "30.0"
    assert one["goals_met"]["p50"] is False and one["goals_met"]["ratio"] is False


def test_the_gate_fails_on_any_scenario_goal_missed_on_the_medians() -> None:
    runs = [[_entry(18.0, 40.0, 5.0, 6), _entry(30.0, 45.0, 5.0, 6) | {"name": "many-1k", "facts_per_forest": 1_000}]]
    scenarios = combined(runs, goals_of)
    assert gate_of(scenarios) == {"gate": "fail", "gate_misses": ["many-1k p50", "many-1k ratio"]}
    assert gate_of(scenarios[:1]) == {"gate": "pass", "gate_misses": []}
    low = combined([[_entry(18.0, 40.0, 5.0, 6) | {"hnsw_overlap_cells": 0.9}]], goals_of)
    assert gate_of(low) == {"gate": "fail", "gate_misses": ["one-100k overlap"]}
