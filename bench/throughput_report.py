"""Tables and figure of ``bench.throughput`` (what each column means: docs/deploy.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.report import new_figure, save_figure

COLORS = {
    "memforest": "#2a6", "memforest_burst": "#6c9", "serial_pipeline": "#e90", "mem0_v1": "#c44", "mem0_v2": "#a4c",
}  # fmt: skip


def _spread(row: dict[str, Any], key: str, fmt: str = ".1f") -> str:
    s = row.get(f"{key}_spread")
    if row.get(key) is None or s is None:
        return "n/a"
    return f"{row[key]:{fmt}} ({s['min']:{fmt}}-{s['max']:{fmt}})"


def _opt(value: float | None, fmt: str) -> str:
    return "n/a" if value is None else format(value, fmt)


def _banner(result: dict[str, Any], console: Console) -> None:
    cfg = result["config"]
    sim = cfg["simulation"]
    if sim:
        console.print(
            f"SIMULATED server, preset {sim['preset']}: tpot {sim['tpot_ms']} ms x "
            f"(1 + {sim['decode_slowdown_per_seq']} x (batch-1)), prefill {sim['prefill_ms_per_token']} ms/uncached "
            f"token, overhead {sim['ttft_ms']} ms, "
            f"max_num_seqs {sim['max_num_seqs']}"
        )
    else:
        console.print(f"server: {cfg['chat_url']} (accounting: {cfg['server_accounting'] or 'none'})")
    mf = cfg["memforest_settings"]
    jobs = f"{mf['worker_concurrency']} jobs at once"
    if mf.get("admitted_by_chat_budget"):
        jobs = (
            f"up to {mf['worker_concurrency']} jobs at once as the chat budget has room and the database "
            "has connections (ADR 0099)"
        )
    console.print(
        f"memforest: one process, {jobs}, chat budget {mf['llm_concurrency']}, "
        f"extract/refresh {mf['extract_concurrency']}/{mf['refresh_concurrency']}; {cfg['repeat']} repetitions; "
        "medians (min-max)"
    )


def render(result: dict[str, Any], console: Console) -> None:
    """Per users setting: the arms' table and MemForest's speedups; then the gate."""
    _banner(result, console)
    columns = (
        "system", "wall s", "efficiency", "lower bound s", "queryable p50 s", "queryable p95 s", "chat calls",
        "prompt tok", "cached tok", "completion tok", "busy overlap", "queue wait s",
    )  # fmt: skip
    for users, block in result["summary"]["by_users"].items():
        table = Table(title=f"write throughput, {users} users concurrent")
        for col in columns:
            table.add_column(col, justify="right")
        for arm in result["config"]["systems"]:
            row = block.get(arm)
            if row is None:
                continue
            table.add_row(
                arm, _spread(row, "wall_s"), _spread(row, "efficiency", ".2f"), _opt(row["lower_bound_s"], ".1f"),
                _spread(row, "queryable_p50_s"), _spread(row, "queryable_p95_s"), f"{row['model_calls']:,.0f}",
                f"{row['prompt_tokens']:,.0f}", f"{row['cached_prompt_tokens']:,.0f}",
                f"{row['completion_tokens']:,.0f}", _opt(row["server_busy_overlap"], ".1f"),
                _opt(row["server_queue_wait_s"], ".1f"),
            )  # fmt: skip
        console.print(table)
        for other in ("mem0_v1", "mem0_v2", "serial_pipeline"):
            if block.get(f"speedup_vs_{other}") is not None:
                s = block[f"speedup_vs_{other}_spread"]
                console.print(
                    f"[bold]MemForest {block[f'speedup_vs_{other}']:.2f}x[/bold] over {other} "
                    f"(ratio of median walls; per repetition {s['min']:.2f}-{s['max']:.2f})"
                )
    detail = result["gate_detail"]
    if detail["gate"] == "not applicable":
        console.print(f"gate: not applicable ({detail['reason']})")
    else:
        values = ", ".join(f"{k} {_opt(v, '.2f')} (floor {detail['floors'][k]})" for k, v in detail["values"].items())
        console.print(f"[bold]gate: {detail['gate']}[/bold] at {detail['users']} users: {values}")


def _median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run whose wall time is the median (the lower middle one of an even count)."""
    ordered = sorted(runs, key=lambda r: r["wall_s"])
    return ordered[(len(ordered) - 1) // 2]


def plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    """Median wall time and efficiency per arm against users (min-max bars), and the server's busy
    overlap over time of each arm's median run at the largest users setting."""
    fig, ax = new_figure(3, width=5.2)
    summary = result["summary"]["by_users"]
    users = [int(n) for n in summary]
    arms = [a for a in result["config"]["systems"] if any(a in b for b in summary.values())]
    for axis, key, title in (
        (ax[0], "wall_s", "median wall time (s)"),
        (ax[1], "efficiency", "efficiency (bound / wall)"),
    ):
        for arm in arms:
            rows = [(n, summary[str(n)].get(arm)) for n in users]
            points = [(n, r) for n, r in rows if r and r.get(key) is not None]
            if not points:
                continue
            xs = [n for n, _ in points]
            mids = [r[key] for _, r in points]
            low = [r[key] - r[f"{key}_spread"]["min"] for _, r in points]
            high = [r[f"{key}_spread"]["max"] - r[key] for _, r in points]
            axis.errorbar(xs, mids, yerr=[low, high], label=arm, color=COLORS.get(arm, "#888"), marker="o", capsize=3)
        axis.set_xlabel("users (concurrent)")
        axis.set_title(title)
        axis.set_xticks(users)
    ax[0].set_yscale("log")
    ax[0].legend(fontsize=7)
    largest = max(users) if users else 0
    for arm in arms:
        mine = [r for r in result["runs"] if r["system"] == arm and r["users"] == largest]
        profile = _median_run(mine)["server"].get("in_flight_profile") if mine else None
        if profile:
            ax[2].plot(
                [p[0] for p in profile], [p[1] for p in profile], label=arm, color=COLORS.get(arm, "#888"), lw=0.8
            )
    ax[2].set_xlabel("seconds since the run started")
    ax[2].set_title(f"requests in flight at the server ({largest} users, median run)")
    ax[2].legend(fontsize=7)
    return save_figure(fig, out_dir, name)
