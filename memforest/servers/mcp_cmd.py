"""``memforest mcp``: the MCP server over stdio for a local agent (logs on stderr only)."""

from __future__ import annotations

import argparse

from memforest.commands.common import add_tenant_arg
from memforest.mcp.stdio import serve_stdio
from memforest.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``mcp`` command."""
    p = sub.add_parser(
        "mcp",
        help="serve memory tools to a local agent over MCP (stdio)",
        description="Run the MCP server on stdin/stdout against the configured database, as the local "
        "tenant with full scopes. Tools default to the forest given here. Only protocol goes to stdout.",
    )
    p.add_argument("--forest", required=True, help="default forest of the tools (created when missing)")
    add_tenant_arg(p)
    p.add_argument("--no-worker", action="store_true", help="do not process ingest jobs inside this process")
    p.set_defaults(handler=run)


async def run(args: argparse.Namespace, settings: Settings) -> int:
    """Serve until the client closes stdin."""
    await serve_stdio(
        settings, tenant=args.tenant or settings.default_tenant, forest=args.forest, worker=not args.no_worker
    )
    return 0
