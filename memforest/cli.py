"""The ``memforest`` command line. Subcommands live in ``memforest.commands``; ``serve`` and ``mcp``, which
start the servers, in ``memforest.servers``.

Only the module of the command being run is imported: the table of commands (name, module, help)
is enough to list them all in ``--help``, so ``memforest --help`` and ``--version`` load neither
the database, the models nor the HTTP stack. A command whose name is missing from the table still
runs: the parser then imports every command module.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

from memforest import __version__
from memforest.commands import COMMANDS, CommandSpec
from memforest.errors import MemForestError

if TYPE_CHECKING:
    from memforest.settings import Settings

Handler = Callable[[argparse.Namespace, "Settings"], Coroutine[Any, Any, int]]

SERVER_COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("serve", "memforest.servers.serve_cmd", "run the HTTP API with an in-process worker"),
    CommandSpec("mcp", "memforest.servers.mcp_cmd", "serve memory tools to a local agent over MCP (stdio)"),
)


def all_commands() -> list[CommandSpec]:
    """Every command of the CLI, by name."""
    return sorted((*COMMANDS, *SERVER_COMMANDS), key=lambda spec: spec.name)


def command_name(argv: Sequence[str]) -> str | None:
    """The command named on the command line: the first argument that is not an option (the
    top-level options take no value)."""
    for arg in argv:
        if arg == "--":
            return None
        if not arg.startswith("-"):
            return arg
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser. Every command is listed; ``command``'s module (every module when
    ``command`` is None or not in the table) registers its commands with their full arguments."""
    parser = argparse.ArgumentParser(prog="memforest", description="MemForest: long-term memory for LLM agents")
    parser.add_argument("--version", action="version", version=f"memforest {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details to stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    specs = all_commands()
    modules = {spec.name: spec.module for spec in specs}
    if command is None:
        loaded: set[str] = set()
    elif command in modules:
        loaded = {modules[command]}
    else:
        loaded = set(modules.values())
    registered: set[str] = set()
    for spec in specs:
        if spec.module in loaded:
            if spec.module not in registered:
                importlib.import_module(spec.module).register(sub)
                registered.add(spec.module)
        else:
            sub.add_parser(spec.name, help=spec.help, description=spec.help)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, run the subcommand, turn MemForest errors into one line and exit 2."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(command_name(argv))
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
        settings = importlib.import_module("memforest.settings").Settings()
        return int(importlib.import_module("asyncio").run(handler(args, settings)))
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
