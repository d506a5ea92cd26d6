"""LLM-free evidence recall on LoCoMo-format data: MemForest (``emb``/``llm``) vs flat turn baselines.

Each conversation is ingested into its own forest of a self-contained database (embedded
PostgreSQL under a temporary MEMFOREST_HOME unless --home is given). Every question's evidence is
flattened to turn ids in rank order, deduplicated and cut at k turns (a two-turn cell costs two);
recall@k = gold turns found / gold turns, per category (1 multi-hop, 2 temporal, 3 open-domain,
4 single-hop; 5 adversarial reported apart, left out of the headline). Questions without valid
evidence are skipped.

    python -m bench.locomo_recall [--data PATH] [--qrels PATH] [--out bench/results]
    python -m bench.locomo_recall --embedding local:MODEL_DIR   # writes locomo_recall_<model>.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bench.args import add_embedding, bench_parser, embedding_label, embedding_overrides, single_run
from bench.baselines import BM25, Doc, HashedNgramTurns, rrf_fuse
from bench.env import BenchEnv, bench_env
from bench.report import provenance
from memforest.domain import ForestInput
from memforest.formats import load_forests
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query

REPO = Path(__file__).resolve().parent.parent
KS = (5, 10, 20, 50)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
HEADLINE = (1, 2, 3, 4)


def default_data() -> Path:
    """../shared/data/locomo/locomo_dev5.json from the repo root, else /work/shared/..."""
    for base in (REPO.parent / "shared", Path("/work/shared")):
        p = base / "data" / "locomo" / "locomo_dev5.json"
        if p.exists():
            return p
    return REPO.parent / "shared" / "data" / "locomo" / "locomo_dev5.json"


def qrels_for(data: Path) -> Path:
    """``X.json`` -> ``X_qrels.jsonl`` next to it."""
    return data.with_name(data.stem + "_qrels.jsonl")


def recall_at(ranked_turns: Sequence[str], gold: set[str], k: int) -> float:
    """Share of ``gold`` among the first ``k`` distinct turn ids."""
    seen: list[str] = []
    for t in ranked_turns:
        if t not in seen:
            seen.append(t)
        if len(seen) >= k:
            break
    return len(gold.intersection(seen[:k])) / len(gold)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100.0 * len(s) + 0.5) - 1))]


def turn_docs(forest: ForestInput) -> list[Doc]:
    """Raw turns as baseline documents: ``Speaker: text`` keyed by the client turn id."""
    return [
        Doc(t.external_id or f"{s.external_id}#{i}", f"{t.speaker}: {t.text}")
        for s in forest.sessions
        for i, t in enumerate(s.turns)
    ]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Ingest, query, score; returns the JSON report."""
    data = Path(args.data) if args.data else default_data()
    qrels_path = Path(args.qrels) if args.qrels else qrels_for(data)
    forests = load_forests(data, "locomo")
    if args.limit_forests:
        forests = forests[: args.limit_forests]
    qrels: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in qrels_path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            qrels[row["sample_id"]].append(row)
    home = Path(args.home) if args.home else None
    async with bench_env(settings_overrides=embedding_overrides(args.embedding), home=home) as env:
        return await _measure(env, args, forests, qrels, data)


