"""Merging forests vs re-ingesting their sessions, on the shared LoCoMo conversations with the
default backends (rule-based extraction, extractive summaries, hashed embeddings).

    python -m bench.merge                       # ../shared/data/locomo/locomo_dev5.json, 5 conversations
    python -m bench.merge --limit 2 --sessions-limit 4 --quick

Setup (not compared): each conversation is ingested into its own forest. Then
(a) **merge**: every conversation forest is merged, one after another, into one empty forest
    (``merge_forests``: no extraction; refresh only of touched paths);
(b) **re-ingest**: all sessions of all conversations are ingested into one fresh forest (session ids
    prefixed with their conversation, as the merge namespaces colliding ones).
Both report wall time, model calls and tokens (from the usage ledgers), facts, trees and nodes, and
the invariant check; the bench says whether facts agree within 1% and trees within 10%, and the
speedup (b)/(a).
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
from bench.report import machine_info, new_figure, publish, save_figure, usage_totals
from memforest.backends.base import UsageLedger
from memforest.domain import ForestInput, SessionInput
from memforest.formats import load_forests
from memforest.lifecycle.merge import merge_forests
from memforest.pipeline.service import ingest_sessions
from memforest.store.tenants import ensure_forest

NAME = "merge"
FACTS_TOLERANCE = 0.01
TREES_TOLERANCE = 0.10


def _parser() -> argparse.ArgumentParser:
    p = bench_parser("merge", __doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=None, help="LoCoMo JSON (default: the shared locomo_dev5.json)")
    p.add_argument("--limit", type=int, default=None, help="only the first N conversations")
    p.add_argument("--sessions-limit", type=int, default=None, help="only the first N sessions of each")
    p.add_argument("--job-concurrency", type=int, default=4, help="ingest jobs of one forest at once")
    p.add_argument("--database-url", default=None, help="external PostgreSQL (default: temporary embedded)")
    p.add_argument("--quick", action="store_true", help="smoke run: 2 conversations, 3 sessions each")
    return p


async def _forest_id(env: BenchEnv, forest: str) -> int:
    async with env.db.tenant(env.tenant_id) as conn:
        return (await ensure_forest(conn, env.tenant_id, forest)).forest_id


def _prefixed(forest: ForestInput, name: str) -> tuple[SessionInput, ...]:
    return tuple(
        SessionInput(external_id=f"{name}/{s.external_id}", time=s.time, turns=s.turns, metadata=s.metadata)
        for s in forest.sessions
    )


def _row(label: str, wall: float, usage: dict[str, Any], counts: dict[str, Any], check: str) -> dict[str, Any]:
    totals = usage_totals(usage)
    return {
        "path": label,
        "wall_s": wall,
        "model_calls": int(totals["calls"]),
        "calls_by_stage": {k: int(v["calls"]) for k, v in usage.items()},
        "extract_calls": int(usage.get("extract", {}).get("calls", 0)),
        "tokens": int(totals["prompt_tokens"] + totals["completion_tokens"]),
        "facts": counts["facts"],
        "trees": sum(counts["trees"].values()),
        "trees_by_kind": counts["trees"],
        "nodes": counts["nodes"],
        "check": check,
    }


async def run(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    forests = load_forests(data, "locomo")
    if args.limit is not None:
        forests = forests[: args.limit]
    if args.sessions_limit is not None:
        forests = [type(f)(name=f.name, sessions=f.sessions[: args.sessions_limit]) for f in forests]
    names = [f.name or f"conversation-{i}" for i, f in enumerate(forests)]
    total_sessions = sum(len(f.sessions) for f in forests)
    t_all = time.perf_counter()
    async with bench_env(database_url=args.database_url, home=args.home) as env:
        bar = tqdm(total=total_sessions, unit="session", desc="setup: ingest", disable=args.no_progress,
                   file=sys.stderr, dynamic_ncols=True)  # fmt: skip
        setup_s = 0.0
        for forest, name in zip(forests, names, strict=True):
            bar.set_description(f"setup: ingest {name}")
            seen = [0]

            def progress(done: int, _total: int, seen: list[int] = seen) -> None:
                bar.update(done - seen[0])
                seen[0] = done

            report = await ingest_sessions(
                env.db, env.settings, env.backends, env.tenant_id, name, forest.sessions,
                progress=progress, job_concurrency=args.job_concurrency,
            )  # fmt: skip
            setup_s += report.wall_s
        bar.close()
        sources = {name: await forest_counts(env, name) for name in names}

        # (a) merge every conversation forest into one empty forest
        ledger_a = UsageLedger()
        merged_id = await _forest_id(env, "merged")
        steps: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        for name in tqdm(names, desc="(a) merge", disable=args.no_progress, file=sys.stderr):
            m = await merge_forests(
                env.db, env.settings, env.backends, src_tenant=env.tenant_id, src_forest_id=await _forest_id(env, name),
                dst_tenant=env.tenant_id, dst_forest_id=merged_id, ledger=ledger_a,
            )  # fmt: skip
            d = m.as_dict()
            steps.append({k: d[k] for k in ("src_forest", "facts_new", "facts_exact", "facts_near", "trees_copied",
                                           "trees_matched", "trees_rebuilt", "leaves_inserted", "nodes_refreshed",
                                           "wall_s", "stage_wall_s")})  # fmt: skip
        wall_a = time.perf_counter() - t0
        row_a = _row(
            "(a) merge",
            wall_a,
            ledger_a.as_dict(),
            await forest_counts(env, "merged"),
            await check_verdict(env, "merged"),
        )

        # (b) re-ingest every session into one fresh forest
        sessions = [s for forest, name in zip(forests, names, strict=True) for s in _prefixed(forest, name)]
        bar = tqdm(total=len(sessions), unit="session", desc="(b) re-ingest", disable=args.no_progress,
                   file=sys.stderr, dynamic_ncols=True)  # fmt: skip
        seen_b = [0]

        def progress_b(done: int, _total: int) -> None:
            bar.update(done - seen_b[0])
            seen_b[0] = done

        t0 = time.perf_counter()
        report_b = await ingest_sessions(
            env.db, env.settings, env.backends, env.tenant_id, "reingested", sessions,
            progress=progress_b, job_concurrency=args.job_concurrency,
        )  # fmt: skip
        wall_b = time.perf_counter() - t0
        bar.close()
        row_b = _row(
            "(b) re-ingest", wall_b, report_b.usage.as_dict(), await forest_counts(env, "reingested"),
            await check_verdict(env, "reingested"),
        )  # fmt: skip
        database = env.database
    facts_diff = abs(row_a["facts"] - row_b["facts"]) / max(row_b["facts"], 1)
    trees_diff = abs(row_a["trees"] - row_b["trees"]) / max(row_b["trees"], 1)
    return {
        "bench": NAME,
        "quick": bool(args.quick),
        "config": {
            "data": str(data),
            "conversations": names,
            "sessions": total_sessions,
            "sessions_limit": args.sessions_limit,
            "job_concurrency": args.job_concurrency,
            "backends": "rule-based + extractive + hashed",
            "database": database,
        },
        "machine": machine_info(),
        "setup": {"ingest_wall_s": setup_s, "forests": sources},
        "merge_steps": steps,
        "rows": [row_a, row_b],
        "comparison": {
            "speedup_b_over_a": wall_b / wall_a if wall_a else None,
            "model_calls_ratio_b_over_a": row_b["model_calls"] / max(row_a["model_calls"], 1),
            "facts_rel_diff": facts_diff,
            "trees_rel_diff": trees_diff,
            "facts_within_1pct": facts_diff <= FACTS_TOLERANCE,
            "trees_within_10pct": trees_diff <= TREES_TOLERANCE,
        },
        "elapsed_s": time.perf_counter() - t_all,
    }


def render(result: dict[str, Any], console: Console) -> None:
    cfg = result["config"]
    t = Table(title=f"merge {len(cfg['conversations'])} LoCoMo forests vs re-ingest their {cfg['sessions']} sessions")
    for col in (
        "path",
        "wall s",
        "model calls",
        "extract calls",
        "tokens",
        "facts",
        "trees (s/e/sc)",
        "nodes",
        "check",
    ):
        t.add_column(col, justify="right")
    for r in result["rows"]:
        tk = r["trees_by_kind"]
        t.add_row(
            r["path"], f"{r['wall_s']:.2f}", f"{r['model_calls']:,}", f"{r['extract_calls']:,}", f"{r['tokens']:,}",
            f"{r['facts']:,}", f"{r['trees']} ({tk.get('session', 0)}/{tk.get('entity', 0)}/{tk.get('scene', 0)})",
            f"{r['nodes']:,}", str(r["check"]),
        )  # fmt: skip
    console.print(t)
    c = result["comparison"]
    console.print(
        f"speedup (b)/(a): {c['speedup_b_over_a']:.1f}x wall, {c['model_calls_ratio_b_over_a']:.1f}x model calls; "
        f"facts differ by {100 * c['facts_rel_diff']:.2f}% (within 1%: {c['facts_within_1pct']}), "
        f"trees by {100 * c['trees_rel_diff']:.2f}% (within 10%: {c['trees_within_10pct']})"
    )
    s = Table(title="(a) merge steps (into one forest, in order)")
    for col in ("source", "facts new", "exact", "near", "trees copied", "matched", "rebuilt", "leaves ins.", "wall s"):
        s.add_column(col, justify="right")
    for st in result["merge_steps"]:
        s.add_row(
            st["src_forest"], str(st["facts_new"]), str(st["facts_exact"]), str(st["facts_near"]),
            str(st["trees_copied"]), str(st["trees_matched"]), str(st["trees_rebuilt"]), str(st["leaves_inserted"]),
            f"{st['wall_s']:.2f}",
        )  # fmt: skip
    console.print(s)
    console.print(f"setup (each conversation into its own forest): {result['setup']['ingest_wall_s']:.1f}s")


def plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    fig, ax = new_figure(3, width=4.2)
    rows = result["rows"]
    labels = [r["path"] for r in rows]
    colors = ["#2a7", "#c54"]
    ax[0].bar(labels, [r["wall_s"] for r in rows], color=colors)
    ax[0].set_title("wall time (s)")
    ax[1].bar(labels, [r["model_calls"] for r in rows], color=colors)
    ax[1].set_title("model calls (all stages)")
    x = range(2)
    ax[2].bar([i - 0.2 for i in x], [r["facts"] for r in rows], width=0.4, label="facts", color="#49c")
    ax[2].bar([i + 0.2 for i in x], [r["trees"] for r in rows], width=0.4, label="trees", color="#e93")
    ax[2].set_xticks(list(x), labels)
    ax[2].set_title("facts and trees")
    ax[2].legend()
    return save_figure(fig, out_dir, name)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    single_run(parser, args)
    data = locomo_or_complain(args.data)
    if data is None:
        return 2
    if args.quick:
        args.limit = 2 if args.limit is None else args.limit
        args.sessions_limit = 3 if args.sessions_limit is None else args.sessions_limit
    result = asyncio.run(run(args, data))
    name = f"{NAME}_quick" if args.quick else NAME
    publish(args.out, name, result, plot, render, width=170, args=args, argv=argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
