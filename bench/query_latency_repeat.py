"""The runs of ``bench.query_latency`` (``--repeat N``) folded into one figure per scenario: the
median of the runs, with every run's value and the spread (lowest, highest) beside it. The goals
are read on the medians."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

# the sides of a scenario whose latencies are repeated (the flat baseline and the one-transaction arm too)
SIDES = ("memforest", "memforest_one_transaction", "flat")
FIGURES = ("p50_ms", "p95_ms")


def run_summary(entry: dict[str, Any]) -> dict[str, Any]:
    """What a run keeps of one scenario in the report's ``runs``: its latencies and ratio."""
    out: dict[str, Any] = {"name": entry["name"], "ratio_p50": entry["ratio_p50"]}
    for side in SIDES:
        if side in entry:
            out[side] = {k: entry[side][k] for k in (*FIGURES, "n")}
    return out


def _median(values: Sequence[float]) -> float:
    return round(float(statistics.median(values)), 2)


def _fold(sides: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One side's summaries of every run as one: medians, each run's value, the spread."""
    out = dict(sides[0])
    for key in FIGURES:
        values = [s[key] for s in sides]
        out[key] = _median(values)
        out[f"{key}_runs"] = values
        out[f"{key}_spread"] = [min(values), max(values)]
    out["n"] = sum(s["n"] for s in sides)
    if "stages_p50_ms" in out:
        out["stages_p50_ms"] = {k: _median([s["stages_p50_ms"][k] for s in sides]) for k in out["stages_p50_ms"]}
    for key in ("round_trips", "side_round_trips"):
        if key in out:
            out[key] = statistics.median(s[key] for s in sides)
    return out


def combined(runs: Sequence[Sequence[dict[str, Any]]], goals: Any) -> list[dict[str, Any]]:
    """Each scenario of the runs as one entry (the first run's, with the folded latencies; the HNSW
    overlaps and the HTTP figures are measured in the first run only), its goals read by ``goals``
    (entry -> dict of booleans) on the medians."""
    out = []
    for i, first in enumerate(runs[0]):
        entries = [run[i] for run in runs]
        entry = dict(first)
        entry["runs"] = len(entries)
        for side in SIDES:
            if side in first:
                entry[side] = _fold([e[side] for e in entries])
        ratios = [e["ratio_p50"] for e in entries]
        entry["ratio_p50"] = _median(ratios)
        entry["ratio_p50_runs"] = ratios
        entry["ratio_p50_spread"] = [min(ratios), max(ratios)]
        entry["goals_met"] = goals(entry)
        out.append(entry)
    return out


def spread(figures: dict[str, Any], key: str) -> str:
    """``figures[key]`` with the runs' spread beside it when there were several: ``27.9 (26.1..29.4)``."""
    lo_hi = figures.get(f"{key}_spread")
    if not lo_hi or len(figures.get(f"{key}_runs", ())) < 2:
        return str(figures[key])
    return f"{figures[key]} ({lo_hi[0]}..{lo_hi[1]})"
