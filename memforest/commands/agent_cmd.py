"""Agent operations on the command line (issue 18): ``add-messages``, ``fact-correct``,
``fact-delete``, ``fact-history``, ``query-forests`` and ``webhook add|list|delete|deliveries``. Each runs against
the local database, or a running server with ``--url`` (webhooks: ``--url`` only, since the
server's worker delivers them). Output is JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from memforest.app import facts, query, sessions, waiting
from memforest.app.tenants import ensure_tenant
from memforest.backends.factory import build_backends
from memforest.client import MemForestClient
from memforest.commands.common import add_remote_args, add_tenant_arg, existing_tenant, remote_client
from memforest.db.runtime import open_database
from memforest.errors import ConfigurationError, InputError
from memforest.schemas.agent import MAX_WAIT_S, MessagesIn, QueryFilter
from memforest.schemas.history import FactHistory
from memforest.settings import Settings
from memforest.timefmt import parse_time


def _common(p: argparse.ArgumentParser, *, forest: bool = True) -> None:
    if forest:
        p.add_argument("--forest", required=True)
    add_tenant_arg(p)
    add_remote_args(p)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the agent commands."""
    m = sub.add_parser("add-messages", help="store OpenAI-style chat messages (a JSON file or '-') as one session")
    m.add_argument("file", help="a JSON list of messages, or an object with 'messages' (and session_id, ...)")
    m.add_argument("--session-id", default=None)
    m.add_argument("--wait", type=float, default=0.0, help=f"seconds (0-{MAX_WAIT_S:g}) to wait for the job")
    _common(m)
    m.set_defaults(handler=add_messages_cmd)
    c = sub.add_parser("fact-correct", help="correct a fact: a new fact supersedes it (history kept)")
    c.add_argument("--fact", required=True, help="the fact id")
    c.add_argument("--text", required=True)
    c.add_argument("--valid-from", default=None, help="when the correction starts (default now)")
    _common(c)
    c.set_defaults(handler=fact_correct_cmd)
    d = sub.add_parser("fact-delete", help="delete a fact from every tree, listing and query")
    d.add_argument("--fact", required=True, help="the fact id")
    _common(d)
    d.set_defaults(handler=fact_delete_cmd)
    h = sub.add_parser("fact-history", help="every event of a fact, oldest first (also after its deletion)")
    h.add_argument("--fact", required=True, help="the fact id")
    _common(h)
    h.set_defaults(handler=fact_history_cmd)
    q = sub.add_parser("query-forests", help="recall from several forests at once (one ranked list)")
    q.add_argument("question")
    q.add_argument("--forests", required=True, help="comma-separated forest names")
    q.add_argument("--top-k", type=int, default=None)
    q.add_argument("--filter", default=None, help='JSON: {"metadata": {...}, "session_ids": [...], "speakers": [...]}')
    _common(q, forest=False)
    q.set_defaults(handler=query_forests_cmd)
    w = sub.add_parser("webhook", help="manage webhooks (with --url): add URL | list | delete ID | deliveries ID")
    w.add_argument("action", choices=("add", "list", "delete", "deliveries"))
    w.add_argument("target", nargs="?", default=None, help="the URL (add) or the webhook id (delete, deliveries)")
    w.add_argument("--events", default="job.succeeded,job.failed", help="comma-separated events (add)")
    _common(w, forest=False)
    w.set_defaults(handler=webhook_cmd)


def _print(data: Any) -> None:
    print(json.dumps(data, sort_keys=True, default=str))


def _messages_body(args: argparse.Namespace) -> MessagesIn:
    raw = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise InputError(f"{args.file}: not JSON ({exc})") from None
    body = {"messages": data} if isinstance(data, list) else data
    if args.session_id is not None and isinstance(body, dict):
        body["session_id"] = args.session_id
    try:
        return MessagesIn.model_validate(body)
    except ValueError as exc:
        raise InputError(f"{args.file}: {str(exc).splitlines()[-1].strip()}") from None


async def add_messages_cmd(args: argparse.Namespace, settings: Settings) -> int:
    """Accept the messages; print the acceptance, or the job when it finished within --wait."""
    if not 0 <= args.wait <= MAX_WAIT_S:
        raise InputError(f"--wait must be between 0 and {MAX_WAIT_S:g}")
    body = _messages_body(args)
    client = remote_client(args)
    if client is not None:
        async with client:
            msgs = [m.model_dump(exclude_none=True) for m in body.messages]
            out = await client.add_messages(
                args.forest, msgs, session_id=body.session_id, time=body.time, metadata=body.metadata or None,
                wait=args.wait or None,
            )  # fmt: skip
        _print(out.model_dump(mode="json"))
        return 0
    async with open_database(settings) as db:
        tenant_id = await ensure_tenant(db, args.tenant or settings.default_tenant)
        accepted = await sessions.add_messages(db, settings, tenant_id, args.forest, body)
        job = None
        if args.wait and accepted["job_id"]:  # a worker (serve or memforest worker) must be running
            job = await waiting.wait_for_job(db, tenant_id, accepted["job_id"], args.wait)
    _print(job or accepted)
    return 0


