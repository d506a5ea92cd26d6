"""CLI subcommands, one module per group. Each module exposes ``register(subparsers)``."""

from __future__ import annotations

import argparse

from memforest.commands import (
    agent_cmd,
    db_cmd,
    ingest_cmd,
    lifecycle_cmd,
    query_cmd,
    remat_cmd,
    transfer_cmd,
)


def register_all(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register every subcommand group on ``sub``."""
    for module in (agent_cmd, db_cmd, ingest_cmd, lifecycle_cmd, query_cmd, remat_cmd, transfer_cmd):
        module.register(sub)
