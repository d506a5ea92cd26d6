"""``emb`` query latency at size, against a flat vector baseline measured in the same run.

Scenarios: one forest of 10K facts, one of 100K, and 1,000 forests of 1K facts each (searching one),
all in one self-contained database (embedded PostgreSQL in a temp home unless ``--database-url``).
The forests are synthesised and bulk-loaded (``bench.query_latency_data``). Every question is
asked in turn by the full read path (``memforest.retrieval.query``), by the same read path with
every recall channel in the query's own transaction (``memforest_one_transaction``: no side pool,
the comparison arm of ADR 0024's session-10 change), and by the flat baseline (the same embedding,
then a plain pgvector top-k over the forest's fact embeddings under the same tenant and forest
filter, exact or HNSW as the read path would choose). Reported per scenario: p50/p95 of each, the
ratio of the read path's p50 to the flat one's, the read path's per-stage medians and round trips
per query (statements, BEGIN, COMMIT and the pool's pre-ping: see ``RoundTrips``; the side pool's
apart), and HNSW's overlap with the exact top facts, cell leaves and tree roots where HNSW is used
(by ids, the goal's figure, and by distance: a row tied with the exact k-th counts).
The 100K forest is also asked over HTTP (``POST /v1/forests/{f}/query`` against a ``memforest serve``
started on the same database; ``--no-http`` skips it).

The whole measurement runs ``--repeat`` times (3) in one process after one load; each figure is
the median of the runs, with every run's value and the spread (lowest, highest) beside it
(``bench.query_latency_repeat``), and the goals are read on the medians: each scenario's in
``goals_met``, and the report's ``"gate"`` (``"fail"`` when any scenario misses one, named in
``gate_misses``).

    python -m bench.query_latency [--scale 1.0] [--queries 60] [--rounds 3] [--repeat 3] [--out bench/results]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table
from sqlalchemy import event

from bench.args import add_embedding, bench_parser, embedding_overrides
from bench.env import bench_env
from bench.query_latency_data import find_loaded, load, questions
from bench.query_latency_http import http_latency, read_key
from bench.query_latency_repeat import combined, run_summary, spread
from bench.report import machine_info, new_figure, provenance, publish, save_figure
from memforest.backends.base import Embedder
from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.pipeline.forest_indexes import ensure_all_indexes
from memforest.retrieval import QueryRequest, RetrievalPreset, query
from memforest.store.forest_indexes import forest_indexed
from memforest.store.read_conn import reading
from memforest.store.recall import nearest_cells, nearest_facts, nearest_roots, use_hnsw
from memforest.store.recall_channels import recall_knobs

STAGES = ("forest", "cues", "embed", "recall", "temporal", "browse", "assemble")
# goals of issue 16: p50 and p95 bounds per forest size, ratio to the flat baseline, HNSW overlap
GOAL_RATIO = 4.0
GOAL_OVERLAP = 0.95
# the overlaps the goal needs, wherever HNSW is used: (JSON key, at the queries' own budgets rather
# than the full ones, graph). Facts at the issue's top 60 and at the queries' fact budget, cell
# leaves at the full and the queries' cell budget, tree roots at the root budget (not scaled by
# top_k): every graph a query reads, with the HNSW candidate list of the full budgets and with the
# queries' own (their share of it, ADR 0034)
OVERLAPS = (
    ("hnsw_overlap", False, "facts"),
    ("hnsw_overlap_read", True, "facts"),
    ("hnsw_overlap_cells", False, "cells"),
    ("hnsw_overlap_cells_read", True, "cells"),
    ("hnsw_overlap_roots", False, "roots"),
    ("hnsw_overlap_roots_read", True, "roots"),
)
OVERLAP_KEYS = tuple(key for key, _, _ in OVERLAPS)


def goal_bounds(facts_per_forest: int) -> tuple[float, float]:
    """(p50, p95) bounds in ms of issue 16 for a forest of this size."""
    return (10.0, 50.0) if facts_per_forest <= 1_000 else (20.0, 50.0)


def goals_of(entry: dict[str, Any]) -> dict[str, bool]:
    """Which goals of issue 16 a scenario's figures meet."""
    p50_max, p95_max = goal_bounds(entry["facts_per_forest"])
    return {
        "p50": entry["memforest"]["p50_ms"] <= p50_max,
        "p95": entry["memforest"]["p95_ms"] <= p95_max,
        "ratio": entry["ratio_p50"] <= GOAL_RATIO,
        "overlap": min(entry.get(k, 1.0) for k in OVERLAP_KEYS) >= GOAL_OVERLAP,
    }