async def _local_fact_op(args: argparse.Namespace, settings: Settings, correct: bool) -> dict[str, Any]:
    backends = build_backends(settings)
    try:
        async with open_database(settings) as db:
            tenant_id = await existing_tenant(db, args, settings)
            if correct:
                start = parse_time(args.valid_from, "--valid-from") if args.valid_from else None
                return await facts.correct_fact(
                    db, settings, backends, tenant_id, args.forest, args.fact, args.text, start
                )
            return await facts.delete_fact(db, settings, backends, tenant_id, args.forest, args.fact)
    finally:
        await backends.aclose()


async def fact_correct_cmd(args: argparse.Namespace, settings: Settings) -> int:
    """Correct a fact; print the new fact."""
    client = remote_client(args)
    if client is not None:
        start = parse_time(args.valid_from, "--valid-from") if args.valid_from else None
        async with client:
            _print((await client.correct_fact(args.forest, args.fact, args.text, valid_from=start)).model_dump(
                mode="json", exclude_defaults=True
            ))  # fmt: skip
        return 0
    _print(await _local_fact_op(args, settings, correct=True))
    return 0


async def fact_delete_cmd(args: argparse.Namespace, settings: Settings) -> int:
    """Delete a fact; print the report."""
    client = remote_client(args)
    if client is not None:
        async with client:
            _print((await client.delete_fact(args.forest, args.fact)).model_dump(mode="json"))
        return 0
    _print(await _local_fact_op(args, settings, correct=False))
    return 0


async def fact_history_cmd(args: argparse.Namespace, settings: Settings) -> int:
    """Print a fact's history (JSON)."""
    client = remote_client(args)
    if client is not None:
        async with client:
            _print((await client.fact_history(args.forest, args.fact)).model_dump(mode="json"))
        return 0
    async with open_database(settings) as db:
        tenant_id = await existing_tenant(db, args, settings)
        history = await facts.history(db, tenant_id, args.forest, args.fact)
    _print(FactHistory.model_validate(history).model_dump(mode="json"))
    return 0


async def query_forests_cmd(args: argparse.Namespace, settings: Settings) -> int:
    """One ranked list from several forests; print the result JSON."""
    names = [f.strip() for f in args.forests.split(",") if f.strip()]
    try:
        flt = QueryFilter.model_validate_json(args.filter) if args.filter else None
    except ValueError as exc:
        raise InputError(f"--filter: {str(exc).splitlines()[-1].strip()}") from None
    client = remote_client(args)
    if client is not None:
        async with client:
            source_filter = flt.model_dump(exclude_none=True) if flt else None
            result = await client.query_forests(names, args.question, top_k=args.top_k, source_filter=source_filter)
        _print(dict(result.raw))
        return 0
    backends = build_backends(settings)
    try:
        async with open_database(settings) as db:
            tenant_id = await existing_tenant(db, args, settings)
            request = query.QueryRequest(
                names[0], args.question, top_k=args.top_k, source_filter=query.source_filter(flt)
            )
            out = await query.ask_many(db, settings, backends, tenant_id, names, request)
    finally:
        await backends.aclose()
    _print(out.to_json() | {"forests": names})
    return 0


async def webhook_cmd(args: argparse.Namespace, settings: Settings) -> int:
    """Add, list or delete webhooks, or show one's deliveries (needs --url)."""
    client: MemForestClient | None = remote_client(args)
    if client is None:
        raise ConfigurationError("webhook needs --url (a running server delivers them)")
    if args.action != "list" and not args.target:
        raise InputError(f"webhook {args.action} needs a {'URL' if args.action == 'add' else 'webhook id'}")
    async with client:
        if args.action == "add":
            events = [e.strip() for e in args.events.split(",") if e.strip()]
            _print((await client.create_webhook(args.target, events)).model_dump(mode="json", exclude_none=True))
        elif args.action == "list":
            _print((await client.list_webhooks()).model_dump(mode="json", exclude_none=True))
        elif args.action == "delete":
            await client.delete_webhook(args.target)
            _print({"deleted": args.target})
        else:
            _print((await client.webhook_deliveries(args.target)).model_dump(mode="json"))
    return 0
