"""The history of ``bench.throughput`` regenerations: one JSON line per result file appended to
``bench/results/throughput_history.jsonl`` (by ``scripts/bench_all.sh`` after each throughput run),
and the median across the last regenerations with its range, which is what the README quotes: what
is typical, not the best run.

    python -m bench.throughput_history append bench/results/throughput_simulated.json
    python -m bench.throughput_history show --last 5
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.env import RESULTS_DIR

HISTORY = RESULTS_DIR / "throughput_history.jsonl"
FIGURES = ("speedup_vs_mem0_v1", "speedup_vs_mem0_v2", "speedup_vs_serial_pipeline", "memforest_efficiency")


def entry(result: dict[str, Any], source: str) -> dict[str, Any]:
    """One history line: where the result came from and, per users setting, its headline figures."""
    sim = result["config"].get("simulation") or {}
    users: dict[str, dict[str, Any]] = {}
    for n, block in result["summary"]["by_users"].items():
        users[n] = {k: block.get(k) for k in FIGURES[:3]}
        users[n]["memforest_efficiency"] = (block.get("memforest") or {}).get("efficiency")
        users[n]["wall_s"] = {
            arm: row["wall_s"] for arm, row in block.items() if isinstance(row, dict) and "wall_s" in row
        }
    git = result.get("provenance", {}).get("git", {})
    return {
        "appended": datetime.now(UTC).isoformat(timespec="seconds"),
        "source": source,
        "commit": git.get("commit"),
        "dirty": git.get("dirty"),
        "argv": result.get("provenance", {}).get("argv"),
        "preset": sim.get("preset"),
        "simulated": result.get("simulated"),
        "repeat": result["config"].get("repeat"),
        "gate": result.get("gate"),
        "users": users,
    }


def append(result_path: Path, history: Path = HISTORY) -> dict[str, Any]:
    """Append the history line of ``result_path`` to ``history``; returns it."""
    line = entry(json.loads(result_path.read_text()), str(result_path))
    history.parent.mkdir(parents=True, exist_ok=True)
    with history.open("a") as f:
        f.write(json.dumps(line, sort_keys=True) + "\n")
    return line


def typical(lines: list[dict[str, Any]], *, preset: str = "4b", last: int = 5) -> dict[str, Any]:
    """Over the last ``last`` regenerations of ``preset``: per users setting and figure, the median
    with min and max and how many regenerations had it."""
    mine = [x for x in lines if x.get("preset") == preset][-last:]
    out: dict[str, Any] = {"preset": preset, "regenerations": len(mine), "commits": [x["commit"] for x in mine]}
    settings = sorted({n for x in mine for n in x["users"]}, key=int)
    for n in settings:
        row: dict[str, Any] = {}
        for figure in FIGURES:
            values = [x["users"][n][figure] for x in mine if n in x["users"] and x["users"][n].get(figure) is not None]
            if values:
                row[figure] = {
                    "median": statistics.median(values),
                    "min": min(values),
                    "max": max(values),
                    "n": len(values),
                }
        out[n] = row
    out["gates"] = [x.get("gate") for x in mine]
    return out


def read(history: Path = HISTORY) -> list[dict[str, Any]]:
    """Every line of the history (none when there is no file)."""
    if not history.exists():
        return []
    return [json.loads(line) for line in history.read_text().splitlines() if line.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.throughput_history", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    add = sub.add_parser("append", help="append a throughput result file's figures to the history")
    add.add_argument("result", type=Path)
    add.add_argument("--history", type=Path, default=HISTORY)
    show = sub.add_parser("show", help="median and range over the last regenerations")
    show.add_argument("--last", type=int, default=5)
    show.add_argument("--preset", default="4b")
    show.add_argument("--history", type=Path, default=HISTORY)
    args = parser.parse_args(argv)
    if args.command == "append":
        line = append(args.result, args.history)
        print(f"appended {line['source']} ({line['commit']}, gate {line['gate']}) to {args.history}")
    else:
        print(json.dumps(typical(read(args.history), preset=args.preset, last=args.last), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
