"""The processes MemForest runs: the HTTP server (API + MCP endpoint) and the MCP stdio server.

This is the composition root above the adapters: it may join them (the HTTP server hosts the MCP
endpoint), which no adapter does itself. The CLI registers these commands next to its own.
"""

from __future__ import annotations

import argparse

from memforest.servers import mcp_cmd, serve_cmd
from memforest.servers.http import create_app

__all__ = ["create_app", "register_all"]


def register_all(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve`` and ``mcp`` to the CLI."""
    serve_cmd.register(sub)
    mcp_cmd.register(sub)
