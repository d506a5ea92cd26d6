"""Temporal fidelity: do before / after / as-of / now / when / first / latest questions get the
right state of a person's attribute, ranked above that person's other states?

Forests of people whose home, employer, pet and car change several times, stated among everyday
chatter in dated sessions (``bench.temporal_data``), are ingested with the configured write path;
each question is asked of MemForest ``emb``, MemForest ``llm`` (against the SIMULATED
OpenAI-compatible server of ``memforest.testing``: a latency simulation, no model quality) and BM25
over raw turns. Scores on the first 5 distinct turns of a system's evidence:

* found@5: the gold turn (the one stating the asked state) is among them;
* right-time-first: it is, and no turn stating another state of the same person and attribute
  comes before it.

The reported score uses the ``eval`` phrasing templates (``--templates eval``, the default); the
``tune`` set is the one to look at while tuning.

    python -m bench.temporal [--templates eval|tune] [--quick] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from tqdm import tqdm

from bench.args import add_embedding, bench_parser, embedding_label, embedding_overrides, single_run
from bench.baselines import BM25, Doc
from bench.env import bench_env
from bench.report import machine_info, new_figure, provenance, publish, save_figure
from bench.temporal_data import OPERATORS, ForestData, Question, WorldSpec, generate
from memforest.backends.base import ChatModel, Embedder
from memforest.backends.openai_http import OpenAIChatModel
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.testing.simulated_llm import SimulationConfig, run_server_in_thread

K = 5
SYSTEMS = ("memforest-emb", "memforest-llm (simulated server)", "bm25-turns")


@dataclass(slots=True)
class _QueryBackends:
    embedder: Embedder
    chat: ChatModel | None = None


def first_turns(turns: Sequence[str], k: int = K) -> list[str]:
    """The first ``k`` distinct turn ids, in order."""
    out: list[str] = []
    for t in turns:
        if t not in out:
            out.append(t)
            if len(out) >= k:
                break
    return out


def score(turns: Sequence[str], q: Question, k: int = K) -> tuple[bool, bool]:
    """(found@k, right-time-first) of one ranked turn list."""
    top = first_turns(turns, k)
    if q.gold_turn not in top:
        return False, False
    before = set(top[: top.index(q.gold_turn)])
    return True, not (before & set(q.other_turns))


def _docs(forest: ForestData) -> list[tuple[Doc, Any]]:
    return [(Doc(t.external_id or "", f"{t.speaker}: {t.text}"), s.time) for s in forest.sessions for t in s.turns]


def _bm25(docs: list[tuple[Doc, Any]], q: Question) -> list[str]:
    """BM25 over the raw turns the question may see (those up to ``as_of`` when it has one)."""
    pool = [d for d, when in docs if q.as_of is None or when <= q.as_of]
    return BM25(pool).search(q.text, 20)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Generate, ingest, ask, score; the JSON report."""
    spec = WorldSpec(forests=1, people=2, states=3, per_operator=1) if args.quick else WorldSpec(
        forests=args.forests, people=args.people, states=args.states, per_operator=args.per_operator
    )  # fmt: skip
    forests = generate(args.seed, args.templates, spec)
    overrides: dict[str, Any] = embedding_overrides(args.embedding, args.embed_dim or None)
    per_q: list[dict[str, Any]] = []
    ingest_s = 0.0
    systems = [s for s in SYSTEMS if not (args.no_llm and "llm" in s)]
    latency: dict[str, list[float]] = {s: [] for s in systems}
    async with bench_env(database_url=args.database_url, settings_overrides=overrides, home=args.home) as env:
        sim = SimulationConfig(ttft_ms=0.0, tpot_ms=0.0, embed_dim=env.settings.embedding.dim, embed_latency_ms=0.0)
        with run_server_in_thread(sim) as url:
            llm_settings = env.settings.model_copy(
                update={"llm": env.settings.llm.model_copy(update={"base_url": url})}
            )
            chat = OpenAIChatModel(llm_settings.llm)
            plain = _QueryBackends(env.backends.embedder)
            with_chat = _QueryBackends(env.backends.embedder, chat)
            try:
                for forest in forests:
                    t0 = time.perf_counter()
                    await ingest_sessions(
                        env.db, env.settings, env.backends, env.tenant_id, forest.name, forest.sessions
                    )
                    ingest_s += time.perf_counter() - t0
                    docs = _docs(forest)
                    bar = tqdm(forest.questions, desc=f"ask {forest.name}", unit="q", disable=args.no_progress,
                               file=sys.stderr)  # fmt: skip
                    for q in bar:
                        ranked: dict[str, list[str]] = {}
                        for system in systems:
                            t1 = time.perf_counter()
                            if system == "bm25-turns":
                                ranked[system] = _bm25(docs, q)
                            else:
                                llm = "llm" in system
                                request = QueryRequest(
                                    forest.name, q.text, mode="llm" if llm else "emb", top_k=args.top_k, as_of=q.as_of
                                )
                                res = await query(
                                    env.db, llm_settings if llm else env.settings, with_chat if llm else plain,
                                    env.tenant_id, request,
                                )  # fmt: skip
                                ranked[system] = [t for e in res.evidence for t in e.turn_ids]
                            latency[system].append((time.perf_counter() - t1) * 1000.0)
                        row = {
                            "qid": q.qid,
                            "operator": q.operator,
                            "attribute": q.attribute,
                            "question": q.text,
                            "as_of": q.as_of.isoformat() if q.as_of else None,
                            "gold_turn": q.gold_turn,
                            "gold_value": q.gold_value,
                            "scores": {},
                        }
                        for system, turns in ranked.items():
                            found, first = score(turns, q)
                            row["scores"][system] = {
                                "found": found,
                                "right_time_first": first,
                                "top": first_turns(turns),
                            }
                        per_q.append(row)
            finally:
                await chat.aclose()
    return summarise(args, spec, forests, per_q, systems, latency, ingest_s)


