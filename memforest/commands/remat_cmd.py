"""``memforest rematerialize``: regenerate derived artifacts without re-extracting (ADR 0009)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.table import Table
from tqdm import tqdm

from memforest.app.maintenance import RematReport, check_fanout, rematerialize
from memforest.app.tenants import named_forest
from memforest.backends.factory import build_backends
from memforest.db.runtime import open_database
from memforest.domain import Forest
from memforest.errors import InputError
from memforest.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``rematerialize``."""
    p = sub.add_parser(
        "rematerialize",
        help="regenerate embeddings, summaries or trees from persistent state (no extraction)",
        description=(
            "Regenerate derived artifacts of one forest (--forest) or of every forest (--all). "
            "After changing the embedding model or MEMFOREST_EMBEDDING__DIM run "
            "`memforest rematerialize --embeddings --all` with the new settings: it retypes the vector "
            "columns and indexes if the dimension changed, then re-embeds every tenant's forests one at a "
            "time (each stays queryable meanwhile; a run that stops resumes after the forests it finished), "
            "and records the new model."
        ),
    )
    p.add_argument("--forest", default=None, help="the forest to re-materialise")
    p.add_argument("--all", action="store_true", help="every forest of every tenant (needed for a dimension change)")
    p.add_argument("--tenant", default=None, help="tenant name (default: the local tenant); not with --all")
    p.add_argument("--embeddings", action="store_true", help="recompute fact, node and centroid embeddings")
    p.add_argument("--summaries", action="store_true", help="regenerate every internal-node summary")
    p.add_argument("--rebuild-trees", action="store_true", help="drop and rebuild every tree from facts and cells")
    p.add_argument("--k", type=int, default=None, help="fan-out (2..16) of the rebuilt trees (with --rebuild-trees)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(handler=rematerialize_cmd)


def _validate(args: argparse.Namespace) -> None:
    """Every usage error as one InputError (one line, exit 2), before anything is opened."""
    if not (args.embeddings or args.summaries or args.rebuild_trees):
        raise InputError("nothing to do: give --embeddings, --summaries and/or --rebuild-trees")
    if args.all and args.forest is not None:
        raise InputError("give either --forest or --all, not both")
    if not args.all and args.forest is None:
        raise InputError("give --forest NAME (or --all for every forest of every tenant)")
    if args.all and args.tenant is not None:
        raise InputError("--all covers every tenant; --tenant cannot be combined with it")
    if args.k is not None and not args.rebuild_trees:
        raise InputError("--k only applies with --rebuild-trees")
    check_fanout(args.k)


def _table(report: RematReport, title: str) -> Table:
    d = report.as_dict()
    table = Table(title=title, show_header=False)
    if d["dimension"] is not None:
        table.add_row("embedding dimension", f"{d['dimension']['from']} -> {d['dimension']['to']}")
    for key in ("forests", "trees_rebuilt", "leaves", "nodes_refreshed", "summaries_changed"):
        table.add_row(key.replace("_", " "), str(d[key]))
    table.add_row("embedded facts / nodes", f"{d['embedded_facts']} / {d['embedded_nodes']}")
    table.add_row("scene centroids", str(d["centroids"]))
    calls = ", ".join(f"{k}={v}" for k, v in d["model_calls"].items()) or "-"
    table.add_row("model calls", calls)
    table.add_row("wall", f"{d['wall_s']:.2f}s")
    return table


async def rematerialize_cmd(args: argparse.Namespace, settings: Settings) -> int:
    """Run the requested actions with a progress bar and print what was done."""
    _validate(args)
    # The dimension change must be able to open a database whose stored dimension differs.
    async with open_database(settings, check_embedding_dim=not (args.all and args.embeddings)) as db:
        forest: Forest | None = None
        if not args.all:  # resolved before anything is drawn or changed
            forest = await named_forest(db, args.tenant or settings.default_tenant, args.forest)
        backends = build_backends(settings)
        try:
            with tqdm(total=1, desc="rematerialize", unit="item") as bar:

                def progress(stage: str, done: int, total: int, bar: tqdm[Any] = bar) -> None:
                    bar.set_description(stage, refresh=False)
                    bar.total = max(total, 1)
                    bar.n = done
                    bar.refresh()

                report, title = await rematerialize(
                    db, settings, backends, forest, embeddings=args.embeddings, summaries=args.summaries,
                    rebuild=args.rebuild_trees, fanout=args.k, progress=progress,
                )  # fmt: skip
        finally:
            await backends.aclose()
    if args.json:
        print(json.dumps(report.as_dict(), sort_keys=True))
    else:
        Console().print(_table(report, title))
    return 0
