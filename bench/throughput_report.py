"""Tables and figure of ``bench.throughput`` (what each column means: docs/deploy.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.report import new_figure, save_figure

COLORS = {"memforest": "#2a6", "memforest_burst": "#6c9", "serial_pipeline": "#e90", "sequential_memory": "#c44"}


def _spread(row: dict[str, Any], key: str) -> str:
    s = row[f"{key}_spread"]
    return f"{row[key]:.1f} ({s['min']:.1f}-{s['max']:.1f})"


def _opt(value: float | None, fmt: str) -> str:
    return "n/a" if value is None else format(value, fmt)


def render(result: dict[str, Any], console: Console) -> None:
    """The summary table, the speedups and a line on the server's saturation."""
    cfg = result["config"]
    sim = cfg["simulation"]
    if sim:
        console.print(
            f"[bold]SIMULATED vLLM-like server[/bold] (no model), preset {sim['preset']}: "
            f"tpot {sim['tpot_ms']} ms x (1 + {sim['decode_slowdown_per_seq']} x (batch-1)), "
            f"prefill {sim['prefill_ms_per_token']} ms/uncached token, overhead {sim['ttft_ms']} ms, "
            f"max_num_seqs {sim['max_num_seqs']}"
        )
    else:
        console.print(f"server: {cfg['chat_url']} (accounting: {cfg['server_accounting'] or 'none'})")
    console.print(
        f"{cfg['users']} users concurrent, {cfg['sessions']} sessions, {cfg['turns']} turns; "
        f"{cfg['repeat']} repetitions; medians (min-max)"
    )
    table = Table(title="write throughput")
    columns = (
        "system", "wall s", "queryable p50 s", "queryable p95 s", "chat calls", "prompt tok", "cached tok",
        "completion tok", "server busy s", "busy overlap", "queue wait s",
    )  # fmt: skip
    for col in columns:
        table.add_column(col, justify="right")
    summary = result["summary"]
    for system in cfg["systems"]:
        row = summary.get(system)
        if row is None:
            continue
        table.add_row(
            system,
            _spread(row, "wall_s"),
            _spread(row, "queryable_p50_s"),
            _spread(row, "queryable_p95_s"),
            f"{row['model_calls']:,.0f}",
            f"{row['prompt_tokens']:,.0f}",
            f"{row['cached_prompt_tokens']:,.0f}",
            f"{row['completion_tokens']:,.0f}",
            _opt(row["server_busy_s"], ".1f"),
            _opt(row["server_busy_overlap"], ".1f"),
            _opt(row["server_queue_wait_s"], ".1f"),
        )
    console.print(table)
    for key, label in (
        ("speedup_vs_sequential_memory", "over the sequential memory (Mem0-style model)"),
        ("speedup_vs_serial_pipeline", "over its own serial pipeline"),
    ):
        if summary.get(key) is not None:
            console.print(f"[bold]MemForest {summary[key]:.2f}x faster[/bold] (median wall) {label}")
    if summary.get("burst_speedup_vs_sequential_memory") is not None:
        burst = summary["burst_speedup_vs_sequential_memory"]
        console.print(f"with burst refresh hand-off (opt-in): {burst:.2f}x over the sequential memory")
    if sim:
        console.print(
            f"saturation: busy overlap near max_num_seqs ({sim['max_num_seqs']}) or queue wait > 0 means the "
            "server, not the write path, is the bottleneck"
        )


def plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    """Median wall time and median time-to-queryable per system, with min-max bars."""
    fig, ax = new_figure(2)
    summary = result["summary"]
    systems = [s for s in result["config"]["systems"] if s in summary]
    for axis, key, title in ((ax[0], "wall_s", "wall time (s)"), (ax[1], "queryable_p50_s", "queryable p50 (s)")):
        medians = [summary[s][key] for s in systems]
        low = [summary[s][key] - summary[s][f"{key}_spread"]["min"] for s in systems]
        high = [summary[s][f"{key}_spread"]["max"] - summary[s][key] for s in systems]
        axis.bar(systems, medians, yerr=[low, high], color=[COLORS.get(s, "#888") for s in systems], capsize=4)
        axis.set_title(title)
        axis.tick_params(axis="x", labelrotation=15)
    return save_figure(fig, out_dir, name)
