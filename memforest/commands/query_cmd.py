"""``memforest query``: time-stamped, provenance-tagged evidence for one question or a batch."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from memforest.app.query import MODES, QueryRequest, ask
from memforest.backends.factory import build_backends
from memforest.client import MemForestClient
from memforest.commands.common import add_remote_args, existing_tenant, remote_client
from memforest.db.runtime import open_database
from memforest.errors import InputError
from memforest.settings import Settings
from memforest.timefmt import parse_time


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``query`` command."""
    p = sub.add_parser("query", help="recall evidence for a question (or a JSONL batch of questions)")
    p.add_argument("question", nargs="?", help="the question (omit with --questions)")
    p.add_argument("--forest", required=True, help="forest name")
    p.add_argument("--tenant", default=None, help="tenant name (default: settings.default_tenant)")
    p.add_argument("--mode", choices=MODES, default="emb", help="browse mode (default emb)")
    p.add_argument("--top-k", type=int, default=None, help="evidence items to return (default from settings)")
    p.add_argument("--as-of", default=None, help="only what was valid and recorded at this time (ISO or date)")
    p.add_argument("--scope", default=None, help="comma-separated tree kinds: session,entity,scene")
    p.add_argument("--include-superseded", action="store_true", help="also show superseded facts")
    p.add_argument("--token-budget", type=int, default=None, help="cut the evidence at about this many tokens")
    p.add_argument("--questions", type=Path, default=None, help="JSONL file: {question, id, [as_of], [mode]}")
    p.add_argument("--json", action="store_true", help="print JSON instead of a readable list")
    add_remote_args(p)
    p.set_defaults(handler=run)


def _read_batch(path: Path) -> list[dict[str, Any]]:
    """Validate the whole batch before running any of it."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}", location=str(path)) from exc
    items: list[dict[str, Any]] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path.name}: line {n}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", location=where) from exc
        if not isinstance(obj, dict) or not isinstance(obj.get("question"), str) or not obj["question"].strip():
            raise InputError("each line needs a non-empty string 'question'", location=where)
        mode = obj.get("mode")
        if mode is not None and mode not in MODES:
            raise InputError(f"mode must be one of {', '.join(MODES)}", location=f"{where}: mode")
        as_of = obj.get("as_of")
        if as_of is not None and not isinstance(as_of, str):
            raise InputError("as_of must be a string", location=f"{where}: as_of")
        items.append(
            {
                "id": obj.get("id"),
                "question": obj["question"],
                "mode": mode,
                "as_of": parse_time(as_of, f"{where}: as_of") if as_of else None,
            }
        )
    return items


class _EvidenceView(Protocol):
    """What the readable output needs of an evidence item (local ``Evidence`` or the client's ``EvidenceItem``)."""

    @property
    def rank(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def time(self) -> datetime: ...
    @property
    def valid_from(self) -> datetime | None: ...
    @property
    def valid_to(self) -> datetime | None: ...
    @property
    def tree(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def session_id(self) -> str | None: ...
    @property
    def turn_ids(self) -> Sequence[str]: ...


class _ResultView(Protocol):
    """What the readable output needs of a query result (local or from the server)."""

    @property
    def question(self) -> str: ...
    @property
    def mode_used(self) -> str: ...
    @property
    def fallback(self) -> str | None: ...
    @property
    def evidence(self) -> Sequence[_EvidenceView]: ...
    def in_time_order(self) -> Sequence[_EvidenceView]: ...


def _readable(result: _ResultView) -> str:
    lines = [f"{result.question}  [{result.mode_used}, {len(result.evidence)} items, time order]"]
    if result.fallback:
        lines.append(f"note: {result.fallback}")
    for e in result.in_time_order():
        stamp = e.time.strftime("%Y-%m-%d %H:%M")
        validity = f" valid {e.valid_from:%Y-%m-%d}..{e.valid_to:%Y-%m-%d}" if e.valid_to and e.valid_from else ""
        where = f"{e.session_id or '-'} {','.join(e.turn_ids)}".strip()
        text = " ".join(e.text.split())
        lines.append(f"[{stamp}] #{e.rank} {e.kind} ({e.tree}){validity} {text}  <{where}> score={e.score:.3f}")
    return "\n".join(lines)


async def run(args: argparse.Namespace, settings: Settings) -> int:
    """Handler of ``memforest query``."""
    if (args.question is None) == (args.questions is None):
        raise InputError("give either a QUESTION or --questions FILE", location="question")
    as_of = parse_time(args.as_of, "--as-of") if args.as_of else None
    scope = [s.strip() for s in args.scope.split(",") if s.strip()] if args.scope else None
    batch = (
        _read_batch(args.questions)
        if args.questions is not None
        else [{"id": None, "question": args.question, "mode": None, "as_of": None}]
    )
    client = remote_client(args)
    if client is not None:
        async with client:
            await _run_remote(client, args, batch, as_of, scope)
        return 0
    backends = build_backends(settings)
    try:
        async with open_database(settings) as db:
            tenant_id = await existing_tenant(db, args, settings)
            for item in batch:
                request = QueryRequest(
                    args.forest,
                    item["question"],
                    mode=item["mode"] or args.mode,
                    top_k=args.top_k,
                    as_of=item["as_of"] or as_of,
                    scope_kinds=tuple(scope) if scope is not None else None,
                    include_superseded=args.include_superseded,
                    token_budget=args.token_budget,
                )
                result = await ask(db, settings, backends, tenant_id, request, api_limits=False)
                if args.questions is not None:
                    line = {"id": item["id"], "question": item["question"]}
                    line["evidence"] = [e.to_json() for e in result.evidence]
                    print(json.dumps(line, ensure_ascii=False))
                elif args.json:
                    print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
                else:
                    print(_readable(result))
                sys.stdout.flush()
    finally:
        await backends.aclose()
    return 0


async def _run_remote(
    client: MemForestClient,
    args: argparse.Namespace,
    batch: list[dict[str, Any]],
    as_of: datetime | None,
    scope: list[str] | None,
) -> None:
    """``query --url``: the same questions and the same output, answered by the server."""
    for item in batch:
        result = await client.query(
            args.forest,
            item["question"],
            mode=item["mode"] or args.mode,
            top_k=args.top_k,
            as_of=item["as_of"] or as_of,
            scope=scope,
            include_superseded=args.include_superseded,
            token_budget=args.token_budget,
        )
        if args.questions is not None:
            line = {"id": item["id"], "question": item["question"], "evidence": result.raw.get("evidence", [])}
            print(json.dumps(line, ensure_ascii=False))
        elif args.json:
            print(json.dumps(dict(result.raw), ensure_ascii=False, indent=2))
        else:
            print(_readable(result))
        sys.stdout.flush()