async def _measure(
    env: BenchEnv,
    args: argparse.Namespace,
    forests: Sequence[ForestInput],
    qrels: dict[str, list[dict[str, Any]]],
    data: Path,
) -> dict[str, Any]:
    """Ingest each forest, ask its questions of MemForest and the turn baselines, summarise."""
    db, settings, backends, tenant_id = env.db, env.settings, env.backends, env.tenant_id
    modes = ["emb"] + (["llm"] if settings.llm.base_url else [])
    systems = [f"memforest-{m}" for m in modes] + ["bm25-turns", "hashed-ngram-turns", "rrf-turns"]
    per_q: list[dict[str, Any]] = []
    latency: dict[str, list[float]] = {m: [] for m in modes}
    # emb mode asked for the default number of items too, when --top-k asks for another: its
    # candidate budgets follow top_k (ADR 0024, session 12), so the default query is measured itself
    default_k = settings.retrieval.top_k if args.top_k != settings.retrieval.top_k else None
    ingest: list[dict[str, Any]] = []
    for forest in forests:
        name = forest.name or "forest"
        questions = [q for q in qrels.get(name, []) if q.get("scorable") and q.get("evidence_turns")]
        ingest.append(await _ingest(env, name, forest, args.no_progress))
        docs = turn_docs(forest)
        bm25, hashed = BM25(docs), HashedNgramTurns(docs, settings.embedding.dim)
        for q in tqdm(questions, desc=f"query {name}", unit="q", file=sys.stderr, disable=args.no_progress):
            gold = set(q["evidence_turns"])
            rankings: dict[str, list[str]] = {}
            for m in modes:
                t1 = time.perf_counter()
                res = await query(
                    db, settings, backends, tenant_id, QueryRequest(name, q["question"], mode=m, top_k=args.top_k)
                )
                latency[m].append((time.perf_counter() - t1) * 1000.0)
                rankings[f"memforest-{m}"] = [t for e in res.evidence for t in e.turn_ids]
            at_default: dict[int, float] = {}
            if default_k is not None:
                t1 = time.perf_counter()
                res = await query(db, settings, backends, tenant_id, QueryRequest(name, q["question"], top_k=default_k))
                latency.setdefault(f"emb (top {default_k})", []).append((time.perf_counter() - t1) * 1000.0)
                turns = [t for e in res.evidence for t in e.turn_ids]
                at_default = {k: recall_at(turns, gold, k) for k in KS if k <= default_k}
            b = bm25.search(q["question"], 100)
            d = hashed.search(q["question"], 100)
            rankings["bm25-turns"], rankings["hashed-ngram-turns"] = b, d
            rankings["rrf-turns"] = rrf_fuse([b, d])
            per_q.append(
                {
                    "sample_id": name,
                    "qa_index": q.get("qa_index"),
                    "category": int(q["category"]),
                    "recall": {s: {k: recall_at(rankings[s], gold, k) for k in KS} for s in systems},
                    "recall_default_k": at_default,
                }
            )
    summary = summarise(per_q, systems, latency, ingest, data, modes)
    if default_k is not None:
        summary["default_top_k"] = summarise_default_k(per_q, default_k)
    summary["embedding"] = {"spec": args.embedding, "embedder": backends.embedder.name, "dim": backends.embedder.dim}
    return summary


async def _ingest(env: BenchEnv, name: str, forest: ForestInput, no_progress: bool) -> dict[str, Any]:
    """Ingest one conversation into forest ``name`` with a progress bar; its report and wall time."""
    bar = tqdm(total=len(forest.sessions), desc=f"ingest {name}", unit="session", file=sys.stderr, disable=no_progress)
    t0 = time.perf_counter()
    last = [0]

    def progress(done: int, total: int) -> None:
        bar.update(max(0, done - last[0]))
        last[0] = done

    report = await ingest_sessions(
        env.db, env.settings, env.backends, env.tenant_id, name, forest.sessions, progress=progress
    )
    bar.close()
    return {**report.as_dict(), "wall_s": round(time.perf_counter() - t0, 2)}


