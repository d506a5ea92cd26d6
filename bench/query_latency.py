"""``emb`` query latency at size: one forest of 10K facts, one of 100K, and 1,000 forests of 1K
facts each (searching one), on one self-contained database (embedded PostgreSQL in a temp home).

Facts, turns, cells, sessions, entity trees (fact leaves) and session trees (cell leaves) are
synthesised and bulk-loaded with COPY (the write pipeline is not the subject here); internal nodes
get a time-interval summary and the normalised mean of their children's embeddings. Each scenario
is queried three ways: the automatic choice (exact scan up to ``exact_scan_max_rows`` facts, HNSW
above), forced exact, forced HNSW; HNSW's overlap with the exact top facts is reported as recall.

    python -m bench.query_latency [--scale 1.0] [--queries 60] [--out bench/results/query_latency.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy.ext.asyncio import AsyncConnection
from tqdm import tqdm

from bench.args import bench_parser, single_run
from bench.report import provenance
from memforest.backends.factory import build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.db.runtime import open_database
from memforest.retrieval import RetrievalPreset, query
from memforest.retrieval.recall import use_hnsw
from memforest.settings import Settings
from memforest.store.recall import nearest_facts
from memforest.store.sql import execute, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant

REPO = Path(__file__).resolve().parent.parent
BASE = datetime(2022, 1, 1, tzinfo=UTC)
FANOUT = 8
NAMES = [
    "Avery", "Blake", "Casey", "Devon", "Emery", "Finley", "Gray", "Harper", "Indigo", "Jordan",
    "Kai", "Logan", "Morgan", "Noor", "Oakley", "Parker", "Quinn", "Reese", "Sage", "Taylor",
]  # fmt: skip
VERBS = ["visited", "bought", "painted", "cooked", "learned", "watched", "repaired", "planted", "wrote", "sold"]
THINGS = [
    "a red bicycle", "sourdough bread", "a jazz record", "the old lighthouse", "a pottery class",
    "a mountain cabin", "tomato seedlings", "a chess set", "a vintage camera", "a marathon plan",
    "a violin", "the city museum", "a blue kayak", "spicy noodles", "a poetry book", "a garden shed",
]  # fmt: skip
PLACES = ["in Lisbon", "at the market", "near the lake", "with friends", "downtown", "at home", "in Osaka"]

Vec = npt.NDArray[np.float32]


@dataclass(slots=True)
class Ids:
    """Explicit id allocation for bulk loads (sequences are moved past them afterwards)."""

    next: dict[str, int] = field(default_factory=dict)

    def take(self, table: str, n: int = 1) -> int:
        start = self.next[table]
        self.next[table] = start + n
        return start


@dataclass(slots=True)
class Rows:
    """Records for COPY, per table."""

    data: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)

    def add(self, table: str, row: tuple[Any, ...]) -> None:
        self.data.setdefault(table, []).append(row)


COLUMNS = {
    "sessions": ["tenant_id", "session_id", "forest_id", "external_id", "time", "content_hash", "n_turns"],
    "turns": ["tenant_id", "turn_id", "forest_id", "session_id", "seq", "external_id", "speaker", "text", "time"],
    "cells": ["tenant_id", "cell_id", "forest_id", "session_id", "seq", "turn_from", "turn_to", "text", "t_start",
              "t_end", "extracted_at"],
    "facts": ["tenant_id", "fact_id", "forest_id", "text", "text_hash", "kind", "entities", "valid_from",
              "recorded_at", "embedding"],
    "fact_sources": ["tenant_id", "fact_id", "turn_id", "cell_id", "forest_id", "session_id"],
    "trees": ["tenant_id", "tree_id", "forest_id", "kind", "key", "label", "fanout", "root_node_id", "height",
              "n_leaves"],
    "nodes": ["tenant_id", "node_id", "forest_id", "tree_id", "level", "parent_id", "t_start", "t_end", "seq",
              "n_children", "summary", "dirty", "embedding", "leaf_fact_id", "leaf_cell_id"],
    "placements": ["tenant_id", "tree_id", "source_kind", "source_id", "forest_id", "node_id"],
}  # fmt: skip


def _fact_text(rng: random.Random, name: str) -> str:
    return f"{name} {rng.choice(VERBS)} {rng.choice(THINGS)} {rng.choice(PLACES)}"


def _unit(v: Vec) -> Vec:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-12 else v


def _build_tree(
    rows: Rows, ids: Ids, tenant_id: uuid.UUID, forest_id: int, kind: str, key: str,
    leaves: list[tuple[datetime, str, Vec, str, int]],
) -> None:  # fmt: skip
    """Bottom-up B+-tree over time-ordered leaves ``(time, text, vec, source_kind, source_id)``."""
    tree_id = ids.take("trees")
    n = len(leaves)
    # level 0
    level: list[tuple[int, datetime, datetime, str, Vec]] = []
    node_rows: list[list[Any]] = []
    for i, (t, text, vec, sk, sid) in enumerate(leaves):
        nid = ids.take("nodes")
        node_rows.append([tenant_id, nid, forest_id, tree_id, 0, None, t, t, i, 0, text, False, vec,
                          sid if sk == "fact" else None, sid if sk == "cell" else None])  # fmt: skip
        rows.add("placements", (tenant_id, tree_id, sk, sid, forest_id, nid))
        level.append((nid, t, t, text, vec))
    index = {r[1]: r for r in node_rows}
    depth = 0
    while len(level) > 1 or depth == 0:
        depth += 1
        parents: list[tuple[int, datetime, datetime, str, Vec]] = []
        for j in range(0, len(level), FANOUT):
            group = level[j : j + FANOUT]
            pid = ids.take("nodes")
            for child in group:
                index[child[0]][5] = pid
            t0, t1 = group[0][1], max(c[2] for c in group)
            summary = f"[{t0.date()} .. {t1.date()}] " + " ".join(c[3] for c in group)[:400]
            vec = _unit(np.mean([c[4] for c in group], axis=0).astype(np.float32))
            row = [tenant_id, pid, forest_id, tree_id, depth, None, t0, t1, j, len(group), summary, False, vec,
                   None, None]  # fmt: skip
            node_rows.append(row)
            index[pid] = row
            parents.append((pid, t0, t1, summary, vec))
        level = parents
    root = level[0][0]
    rows.add("trees", (tenant_id, tree_id, forest_id, kind, key, key, FANOUT, root, depth, n))
    for r in node_rows:
        rows.add("nodes", tuple(r))


def synth_forest(
    rows: Rows, ids: Ids, tenant_id: uuid.UUID, forest_id: int, n_facts: int, rng: random.Random, emb: HashedEmbedder
) -> None:
    """Sessions of 20 turns, cells of 2 turns, one fact per turn; entity and session trees."""
    names = NAMES[: max(2, min(len(NAMES), n_facts // 50))]
    texts = [_fact_text(rng, rng.choice(names)) for _ in range(n_facts)]
    vecs = emb.embed_sync(texts)
    by_name: dict[str, list[tuple[datetime, str, Vec, str, int]]] = {}
    now = datetime.now(UTC)
    for s0 in range(0, n_facts, 20):
        sid = ids.take("sessions")
        s_time = BASE + timedelta(hours=s0)
        chunk = list(range(s0, min(n_facts, s0 + 20)))
        rows.add("sessions", (tenant_id, sid, forest_id, f"S{s0 // 20 + 1}", s_time, f"h{sid}", len(chunk)))
        cell_leaves: list[tuple[datetime, str, Vec, str, int]] = []
        for c0 in range(0, len(chunk), 2):
            cid = ids.take("cells")
            members = chunk[c0 : c0 + 2]
            t = s_time + timedelta(minutes=c0)
            ctext = "\n".join(f"{texts[i].split()[0]}: {texts[i]}" for i in members)
            rows.add("cells", (tenant_id, cid, forest_id, sid, c0 // 2, c0, c0 + len(members) - 1, ctext, t, t, now))
            cvec = emb.embed_sync([ctext])[0]
            cell_leaves.append((t, ctext, cvec, "cell", cid))
            for k, i in enumerate(members):
                tid = ids.take("turns")
                seq = c0 + k
                name = texts[i].split()[0]
                rows.add("turns", (tenant_id, tid, forest_id, sid, seq, f"D{s0 // 20 + 1}:{seq + 1}", name,
                                   texts[i], t))  # fmt: skip
                fid = ids.take("facts")
                rows.add("facts", (tenant_id, fid, forest_id, texts[i], f"{forest_id}-{fid}", "event", [name], t,
                                   now, vecs[i]))  # fmt: skip
                rows.add("fact_sources", (tenant_id, fid, tid, cid, forest_id, sid))
                by_name.setdefault(name, []).append((t, texts[i], vecs[i], "fact", fid))
        _build_tree(rows, ids, tenant_id, forest_id, "session", f"S{s0 // 20 + 1}", cell_leaves)
    for name, leaves in by_name.items():
        _build_tree(rows, ids, tenant_id, forest_id, "entity", name, leaves)


async def _raw(conn: AsyncConnection) -> Any:
    raw = await conn.get_raw_connection()
    return raw.driver_connection


async def copy_rows(conn: AsyncConnection, rows: Rows) -> None:
    """COPY every table in dependency order."""
    pg = await _raw(conn)
    for table in ("sessions", "turns", "cells", "facts", "fact_sources", "trees", "nodes", "placements"):
        records = rows.data.get(table, [])
        if records:
            await pg.copy_records_to_table(table, records=records, columns=COLUMNS[table])


async def load(
    db: Database, dim: int, plan: list[tuple[str, int, int]], seed: int
) -> dict[str, tuple[uuid.UUID, int, str]]:
    """Create and fill the forests of ``plan`` ``(forest name, n_facts, n_forests)``; indexes rebuilt once."""
    emb = HashedEmbedder(dim)
    rng = random.Random(seed)
    tenant_id = await ensure_tenant(db, "latency-bench")
    searched: dict[str, tuple[uuid.UUID, int, str]] = {}
    async with db.system() as conn:
        await execute(conn, "DROP INDEX IF EXISTS ix_facts_embedding")
        await execute(conn, "DROP INDEX IF EXISTS ix_nodes_embedding")
        ids = Ids()
        for table, col in (("sessions", "session_id"), ("turns", "turn_id"), ("cells", "cell_id"),
                           ("facts", "fact_id"), ("trees", "tree_id"), ("nodes", "node_id")):  # fmt: skip
            ids.next[table] = int(await scalar(conn, f"SELECT coalesce(max({col}), 0) + 1 FROM {table}"))
        total = sum(n * k for _, n, k in plan)
        bar = tqdm(total=total, desc="synthesise+copy facts", unit="fact", file=sys.stderr)
        for name, n_facts, n_forests in plan:
            for j in range(n_forests):
                fname = name if n_forests == 1 else f"{name}-{j:04d}"
                forest = await ensure_forest(conn, tenant_id, fname)
                rows = Rows()
                synth_forest(rows, ids, tenant_id, forest.forest_id, n_facts, rng, emb)
                await copy_rows(conn, rows)
                bar.update(n_facts)
                if j == n_forests // 2:
                    searched[name] = (tenant_id, forest.forest_id, fname)
        bar.close()
        for table, col in (("sessions", "session_id"), ("turns", "turn_id"), ("cells", "cell_id"),
                           ("facts", "fact_id"), ("trees", "tree_id"), ("nodes", "node_id")):  # fmt: skip
            await execute(conn, f"SELECT setval(pg_get_serial_sequence('{table}', '{col}'), {ids.next[table]})")
    t0 = time.perf_counter()
    async with db.system() as conn:
        await execute(conn, "SET LOCAL statement_timeout = 0")
        await execute(conn, "SET LOCAL maintenance_work_mem = '1GB'")
        await execute(conn, "SET LOCAL max_parallel_maintenance_workers = 4")
        await execute(conn, "CREATE INDEX ix_facts_embedding ON facts USING hnsw (embedding vector_cosine_ops)")
        await execute(conn, "CREATE INDEX ix_nodes_embedding ON nodes USING hnsw (embedding vector_cosine_ops)")
    print(f"HNSW indexes built in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    async with db.engine.connect() as c:
        ac = await c.execution_options(isolation_level="AUTOCOMMIT")
        await execute(ac, "ANALYZE")
    return searched


def questions(n: int, seed: int) -> list[str]:
    """Synthetic questions in the vocabulary of the facts."""
    rng = random.Random(seed + 1)
    forms = ["What did {n} buy {p}?", "When did {n} visit {t}?", "Who {v} {t}?", "What did {n} do {p}?"]
    return [
        rng.choice(forms).format(
            n=rng.choice(NAMES[:10]), p=rng.choice(PLACES), t=rng.choice(THINGS), v=rng.choice(VERBS)
        )
        for _ in range(n)
    ]


def pct(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100.0 * len(s) + 0.5) - 1))] if s else 0.0


async def hnsw_recall(db: Database, tenant_id: uuid.UUID, forest_id: int, qs: list[str], dim: int,
                      preset: RetrievalPreset) -> float:  # fmt: skip
    """Mean overlap of HNSW's top facts with the exact top facts (same forest filter)."""
    emb = HashedEmbedder(dim)
    overlaps = []
    for q in qs:
        v = emb.embed_sync([q])[0]
        async with db.tenant(tenant_id) as conn:
            exact = await nearest_facts(conn, tenant_id, forest_id, v, preset.fact_candidates, exact=True)
        async with db.tenant(tenant_id) as conn:
            await use_hnsw(conn, preset)
            approx = await nearest_facts(conn, tenant_id, forest_id, v, preset.fact_candidates, exact=False)
        e = {f for f, _ in exact}
        overlaps.append(len(e & {f for f, _ in approx}) / max(1, len(e)))
    return statistics.fmean(overlaps)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Load, then time every scenario under the three strategies."""
    home = Path(args.home) if args.home else Path(tempfile.mkdtemp(prefix="memforest-latency-"))
    settings = Settings(home=home, database_url=None, database={"url": None})  # type: ignore[arg-type]
    s = args.scale
    plan = [
        ("one-10k", max(100, round(10_000 * s)), 1),
        ("one-100k", max(100, round(100_000 * s)), 1),
        ("many-1k", 1_000, args.many_forests or max(2, round(1_000 * s))),
    ]
    backends = build_backends(settings)
    report: dict[str, Any] = {"scale": s, "dim": settings.embedding.dim, "scenarios": {}}
    async with open_database(settings) as db:
        t0 = time.perf_counter()
        searched = await load(db, settings.embedding.dim, plan, args.seed)
        report["load_s"] = round(time.perf_counter() - t0, 1)
        base = RetrievalPreset.from_settings(settings.retrieval)
        qs = questions(args.queries, args.seed)
        for name, n_facts, n_forests in plan:
            tenant_id, forest_id, fname = searched[name]
            entry: dict[str, Any] = {"facts_per_forest": n_facts, "forests": n_forests}
            for label, preset in (
                ("auto", base),
                ("exact", replace(base, exact_scan_max_rows=10**9)),
                ("hnsw", replace(base, exact_scan_max_rows=0)),
            ):
                for q in qs[:5]:  # warm-up
                    await query(db, settings, backends, tenant_id, fname, q, preset=preset)
                lat: list[float] = []
                strategy = ""
                for q in tqdm(qs, desc=f"{name} {label}", unit="q", file=sys.stderr):
                    t1 = time.perf_counter()
                    res = await query(db, settings, backends, tenant_id, fname, q, preset=preset)
                    lat.append((time.perf_counter() - t1) * 1000.0)
                    strategy = res.strategy
                entry[label] = {"p50_ms": round(pct(lat, 50), 2), "p95_ms": round(pct(lat, 95), 2),
                                "strategy": strategy, "n": len(lat)}  # fmt: skip
            entry["hnsw_recall_vs_exact"] = round(
                await hnsw_recall(db, tenant_id, forest_id, qs[:20], settings.embedding.dim, base), 4
            )
            report["scenarios"][name] = entry
    await backends.aclose()
    return report


def table(report: dict[str, Any]) -> str:
    """Markdown table of the report."""
    lines = [
        f"emb query latency, ms (scale {report['scale']}, dim {report['dim']}, load {report['load_s']} s)",
        "",
        "| scenario | facts/forest | forests | auto p50 | auto p95 | auto uses | exact p50 | exact p95 "
        "| hnsw p50 | hnsw p95 | hnsw recall@60 vs exact |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for name, e in report["scenarios"].items():
        lines.append(
            f"| {name} | {e['facts_per_forest']} | {e['forests']} | {e['auto']['p50_ms']} | {e['auto']['p95_ms']} "
            f"| {e['auto']['strategy']} | {e['exact']['p50_ms']} | {e['exact']['p95_ms']} | {e['hnsw']['p50_ms']} "
            f"| {e['hnsw']['p95_ms']} | {e['hnsw_recall_vs_exact']} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    p = bench_parser("query_latency", __doc__.split("\n")[0])
    p.add_argument("--scale", type=float, default=1.0, help="size factor (0.1 = 1K/10K facts, 100 forests)")
    p.add_argument("--queries", type=int, default=60)
    p.add_argument("--many-forests", type=int, default=0, help="forests of 1K facts (default 1000 x scale)")
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args(argv)
    single_run(p, args)
    report = asyncio.run(run(args))
    report["provenance"] = provenance(args, argv)
    out = Path(args.out) / "query_latency.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    text = table(report)
    out.with_suffix(".md").write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
