"""``memforest retract`` (a session or one turn) and ``memforest forget`` (a forest or a tenant)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from contextlib import AbstractContextManager
from typing import Any

from rich.console import Console
from rich.table import Table

from memforest.app.maintenance import forget_by_name, retract
from memforest.app.tenants import find_tenant
from memforest.backends.factory import build_backends
from memforest.commands.common import add_tenant_arg
from memforest.db.runtime import open_database
from memforest.errors import InputError
from memforest.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``retract`` and ``forget``."""
    r = sub.add_parser(
        "retract",
        help="remove a session (or one turn) and everything derived only from it",
        description="Facts also stated elsewhere only lose the retracted source; touched trees are rebalanced "
        "and only their dirty paths are refreshed.",
    )
    r.add_argument("--forest", required=True)
    r.add_argument("--session", required=True, help="the session id as it was ingested")
    r.add_argument("--turn", default=None, help="only this turn (its id, or <session>#<seq> for one sent without)")
    r.add_argument("--json", action="store_true", help="print the report as JSON")
    add_tenant_arg(r)
    r.set_defaults(handler=retract_cmd)

    f = sub.add_parser(
        "forget",
        help="hard-delete a forest (--forest) or a whole tenant (--tenant X --all)",
        description="Deletes every row of the forest (or tenant, with its API keys and jobs) and prints the counts. "
        "Forgetting what is not there deletes nothing and is not an error.",
    )
    f.add_argument("--forest", default=None)
    f.add_argument("--all", action="store_true", help="forget the whole tenant named by --tenant")
    f.add_argument("--json", action="store_true", help="print the counts as JSON")
    add_tenant_arg(f)
    f.set_defaults(handler=forget_cmd)


def _status(text: str, *, quiet: bool) -> AbstractContextManager[Any]:
    """A spinner on stderr while the work runs (nothing with --json)."""
    return contextlib.nullcontext() if quiet else Console(stderr=True).status(text)


def _counts_table(title: str, counts: dict[str, Any]) -> Table:
    table = Table(title=title, show_header=False)
    for k, v in counts.items():
        table.add_row(k, json.dumps(v) if isinstance(v, dict) else str(v))
    return table


async def retract_cmd(args: argparse.Namespace, settings: Settings) -> int:
    """Retract and print the report."""
    what = f"turn {args.turn!r} of session {args.session!r}" if args.turn else f"session {args.session!r}"
    async with open_database(settings) as db:
        tenant_id = await find_tenant(db, args.tenant or settings.default_tenant)
        backends = build_backends(settings)
        try:
            with _status(f"retracting {what} from forest {args.forest!r}", quiet=args.json):
                report = await retract(db, settings, backends, tenant_id, args.forest, args.session, args.turn)
        finally:
            await backends.aclose()
    d = report.as_dict()
    if args.json:
        print(json.dumps(d, sort_keys=True))
    else:
        shown = {k: v for k, v in d.items() if k not in {"model_usage"}}
        Console().print(_counts_table(f"retract: {what} from forest {args.forest!r}", shown))
    return 0


async def forget_cmd(args: argparse.Namespace, settings: Settings) -> int:
    """Forget a forest, or a tenant with ``--all``."""
    if args.all and args.forest is not None:
        raise InputError("give either --forest F or --tenant X --all, not both")
    if args.all and args.tenant is None:
        raise InputError("--all forgets a whole tenant: name it with --tenant")
    if not args.all and args.forest is None:
        raise InputError("give --forest F (or --tenant X --all to forget a tenant)")
    tenant_name = args.tenant if args.all else args.tenant or settings.default_tenant
    async with open_database(settings) as db:
        with _status("forgetting", quiet=args.json):
            counts = await forget_by_name(db, tenant_name, None if args.all else args.forest)
    title = f"forget tenant {tenant_name!r}" if args.all else f"forget forest {args.forest!r}"
    if args.json:
        print(json.dumps(counts, sort_keys=True))
    else:
        Console().print(_counts_table(title, counts))
        if not any(counts.values()):
            print("nothing to forget", file=sys.stderr)
    return 0
