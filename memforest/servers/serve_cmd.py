"""``memforest serve``: the HTTP API (uvicorn) with an in-process worker."""

from __future__ import annotations

import argparse

import uvicorn

from memforest.api.metrics import require_metrics_key
from memforest.app.auth import check_admin_key
from memforest.logs import configure_logging
from memforest.servers.http import create_app
from memforest.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` command."""
    p = sub.add_parser("serve", help="run the HTTP API with an in-process worker")
    p.add_argument("--host", default=None, help="address to bind (default: settings api.host, 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (default: settings api.port, 8420)")
    p.add_argument("--no-worker", action="store_true", help="do not run a worker inside the server")
    p.set_defaults(handler=run)


async def run(args: argparse.Namespace, settings: Settings) -> int:
    """Check the admin key and, for the address it binds, the metrics key; then serve until interrupted."""

    check_admin_key(settings)  # ConfigurationError -> one-line error from the CLI's main
    host = args.host or settings.api.host
    require_metrics_key(settings, host)  # --host 0.0.0.0 without MEMFOREST_API__METRICS_KEY: refuse (ADR 0019)
    configure_logging(settings.log_format)  # JSON lines by default (MEMFOREST_LOG_FORMAT=text for people)
    app = create_app(settings, start_worker=not args.no_worker)
    config = uvicorn.Config(
        app,
        host=host,
        port=args.port if args.port is not None else settings.api.port,
        log_level="info",
        log_config=None,  # keep our handler: uvicorn's records go through it
        access_log=False,  # the API's middleware writes one access line per request
        lifespan="on",
    )
    await uvicorn.Server(config).serve()
    return 0
