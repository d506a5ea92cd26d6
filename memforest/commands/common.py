"""Helpers shared by subcommands: tenant/forest resolution, output, and ``--url`` (a remote server)."""

from __future__ import annotations

import argparse
import os
import uuid

from memforest.app.tenants import ensure_tenant, find_tenant
from memforest.client import MemForestClient
from memforest.db.engine import Database
from memforest.errors import ConfigurationError, NotFoundError
from memforest.settings import Settings


def add_tenant_arg(p: argparse.ArgumentParser) -> None:
    """``--tenant NAME`` (default: the local tenant from settings)."""
    p.add_argument("--tenant", default=None, help="tenant name (default: the local tenant)")


async def resolve_tenant(db: Database, args: argparse.Namespace, settings: Settings) -> uuid.UUID:
    """The tenant named on the command line, or the local default tenant (created when missing)."""
    return await ensure_tenant(db, args.tenant or settings.default_tenant)


async def existing_tenant(db: Database, args: argparse.Namespace, settings: Settings) -> uuid.UUID:
    """The tenant named on the command line, or the local default tenant; a command that only reads
    never creates it: NotFoundError (one line, exit 2) naming the tenant (and the command's forest)
    when it does not exist."""
    name = args.tenant or settings.default_tenant
    try:
        return await find_tenant(db, name)
    except NotFoundError:
        forest = getattr(args, "forest", None)
        if forest is None:
            raise
        raise NotFoundError(f"no forest named {forest!r}: there is no tenant named {name!r}") from None


# ---------------------------------------------------------------- --url: talk to a running server

API_KEY_ENV = "MEMFOREST_API_KEY"


def add_remote_args(p: argparse.ArgumentParser) -> None:
    """``--url URL`` and ``--api-key KEY``: use a running server instead of the local database."""
    p.add_argument("--url", default=None, help="talk to the MemForest server at URL instead of the local database")
    p.add_argument("--api-key", default=None, help=f"tenant API key for --url (default: ${API_KEY_ENV})")


def remote_client(args: argparse.Namespace, *, timeout: float = 60.0) -> MemForestClient | None:
    """A client for ``--url`` (None without it). The tenant is the key's; ``--tenant`` is refused.

    ConfigurationError (one line, exit 2) when there is no key in ``--api-key`` or the environment.
    """
    url: str | None = getattr(args, "url", None)
    key: str | None = getattr(args, "api_key", None)
    if url is None:
        if key is not None:
            raise ConfigurationError("--api-key is only used together with --url")
        return None
    if not url.startswith(("http://", "https://")):
        raise ConfigurationError(f"--url must start with http:// or https://, got {url!r}")
    key = key or os.environ.get(API_KEY_ENV) or None
    if not key:
        raise ConfigurationError(f"--url needs an API key: pass --api-key or set {API_KEY_ENV}")
    if getattr(args, "tenant", None) is not None:
        raise ConfigurationError("--tenant cannot be used with --url: the API key selects the tenant")
    return MemForestClient(url, key, timeout=timeout)
