"""Paired A/B of each latency trick of the read path, on one forest of a kept ``bench.query_latency`` home.

Every question is asked with the trick on (the product as it is) and off (the trick undone by a
hook of this bench only: a module attribute swapped for the duration of the arm, or a preset or
database attribute; nothing in ``memforest`` has a switch for it), in ONE process, one right after
the other, the order alternating from question to question and from round to round. Per trick:
the median of the paired differences (off minus on: what the trick saves, ms) with its quartiles,
the median of each round, the share of pairs where the trick was faster, both arms' p50, and how
many answers were identical (items, order and exact scores).

    python -m bench.query_latency_tricks --home DIR [--scenario one-100k] [--queries 60] [--rounds 3]

``DIR`` holds the forests of ``python -m bench.query_latency --scale 1.0 --home DIR`` (its
one-100k forest is the default scenario).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from bench.args import bench_parser
from bench.env import BenchEnv, bench_env
from bench.query_latency import plan_of
from bench.query_latency_data import find_loaded, questions
from bench.report import machine_info, new_figure, provenance, publish, save_figure
from memforest.db.engine import Database
from memforest.retrieval import QueryAnswer, QueryRequest, RetrievalPreset, query, service
from memforest.store import evidence, recall_channels
from memforest.store import reading as store_reading
from memforest.store.browse import descent
from memforest.store.sql import fetch_all

# a trick worth less than this at 100K facts (median paired saving) is removed from the product
WORTH_MS = 0.3


@dataclass(slots=True)
class Arms:
    """What one query of the bench needs, per arm: the preset passed to ``query``."""

    on: RetrievalPreset
    off: RetrievalPreset


@contextmanager
def swapped(owner: Any, name: str, value: Any) -> Iterator[None]:
    """``owner.name`` is ``value`` inside the block (the bench's only way to undo a trick)."""
    old = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, old)


@asynccontextmanager
async def _sqlalchemy_reading(
    db: Database, tenant_id: uuid.UUID, *, side: bool = False, knobs: Any = None
) -> AsyncIterator[Any]:
    """A read transaction as SQLAlchemy runs a write one (``Database.tenant``: pre-ping, BEGIN,
    the entering statement, SQLAlchemy's statements and rows), for the off arm of the driver's
    read transaction."""
    async with db.tenant(tenant_id, side=side, knobs=knobs) as conn:
        yield conn


class _NoForestCache:
    """A forest cache that never knows a forest (the off arm of the process's forest cache)."""

    def get(self, tenant_id: uuid.UUID, name: str) -> None:
        return None

    def put(self, found: Any) -> None:
        return None

    def drop(self, tenant_id: uuid.UUID, name: str) -> None:
        return None


def _intent_without(field: str) -> Callable[..., Any]:
    """``ReadIntent`` as the query service makes it, with ``field`` false."""
    real = store_reading.ReadIntent

    def make(**kw: bool) -> Any:
        return real(**{**kw, field: False})

    return make


def _no_pair_params(real: Callable[..., Any]) -> Callable[..., Any]:
    """``recall_channels.fetch_rows`` with the full-text candidates' term pairs left out (the
    candidate functions then read the every-term matches and then the single-term ones)."""

    async def fetch(conn: Any, sql: str, params: Any = None) -> Any:
        if params and "tsq2" in params:
            params = {**params, "tsq2": None}
        return await real(conn, sql, params)

    return fetch


def _exact_recall(real: Callable[..., Any]) -> Callable[..., Any]:
    """``service.recall`` reading the forest exactly, as if it had no indexes of its own."""

    async def recall(*args: Any, **kw: Any) -> Any:
        return await real(*args, **{**kw, "indexed": False})

    return recall


@dataclass(frozen=True, slots=True)
class Trick:
    """A latency trick: its name, where it is decided (ADR), and how its off arm is made."""

    name: str
    adr: str
    what: str
    off: Callable[[BenchEnv, Arms], Any]  # a context manager undoing the trick
    changes_answers: bool = False  # whether undoing it may change answers (budgets, candidate sets)


@contextmanager
def _nothing() -> Iterator[None]:
    yield


@contextmanager
def _no_side_pool(db: Database) -> Iterator[None]:
    with swapped(db, "side_engine", None):
        yield


@contextmanager
def _records_as_dicts() -> Iterator[None]:
    with (
        swapped(recall_channels, "fetch_rows", fetch_all),
        swapped(evidence, "fetch_rows", fetch_all),
        swapped(descent, "fetch_rows", fetch_all),
    ):
        yield


