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
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")
    handler: Handler = args.handler
    try:
        settings = Settings()
        return asyncio.run(handler(args, settings))
    except MemForestError as exc:
        print(f"memforest: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("memforest: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
