"""``memforest serve``: the HTTP API (uvicorn) with an in-process worker; ``--bootstrap`` creates the
first tenant and API key of a new database and prints the key once."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import AsyncIterator

import uvicorn
from fastapi import FastAPI

from memforest.api.metrics import require_metrics_key
from memforest.app.auth import check_admin_key
from memforest.commands.tenant_cmd import DEFAULT_SCOPES, bootstrap, print_new_key
from memforest.logs import configure_logging
from memforest.servers.http import create_app
from memforest.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` command."""
    p = sub.add_parser("serve", help="run the HTTP API with an in-process worker")
    p.add_argument("--host", default=None, help="address to bind (default: settings api.host, 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (default: settings api.port, 8420)")
    p.add_argument("--no-worker", action="store_true", help="do not run a worker inside the server")
    p.add_argument(
        "--bootstrap",
        action="store_true",
        help="on a database without tenants, create the tenant settings.default_tenant (MEMFOREST_DEFAULT_TENANT, "
        f"default 'local') and an API key with scopes {DEFAULT_SCOPES}, and print the key once",
    )
    p.set_defaults(handler=run)


class Bootstrap:
    """The first tenant and key, made once the app's database is open (before it takes requests)."""

    def __init__(self, tenant: str) -> None:
        self.tenant = tenant
        self.app: FastAPI | None = None

    def mount(self, app: FastAPI) -> None:
        """Remember the app, whose lifespan opens the database."""
        self.app = app

    @contextlib.asynccontextmanager
    async def run(self) -> AsyncIterator[None]:
        """Create the tenant and key when there is no tenant yet; print the key, or say why none was made."""
        assert self.app is not None
        new = await bootstrap(self.app.state.db, self.tenant, DEFAULT_SCOPES.split(","))
        if new is None:
            print(
                "memforest: --bootstrap: tenants exist already, none created "
                "(a new key: memforest key create --tenant NAME)",
                file=sys.stderr,
                flush=True,
            )
        else:
            print_new_key(new)
            sys.stdout.flush()
        yield


async def run(args: argparse.Namespace, settings: Settings) -> int:
    """Check the admin key and, for the address it binds, the metrics key; then serve until interrupted."""

    check_admin_key(settings)  # ConfigurationError -> one-line error from the CLI's main
    host = args.host or settings.api.host
    require_metrics_key(settings, host)  # --host 0.0.0.0 without MEMFOREST_API__METRICS_KEY: refuse (ADR 0019)
    configure_logging(settings.log_format)  # JSON lines by default (MEMFOREST_LOG_FORMAT=text for people)
    extensions = [Bootstrap(settings.default_tenant)] if args.bootstrap else []
    app = create_app(settings, start_worker=not args.no_worker, extensions=extensions)
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