TRICKS: tuple[Trick, ...] = (
    Trick("driver_read_transaction", "0022 items 7, 8, 11; 0039",
          "the read transactions are the driver's (one-trip BEGIN READ ONLY + settings, no pre-ping, "
          "statements and records straight from asyncpg); off: Database.tenant through SQLAlchemy",
          lambda env, arms: swapped(store_reading, "reading", _sqlalchemy_reading)),
    Trick("records_not_dicts", "0022 item 7",
          "recall, candidate, provenance and descent rows stay driver records; off: copied into dicts",
          lambda env, arms: _records_as_dicts()),
    Trick("forest_cache", "0024 item 13",
          "the process remembers the forest a name means (no lookup statement, known-forest plans); "
          "off: every query looks it up",
          lambda env, arms: swapped(service, "forest_cache", lambda db: _NoForestCache())),
    Trick("known_forest_generic_plan", "0022 item 9",
          "a known forest's vector channels run on the connection's kept generic plan; off: planned per query",
          lambda env, arms: swapped(service, "ReadIntent", _intent_without("forest_known"))),
    Trick("generic_plans_after_recall", "0022 item 9",
          "after the vector channels every statement reads by key on generic plans; off: custom plans",
          lambda env, arms: swapped(service, "ReadIntent", _intent_without("key_lookups_after_recall"))),
    Trick("generic_plans_after_browse", "0022 item 9, 0024 item 14",
          "after the descent, assembly's key lookups run on generic plans; off: custom plans",
          lambda env, arms: swapped(service, "ReadIntent", _intent_without("key_lookups_after_browse"))),
    Trick("full_text_beside", "0024 item 7",
          "the full-text channels run in a side-pool transaction beside the vector channels; "
          "off: in the query's own transaction",
          lambda env, arms: _no_side_pool(env.db)),
    Trick("every_term_first", "0033 item 1",
          "full-text candidates matching every term are read first; off: pairs, then single terms",
          lambda env, arms: swapped(recall_channels, "ALL_TERMS_FROM", 10**6), changes_answers=True),
    Trick("term_pair_candidates", "0021 item 4",
          "full-text candidates matching a pair of terms are read before single-term ones; off: no pairs",
          lambda env, arms: swapped(recall_channels, "fetch_rows", _no_pair_params(recall_channels.fetch_rows)),
          changes_answers=True),
    Trick("roots_read_margin", "0033 item 2",
          "an unscoped query reads its root budget + TIE_MARGIN roots from the root graph; off: twice the budget",
          lambda env, arms: swapped(recall_channels, "roots_read", lambda roots, *, scoped: 2 * roots),
          changes_answers=True),
    Trick("hnsw_ef_follows_top_k", "0034",
          "a top-10 query searches each graph with its share of hnsw.ef_search (96); off: the whole list (128)",
          lambda env, arms: _nothing(), changes_answers=True),
    Trick("budgets_follow_top_k", "0024 item 9",
          "a top-10 query reads its share of the candidate budgets; off: the full budgets (same HNSW list)",
          lambda env, arms: _nothing(), changes_answers=True),
    Trick("per_forest_indexes", "0024 items 1-4",
          "a large forest is searched through its own HNSW and GIN indexes; off: its vectors scanned exactly",
          lambda env, arms: swapped(service, "recall", _exact_recall(service.recall)), changes_answers=True),
)  # fmt: skip
BY_NAME = {t.name: t for t in TRICKS}


def presets(base: RetrievalPreset, trick: str) -> Arms:
    """The presets of the two arms (the same unless the trick is a budget)."""
    if trick == "hnsw_ef_follows_top_k":  # a floor at the whole list turns the scaling off (ADR 0034)
        return Arms(base, replace(base, hnsw_ef_search_floor=base.hnsw_ef_search))
    if trick == "budgets_follow_top_k":  # full budgets for any k, with the list a top-10 query uses
        on_list = base.for_top_k(base.top_k).hnsw_ef_search
        return Arms(base, replace(base, budget_min_k=base.budget_full_k, hnsw_ef_search=on_list))
    return Arms(base, base)


