"""What the reader benchmarks (``bench.statement_reader``, ``bench.question_reader``) share: counts
of items read right per slice, the looks recorded in a result file, its bar plot and its table, and
the result file itself."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.report import git_commit, machine_info, new_figure, publish, save_figure

Result = dict[str, Any]


class Tally:
    """Items read right, per slice."""

    def __init__(self) -> None:
        self._counts: dict[str, dict[str, int]] = {}

    def add(self, slice_: str, ok: bool) -> None:
        c = self._counts.setdefault(slice_, {"n": 0, "right": 0})
        c["n"] += 1
        c["right"] += int(ok)

    def scores(self) -> dict[str, dict[str, float]]:
        """Each slice's n, right and rate, by slice name."""
        return {k: {**v, "rate": round(v["right"] / v["n"], 4)} for k, v in sorted(self._counts.items())}


def history(path: Path) -> list[dict[str, Any]]:
    """The looks a result file records (none when there is no file yet)."""
    return list(json.loads(path.read_text()).get("history", [])) if path.exists() else []


def bar_plot(what: str) -> Callable[[Result, Path, str], Path]:
    """The plot of a reader's share read right per slice, titled ``what: <set>``."""

    def plot(result: Result, out_dir: Path, name: str) -> Path:
        fig, (ax,) = new_figure(1, width=8)
        slices = list(result["scores"])
        ax.barh(slices, [result["scores"][s]["rate"] for s in slices], color="#4c72b0")
        ax.set_xlim(0, 1)
        ax.set_xlabel("share read right")
        ax.set_title(f"{what}: {result['set']}")
        return save_figure(fig, out_dir, name)

    return plot


def score_table(what: str, miss_line: Callable[[dict[str, Any]], str]) -> Callable[[Result, Console], None]:
    """The table of a reader's counts per slice, then each miss the result holds as ``miss_line`` says it."""

    def render(result: Result, console: Console) -> None:
        table = Table(title=f"{what} on {result['set']} ({len(result['history'])} runs recorded)")
        for col in ("slice", "n", "read right", "share"):
            table.add_column(col)
        for k, v in result["scores"].items():
            table.add_row(k, str(v["n"]), str(v["right"]), f"{v['rate']:.3f}")
        console.print(table)
        for m in result.get("misses", []):
            console.print(miss_line(m))

    return render


def publish_scores(
    what: str,
    args: argparse.Namespace,
    argv: Sequence[str] | None,
    scored: tuple[dict[str, Any], list[dict[str, Any]]],
    look: dict[str, Any],
    miss_line: Callable[[dict[str, Any]], str],
) -> None:
    """Write ``<what>_<set>.json`` (``what`` with underscores) with the ``scored`` counts per slice,
    this run added to its looks (``look``: the figures it records, beside the date and the commit)
    and, unless ``args.held_out``, the misses; then its plot and table."""
    scores, misses = scored
    bench = what.replace(" ", "_")
    name = f"{bench}_{args.name}"
    entry = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "commit": git_commit().get("commit"), **look}
    result: dict[str, Any] = {
        "bench": bench,
        "set": args.name,
        "held_out": args.held_out,
        "scores": scores,
        "machine": machine_info(),
        "history": [*history(args.out / f"{name}.json"), entry],
    }
    if not args.held_out:
        result["misses"] = misses
    publish(args.out, name, result, bar_plot(what), score_table(what, miss_line), args=args, argv=argv)