def summarise(
    args: argparse.Namespace,
    spec: WorldSpec,
    forests: list[ForestData],
    per_q: list[dict[str, Any]],
    systems: list[str],
    latency: dict[str, list[float]],
    ingest_s: float,
) -> dict[str, Any]:
    """Per operator and overall: found@5 and right-time-first for every system."""
    groups = {op: [r for r in per_q if r["operator"] == op] for op in OPERATORS}
    groups["all"] = per_q
    table: dict[str, dict[str, Any]] = {}
    for g, rows in groups.items():
        table[g] = {"n": len(rows)}
        for s in systems:
            table[g][s] = {
                "found@5": round(statistics.fmean(r["scores"][s]["found"] for r in rows), 4) if rows else None,
                "right_time_first": (
                    round(statistics.fmean(r["scores"][s]["right_time_first"] for r in rows), 4) if rows else None
                ),
            }
    return {
        "args": provenance(args)["args"],
        "machine": machine_info(),
        "note": "llm mode runs against the SIMULATED OpenAI-compatible server (no model quality); "
        "shared machine, timings are noisy",
        "world": {
            **asdict(spec),
            "forests_generated": len(forests),
            "sessions": sum(len(f.sessions) for f in forests),
            "states": sum(len(f.states) for f in forests),
            "questions": len(per_q),
        },
        "systems": systems,
        "scores": table,
        "ingest_s": round(ingest_s, 2),
        "latency_ms_p50": {s: round(statistics.median(v), 2) if v else None for s, v in latency.items()},
        "per_question": per_q,
    }


def _render(result: dict[str, Any], console: Console) -> None:
    t = Table(title=f"bench.temporal ({result['args']['templates']} templates): found@5 / right-time-first")
    t.add_column("operator")
    t.add_column("n", justify="right")
    for s in result["systems"]:
        t.add_column(s, justify="right")
    for op, row in result["scores"].items():
        cells = [
            f"{row[s]['found@5']:.2f} / {row[s]['right_time_first']:.2f}" if row["n"] else "-"
            for s in result["systems"]
        ]
        t.add_row(op, str(row["n"]), *cells)
    console.print(t)
    console.print(f"latency p50 ms: {result['latency_ms_p50']}; ingest {result['ingest_s']} s; {result['note']}")


def _plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    fig, axes = new_figure(2, width=6.5)
    ops = [op for op, row in result["scores"].items() if row["n"]]
    width = 0.8 / max(1, len(result["systems"]))
    for ax, metric in zip(axes, ("found@5", "right_time_first"), strict=True):
        for i, s in enumerate(result["systems"]):
            ax.bar([j + i * width for j in range(len(ops))], [result["scores"][op][s][metric] for op in ops], width,
                   label=s)  # fmt: skip
        ax.set_xticks([j + width * (len(result["systems"]) - 1) / 2 for j in range(len(ops))], ops, fontsize=8)
        ax.set_ylim(0, 1.05)
        ax.set_title(f"{metric} ({result['args']['templates']} templates)")
    axes[0].legend(fontsize=7)
    return save_figure(fig, out_dir, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    p = bench_parser("temporal", __doc__)
    p.add_argument("--templates", choices=("eval", "tune"), default="eval", help="phrasing set (eval: reported)")
    p.add_argument("--quick", action="store_true", help="one small forest (smoke test)")
    p.add_argument("--forests", type=int, default=4)
    p.add_argument("--people", type=int, default=3, help="people per forest")
    p.add_argument("--states", type=int, default=5, help="states per (person, attribute): 1 + changes")
    p.add_argument("--per-operator", type=int, default=2, help="before/after/as_of/when questions per chain")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--top-k", type=int, default=10, help="evidence items requested per question")
    p.add_argument("--no-llm", action="store_true", help="skip the llm mode")
    p.add_argument("--database-url", default=None, help="an existing database (default: a temporary embedded one)")
    p.add_argument("--embed-dim", type=int, default=None, help="embedding dimension (default: settings)")
    add_embedding(p)
    args = p.parse_args(argv)
    single_run(p, args)
    made = provenance(args, argv)  # the commit as the run starts
    result = asyncio.run(run(args))
    result["provenance"] = made
    label = embedding_label(args.embedding)
    name = f"temporal_{args.templates}" + ("_quick" if args.quick else "") + ("" if label == "hashed" else f"_{label}")
    publish(args.out, name, result, _plot, _render, args=args, argv=argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