def median_ci(values: Sequence[float], resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """A 95% bootstrap interval of the median of ``values`` (percentiles of resampled medians)."""
    rng = np.random.default_rng(seed)
    data = np.asarray(values, dtype=float)
    medians = np.median(rng.choice(data, size=(resamples, len(data)), replace=True), axis=1)
    return float(np.percentile(medians, 2.5)), float(np.percentile(medians, 97.5))


def _same(a: QueryAnswer, b: QueryAnswer) -> bool:
    """Whether two answers hold the same items in the same order with the same exact scores."""
    return [(e.kind, e.source_id, repr(e.score)) for e in a.evidence] == [
        (e.kind, e.source_id, repr(e.score)) for e in b.evidence
    ]


async def _timed(
    env: BenchEnv, tenant_id: uuid.UUID, forest: str, q: str, preset: RetrievalPreset
) -> tuple[float, QueryAnswer]:
    t0 = time.perf_counter()
    res = await query(env.db, env.settings, env.backends, tenant_id, QueryRequest(forest, q), preset=preset)
    return (time.perf_counter() - t0) * 1000.0, res


async def measure(env: BenchEnv, tenant_id: uuid.UUID, forest: str, qs: Sequence[str], trick: Trick,
                  base: RetrievalPreset, rounds: int, warm: int) -> dict[str, Any]:  # fmt: skip
    """The paired A/B of one trick: each question on and off, in alternating order."""
    arms = presets(base, trick.name)
    for q in qs[:warm]:  # both arms' statements and plans cached before timing
        await _timed(env, tenant_id, forest, q, arms.on)
        with trick.off(env, arms):
            await _timed(env, tenant_id, forest, q, arms.off)
    diffs: list[list[float]] = []
    on_ms: list[float] = []
    off_ms: list[float] = []
    same = 0
    for r in range(rounds):
        per_round: list[float] = []
        for i, q in enumerate(qs):
            order = ("on", "off") if (i + r) % 2 == 0 else ("off", "on")
            got: dict[str, tuple[float, QueryAnswer]] = {}
            for arm in order:
                if arm == "on":
                    got[arm] = await _timed(env, tenant_id, forest, q, arms.on)
                else:
                    with trick.off(env, arms):
                        got[arm] = await _timed(env, tenant_id, forest, q, arms.off)
            on_ms.append(got["on"][0])
            off_ms.append(got["off"][0])
            per_round.append(got["off"][0] - got["on"][0])
            same += _same(got["on"][1], got["off"][1])
        diffs.append(per_round)
    flat = [d for rnd in diffs for d in rnd]
    q1, _, q3 = statistics.quantiles(flat, n=4)
    saving = statistics.median(flat)
    lo, hi = median_ci(flat)
    return {
        "trick": trick.name,
        "adr": trick.adr,
        "what": trick.what,
        "changes_answers_when_off": trick.changes_answers,
        "pairs": len(flat),
        "saving_median_ms": round(saving, 3),
        "saving_p25_ms": round(q1, 3),
        "saving_p75_ms": round(q3, 3),
        "saving_round_medians_ms": [round(statistics.median(rnd), 3) for rnd in diffs],
        "saving_median_ci95_ms": [round(lo, 3), round(hi, 3)],
        "on_faster_share": round(sum(1 for d in flat if d > 0) / len(flat), 3),
        "on_p50_ms": round(statistics.median(on_ms), 2),
        "off_p50_ms": round(statistics.median(off_ms), 2),
        "identical_answers": f"{same}/{len(flat)}",
        "worth_keeping": saving >= WORTH_MS,
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Open the kept home, find the scenario's forest, measure each trick in turn."""
    chosen = [BY_NAME[n] for n in args.tricks] if args.tricks else list(TRICKS)
    prov = provenance(args)
    report: dict[str, Any] = {"args": prov["args"], "commit": prov["git"]["commit"], "provenance": prov,
                              "machine": machine_info(), "worth_ms": WORTH_MS, "tricks": []}  # fmt: skip
    async with bench_env(home=args.home) as env:
        plan = plan_of(argparse.Namespace(quick=False, scale=args.scale, many_forests=args.many_forests))
        found = await find_loaded(env.db, plan)
        if found is None:
            raise SystemExit(f"no forests of bench.query_latency --scale {args.scale} in {args.home}")
        tenant_id, _forest_id, forest = found[args.scenario]
        report["scenario"] = {"name": args.scenario, "forest": forest,
                              "facts": next(n for name, n, _ in plan if name == args.scenario)}  # fmt: skip
        base = RetrievalPreset.for_settings(env.settings)
        qs = questions(args.queries, args.seed)
        for q in qs[: args.warm]:
            await _timed(env, tenant_id, forest, q, base)
        for trick in chosen:
            entry = await measure(env, tenant_id, forest, qs, trick, base, args.rounds, args.warm)
            print(f"{trick.name}: saves {entry['saving_median_ms']} ms "
                  f"[{entry['saving_p25_ms']}, {entry['saving_p75_ms']}]", file=sys.stderr, flush=True)  # fmt: skip
            report["tricks"].append(entry)
    return report


def render(report: dict[str, Any], console: Console) -> None:
    """The table of tricks: paired saving (median, quartiles, per round), arms' p50, answers."""
    s = report["scenario"]
    t = Table(title=f"latency tricks, paired A/B on {s['name']} ({s['facts']} facts), commit {report['commit'][:12]}")
    for col in ("trick", "ADR", "saving p50 ms", "95% CI", "p25..p75", "per round", "on faster", "on p50", "off p50",
                "identical", "kept"):  # fmt: skip
        t.add_column(col)
    for e in report["tricks"]:
        t.add_row(e["trick"], e["adr"], str(e["saving_median_ms"]), "..".join(map(str, e["saving_median_ci95_ms"])),
                  f"{e['saving_p25_ms']}..{e['saving_p75_ms']}",
                  " ".join(map(str, e["saving_round_medians_ms"])), str(e["on_faster_share"]), str(e["on_p50_ms"]),
                  str(e["off_p50_ms"]), e["identical_answers"], "yes" if e["worth_keeping"] else "no")  # fmt: skip
    console.print(t)


def markdown(report: dict[str, Any]) -> str:
    """The same table as markdown (kept next to the JSON)."""
    s = report["scenario"]
    lines = [
        f"Latency tricks, paired A/B on {s['name']} ({s['facts']} facts, forest {s['forest']}), commit "
        f"{report['commit'][:12]}; saving = off minus on, ms (positive: the trick saves time); "
        f"kept when the median saving >= {report['worth_ms']} ms",
        "",
        "| trick | ADR | saving p50 | 95% CI | p25 .. p75 | round medians | on faster | on p50 | off p50 "
        "| identical | kept |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for e in report["tricks"]:
        lines.append(
            f"| {e['trick']} | {e['adr']} | {e['saving_median_ms']} "
            f"| {' .. '.join(map(str, e['saving_median_ci95_ms']))} "
            f"| {e['saving_p25_ms']} .. {e['saving_p75_ms']} "
            f"| {' / '.join(map(str, e['saving_round_medians_ms']))} | {e['on_faster_share']} | {e['on_p50_ms']} "
            f"| {e['off_p50_ms']} | {e['identical_answers']} | {'yes' if e['worth_keeping'] else 'no'} |"
        )
    lines += ["", "argv: `python -m bench.query_latency_tricks " + " ".join(report["provenance"]["argv"]) + "`"]
    return "\n".join(lines)


def plot(report: dict[str, Any], out_dir: Path, name: str) -> Path:
    """Median paired saving per trick with its quartiles, and the 0.3 ms bar."""
    entries = report["tricks"]
    fig, (ax,) = new_figure(1, width=8.0, height=0.35 * len(entries) + 1.5)
    y = np.arange(len(entries))
    med = np.array([e["saving_median_ms"] for e in entries])
    lo = med - np.array([e["saving_p25_ms"] for e in entries])
    hi = np.array([e["saving_p75_ms"] for e in entries]) - med
    ax.barh(y, med, xerr=[lo, hi], color=["tab:blue" if e["worth_keeping"] else "tab:gray" for e in entries])
    ax.axvline(report["worth_ms"], color="tab:red", linestyle="--", linewidth=1)
    ax.set_yticks(y, [e["trick"] for e in entries])
    ax.invert_yaxis()
    ax.set_xscale("symlog", linthresh=1.0)
    ax.set_xlabel("median paired saving, ms (quartiles; red: 0.3 ms)")
    ax.set_title(f"read-path latency tricks at {report['scenario']['facts']} facts")
    return save_figure(fig, out_dir, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    p = bench_parser("query_latency_tricks", __doc__.split("\n")[0])
    p.add_argument("--scale", type=float, default=1.0, help="the scale the home's forests were loaded at")
    p.add_argument("--many-forests", type=int, default=0, help="as given to bench.query_latency (default 1000 x scale)")
    p.add_argument("--scenario", default="one-100k", choices=("one-10k", "one-100k", "many-1k"))
    p.add_argument("--queries", type=int, default=60, help="distinct questions")
    p.add_argument("--rounds", type=int, default=3, help="times every question is asked per arm")
    p.add_argument("--warm", type=int, default=5, help="questions asked per arm before timing")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--tricks", nargs="*", choices=sorted(BY_NAME), help="only these (default: all)")
    args = p.parse_args(argv)
    if args.home is None:
        p.error("--home DIR of a kept bench.query_latency run is needed")
    report = asyncio.run(run(args))
    out = Path(args.out)
    publish(out, "query_latency_tricks", report, plot, render)
    (out / "query_latency_tricks.md").write_text(markdown(report) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
