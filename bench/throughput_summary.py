"""The summary and the gate of ``bench.throughput``: per users setting and arm, medians over the
repetitions with their spread (min, max); speedups as ratios of median wall times; MemForest's
efficiency (the server's lower bound for the run's work over its wall time).

The gate (docs/adr/0041-faithful-mem0-baselines.md) holds for the simulated ``4b`` preset at 20
users: MemForest >= 3x faster than ``mem0_v1``, >= 2x faster than ``serial_pipeline``, efficiency
>= 0.6 (the goal is 0.8, also at 50 users; reported beside, not gated).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

BASELINES = ("mem0_v1", "mem0_v2", "serial_pipeline")
GATE_USERS = 20
GATE_PRESET = "4b"
FLOORS = {"speedup_vs_mem0_v1": 3.0, "speedup_vs_serial_pipeline": 2.0, "efficiency": 0.6}
EFFICIENCY_GOAL = 0.8
_TIMES = ("wall_s", "queryable_p50_s", "queryable_p95_s", "efficiency")
_COUNTS = ("model_calls", "prompt_tokens", "cached_prompt_tokens", "completion_tokens")
_SERVER = ("busy_s", "busy_overlap", "queue_wait_s")
_CPU = ("client_s", "server_s", "database_s", "cpu_bound_s", "busy_share")  # bench.cpu_meter


def spread(values: Sequence[float]) -> dict[str, float]:
    """Median, min and max."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def _arm_row(mine: list[dict[str, Any]]) -> dict[str, Any]:
    row: dict[str, Any] = {"repetitions": len(mine)}
    for key in _TIMES:
        values = [r[key] for r in mine if r.get(key) is not None]
        row[key] = statistics.median(values) if values else None
        row[f"{key}_spread"] = spread(values) if values else None
    for key in _COUNTS:
        row[key] = statistics.median(r[key] for r in mine)
    server = [r["server"] for r in mine if r["server"].get("source")]
    for key in _SERVER:
        row[f"server_{key}"] = statistics.median(s[key] for s in server) if server else None
    for key in _CPU:
        values = [r["cpu"][key] for r in mine if (r.get("cpu") or {}).get(key) is not None]
        row[f"cpu_{key}"] = statistics.median(values) if values else None
    bounds = [r["bound"]["lower_bound_s"] for r in mine if r.get("bound")]
    row["lower_bound_s"] = statistics.median(bounds) if bounds else None
    return row


def summarise(runs: list[dict[str, Any]], arms: Sequence[str], users: Sequence[int]) -> dict[str, Any]:
    """``{"by_users": {"20": {arm: row, "speedup_vs_<baseline>": x, ...}}}`` (see the module docstring)."""
    by_users: dict[str, Any] = {}
    for n in users:
        block: dict[str, Any] = {}
        for arm in arms:
            mine = [r for r in runs if r["system"] == arm and r["users"] == n]
            if mine:
                block[arm] = _arm_row(mine)
        base = block.get("memforest")
        for other in BASELINES:
            ref = block.get(other)
            key = f"speedup_vs_{other}"
            block[key] = ref["wall_s"] / base["wall_s"] if base and ref and base["wall_s"] else None
            block[f"{key}_spread"] = _speedup_spread(runs, n, other)
        by_users[str(n)] = block
    return {"by_users": by_users}


def _speedup_spread(runs: list[dict[str, Any]], users: int, other: str) -> dict[str, float] | None:
    """Min and max of the per-repetition speedups (a repetition runs every arm once)."""
    ratios = []
    for rep in sorted({r["repetition"] for r in runs if r["users"] == users}):
        walls = {r["system"]: r["wall_s"] for r in runs if r["users"] == users and r["repetition"] == rep}
        if walls.get("memforest") and walls.get(other):
            ratios.append(walls[other] / walls["memforest"])
    return spread(ratios) if ratios else None


def gate(summary: dict[str, Any], *, preset: str | None) -> dict[str, Any]:
    """``gate``: ``pass`` / ``fail`` where the gate applies (the simulated 4b preset with 20 users
    among the settings), else ``not applicable``; with the floors, the values and the goal."""
    block = summary["by_users"].get(str(GATE_USERS))
    if preset != GATE_PRESET or block is None or "memforest" not in block:
        return {"gate": "not applicable", "reason": f"the gate is for the simulated {GATE_PRESET} preset at "
                f"{GATE_USERS} users with the memforest arm"}  # fmt: skip
    values = {
        "speedup_vs_mem0_v1": block.get("speedup_vs_mem0_v1"),
        "speedup_vs_serial_pipeline": block.get("speedup_vs_serial_pipeline"),
        "efficiency": block["memforest"].get("efficiency"),
    }
    failed = [k for k, floor in FLOORS.items() if values[k] is None or values[k] < floor]
    goal = {
        str(n): (b.get("memforest") or {}).get("efficiency")
        for n, b in summary["by_users"].items()
    }  # fmt: skip
    return {
        "gate": "fail" if failed else "pass",
        "users": GATE_USERS,
        "floors": FLOORS,
        "values": values,
        "failed": failed,
        "efficiency_goal": EFFICIENCY_GOAL,
        "efficiency_by_users": goal,
    }
