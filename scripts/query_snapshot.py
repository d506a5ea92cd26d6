"""Snapshot the read path's answers, to show a read-path change leaves results identical.

Asks every LoCoMo question (qrels, adversarial included) of the forests a kept
``bench.locomo_recall --home DIR`` run ingested, in ``emb`` mode, plus variants that exercise the
filters (top_k and token budget, as_of, a time range, a scope, superseded facts, a session
filter), and writes one JSON line per answer: the evidence's public JSON plus each item's exact
score (``repr``), so even a last-bit change of a score shows. Run it with the old code and with the
new one on the same database and compare the files (``cmp``, or ``--diff A B``). Fix
``PYTHONHASHSEED`` (0) for both: the rerank sums the query terms' weights in set order, so the
last bit of a score (and then the order of near-ties) depends on the process's hash seed.

    PYTHONHASHSEED=0 PYTHONPATH=$PWD python scripts/query_snapshot.py --home /tmp/asm_lc --out /tmp/snap_new.jsonl
    python scripts/query_snapshot.py --diff /tmp/snap_old.jsonl /tmp/snap_new.jsonl
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

from memforest.backends.factory import build_backends
from memforest.db.runtime import open_database
from memforest.retrieval import QueryRequest, query
from memforest.retrieval.filters import SourceFilter
from memforest.settings import Settings
from memforest.store.sql import fetch_all
from memforest.store.tenants import ensure_tenant, get_forest

DATA = Path("/work/shared/data/locomo/locomo_dev5.json")


def _variants(i: int, first: datetime, last: datetime, sessions: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """The base question and, by turns, one filtered variant."""
    mid = first + (last - first) / 2
    third = (last - first) / 3
    out: list[tuple[str, dict[str, Any]]] = [("base", {"top_k": 50})]
    extra: list[tuple[str, dict[str, Any]]] = [
        ("top10_budget", {"top_k": 10, "token_budget": 150}),
        ("as_of", {"top_k": 20, "as_of": mid}),
        ("window", {"top_k": 20, "time_from": first + third, "time_to": last - third}),
        ("scope", {"top_k": 20, "scope_kinds": ["entity", "scene"]}),
        ("superseded", {"top_k": 20, "include_superseded": True}),
        ("sessions", {"top_k": 20, "source_filter": SourceFilter.of(session_ids=sessions[:3])}),
        ("top5", {"top_k": 5}),
    ]
    out.append(extra[i % len(extra)])
    return out


async def snapshot(home: Path, out: Path, limit: int) -> int:
    settings = Settings(home=home, database_url=None, database={"url": None})  # type: ignore[arg-type]
    backends = build_backends(settings)
    qrels: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in DATA.with_name(DATA.stem + "_qrels.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            qrels[row["sample_id"]].append(row)
    n = 0
    with out.open("w", encoding="utf-8") as fh:
        async with open_database(settings) as db:
            tenant_id = await ensure_tenant(db, "locomo-bench")
            for name in sorted(qrels):
                async with db.tenant(tenant_id) as conn:
                    forest = await get_forest(conn, tenant_id, name)
                    rows = await fetch_all(
                        conn,
                        "SELECT external_id, time FROM sessions WHERE tenant_id = :t AND forest_id = :f ORDER BY time",
                        {"t": tenant_id, "f": forest.forest_id},
                    )
                first, last = rows[0]["time"], rows[-1]["time"]
                sessions = [str(r["external_id"]) for r in rows[1::3]]
                for i, q in enumerate(qrels[name][: limit or None]):
                    for variant, kw in _variants(i, first, last, sessions):
                        res = await query(db, settings, backends, tenant_id, QueryRequest(name, q["question"], **kw))
                        body = res.to_json()
                        body.pop("timings_ms")
                        body["scores"] = [[e.kind, e.source_id, repr(e.score)] for e in res.evidence]
                        fh.write(json.dumps({"forest": name, "i": i, "variant": variant, "result": body}) + "\n")
                        n += 1
    await backends.aclose()
    print(f"{n} answers -> {out}")
    return 0


async def bench_snapshot(home: Path, out: Path) -> int:
    """The synthetic forests of a kept ``bench.query_latency --scale 0.1 --many-forests 50 --home DIR``
    run: its 20 questions, each as is and with top_k 50, on the 1K (one of many) and 10K forests."""
    from bench.env import bench_env
    from bench.query_latency import plan_of
    from bench.query_latency_data import find_loaded, questions

    plan = plan_of(argparse.Namespace(quick=False, scale=0.1, many_forests=50))
    n = 0
    with out.open("a", encoding="utf-8") as fh:
        async with bench_env(home=home) as env:
            found = await find_loaded(env.db, plan) or {}
            for scenario in ("many-1k", "one-100k"):
                tenant_id, _forest_id, name = found[scenario]
                for i, question in enumerate(questions(20, 7)):
                    for variant, kw in (("base", {}), ("top50", {"top_k": 50})):
                        res = await query(
                            env.db, env.settings, env.backends, tenant_id, QueryRequest(name, question, **kw)
                        )
                        body = res.to_json()
                        body.pop("timings_ms")
                        body["scores"] = [[e.kind, e.source_id, repr(e.score)] for e in res.evidence]
                        fh.write(json.dumps({"forest": name, "i": i, "variant": variant, "result": body}) + "\n")
                        n += 1
    print(f"{n} answers -> {out}")
    return 0


def diff(a: Path, b: Path) -> int:
    """Compare two snapshots answer by answer; exit 1 on any difference."""
    left = a.read_text(encoding="utf-8").splitlines()
    right = b.read_text(encoding="utf-8").splitlines()
    bad = 0
    for x, y in zip(left, right, strict=False):
        if x != y:
            bad += 1
            if bad <= 5:
                jx, jy = json.loads(x), json.loads(y)
                print(f"differs: {jx['forest']} #{jx['i']} {jx['variant']}: {jx['result']['question']}")
                print("  old:", jx["result"]["scores"][:8])
                print("  new:", jy["result"]["scores"][:8])
    print(f"{len(left)} vs {len(right)} answers, {bad} differ")
    return 1 if bad or len(left) != len(right) else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--home", type=Path, help="MEMFOREST_HOME of a kept bench.locomo_recall run")
    p.add_argument("--out", type=Path, help="where to write the snapshot (JSON lines)")
    p.add_argument("--bench-home", type=Path, help="also the forests of a kept bench.query_latency run")
    p.add_argument("--limit", type=int, default=0, help="questions per forest (0: all)")
    p.add_argument("--diff", nargs=2, type=Path, metavar=("OLD", "NEW"), help="compare two snapshots")
    args = p.parse_args()
    if args.diff:
        return diff(*args.diff)
    if args.home is None or args.out is None:
        p.error("--home and --out are needed to take a snapshot")
    rc = asyncio.run(snapshot(args.home, args.out, args.limit))
    if args.bench_home is not None:
        rc = rc or asyncio.run(bench_snapshot(args.bench_home, args.out))
    return rc


if __name__ == "__main__":
    sys.exit(main())
