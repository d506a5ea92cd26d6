"""CLI subcommands, one module per group. Each module exposes ``register(subparsers)``.

``COMMANDS`` names every command with its one-line help and the module that registers it, so the
command line can list them all and import only the module of the command it runs (the modules
import the database, the models and the HTTP stack). A test checks the table against what the
modules register.
"""

from __future__ import annotations

import argparse
import importlib
from typing import NamedTuple


class CommandSpec(NamedTuple):
    """One command: its name, the module that registers it, and the help line shown in ``--help``."""

    name: str
    module: str
    help: str


_P = "memforest.commands."

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "add-messages", _P + "agent_cmd", "store OpenAI-style chat messages (a JSON file or '-') as one session"
    ),
    CommandSpec("fact-correct", _P + "agent_cmd", "correct a fact: a new fact supersedes it (history kept)"),
    CommandSpec("fact-delete", _P + "agent_cmd", "delete a fact from every tree, listing and query"),
    CommandSpec("fact-history", _P + "agent_cmd", "every event of a fact, oldest first (also after its deletion)"),
    CommandSpec("query-forests", _P + "agent_cmd", "recall from several forests at once (one ranked list)"),
    CommandSpec(
        "webhook", _P + "agent_cmd", "manage webhooks (with --url): add URL | list | delete ID | deliveries ID"
    ),
    CommandSpec("db", _P + "db_cmd", "database: migrate, show revision and versions"),
    CommandSpec("ingest", _P + "ingest_cmd", "accept sessions from a file and run the write path to completion"),
    CommandSpec("check", _P + "ingest_cmd", "verify every tree invariant of a forest"),
    CommandSpec("stats", _P + "ingest_cmd", "deterministic counts of a forest"),
    CommandSpec("worker", _P + "ingest_cmd", "run a worker that claims and runs queued jobs"),
    CommandSpec("retract", _P + "lifecycle_cmd", "remove a session (or one turn) and everything derived only from it"),
    CommandSpec("forget", _P + "lifecycle_cmd", "hard-delete a forest (--forest) or a whole tenant (--tenant X --all)"),
    CommandSpec("query", _P + "query_cmd", "recall evidence for a question (or a JSONL batch of questions)"),
    CommandSpec(
        "rematerialize",
        _P + "remat_cmd",
        "regenerate embeddings, summaries or trees from persistent state (no extraction)",
    ),
    CommandSpec("tenant", _P + "tenant_cmd", "tenants: create NAME | list"),
    CommandSpec("key", _P + "tenant_cmd", "API keys: create --tenant NAME | list --tenant NAME | revoke KEY_ID"),
    CommandSpec("merge", _P + "transfer_cmd", "merge forest A into forest B (no extraction is replayed)"),
    CommandSpec("export", _P + "transfer_cmd", "write a forest as versioned JSON Lines"),
    CommandSpec("import", _P + "transfer_cmd", "import an export file into a forest (through the merge path)"),
)


def register_all(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register every subcommand group on ``sub`` (imports every command module)."""
    for module in dict.fromkeys(spec.module for spec in COMMANDS):
        importlib.import_module(module).register(sub)
