"""``memforest db upgrade|current|info|index-forests``."""

from __future__ import annotations

import argparse
import asyncio

from memforest.app.maintenance import ensure_all_indexes
from memforest.app.ops import database_info
from memforest.db import migrate, tenant_login
from memforest.db.embedded import ensure_tenant_login
from memforest.db.runtime import ensure_schema, locate_database, open_database
from memforest.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``db`` group."""
    p = sub.add_parser("db", help="database: migrate, show revision and versions")
    dsub = p.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    dsub.add_parser("upgrade", help="migrate the database to the newest schema").set_defaults(handler=upgrade)
    dsub.add_parser("current", help="print the schema revision the database is at").set_defaults(handler=current)
    dsub.add_parser("info", help="print PostgreSQL/pgvector versions and the tables").set_defaults(handler=info)
    dsub.add_parser(
        "index-forests",
        help="build the own indexes of every forest past exact_scan_max_rows facts, drop deleted forests'",
    ).set_defaults(handler=index_forests)


async def upgrade(args: argparse.Namespace, settings: Settings) -> int:
    """Migrate to head, then set up the tenant login role of MEMFOREST_DATABASE_TENANT_URL when it
    is missing or unusable (ADR 0018); what that needs is checked before migrating."""
    location = await locate_database(settings)
    async with open_database(settings, migrate_schema=False) as db:
        await db.check_versions()
        login = await tenant_login.plan(db, location.tenant_url) if location.embedded is None else None
        await asyncio.to_thread(ensure_schema, location.url, settings)
        if location.embedded is not None:
            await asyncio.to_thread(ensure_tenant_login, location.embedded)
        if login is not None:
            await db.dispose()  # pooled connections predate the schema: reconnect
            print(await tenant_login.provision(db, login))
    print(f"database at revision {migrate.current_revision(location.url)} (head {migrate.head_revision()})")
    return 0


async def current(args: argparse.Namespace, settings: Settings) -> int:
    """Print the current revision (``none`` if uninitialised)."""
    location = await locate_database(settings)
    rev = await asyncio.to_thread(migrate.current_revision, location.url)
    print(rev or "none")
    return 0


async def info(args: argparse.Namespace, settings: Settings) -> int:
    """Versions and tables of the configured database (migrating it first)."""
    async with open_database(settings) as db:
        v, names = await database_info(db)
    print(f"PostgreSQL {v.postgres}")
    print(f"pgvector {v.pgvector}")
    print(f"schema revision {migrate.head_revision()}; tables ({len(names)}): {', '.join(names)}")
    return 0


async def index_forests(args: argparse.Namespace, settings: Settings) -> int:
    """Build the per-forest HNSW and GIN indexes that are missing or invalid (ADR 0024); print what changed."""
    async with open_database(settings) as db:
        report = await ensure_all_indexes(db, settings)
    print(
        f"forest indexes: {len(report.built)} built, {len(report.rebuilt)} rebuilt, {len(report.dropped)} dropped"
        + (f", forests busy elsewhere: {report.skipped_busy}" if report.skipped_busy else "")
    )
    return 0
