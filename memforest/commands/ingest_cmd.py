"""``memforest ingest``, ``check``, ``stats`` and ``worker``."""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from tqdm import tqdm

from memforest import tracing
from memforest.app import forests
from memforest.app.jobs import run_worker
from memforest.app.sessions import IngestReport, ingest_sessions
from memforest.app.webhooks import running_deliverer
from memforest.backends.factory import build_backends
from memforest.client import Job, MemForestClient
from memforest.commands.common import add_remote_args, add_tenant_arg, existing_tenant, remote_client, resolve_tenant
from memforest.db.runtime import open_database
from memforest.domain import ForestInput
from memforest.errors import InvariantViolation
from memforest.formats import FORMATS, load_forests
from memforest.logs import configure_logging
from memforest.settings import Settings, worker_chat_budget

# A worker (re)started while the database restarts waits for it this long instead of exiting.
WORKER_DATABASE_WAIT_S = 60.0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ingest``, ``check``, ``stats`` and ``worker``."""
    p = sub.add_parser("ingest", help="accept sessions from a file and run the write path to completion")
    p.add_argument("path", type=Path)
    p.add_argument("--format", dest="fmt", choices=sorted(FORMATS), default="native")
    p.add_argument("--forest", default=None, help="forest name (default: from the file, e.g. the LoCoMo sample id)")
    p.add_argument("--jobs", type=int, default=4, help="sessions processed at once (local database only)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--wait-timeout", type=float, default=1800.0, help="with --url: seconds to wait for each session's job"
    )
    add_tenant_arg(p)
    add_remote_args(p)
    p.set_defaults(handler=ingest)

    c = sub.add_parser("check", help="verify every tree invariant of a forest")
    c.add_argument("--forest", required=True)
    add_tenant_arg(c)
    c.set_defaults(handler=check)

    s = sub.add_parser("stats", help="deterministic counts of a forest")
    s.add_argument("--forest", required=True)
    s.add_argument("--json", action="store_true")
    add_tenant_arg(s)
    add_remote_args(s)
    s.set_defaults(handler=stats)

    w = sub.add_parser("worker", help="run a worker that claims and runs queued jobs")
    w.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="jobs at once (default: worker.concurrency; docs/deploy.md section 5)",
    )
    w.add_argument("--until-idle", action="store_true", help="exit when the queue is empty")
    w.add_argument(
        "--wait-for-database",
        type=float,
        default=WORKER_DATABASE_WAIT_S,
        metavar="SECONDS",
        help=f"at start-up, wait this long for an unreachable database (default {WORKER_DATABASE_WAIT_S:g})",
    )
    w.set_defaults(handler=worker)


def _summary_table(report: IngestReport) -> Table:
    d = report.as_dict()
    table = Table(title=f"ingest summary: forest {report.forest}", show_header=False)
    rows: list[tuple[str, Any]] = [
        ("sessions (new / unchanged)", f"{d['sessions_accepted']} / {d['sessions_unchanged']}"),
        ("turns / cells", f"{d['turns']} / {d['cells']}"),
        ("cells extracted / failed", f"{d['cells_extracted']} / {d['cells_failed']}"),
        ("candidates", d["candidates"]),
        ("facts new / merged / superseded", f"{d['facts_new']} / {d['facts_merged']} / {d['facts_superseded']}"),
        ("trees by kind", ", ".join(f"{k}={v}" for k, v in d["trees_by_kind"].items()) or "-"),
        ("nodes (forest total)", d["nodes"]),
        ("nodes refreshed / summaries changed", f"{d['nodes_refreshed']} / {d['summaries_changed']}"),
        ("jobs ingest ok / failed / refresh", f"{d['jobs_succeeded']} / {d['jobs_failed']} / {d['refresh_jobs']}"),
    ]
    for stage, u in d["model_usage"].items():
        rows.append((f"model {stage}", f"{u['calls']} calls, {u['prompt_tokens']}+{u['completion_tokens']} tokens"))
    rows.append(("wall accept", f"{d['accept_wall_s']:.2f}s"))
    for stage, secs in d["stage_wall_s"].items():
        rows.append((f"wall {stage} (summed over jobs)", f"{secs:.2f}s"))
    rows.append(("wall total", f"{d['wall_s']:.2f}s"))
    for k, v in rows:
        table.add_row(k, str(v))
    return table


async def ingest(args: argparse.Namespace, settings: Settings) -> int:
    """Parse (all-or-nothing), accept, and run every job to completion with a progress bar."""
    client = remote_client(args)
    if client is not None:
        async with client:
            return await _ingest_remote(client, args, load_forests(args.path, args.fmt))
    forests = load_forests(args.path, args.fmt)
    console = Console()
    failed = 0
    async with open_database(settings) as db:
        backends = build_backends(settings)
        try:
            tenant_id = await resolve_tenant(db, args, settings)
            for forest in forests:
                name = args.forest or forest.name or args.path.stem
                with tqdm(total=len(forest.sessions), desc=f"ingest {name}", unit="session") as bar:

                    def progress(done: int, total: int, bar: tqdm[Any] = bar) -> None:
                        bar.total = total
                        bar.n = done
                        bar.refresh()

                    report = await ingest_sessions(
                        db, settings, backends, tenant_id, name, forest.sessions,
                        progress=progress, job_concurrency=args.jobs,
                    )  # fmt: skip
                failed += report.jobs_failed
                if args.json:
                    print(json.dumps(report.as_dict(), sort_keys=True))
                else:
                    console.print(_summary_table(report))
                    for err in report.errors[:5]:
                        console.print(f"[red]error[/red] {err}")
        finally:
            await backends.aclose()
    return 1 if failed else 0


async def _ingest_remote(client: MemForestClient, args: argparse.Namespace, forests: list[ForestInput]) -> int:
    """``ingest --url``: post each session to the server, then wait for every job it queued."""
    console = Console()
    failed = 0
    for forest in forests:
        name = args.forest or forest.name or args.path.stem
        t0 = time.perf_counter()
        await client.ensure_forest(name)
        job_ids: list[str] = []
        created = 0
        with tqdm(total=len(forest.sessions), desc=f"post {name}", unit="session") as bar:
            for session in forest.sessions:
                accepted = await client.add_session(name, session)
                created += int(accepted.created)
                if accepted.job_id is not None and accepted.job_id not in job_ids:
                    job_ids.append(accepted.job_id)
                bar.update(1)
        finished: list[Job] = []
        with tqdm(total=len(job_ids), desc=f"jobs {name}", unit="job") as bar:
            for job_id in job_ids:
                finished.append(await client.wait_job(job_id, timeout=args.wait_timeout))
                bar.update(1)
        counts = dict((await client.get_forest(name)).counts or {})
        bad = [j for j in finished if not j.succeeded]
        failed += len(bad)
        summary: dict[str, Any] = {
            "forest": name,
            "url": client.base_url,
            "sessions_accepted": created,
            "sessions_unchanged": len(forest.sessions) - created,
            "jobs_succeeded": len(finished) - len(bad),
            "jobs_failed": len(bad),
            "counts": counts,
            "errors": [{"job_id": j.job_id, "errors": j.errors} for j in bad],
            "wall_s": round(time.perf_counter() - t0, 4),
        }
        if args.json:
            print(json.dumps(summary, sort_keys=True, default=str))
            continue
        table = Table(title=f"ingest summary: forest {name} at {client.base_url}", show_header=False)
        table.add_row("sessions (new / unchanged)", f"{created} / {summary['sessions_unchanged']}")
        table.add_row("jobs succeeded / failed", f"{summary['jobs_succeeded']} / {len(bad)}")
        for k, v in counts.items():
            table.add_row(f"forest {k}", str(v))
        table.add_row("wall total", f"{summary['wall_s']:.2f}s")
        console.print(table)
        for job in bad[:5]:
            console.print(f"[red]error[/red] job {job.job_id}: {job.errors}")
    return 1 if failed else 0


async def check(args: argparse.Namespace, settings: Settings) -> int:
    """Exit 0 when every invariant holds, else print the first violation and exit non-zero."""
    async with open_database(settings) as db:
        tenant_id = await existing_tenant(db, args, settings)
        report = await forests.check(db, tenant_id, args.forest)
    if not report.ok:
        raise InvariantViolation(
            f"forest {args.forest!r}: {report.violations[0]} ({len(report.violations)} violation(s))"
        )
    print(f"check ok: forest {args.forest!r}, {report.trees} trees, {report.nodes} nodes, {report.facts} facts")
    return 0


async def stats(args: argparse.Namespace, settings: Settings) -> int:
    """Counts only, deterministic (from the server with ``--url``)."""
    client = remote_client(args)
    if client is not None:
        async with client:
            counts = dict((await client.get_forest(args.forest)).counts or {})
    else:
        async with open_database(settings) as db:
            tenant_id = await existing_tenant(db, args, settings)
            counts = (await forests.forest_detail(db, tenant_id, args.forest))["counts"]
    if args.json:
        print(json.dumps(counts, sort_keys=True))
    else:
        for k, v in counts.items():
            print(f"{k}: {v}")
    return 0


async def worker(args: argparse.Namespace, settings: Settings) -> int:
    """Run jobs until interrupted (or until the queue is empty with --until-idle)."""
    configure_logging(settings.log_format)  # JSON lines by default, each with its job's context (ADR 0010)
    tracing.configure()  # OTEL_TRACES_EXPORTER: a job's spans continue the trace of the request that queued it
    async with open_database(settings, wait_s=max(0.0, args.wait_for_database)) as db:
        backends = build_backends(settings)
        try:  # a long-running worker also delivers the webhook outbox
            async with running_deliverer(db, settings, enabled=not args.until_idle):
                await run_worker(
                    db, settings, backends, concurrency=args.concurrency or settings.worker.concurrency,
                    stop_when_idle=args.until_idle,
                    chat_budget=None if args.concurrency else worker_chat_budget(settings),
                )  # fmt: skip
        except asyncio.CancelledError:  # pragma: no cover - shutdown
            pass
        finally:
            await backends.aclose()
    return 0
