"""The ``memforest`` command line. Subcommands live in ``memforest.commands``; ``serve`` and ``mcp``, which
start the servers, in ``memforest.servers``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from memforest.commands import register_all
from memforest.errors import MemForestError
from memforest.servers import register_all as register_servers
from memforest.settings import Settings

Handler = Callable[[argparse.Namespace, Settings], Coroutine[Any, Any, int]]


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (subcommands register themselves from ``memforest.commands``)."""
    parser = argparse.ArgumentParser(prog="memforest", description="MemForest: long-term memory for LLM agents")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details to stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    register_all(sub)
    register_servers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, run the subcommand, turn MemForest errors into one line and exit 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    # Log to this call's stderr for this call only: a handler left on the root logger would keep
    # writing to whatever stderr was when it was made (in-process callers, tests) after it closed.
    root, log_handler = logging.getLogger(), logging.StreamHandler(sys.stderr)
    log_handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    level = root.level
    root.addHandler(log_handler)
    root.setLevel(logging.INFO if args.verbose else logging.WARNING)
    try:
        settings = Settings()
        return asyncio.run(handler(args, settings))
    except MemForestError as exc:
        print(f"memforest: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("memforest: interrupted", file=sys.stderr)
        return 130
    finally:
        root.removeHandler(log_handler)
        root.setLevel(level)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