def gate_of(scenarios: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``gate`` (pass or fail) of the scenarios' goals read on the runs' medians, with each goal a
    scenario misses (``"one-100k p50"``)."""
    misses = [f"{e['name']} {goal}" for e in scenarios for goal, met in e["goals_met"].items() if not met]
    return {"gate": "fail" if misses else "pass", "gate_misses": misses}


def pct(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100.0 * len(s) + 0.5) - 1))] if s else 0.0


@dataclass(slots=True)
class RoundTrips:
    """Counts what the read path sends to the server: every statement, BEGIN, COMMIT and the pool's
    pre-ping. Statements through SQLAlchemy are counted on its cursor events; the rest (BEGIN,
    COMMIT, the ping and ``store.sql.fetch_all``'s statements, which go to asyncpg directly) on
    asyncpg's query logger of each pooled connection. On the read path the two do not overlap:
    SQLAlchemy's own statements run as asyncpg prepared statements, which the query logger does
    not see (its executemany, which the read path never uses, would count twice). Not counted: a
    connection's first pre-ping (before its logger is attached: the warm-up queries make them) and
    the parse of a statement new to a connection's statement cache. Round trips of the side pool's
    transactions (the full-text channels beside the query's own, ADR 0024 session 10) are counted
    apart, in ``side``: they run at the same time as the others."""

    n: int = 0
    side: int = 0

    def attach(self, db: Database) -> None:
        """Listen on both engines (system and tenant work) and on each connection they check out,
        and apart on the side pool's."""
        for engine in {db.engine.sync_engine, db.tenant_engine.sync_engine}:
            event.listen(engine, "before_cursor_execute", self._bump)
            event.listen(engine, "checkout", self._watch)
        if db.side_engine is not None:
            event.listen(db.side_engine.sync_engine, "before_cursor_execute", self._bump_side)
            event.listen(db.side_engine.sync_engine, "checkout", self._watch_side)

    def _watch(self, dbapi_connection: Any, *_: Any) -> None:
        dbapi_connection.driver_connection.add_query_logger(self._bump)  # a set: added once

    def _watch_side(self, dbapi_connection: Any, *_: Any) -> None:
        dbapi_connection.driver_connection.add_query_logger(self._bump_side)

    def _bump(self, *_: Any) -> None:
        self.n += 1

    def _bump_side(self, *_: Any) -> None:
        self.side += 1

    @contextmanager
    def counting(self, into: list[int], side_into: list[int] | None = None) -> Iterator[None]:
        """Append the round trips made inside the block to ``into`` (and the side pool's to
        ``side_into``; the query logger reports on the next turn of the event loop: the caller
        yields once before the block ends)."""
        start, side_start = self.n, self.side
        yield
        into.append(self.n - start)
        if side_into is not None:
            side_into.append(self.side - side_start)


@contextmanager
def one_transaction(db: Database) -> Iterator[None]:
    """Queries inside the block read every recall channel in their own transaction, as without a
    side pool (``database.side_pool_size = 0``): the comparison arm of the same run."""
    side, db.side_engine = db.side_engine, None
    try:
        yield
    finally:
        db.side_engine = side


@dataclass(slots=True)
class Series:
    """Latencies (ms) and round trips of one side of a scenario."""

    lat: list[float] = field(default_factory=list)
    trips: list[int] = field(default_factory=list)
    side_trips: list[int] = field(default_factory=list)
    stages: dict[str, list[float]] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "p50_ms": round(pct(self.lat, 50), 2),
            "p95_ms": round(pct(self.lat, 95), 2),
            "n": len(self.lat),
            "round_trips": statistics.median(self.trips) if self.trips else 0,
        }
        if self.side_trips:
            out["side_round_trips"] = statistics.median(self.side_trips)
        if self.stages:
            out["stages_p50_ms"] = {k: round(statistics.median(v), 2) for k, v in self.stages.items()}
        return out


# whether each forest has its own indexes, read once per forest (the read path's forest cache
# knows it too: neither asks the catalogue on every query)
_INDEXED: dict[int, bool] = {}


async def flat_topk(
    db: Database, emb: Embedder, tenant_id: uuid.UUID, forest_id: int, q: str, preset: RetrievalPreset
) -> list[tuple[int, float]]:
    """The flat baseline: embed, then one pgvector top-k over the forest's facts (exact or HNSW as
    the read path would choose for this forest: its own HNSW indexes when it has them, searched with
    the candidate list the read path's own query for ``top_k`` items uses: ADR 0034). Its
    transaction is opened as the read path's is, with the HNSW settings in its first round trip:
    the top-k is its only other statement."""
    vec = np.asarray((await emb.embed([q], stage="query_embed"))[0], dtype=np.float32)
    if forest_id not in _INDEXED:
        async with reading(db, tenant_id) as conn:
            _INDEXED[forest_id] = await forest_indexed(conn, forest_id)
    exact = not _INDEXED[forest_id]
    knobs = recall_knobs(preset.for_top_k(preset.top_k).hnsw_ef_search)
    async with reading(db, tenant_id, knobs=knobs) as conn:  # (the read path's transaction, as MemForest's own)
        return await nearest_facts(conn, tenant_id, forest_id, vec, preset.top_k, exact=exact)


_NEAREST = {"facts": nearest_facts, "cells": nearest_cells, "roots": nearest_roots}


# a similarity this close to the exact k-th one is a tie (float rounding of equal vectors)
TIE_EPSILON = 1e-6


async def hnsw_agreement(
    db: Database,
    emb: HashedEmbedder,
    tenant_id: uuid.UUID,
    forest_id: int,
    qs: list[str],
    preset: RetrievalPreset,
    channel: str = "facts",
) -> tuple[float, float]:
    """HNSW's top ``fact_candidates`` facts (``channel`` "cells": top ``cell_candidates`` cell
    leaves; "roots": top ``root_candidates`` tree roots) against the exact ones (same forest
    filter), mean over ``qs``: the overlap of the two id sets, and the share of HNSW's rows at
    least as similar as the exact k-th (ann-benchmarks' recall: a row tied with the exact k-th
    counts, where the id overlap counts it a miss when the exact scan kept another of the tie)."""
    nearest = _NEAREST[channel]
    budgets = {"facts": preset.fact_candidates, "cells": preset.cell_candidates, "roots": preset.root_candidates}
    k = budgets[channel]
    overlaps, by_distance = [], []
    for q in qs:
        v = np.asarray(emb.embed_sync([q])[0], dtype=np.float32)
        async with db.tenant(tenant_id) as conn:
            exact = await nearest(conn, tenant_id, forest_id, v, k, exact=True)
        async with db.tenant(tenant_id) as conn:
            await use_hnsw(conn, preset.hnsw_ef_search)
            approx = await nearest(conn, tenant_id, forest_id, v, k, exact=False)
        e = {f for f, _ in exact}
        overlaps.append(len(e & {f for f, _ in approx}) / max(1, len(e)))
        kth = min((s for _, s in exact), default=0.0)
        by_distance.append(sum(1 for _, s in approx if s >= kth - TIE_EPSILON) / max(1, len(exact)))
    return statistics.fmean(overlaps), statistics.fmean(by_distance)


def plan_of(args: argparse.Namespace) -> list[tuple[str, int, int]]:
    """``(scenario, facts per forest, forests)`` for the arguments."""
    if args.quick:
        return [("one-10k", 300, 1), ("one-100k", 600, 1), ("many-1k", 200, 3)]
    s = args.scale
    many = args.many_forests or max(2, round(1_000 * s))
    return [("one-10k", max(100, round(10_000 * s)), 1), ("one-100k", max(100, round(100_000 * s)), 1),
            ("many-1k", 1_000, many)]  # fmt: skip


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Load, then time every scenario: read path and flat baseline, question by question."""
    overrides: dict[str, Any] = embedding_overrides(args.embedding, args.embed_dim or None)
    # no statement or idle-in-transaction timeout: synthesising a forest of 100K facts (in its load
    # transaction), its COPY and its HNSW indexes may each take longer than the product's defaults
    overrides["database"] = {"statement_timeout_ms": 0, "idle_in_transaction_timeout_ms": 0}
    plan = plan_of(args)
    n_queries = 6 if args.quick else args.queries
    rounds = 1 if args.quick else args.rounds
    repeat = 1 if args.quick else args.repeat
    prov = provenance(args)
    report: dict[str, Any] = {"args": prov["args"], "commit": prov["git"]["commit"], "provenance": prov,
                              "machine": machine_info(), "scenarios": [], "notes": args.note}  # fmt: skip
    async with bench_env(database_url=args.database_url, settings_overrides=overrides, home=args.home) as env:
        db, settings = env.db, env.settings
        report["dim"] = settings.embedding.dim
        # the loaded facts carry hashed vectors whatever --embedding says (a model embedding 100K facts
        # is out of reach on a CPU); the question is embedded by the configured embedder on both paths
        report["embedding"] = {"spec": args.embedding, "questions_embedded_by": env.backends.embedder.name}
        t0 = time.perf_counter()
        found = await find_loaded(db, plan) if args.reuse else None
        searched = found or await load(db, settings.embedding.dim, plan, args.seed, progress=not args.no_progress)
        t_index = time.perf_counter()
        built = await ensure_all_indexes(db, settings)  # the large forests' own indexes (ADR 0024)
        report["index_build_s"] = round(time.perf_counter() - t_index, 1)
        report["indexes_built"] = len(built.built) + len(built.rebuilt)
        n_built, took = report["indexes_built"], report["index_build_s"]
        print(f"{n_built} forest indexes (HNSW, GIN) built in {took} s", file=sys.stderr)
        report["load_s"] = round(time.perf_counter() - t0, 1)
        preset = RetrievalPreset.for_settings(settings)
        read = preset.for_top_k(preset.top_k)  # the budgets each query reads with (ADR 0024, session 12)
        report["read_budgets"] = {
            "top_k": preset.top_k,
            "facts": read.fact_candidates,
            "cells": read.cell_candidates,
            "full_text": read.lexical_candidates,
            "leaves_per_tree": read.leaves_per_tree,
            "hnsw_ef_search": read.hnsw_ef_search,  # (the queries' share of the settings' list; ADR 0034)
        }
        emb = HashedEmbedder(settings.embedding.dim)
        trips = RoundTrips()
        trips.attach(db)
        qs = questions(n_queries, args.seed)
        runs: list[list[dict[str, Any]]] = []
        for rep in range(repeat):  # the whole measurement again: the goals are read on the runs' medians
            runs.append([])
            for name, n_facts, n_forests in plan:
                tenant_id, forest_id, fname = searched[name]
                for q in qs[:5]:  # warm-up
                    await query(db, settings, env.backends, tenant_id, QueryRequest(fname, q), preset=preset)
                    await flat_topk(db, env.backends.embedder, tenant_id, forest_id, q, preset)
                await asyncio.sleep(0)  # the query logger's reports of the warm-up, before counting
                mem, one, flat = Series(), Series(), Series()
                strategy = ""
                for _ in range(rounds):
                    for q in qs:
                        with trips.counting(mem.trips, mem.side_trips):
                            t1 = time.perf_counter()
                            res = await query(
                                db, settings, env.backends, tenant_id, QueryRequest(fname, q), preset=preset
                            )
                            mem.lat.append((time.perf_counter() - t1) * 1000.0)
                            await asyncio.sleep(0)  # the query logger's last reports
                        for stage in STAGES:
                            mem.stages.setdefault(stage, []).append(res.timings_ms.get(stage, 0.0))
                        strategy = res.strategy
                        if db.side_engine is not None:  # the same query, every channel in its own transaction
                            with one_transaction(db), trips.counting(one.trips):
                                t1 = time.perf_counter()
                                await query(
                                    db, settings, env.backends, tenant_id, QueryRequest(fname, q), preset=preset
                                )
                                one.lat.append((time.perf_counter() - t1) * 1000.0)
                                await asyncio.sleep(0)
                        with trips.counting(flat.trips):
                            t1 = time.perf_counter()
                            await flat_topk(db, env.backends.embedder, tenant_id, forest_id, q, preset)
                            flat.lat.append((time.perf_counter() - t1) * 1000.0)
                            await asyncio.sleep(0)
                entry: dict[str, Any] = {"name": name, "facts_per_forest": n_facts, "forests": n_forests}
                entry |= {"strategy": strategy, "memforest": mem.summary(), "flat": flat.summary()}
                if one.lat:
                    entry["memforest_one_transaction"] = one.summary()
                entry["ratio_p50"] = round(entry["memforest"]["p50_ms"] / max(entry["flat"]["p50_ms"], 1e-6), 2)
                if strategy == "hnsw" and rep == 0:  # (the graphs answer the same in every run)
                    # facts: top 60, and the 30 the benchmark's queries read for their 10 items; cell
                    # leaves: 40, and 20; roots: the 50 nearest that rank the trees
                    for key, at_read, graph in OVERLAPS:
                        budgets = read if at_read else preset
                        ids, dist = await hnsw_agreement(db, emb, tenant_id, forest_id, qs[:20], budgets, graph)
                        entry[key], entry[f"{key}_by_distance"] = round(ids, 4), round(dist, 4)
                entry["goals_met"] = goals_of(entry)
                if name == "one-100k" and not args.no_http and rep == 0:
                    key = await read_key(db, tenant_id)
                    entry["http"] = await asyncio.to_thread(
                        http_latency, db, key, fname, qs, rounds, embed_dim=settings.embedding.dim
                    )
                runs[-1].append(entry)
    report["runs"] = [[run_summary(e) for e in one_run] for one_run in runs]
    report["scenarios"] = combined(runs, goals_of)
    report |= gate_of(report["scenarios"])
    return report


def render(report: dict[str, Any], console: Console) -> None:
    """The scenario table: read path vs flat baseline, stages and round trips."""
    t = Table(title=f"emb query latency, ms (dim {report['dim']}, load {report['load_s']} s, commit "
                    f"{report['commit'][:12]}; shared machine: timings are noisy)")  # fmt: skip
    for col in ("scenario", "facts/forest", "forests", "strategy", "p50", "p95", "flat p50", "flat p95", "ratio",
                "one-tx p50", "hnsw overlap facts 60 / read, cells 40 / read, roots 50 / read", "trips", "http p50/p95",
                "stage p50s"):  # fmt: skip
        t.add_column(col)
    for e in report["scenarios"]:
        m, f = e["memforest"], e["flat"]
        stages = " ".join(f"{k} {v}" for k, v in m.get("stages_p50_ms", {}).items())
        t.add_row(e["name"], str(e["facts_per_forest"]), str(e["forests"]), e["strategy"], str(m["p50_ms"]),
                  str(m["p95_ms"]), str(f["p50_ms"]), str(f["p95_ms"]), str(e["ratio_p50"]), _one(e),
                  _overlap(e), _trips(m), _http(e), stages)  # fmt: skip
    console.print(t)


def _one(entry: dict[str, Any]) -> str:
    """p50 of the comparison arm: every recall channel in the query's own transaction."""
    one = entry.get("memforest_one_transaction")
    return str(one["p50_ms"]) if one else "-"


def _trips(m: dict[str, Any]) -> str:
    """Round trips of the query's transaction, and beside it those of the side pool's."""
    return f"{m['round_trips']} + {m['side_round_trips']} beside" if "side_round_trips" in m else str(m["round_trips"])


def _overlap(entry: dict[str, Any], suffix: str = "") -> str:
    """HNSW's overlap with the exact top 60 facts and with the exact top of the queries' fact
    budget; then the same for the cell leaves (top 40, and the queries' cell budget); then the
    tree roots' (top 50, with the full and the queries' HNSW candidate list). ``suffix``
    "_by_distance": the tie-aware figures."""
    if "hnsw_overlap" not in entry:
        return "-"
    return " / ".join(str(entry.get(k + suffix, "-")) for k in OVERLAP_KEYS)


def _http(entry: dict[str, Any]) -> str:
    http = entry.get("http")
    return f"{http['p50_ms']} / {http['p95_ms']}" if http else "-"


def markdown(report: dict[str, Any]) -> str:
    """The same table as markdown (kept next to the JSON)."""
    lines = [
        f"emb query latency, ms (dim {report['dim']}, load {report['load_s']} s, commit {report['commit'][:12]}; "
        f"median of {len(report.get('runs', [])) or 1} runs, (lowest..highest) beside it)",
        "",
        "| scenario | facts/forest | forests | strategy | p50 | p95 | flat p50 | flat p95 | ratio p50 "
        "| one-tx p50 | hnsw overlap facts top 60 / read budget, cells top 40 / read budget, roots top 50 / read ef "
        "| round trips | http p50/p95 | stage p50s |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for e in report["scenarios"]:
        m, f = e["memforest"], e["flat"]
        stages = ", ".join(f"{k} {v}" for k, v in m.get("stages_p50_ms", {}).items())
        lines.append(
            f"| {e['name']} | {e['facts_per_forest']} | {e['forests']} | {e['strategy']} | {spread(m, 'p50_ms')} "
            f"| {spread(m, 'p95_ms')} | {spread(f, 'p50_ms')} | {spread(f, 'p95_ms')} | {spread(e, 'ratio_p50')} "
            f"| {_one(e)} "
            f"| {_overlap(e)} "
            f"| {_trips(m)} | {_http(e)} | {stages} |"
        )
    tied = [f"{e['name']} {_overlap(e, '_by_distance')}" for e in report["scenarios"] if "hnsw_overlap" in e]
    if tied:
        lines += ["", "The same overlaps, a row tied with the exact k-th counted as found: " + "; ".join(tied)]
    goals = [f"{e['name']} " + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in e["goals_met"].items())
             for e in report["scenarios"]]  # fmt: skip
    lines += [
        "",
        "Goals met (p50 and p95 bounds, ratio <= 4, overlap >= 0.95, on the runs' medians): " + "; ".join(goals),
    ]
    if "gate" in report:
        lines += ["", f"Gate: {report['gate']}" + (f" (missed: {', '.join(report['gate_misses'])})"
                                                   if report["gate_misses"] else "")]  # fmt: skip
    if report.get("notes"):
        lines += ["", f"Notes: {report['notes']}"]
    return "\n".join(lines)


def plot(report: dict[str, Any], out_dir: Path, name: str) -> Path:
    """p50 and p95 of the read path and the flat baseline per scenario."""
    fig, (ax,) = new_figure(1, width=7.0)
    names = [e["name"] for e in report["scenarios"]]
    x = np.arange(len(names))
    bars = [("memforest", "p50_ms"), ("memforest", "p95_ms"), ("flat", "p50_ms"), ("flat", "p95_ms")]
    if all("memforest_one_transaction" in e for e in report["scenarios"]):
        bars.insert(1, ("memforest_one_transaction", "p50_ms"))
    width = 0.8 / len(bars)
    for i, (side, key) in enumerate(bars):
        offset = (i - (len(bars) - 1) / 2) * width
        ax.bar(x + offset, [e[side][key] for e in report["scenarios"]], width, label=f"{side} {key[:3]}")
    ax.set_xticks(x, names)
    ax.set_ylabel("ms")
    ax.set_title("emb query latency vs flat pgvector top-k")
    ax.legend()
    return save_figure(fig, out_dir, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    p = bench_parser("query_latency", __doc__.split("\n")[0], repeat=3)
    p.add_argument("--scale", type=float, default=1.0, help="size factor (0.1 = 1K/10K facts, 100 forests)")
    p.add_argument("--queries", type=int, default=60, help="distinct questions per scenario")
    p.add_argument("--rounds", type=int, default=3, help="times every question is asked per scenario")
    p.add_argument("--many-forests", type=int, default=0, help="forests of 1K facts (default 1000 x scale)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--quick", action="store_true", help="tiny forests and 6 questions (the CI smoke run)")
    p.add_argument("--database-url", default=None, help="a migrated database (default: a temporary embedded one)")
    p.add_argument("--embed-dim", type=int, default=None, help="embedding dimension (default: settings)")
    p.add_argument("--reuse", action="store_true", help="keep the forests an earlier run loaded into --database-url")
    p.add_argument("--no-http", action="store_true", help="skip the HTTP measurement (memforest serve, 100K forest)")
    p.add_argument("--note", default=None, help="a note kept in the result files (how the machine was, what differs)")
    add_embedding(p)
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error(f"--repeat must be at least 1 (got {args.repeat})")
    report = asyncio.run(run(args))
    out = Path(args.out)
    publish(out, "query_latency", report, plot, render)
    (out / "query_latency.md").write_text(markdown(report) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
