"""``memforest merge``, ``export`` and ``import``: move memory between forests without re-extracting
(ADR 0008). They run in-process against the configured database."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from tqdm import tqdm

from memforest.app.tenants import find_tenant
from memforest.app.transfer import STAGES, export_forest, import_parsed, merge_now, read_export
from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends, build_backends
from memforest.commands.common import add_tenant_arg, existing_tenant, resolve_tenant
from memforest.db.runtime import open_database
from memforest.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``merge``, ``export`` and ``import``."""
    m = sub.add_parser("merge", help="merge forest A into forest B (no extraction is replayed)")
    m.add_argument("--from", dest="src", required=True, help="the forest to merge (left unchanged)")
    m.add_argument("--into", dest="dst", required=True, help="the forest that receives it (created when missing)")
    m.add_argument("--from-tenant", default=None, help="tenant of --from when it is another tenant (operator use)")
    m.add_argument("--json", action="store_true", help="print the report as JSON")
    add_tenant_arg(m)
    m.set_defaults(handler=merge)

    e = sub.add_parser("export", help="write a forest as versioned JSON Lines")
    e.add_argument("--forest", required=True)
    e.add_argument("-o", "--output", required=True, help="output file ('-' for standard output)")
    e.add_argument("--with-derived", action="store_true", help="also trees, nodes, placements and embeddings")
    add_tenant_arg(e)
    e.set_defaults(handler=export)

    i = sub.add_parser("import", help="import an export file into a forest (through the merge path)")
    i.add_argument("path", type=Path)
    i.add_argument("--forest", required=True, help="target forest (created when missing; merged when it exists)")
    i.add_argument("--json", action="store_true", help="print the report as JSON")
    add_tenant_arg(i)
    i.set_defaults(handler=import_)


def _table(title: str, d: dict[str, Any]) -> Table:
    table = Table(title=title, show_header=False)

    def slash(*keys: str) -> str:
        return " / ".join(str(d[k]) for k in keys)

    rows = [
        ("sessions copied / renamed / shared", slash("sessions_copied", "sessions_renamed", "sessions_shared")),
        ("turns / cells copied", slash("turns", "cells")),
        ("facts new / exact dup / near dup", slash("facts_new", "facts_exact", "facts_near")),
        ("sources added / supersession links", slash("sources_added", "supersession_links")),
        ("entities new / matched / activated", slash("entities_new", "entities_matched", "entities_activated")),
        ("scene clusters new / matched", slash("clusters_new", "clusters_matched")),
        ("trees copied / matched / rebuilt", slash("trees_copied", "trees_matched", "trees_rebuilt")),
        ("nodes copied / leaves inserted / splits", slash("nodes_copied", "leaves_inserted", "splits")),
        ("nodes refreshed / summaries changed", slash("nodes_refreshed", "summaries_changed")),
        ("model calls", ", ".join(f"{k}={v}" for k, v in d["model_calls"].items()) or "none"),
        ("wall", f"{d['wall_s']:.2f}s"),
    ]
    for k, v in rows:
        table.add_row(k, v)
    return table


class _Bar:
    """A tqdm bar over the merge stages."""

    def __init__(self, desc: str) -> None:
        self.bar = tqdm(total=len(STAGES), desc=desc, unit="stage", file=sys.stderr)

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage in STAGES:
            self.bar.n = STAGES.index(stage) + 1
            self.bar.set_postfix_str(stage)
        else:
            self.bar.set_postfix_str(f"{stage} {done}/{total}")
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()


@asynccontextmanager
async def _backends_and_bar(settings: Settings, title: str) -> AsyncIterator[tuple[Backends, _Bar]]:
    """Model backends and a stage progress bar for one merge or import, both closed afterwards."""
    backends = build_backends(settings)
    bar = _Bar(title)
    try:
        yield backends, bar
    finally:
        bar.close()
        await backends.aclose()


async def merge(args: argparse.Namespace, settings: Settings) -> int:
    """Merge ``--from`` into ``--into`` in this process; print what happened."""
    async with open_database(settings) as db:
        dst_tenant = await resolve_tenant(db, args, settings)
        src_tenant = await find_tenant(db, args.from_tenant) if args.from_tenant else dst_tenant
        async with _backends_and_bar(settings, f"merge {args.src} -> {args.dst}") as (backends, bar):
            report = await merge_now(
                db, settings, backends, src_tenant=src_tenant, src_forest=args.src, dst_tenant=dst_tenant,
                dst_forest=args.dst, progress=bar,
            )  # fmt: skip
    d = report.as_dict()
    if args.json:
        print(json.dumps(d, sort_keys=True))
    else:
        Console().print(_table(f"merge {report.src_forest} -> {report.dst_forest}", d))
    return 0


async def export(args: argparse.Namespace, settings: Settings) -> int:
    """Stream the export to a file (written to a temporary name, renamed when complete) or stdout."""
    to_stdout = args.output == "-"
    target = Path(args.output)
    partial = target.with_name(target.name + ".partial")
    lines = 0
    async with open_database(settings) as db:
        tenant_id = await existing_tenant(db, args, settings)
        # a missing forest fails before any file is created
        _, export = await export_forest(db, settings, tenant_id, args.forest, with_derived=args.with_derived)
        out = sys.stdout if to_stdout else partial.open("w", encoding="utf-8")
        try:
            with tqdm(desc=f"export {args.forest}", unit="line", file=sys.stderr, disable=to_stdout) as bar:
                async for line in export:
                    out.write(line)
                    lines += 1
                    bar.update(1)
        except BaseException:
            if not to_stdout:
                out.close()
                partial.unlink(missing_ok=True)
            raise
        if not to_stdout:
            out.close()
            partial.replace(target)
            print(f"exported forest {args.forest!r}: {lines} lines -> {target}", file=sys.stderr)
    return 0


async def import_(args: argparse.Namespace, settings: Settings) -> int:
    """Validate the whole file (nothing is written on bad input), then import it through the merge path."""
    parsed = read_export(args.path)
    async with open_database(settings) as db:
        tenant_id = await resolve_tenant(db, args, settings)
        async with _backends_and_bar(settings, f"import {args.path.name} -> {args.forest}") as (backends, bar):
            report = await import_parsed(
                db, settings, backends, tenant_id, parsed, args.forest, ledger=UsageLedger(), progress=bar
            )
    d = report.as_dict()
    if args.json:
        print(json.dumps(d, sort_keys=True))
        return 0
    console = Console()
    derived = "reused" if report.reused_vectors else "re-materialised (vectors recomputed, trees rebuilt)"
    console.print(f"imported {sum(report.records.values())} records into forest {report.forest!r}; derived: {derived}")
    if report.merge is not None:
        console.print(_table(f"merge into {report.forest}", report.merge.as_dict()))
    return 0
