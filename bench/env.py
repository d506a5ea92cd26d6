"""The environment of a write-path bench run: a throwaway (or given) database with a tenant, the
settings and model backends, where the shared LoCoMo file lives, and forest counters."""

from __future__ import annotations

import asyncio
import atexit
import shutil
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memforest.backends.factory import Backends, build_backends
from memforest.backends.rule_based import RuleBasedExtractor
from memforest.db.embedded import start_embedded
from memforest.db.engine import Database
from memforest.db.runtime import open_database
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.sql import fetch_all
from memforest.store.tenants import ensure_tenant, get_forest
from memforest.text.processes import start as start_text_processes

REPO_ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = Path(__file__).resolve().parent / "results"
LOCOMO_CANDIDATES = (
    REPO_ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev5.json",
    Path("/work/shared/data/locomo/locomo_dev5.json"),
)


def default_locomo() -> Path | None:
    """The shared LoCoMo file (``../shared/data/locomo`` from the repo root, else /work/shared)."""
    for path in LOCOMO_CANDIDATES:
        if path.is_file():
            return path
    return None


def locomo_or_complain(data: Path | None) -> Path | None:
    """``data`` or the shared LoCoMo file; None (after one line on stderr) when neither exists."""
    path = data or default_locomo()
    if path is None or not Path(path).is_file():
        print("no LoCoMo data: pass --data FILE (looked for ../shared/data/locomo/locomo_dev5.json)", file=sys.stderr)
        return None
    return Path(path)


# ------------------------------------------------------------------------------------ database


@dataclass(slots=True)
class BenchEnv:
    """An open database with a tenant, the settings and the model backends of one bench run."""

    db: Database
    settings: Settings
    backends: Backends
    tenant_id: uuid.UUID
    database: str  # "embedded (temporary)" or the external URL's host part


@asynccontextmanager
async def bench_env(
    *,
    database_url: str | None = None,
    settings_overrides: dict[str, Any] | None = None,
    home: Path | None = None,
) -> AsyncIterator[BenchEnv]:
    """A migrated database for one bench run: ``database_url`` when given, else an embedded
    PostgreSQL under ``home`` (kept and reused) or under a temporary MEMFOREST_HOME
    (deleted when this process's last user of it stops)."""
    overrides = dict(settings_overrides or {})
    temporary = home is None
    home = Path(tempfile.mkdtemp(prefix="memforest-bench-")) if home is None else Path(home)
    home.mkdir(parents=True, exist_ok=True)
    where = "external"
    if database_url is None:
        if temporary:
            # registered before the server's own exit hook, so it runs after the server stopped
            atexit.register(shutil.rmtree, home, True)
        # started here (deleted on exit when temporary); open_database below finds it running and, as
        # for any embedded server, makes the tenant login role (ADR 0018). A kept --home is reused.
        start_embedded(home / "pgdata", delete_on_exit=temporary)
        where = "embedded (temporary)" if temporary else f"embedded ({home})"
    settings = Settings(home=home, database_url=database_url, **overrides)
    backends = build_backends(settings)
    try:
        async with open_database(settings) as db:
            tenant_id = await ensure_tenant(db, "bench")
            yield BenchEnv(db=db, settings=settings, backends=backends, tenant_id=tenant_id, database=where)
    finally:
        await backends.aclose()
        if where == "external" and temporary:
            shutil.rmtree(home, ignore_errors=True)


async def extractor_ready(backends: Backends) -> None:
    """Wait until the rule-based extractor's worker processes, if it has any, are running (a
    process starts them at its first extraction; a bench starts them before its clock)."""
    extractor = backends.extractor
    if isinstance(extractor, RuleBasedExtractor) and extractor.processes:
        await asyncio.wrap_future(start_text_processes(extractor.processes))


async def forest_counts(env: BenchEnv, forest_name: str) -> dict[str, Any]:
    """Facts, trees by kind, nodes, leaves and tree height of one forest (zeros when it is absent)."""
    t = env.tenant_id
    async with env.db.tenant(t) as conn:
        rows = await fetch_all(
            conn, "SELECT forest_id FROM forests WHERE tenant_id = :t AND name = :n", {"t": t, "n": forest_name}
        )
        if not rows:
            return {"facts": 0, "trees": {}, "nodes": 0, "leaves": 0, "height": 0, "superseded": 0}
        p = {"t": t, "f": int(rows[0]["forest_id"])}
        facts = await fetch_all(
            conn,
            "SELECT count(*) AS n, count(*) FILTER (WHERE superseded_by IS NOT NULL) AS sup FROM facts "
            "WHERE tenant_id = :t AND forest_id = :f",
            p,
        )
        trees = await fetch_all(
            conn, "SELECT kind, count(*) AS n FROM trees WHERE tenant_id = :t AND forest_id = :f GROUP BY kind", p
        )
        nodes = await fetch_all(
            conn,
            "SELECT count(*) AS n, count(*) FILTER (WHERE level = 0) AS leaves, coalesce(max(level), 0) AS h "
            "FROM nodes WHERE tenant_id = :t AND forest_id = :f",
            p,
        )
    return {
        "facts": int(facts[0]["n"]),
        "superseded": int(facts[0]["sup"]),
        "trees": {str(r["kind"]): int(r["n"]) for r in sorted(trees, key=lambda r: str(r["kind"]))},
        "nodes": int(nodes[0]["n"]),
        "leaves": int(nodes[0]["leaves"]),
        "height": int(nodes[0]["h"]),
    }


async def check_verdict(env: BenchEnv, forest: str) -> str:
    """``ok`` when every tree invariant of the forest holds, else the first violation."""
    async with env.db.tenant(env.tenant_id) as conn:
        f = await get_forest(conn, env.tenant_id, forest)
        report = await check_forest(conn, env.tenant_id, f.forest_id)
    return "ok" if report.ok else report.violations[0]
