"""Retract one session against rebuilding the forest without it (DESIGN.md 4, ADR 0007).

Each LoCoMo conversation is ingested into its own forest with the default backends (rule-based
extraction, extractive summaries, hashed embeddings). Then one session (by default the middle one)
is retracted: leaves removed, trees rebalanced, only the touched paths refreshed. The baseline is
what a system without local deletion must do: re-ingest every other session into a fresh forest.
We report model calls per stage (the extractive summariser still counts one call per summary),
nodes refreshed, wall time, the forest check, and the forest sizes after each path.

    python -m bench.retract                              # ../shared/data/locomo/locomo_dev5.json, 1 conversation
    python -m bench.retract --limit 2 --session-index 0  # two conversations, retract their first session
    python -m bench.retract --quick                      # smoke run: 1 conversation, 4 sessions
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from tqdm import tqdm

from bench.args import bench_parser, single_run
from bench.env import BenchEnv, bench_env, check_verdict, forest_counts, locomo_or_complain
from bench.report import machine_info, new_figure, publish, save_figure
from memforest.domain import SessionInput
from memforest.formats import load_forests
from memforest.lifecycle.retract import retract
from memforest.pipeline.service import ingest_sessions

NAME = "retract"


def _parser() -> argparse.ArgumentParser:
    p = bench_parser("retract", __doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=None, help="LoCoMo JSON (default: the shared locomo_dev5.json)")
    p.add_argument("--limit", type=int, default=1, help="the first N conversations (default 1)")
    p.add_argument("--sessions-limit", type=int, default=None, help="only the first N sessions of each")
    p.add_argument("--session-index", type=int, default=None, help="which session to retract (default: the middle)")
    p.add_argument("--job-concurrency", type=int, default=4)
    p.add_argument("--embed-dim", type=int, default=None)
    p.add_argument("--database-url", default=None, help="external PostgreSQL (default: temporary embedded)")
    p.add_argument("--quick", action="store_true", help="smoke run: 1 conversation, 4 sessions")
    return p


def _calls(usage: dict[str, dict[str, Any]]) -> dict[str, int]:
    return {stage: int(u["calls"]) for stage, u in sorted(usage.items())}


async def _ingest(env: BenchEnv, forest: str, sessions: Sequence[SessionInput], args: argparse.Namespace) -> Any:
    bar = tqdm(total=len(sessions), unit="session", desc=f"ingest {forest}", disable=args.no_progress, file=sys.stderr)
    seen = [0]

    def progress(done: int, _total: int) -> None:
        bar.update(done - seen[0])
        seen[0] = done

    try:
        return await ingest_sessions(
            env.db, env.settings, env.backends, env.tenant_id, forest, sessions,
            progress=progress, job_concurrency=args.job_concurrency,
        )  # fmt: skip
    finally:
        bar.close()


async def _one(env: BenchEnv, name: str, sessions: Sequence[SessionInput], args: argparse.Namespace) -> dict[str, Any]:
    index = args.session_index if args.session_index is not None else len(sessions) // 2
    if not 0 <= index < len(sessions):
        raise SystemExit(f"--session-index {index} is outside 0..{len(sessions) - 1} for {name}")
    victim = sessions[index]
    full = await _ingest(env, name, sessions, args)
    before = await forest_counts(env, name)

    report = await retract(env.db, env.settings, env.backends, env.tenant_id, name, victim.external_id)
    d = report.as_dict()
    retract_row = {
        "method": "retract",
        "model_calls": _calls(d["model_usage"]),
        "summary_calls": report.summary_calls,
        "nodes_refreshed": report.nodes_refreshed,
        "wall_s": report.structural_wall_s + report.refresh_wall_s,
        "wall_structural_s": report.structural_wall_s,
        "wall_refresh_s": report.refresh_wall_s,
        "forest_after": await forest_counts(env, name),
        "check": await check_verdict(env, name),
        "report": d,
    }
    rest = [s for s in sessions if s.external_id != victim.external_id]
    rebuilt_name = f"{name}-rebuilt"
    t0 = time.perf_counter()
    rebuilt = await _ingest(env, rebuilt_name, rest, args)
    rebuild_wall = time.perf_counter() - t0
    rb = rebuilt.as_dict()
    rebuild_row = {
        "method": "rebuild",
        "model_calls": _calls(rb["model_usage"]),
        "summary_calls": int(rb["model_usage"].get("summarize", {}).get("calls", 0)),
        "nodes_refreshed": int(rb["nodes_refreshed"]),
        "wall_s": rebuild_wall,
        "forest_after": await forest_counts(env, rebuilt_name),
        "check": await check_verdict(env, rebuilt_name),
    }
    return {
        "forest": name,
        "sessions": len(sessions),
        "retracted": {"session": victim.external_id, "index": index, "turns": len(victim.turns)},
        "forest_before": before,
        "ingest_wall_s": float(full.as_dict()["wall_s"]),
        "retract": retract_row,
        "rebuild": rebuild_row,
        "ratios_rebuild_over_retract": {
            "summary_calls": rebuild_row["summary_calls"] / max(1, retract_row["summary_calls"]),
            "nodes_refreshed": rebuild_row["nodes_refreshed"] / max(1, retract_row["nodes_refreshed"]),
            "wall_s": rebuild_row["wall_s"] / max(1e-9, retract_row["wall_s"]),
        },
    }


async def run(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    forests = load_forests(data, "locomo")[: args.limit]
    if args.sessions_limit is not None:
        forests = [type(f)(name=f.name, sessions=f.sessions[: args.sessions_limit]) for f in forests]
    overrides: dict[str, Any] = {}
    if args.embed_dim:
        overrides["embedding"] = {"dim": args.embed_dim}
    t_all = time.perf_counter()
    rows = []
    async with bench_env(database_url=args.database_url, settings_overrides=overrides, home=args.home) as env:
        for i, forest in enumerate(forests):
            rows.append(await _one(env, forest.name or f"conversation-{i}", forest.sessions, args))
        database = env.database
    return {
        "bench": NAME,
        "quick": bool(args.quick),
        "config": {
            "data": str(data),
            "limit": args.limit,
            "sessions_limit": args.sessions_limit,
            "session_index": args.session_index,
            "job_concurrency": args.job_concurrency,
            "backends": "rule-based + extractive + hashed",
            "database": database,
        },
        "machine": machine_info(),
        "forests": rows,
        "all_checks_ok": all(r[m]["check"] == "ok" for r in rows for m in ("retract", "rebuild")),
        "elapsed_s": time.perf_counter() - t_all,
    }


def render(result: dict[str, Any], console: Console) -> None:
    t = Table(title="retract one session vs rebuild the forest without it (default backends)")
    for col in (
        "forest",
        "session",
        "method",
        "summary calls",
        "extract calls",
        "embed calls",
        "nodes refreshed",
        "wall s",
        "facts after",
        "nodes after",
        "check",
    ):
        t.add_column(col, justify="right")
    for r in result["forests"]:
        for m in ("retract", "rebuild"):
            row = r[m]
            calls = row["model_calls"]
            t.add_row(
                r["forest"],
                f"{r['retracted']['session']} ({r['retracted']['turns']} turns)",
                m,
                f"{row['summary_calls']:,}",
                f"{calls.get('extract', 0):,}",
                f"{calls.get('embed', 0):,}",
                f"{row['nodes_refreshed']:,}",
                f"{row['wall_s']:.2f}",
                f"{row['forest_after']['facts']:,}",
                f"{row['forest_after']['nodes']:,}",
                str(row["check"]),
            )
        ratio = r["ratios_rebuild_over_retract"]
        t.add_row(
            "", "", "rebuild / retract", f"{ratio['summary_calls']:.0f}x", "", "", f"{ratio['nodes_refreshed']:.0f}x",
            f"{ratio['wall_s']:.0f}x", "", "", "",
        )  # fmt: skip
        t.add_section()
    console.print(t)
    for r in result["forests"]:
        b = r["forest_before"]
        rb = r["retract"]["report"]["rebalance"]
        console.print(
            f"{r['forest']}: before the retract {b['facts']:,} facts, {b['nodes']:,} nodes; the retract removed "
            f"{r['retract']['report']['facts_removed']} facts, detached {r['retract']['report']['facts_detached']}, "
            f"removed {r['retract']['report']['leaves_removed']} leaves ({rb['merges']} merges, {rb['borrows']} "
            f"borrows, {rb['collapses']} collapses) and {r['retract']['report']['trees_removed']} trees"
        )


def plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    fig, ax = new_figure(3, width=4.2)
    labels = [r["forest"] for r in result["forests"]]
    x = list(range(len(labels)))
    for i, (key, title) in enumerate(
        (("summary_calls", "summary calls"), ("nodes_refreshed", "nodes refreshed"), ("wall_s", "wall seconds"))
    ):
        for j, (m, color) in enumerate((("retract", "#2a7"), ("rebuild", "#c44"))):
            vals = [max(r[m][key], 1e-3) for r in result["forests"]]
            ax[i].bar([v + (j - 0.5) * 0.38 for v in x], vals, width=0.38, label=m, color=color)
        ax[i].set_yscale("log")
        ax[i].set_xticks(x, labels)
        ax[i].set_title(f"{title} (log)")
        ax[i].legend()
    return save_figure(fig, out_dir, name)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    single_run(parser, args)
    data = locomo_or_complain(args.data)
    if data is None:
        return 2
    if args.quick:
        args.limit = 1
        args.sessions_limit = 4 if args.sessions_limit is None else args.sessions_limit
    result = asyncio.run(run(args, data))
    publish(args.out, f"{NAME}_quick" if args.quick else NAME, result, plot, render, width=190, args=args, argv=argv)
    return 0 if result["all_checks_ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
