"""What grows in the write path's cost as one forest grows: every SQL statement's time and count per
probe session at a small and a large forest (the companion of ``bench.write_scaling``, whose gate is
per inserted leaf wall time last/first <= 1.5).

One forest grows as in ``bench.write_scaling`` (the same synthetic world and the normal write path:
rule-based extraction, extractive summaries, hashed embeddings, the coalesced refresh); at each
checkpoint the database is settled (VACUUM (ANALYZE), CHECKPOINT) and ``--probe-sessions`` new
sessions are ingested one at a time, then the forest is flushed, while every statement the process
sends is timed (wall time from the driver's send to its answer; ``BEGIN``/``COMMIT``, pool pings and
the driver's type introspection left out): a statement run through SQLAlchemy on its cursor events,
one sent to asyncpg directly (a write transaction's statements after its first, ADR 0053;
SQLAlchemy's executemany) on asyncpg's query logger of each pooled connection. Statements are keyed
by their first words (``INSERT INTO facts``, ``SELECT ... FROM nodes``) and by their text's hash, so
a store function's statement is one row. The JSON holds per checkpoint the stage seconds per session
and per statement its calls and milliseconds per session; the report ranks statements by how many
milliseconds per session they added from the first checkpoint to the last.

    python -m bench.write_scaling_profile                          # 1K and 50K facts
    python -m bench.write_scaling_profile --checkpoints 1000,10000
    python -m bench.write_scaling_profile --checkpoints small=1000,big=9000,small=1000,big=9000

A checkpoint ``NAME=FACTS`` grows and probes the forest ``NAME`` (default: one forest for all):
forests of two sizes probed in turn give a paired comparison that the machine's drift affects
alike. A forest already past a checkpoint is probed at its size.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import re
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import event

from bench.args import bench_parser, single_run
from bench.env import BenchEnv, bench_env, forest_counts
from bench.report import machine_info, new_figure, publish, save_figure
from bench.statement_count import engines_of, statement_kind, watch_driver
from bench.synthetic import SyntheticConversations
from bench.write_scaling import _grow, _probe, _settle
from memforest.db.engine import Database

NAME = "write_scaling_profile"
_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_KEYWORDS = frozenset({"select", "insert", "update", "delete", "with", "into", "from", "set", "values", "on"})


def statement_key(sql: str) -> str:
    """A statement's name in the report: its verb and first table-like words, and a short hash of
    its whole text (two statements that start alike stay apart)."""
    words = _WORDS.findall(sql)
    head: list[str] = []
    for word in words:
        head.append(word)
        if len(head) >= 6 or (
            len(head) >= 2 and word.lower() not in _KEYWORDS and head[-2].lower() in ("into", "from", "update")
        ):
            break
    digest = hashlib.blake2b(" ".join(sql.split()).encode(), digest_size=3).hexdigest()
    return f"{' '.join(head)} #{digest}"


class StatementClock:
    """Wall time and count of every statement run on a database's engines, by :func:`statement_key`.

    Two hooks, each statement seen by one: SQLAlchemy's cursor events (its statements run as
    asyncpg prepared statements, which asyncpg's query logger does not see) and asyncpg's query
    logger (statements sent to the driver directly, and SQLAlchemy's executemany, which reaches
    both: only the driver's report counts)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        self._started: dict[int, float] = {}
        self.on = False

    def _before(self, conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        if self.on and not many:
            self._started[id(cursor)] = time.perf_counter()

    def _after(self, conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        began = self._started.pop(id(cursor), None)
        if began is not None:
            self._add(statement, time.perf_counter() - began)

    def _on_driver(self, record: Any) -> None:
        query = str(record.query)
        if self.on and statement_kind(query) == "statements":
            self._add(query, float(record.elapsed))

    def _add(self, statement: str, seconds: float) -> None:
        key = statement_key(statement)
        self.seconds[key] = self.seconds.get(key, 0.0) + seconds
        self.calls[key] = self.calls.get(key, 0) + 1
        self.texts.setdefault(key, " ".join(statement.split())[:400])

    def attach(self, db: Database) -> None:
        engines = engines_of(db)
        for engine in engines:
            event.listen(engine.sync_engine, "before_cursor_execute", self._before)
            event.listen(engine.sync_engine, "after_cursor_execute", self._after)
        watch_driver(engines, self._on_driver)

    @contextmanager
    def measuring(self) -> Iterator[None]:
        """Count only inside this block (the probes), from zero."""
        self.seconds.clear()
        self.calls.clear()
        self.on = True
        try:
            yield
        finally:
            self.on = False


def _parser() -> argparse.ArgumentParser:
    p = bench_parser(NAME, __doc__.split("\n\n")[0])
    p.add_argument(
        "--checkpoints",
        default="1000,50000",
        help="fact counts to probe at, comma-separated; NAME=FACTS probes forest NAME (see the module docstring)",
    )
    p.add_argument("--probe-sessions", type=int, default=16, help="sessions in each probe")
    p.add_argument("--growth-batch", type=int, default=50, help="max sessions per growth ingest call")
    p.add_argument("--job-concurrency", type=int, default=4, help="ingest jobs at once while growing")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--database-url", default=None, help="external PostgreSQL (default: temporary embedded)")
    p.add_argument("--quick", action="store_true", help="smoke run: 150 and 300 facts, 2 probe sessions")
    return p


DEFAULT_FOREST = "write-scaling-profile"


def checkpoints(spec: str) -> list[tuple[str, int]]:
    """``1000,NAME=5000`` as ``[(DEFAULT_FOREST, 1000), (NAME, 5000)]``, in the order given."""
    out = []
    for part in (p.strip() for p in spec.split(",")):
        if part:
            name, _, facts = part.rpartition("=")
            out.append((name or DEFAULT_FOREST, int(facts)))
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    points = checkpoints(args.checkpoints)
    overrides = {"pipeline": {"refresh_coalesce_delay_s": 3600.0}}  # as bench.write_scaling: commits, not seconds
    worlds: dict[str, SyntheticConversations] = {}
    clock = StatementClock()
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    async with bench_env(database_url=args.database_url, settings_overrides=overrides, home=args.home) as env:
        clock.attach(env.db)
        for forest, point in points:
            gen = worlds.setdefault(forest, SyntheticConversations(args.seed + len(worlds), prefix=f"g{len(worlds)}"))
            await _grow(env, gen, forest, point, args)
            rows.append(await _checkpoint(env, clock, forest, gen, args.probe_sessions))
            rows[-1]["forest"] = forest
            print(f"probed {forest} at {rows[-1]['facts']} facts", file=sys.stderr, flush=True)
    return {
        "bench": NAME,
        "quick": bool(args.quick),
        "checkpoints": rows,
        "growth": _growth(rows),
        "machine": machine_info(),
        "total_wall_s": time.perf_counter() - started,
    }


async def _checkpoint(
    env: BenchEnv, clock: StatementClock, forest: str, gen: SyntheticConversations, sessions: int
) -> dict[str, Any]:
    facts = (await forest_counts(env, forest))["facts"]
    await _settle(env)
    probe_sessions = gen.sessions(sessions)
    with clock.measuring():
        probe = await _probe(env, forest, probe_sessions)
    n = probe["sessions"]
    statements = {
        key: {"calls_per_session": clock.calls[key] / n, "ms_per_session": 1000 * s / n, "text": clock.texts[key]}
        for key, s in sorted(clock.seconds.items(), key=lambda kv: -kv[1])
    }
    return {
        "facts": facts,
        "sessions": n,
        "leaves_per_session": probe["leaves_per_session"],
        "wall_ms_per_leaf": probe["wall_ms_per_leaf"],
        "wall_s_per_session_mean": probe["wall_s_per_session_mean"],
        "summary_calls_per_leaf": probe["summary_calls_per_leaf"],
        "nodes_touched_per_leaf": probe["nodes_touched_per_leaf"],
        "stage_s_per_session": probe["stage_s_per_session"],
        "sql_ms_per_session": sum(v["ms_per_session"] for v in statements.values()),
        "statements_per_session": sum(v["calls_per_session"] for v in statements.values()),
        "statements": statements,
    }


def _growth(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """First to last checkpoint: stage seconds and statement milliseconds per session, the added
    milliseconds per statement (largest first) and the ratios of the per-leaf figures."""
    if len(rows) < 2:
        return {}
    first, last = rows[0], rows[-1]
    keys = set(first["statements"]) | set(last["statements"])

    def ms(row: dict[str, Any], key: str) -> float:
        return float(row["statements"].get(key, {}).get("ms_per_session", 0.0))

    def calls(row: dict[str, Any], key: str) -> float:
        return float(row["statements"].get(key, {}).get("calls_per_session", 0.0))

    added = sorted(keys, key=lambda k: -(ms(last, k) - ms(first, k)))
    return {
        "from_facts": first["facts"],
        "to_facts": last["facts"],
        "wall_ms_per_leaf_ratio": last["wall_ms_per_leaf"] / first["wall_ms_per_leaf"],
        "summary_calls_per_leaf_ratio": last["summary_calls_per_leaf"] / first["summary_calls_per_leaf"],
        "sql_ms_per_session": [first["sql_ms_per_session"], last["sql_ms_per_session"]],
        "stage_s_per_session": {
            k: [first["stage_s_per_session"][k], last["stage_s_per_session"][k]] for k in first["stage_s_per_session"]
        },
        "top_added_ms_per_session": [
            {"statement": k, "ms": [ms(first, k), ms(last, k)], "calls": [calls(first, k), calls(last, k)]}
            for k in added[:15]
        ],
    }


def render(result: dict[str, Any], console: Console) -> None:
    growth = result["growth"]
    if not growth:
        console.print("one checkpoint: nothing to compare")
        return
    console.print(
        f"{growth['from_facts']:,} -> {growth['to_facts']:,} facts: "
        f"per-leaf wall x{growth['wall_ms_per_leaf_ratio']:.2f}, "
        f"summary calls per leaf x{growth['summary_calls_per_leaf_ratio']:.2f}; SQL ms per session "
        f"{growth['sql_ms_per_session'][0]:.1f} -> {growth['sql_ms_per_session'][1]:.1f}"
    )
    stages = ", ".join(f"{k} {a * 1000:.1f}->{b * 1000:.1f}" for k, (a, b) in growth["stage_s_per_session"].items())
    console.print(f"stage ms per session: {stages}")
    table = Table(title="statements that added the most ms per session")
    for col in ("statement", "ms first", "ms last", "calls first", "calls last"):
        table.add_column(col, justify="right" if col != "statement" else "left")
    for row in growth["top_added_ms_per_session"]:
        table.add_row(row["statement"], *(f"{v:.2f}" for v in (*row["ms"], *row["calls"])))
    console.print(table)


def plot(result: dict[str, Any], out_dir: Path, name: str) -> Path:
    fig, ax = new_figure(1, width=8)
    growth = result["growth"]
    rows = growth.get("top_added_ms_per_session", [])[:10]
    labels = [r["statement"][:40] for r in rows]
    ax[0].barh(labels, [r["ms"][1] - r["ms"][0] for r in rows], color="#c44")
    ax[0].invert_yaxis()
    ax[0].set_xlabel("ms per session added from the first checkpoint to the last")
    ax[0].tick_params(axis="y", labelsize=7)
    return save_figure(fig, out_dir, name)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    single_run(parser, args)
    if args.quick:
        args.checkpoints, args.probe_sessions = "150,300", 2
    result = asyncio.run(run(args))
    name = f"{NAME}_quick" if args.quick else NAME
    publish(args.out, name, result, plot, render, args=args, argv=argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