def _groups(per_q: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The headline questions (categories 1-4), then each category's."""
    groups = {"headline": [q for q in per_q if q["category"] in HEADLINE]}
    for c, cname in CATEGORIES.items():
        groups[cname] = [q for q in per_q if q["category"] == c]
    return groups


def summarise_default_k(per_q: list[dict[str, Any]], default_k: int) -> dict[str, Any]:
    """Mean recall of memforest-emb asked for the default ``default_k`` items, per group and k <= it."""
    ks = [k for k in KS if k <= default_k]
    return {
        "top_k": default_k,
        "system": "memforest-emb",
        "recall": {
            g: {str(k): round(statistics.fmean(q["recall_default_k"][k] for q in qs), 4) if qs else None for k in ks}
            for g, qs in _groups(per_q).items()
        },
    }


def summarise(
    per_q: list[dict[str, Any]],
    systems: list[str],
    latency: dict[str, list[float]],
    ingest: list[dict[str, Any]],
    data: Path,
    modes: list[str],
) -> dict[str, Any]:
    """Mean recall per system, category and k; latency percentiles."""
    out: dict[str, Any] = {"data": str(data), "n_questions": {}, "recall": {}, "latency_ms": {}, "ingest": ingest}
    for g, qs in _groups(per_q).items():
        out["n_questions"][g] = len(qs)
        out["recall"][g] = {
            s: {str(k): round(statistics.fmean(q["recall"][s][k] for q in qs), 4) if qs else None for k in KS}
            for s in systems
        }
    for m in latency:
        v = latency[m]
        out["latency_ms"][m] = {"p50": round(percentile(v, 50), 2), "p95": round(percentile(v, 95), 2), "n": len(v)}
    if "llm" not in modes:
        out["latency_ms"]["llm"] = {"note": "no chat backend configured: llm mode falls back to emb (same numbers)"}
    return out


def table(report: dict[str, Any]) -> str:
    """Markdown tables: headline recall@k, then recall@10 per category."""
    systems = list(report["recall"]["headline"])
    lines = [f"recall@k, categories 1-4 ({report['n_questions']['headline']} questions)", ""]
    lines.append("| system | " + " | ".join(f"R@{k}" for k in KS) + " |")
    lines.append("|---|" + "---:|" * len(KS))
    for s in systems:
        r = report["recall"]["headline"][s]
        lines.append(f"| {s} | " + " | ".join(f"{r[str(k)]:.3f}" for k in KS) + " |")
    cats = list(CATEGORIES.values())
    lines += ["", "recall@10 per category (adversarial reported apart)", ""]
    lines.append("| system | " + " | ".join(f"{c} (n={report['n_questions'][c]})" for c in cats) + " |")
    lines.append("|---|" + "---:|" * len(cats))
    for s in systems:
        vals = [report["recall"][c][s]["10"] for c in cats]
        lines.append(f"| {s} | " + " | ".join("-" if v is None else f"{v:.3f}" for v in vals) + " |")
    if "default_top_k" in report:
        d = report["default_top_k"]
        head = ", ".join(f"R@{k} {'-' if v is None else f'{v:.3f}'}" for k, v in d["recall"]["headline"].items())
        per_cat = ", ".join(f"{c} {d['recall'][c]['10']:.3f}" for c in cats if d["recall"][c].get("10") is not None)
        lines += ["", f"{d['system']} asked for the default {d['top_k']} items: {head}; R@10 {per_cat}"]
    lines += ["", "query latency (ms)", ""]
    for m, v in report["latency_ms"].items():
        lines.append(f"- {m}: " + (f"p50 {v['p50']}, p95 {v['p95']} (n={v['n']})" if "p50" in v else v["note"]))
    return "\n".join(lines)


def chart(report: dict[str, Any], path: Path) -> None:
    """Grouped bars: headline recall@k per system."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    systems = list(report["recall"]["headline"])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / len(systems)
    for i, s in enumerate(systems):
        vals = [report["recall"]["headline"][s][str(k)] for k in KS]
        ax.bar([j + i * width for j in range(len(KS))], vals, width, label=s)
    ax.set_xticks([j + width * (len(systems) - 1) / 2 for j in range(len(KS))], [f"R@{k}" for k in KS])
    ax.set_ylim(0, 1)
    ax.set_ylabel("evidence recall (turns)")
    ax.set_title(f"LoCoMo evidence recall, categories 1-4 (n={report['n_questions']['headline']})")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    p = bench_parser("locomo_recall", __doc__.split("\n")[0])
    p.add_argument("--data", default=None, help="LoCoMo JSON (default ../shared/data/locomo/locomo_dev5.json)")
    p.add_argument("--qrels", default=None, help="qrels JSONL (default: <data>_qrels.jsonl)")
    p.add_argument("--top-k", type=int, default=50, help="evidence items requested per question")
    p.add_argument("--limit-forests", type=int, default=0, help="only the first N conversations")
    add_embedding(p)
    args = p.parse_args(argv)
    single_run(p, args)
    report = asyncio.run(run(args))
    report["provenance"] = provenance(args, argv)
    label = embedding_label(args.embedding)
    out = Path(args.out) / ("locomo_recall.json" if label == "hashed" else f"locomo_recall_{label}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    chart(report, out.with_suffix(".png"))
    text = table(report)
    out.with_suffix(".md").write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"\nwrote {out}, {out.with_suffix('.png')}, {out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
