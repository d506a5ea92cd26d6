"""The HTTP server's application: the API adapter with the MCP endpoint hung in at ``/mcp``."""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import FastAPI

from memforest.api.app import AppExtension, create_api_app
from memforest.db.engine import Database
from memforest.mcp.http import McpHttp
from memforest.settings import Settings


def create_app(
    settings: Settings,
    *,
    db: Database | None = None,
    start_worker: bool = True,
    extensions: Sequence[AppExtension] = (),
) -> FastAPI:
    """The API with the MCP endpoint at ``/mcp`` (and ``extensions`` after it). Raises
    ConfigurationError without a strong admin key."""
    return create_api_app(settings, db=db, start_worker=start_worker, extensions=[McpHttp(settings), *extensions])
