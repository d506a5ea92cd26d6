"""Reporting of a bench run: the machine it ran on, the JSON result file, matplotlib figures, the
console tables (``publish``), and small summaries (model usage totals, per-stage seconds)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

# CPU features that change what the model runtimes cost (vector width, int8 and bfloat16 units),
# in x86's and Arm's names
CPU_FEATURES = (
    "avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_int8", "asimd", "sve", "i8mm", "bf16",
)  # fmt: skip


def machine_info() -> dict[str, Any]:
    """Where the numbers were taken. The CPU model and its features are part of it: a wall measured
    on one 2-core machine says little about another with other cores (ADR 0112)."""
    model, flags = _cpuinfo(Path("/proc/cpuinfo"))
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
        "cpu_model": model,
        "cpu_features": [f for f in CPU_FEATURES if f in flags],
        "python_loop_ms": python_loop_ms(),
    }


def python_loop_ms(steps: int = 1_000_000) -> float:
    """The median of three timings of a fixed pure-Python loop of ``steps`` additions, in ms: how fast
    this machine ran plain Python when the bench started (the same code on a slower or busier
    machine shows a larger figure, so walls of two result files compare only beside it)."""
    timings = []
    for _ in range(3):
        started, total = time.perf_counter(), 0
        for i in range(steps):
            total += i
        timings.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(timings), 1)


def _cpuinfo(path: Path) -> tuple[str | None, set[str]]:
    """The first processor's model name and flags in ``path`` (x86's ``model name`` and ``flags``,
    Arm's implementer and part and ``Features``; None and no flags where unreadable)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None, set()
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            if fields:
                break  # the end of the first processor's block
            continue
        fields.setdefault(key.strip(), value.strip())
    model = fields.get("model name") or fields.get("Hardware") or fields.get("Model")
    if model is None and "CPU implementer" in fields:  # Arm names its core by implementer and part
        model = f"implementer {fields['CPU implementer']} part {fields.get('CPU part', '?')}"
    return model, set((fields.get("flags") or fields.get("Features") or "").split())


def git_commit() -> dict[str, Any]:
    """The commit the bench ran on, and whether the working tree had uncommitted changes (outside
    ``bench/results``)."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            # results written by earlier benches of the same regeneration are not code changes
            ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)bench/results"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": head, "dirty": bool(dirty)}


# the code a bench runs is the code of its start: benches import this module before they run
_AT_START = git_commit()


def provenance(args: argparse.Namespace | None, argv: Sequence[str] | None = None) -> dict[str, Any]:
    """What a result JSON records about how it was made: the command line, the parsed arguments
    and the git commit the bench started on; ``at_end`` as well when HEAD or the working tree
    changed while it ran (a commit landing beside a long run), so the file never names a commit
    whose code it did not run."""
    git = dict(_AT_START)
    at_end = git_commit()
    if at_end != _AT_START:
        git["at_end"] = at_end
    return {
        "argv": list(sys.argv[1:] if argv is None else argv),
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()} if args else {},
        "git": git,
        "settings_env": settings_env(),
    }


# names of settings whose values may hold a secret or an address with credentials: never recorded
_SECRET_PARTS = ("KEY", "URL", "PASSWORD", "SECRET", "TOKEN")


def settings_env() -> dict[str, str]:
    """The MEMFOREST_* variables the run's settings read (e.g. ``MEMFOREST_EMBEDDING__CELL_VECTORS``),
    but for keys, addresses and other secrets, whose names only are recorded."""
    found = {k: v for k, v in os.environ.items() if k.startswith("MEMFOREST_")}
    return {k: ("(set)" if any(part in k for part in _SECRET_PARTS) else v) for k, v in sorted(found.items())}


# ------------------------------------------------------------------------------------ results


def write_json(out_dir: Path, name: str, payload: dict[str, Any]) -> Path:
    """Write ``payload`` as ``out_dir/name.json`` (sorted keys, indented)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, sort_keys=True, default=str) + "\n")
    return path


def new_figure(ncols: int, width: float = 5.0, height: float = 3.8) -> tuple[Any, Any]:
    """A matplotlib figure with ``ncols`` axes (headless backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False)
    return fig, axes[0]


def save_figure(fig: Any, out_dir: Path, name: str) -> Path:
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.png"
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def publish(
    out_dir: Path,
    name: str,
    result: dict[str, Any],
    plot: Callable[[dict[str, Any], Path, str], Path],
    render: Callable[[dict[str, Any], Console], None],
    *,
    width: int = 170,
    args: argparse.Namespace | None = None,
    argv: Sequence[str] | None = None,
) -> None:
    """What every bench ends with: write the JSON (with :func:`provenance` of ``args``), draw the
    PNG, print the tables, say where."""
    result.setdefault("provenance", provenance(args, argv))
    json_path = write_json(out_dir, name, result)
    png_path = plot(result, out_dir, name)
    console = Console(width=width)
    render(result, console)
    console.print(f"wrote {json_path} and {png_path}")


def usage_totals(usage: dict[str, dict[str, Any]]) -> dict[str, float]:
    """Calls, tokens and summed call latency over every stage of a ledger dict."""
    keys = ("calls", "prompt_tokens", "completion_tokens", "cached_prompt_tokens", "latency_s")
    return {k: sum(float(u.get(k, 0)) for u in usage.values()) for k in keys}


def stage_breakdown(stage_wall_s: dict[str, float], accept_wall_s: float | None = None) -> dict[str, float]:
    """Per-stage seconds in the fixed order accept, extract, embed, commit, refresh (commit and refresh
    with the time their jobs waited for them: ``commit_wait``, ``refresh_wait``)."""
    out = {"accept": float(accept_wall_s if accept_wall_s is not None else stage_wall_s.get("accept", 0.0))}
    for k in ("extract", "embed", "commit", "refresh"):
        out[k] = float(stage_wall_s.get(k, 0.0)) + float(stage_wall_s.get(f"{k}_wait", 0.0))
    return out
