"""The write path's set-based transactions let the server choose its plans (ADR 0157): a session's
commit and a refresh's level writes open with ``plan_cache_mode = auto``, every other tenant
transaction with ``force_custom_plan`` as before, an ingest through them stores what it did, and
the commit's nearest-facts lookup reads an indexed forest's graph on a generic plan too."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import numpy as np
from support import session_input
from support.db import log_statements
from test_forest_indexes import _ingest as ingest_indexed_forest
from test_forest_indexes import _small_threshold as small_threshold

from memforest.backends.factory import build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.db.tenant_entry import WRITE_PLANS
from memforest.pipeline.service import ingest_sessions
from memforest.settings import Settings
from memforest.store import facts_batch
from memforest.store.queries import fill
from memforest.store.read_conn import positional
from memforest.store.sql import execute, scalar
from memforest.store.tenants import ensure_tenant

_AUTO = "set_config('plan_cache_mode', 'auto', true)"


async def test_a_write_transaction_lets_the_server_choose_and_others_do_not(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    async with db.tenant(tenant_id, knobs=WRITE_PLANS) as conn:
        assert await scalar(conn, "SELECT current_setting('plan_cache_mode')") == "auto"
    async with db.tenant(tenant_id) as conn:
        assert await scalar(conn, "SELECT current_setting('plan_cache_mode')") == "force_custom_plan"


async def test_an_ingest_commits_and_refreshes_in_write_transactions(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    backends = build_backends(settings)
    sent = log_statements(db)
    try:
        when = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
        lines = ["I adopted a grey cat named Pistachio.", "We moved to Tarbert in the spring."]
        report = await ingest_sessions(db, settings, backends, tenant_id, "home", [session_input("s0", when, lines)])
        assert report.jobs_failed == 0
    finally:
        await backends.aclose()
    # each transaction's statements, by the settings it opened with (the opening carries them)
    opened: dict[int, str] = {}
    auto_runs: list[str] = []
    for conn, text in sent:
        if "set_config('plan_cache_mode'" in text:
            opened[conn] = "auto" if _AUTO in text else "other"
        elif opened.get(conn) == "auto":
            auto_runs.append(text)
    assert any("INSERT INTO facts" in text for text in auto_runs)  # the session's commit
    assert any("UPDATE nodes n SET summary" in text for text in auto_runs)  # its refresh's writes
    assert "other" in opened.values()  # (the reads around them as before)
    async with db.tenant(tenant_id) as conn:
        assert await scalar(conn, "SELECT count(*) FROM facts WHERE text LIKE '%Pistachio%'") >= 1


async def _lookup_plan(db: Database, settings: Settings, sql: str) -> str:
    """EXPLAIN (JSON) of ``sql`` (the commit's nearest-facts lookup) on an indexed forest's generic
    plan, for one candidate with no exact match."""
    s = small_threshold(settings, 3)
    tenant_id, forest_id = await ingest_indexed_forest(db, s)
    q = HashedEmbedder(s.embedding.dim).embed_sync(["a grey cat"])[0]
    literals = {
        "t": f"'{tenant_id}'::uuid",
        "f": str(forest_id),
        "h": "ARRAY['no-such-hash']",
        "nz": "ARRAY[true]",
        "v": "ARRAY['[" + ",".join(repr(float(x)) for x in np.asarray(q)) + "]'::vector]",
        "n": "1",
    }
    statement, names = positional(fill(sql, f=forest_id))
    generic = {"plan_cache_mode": "force_generic_plan", "enable_seqscan": "off"}  # (a small table is read whole)
    async with db.tenant(tenant_id, knobs=generic) as conn:
        await execute(conn, f"PREPARE probe AS {statement}")
        plan = await scalar(conn, f"EXPLAIN (FORMAT JSON) EXECUTE probe({', '.join(literals[n] for n in names)})")
    return f"ix_facts_vec_f{forest_id}" if f"ix_facts_vec_f{forest_id}" in json.dumps(plan) else ""


async def test_the_commits_nearest_lookup_reads_an_indexed_forests_graph_on_a_generic_plan(
    db: Database, settings: Settings
) -> None:
    assert await _lookup_plan(db, settings, facts_batch._LOOKUP_MANY)


async def test_a_lookup_naming_its_forest_by_a_parameter_would_not(db: Database, settings: Settings) -> None:
    # (why the lookup names the forest by a literal: a generic plan cannot prove the partial index's predicate)
    assert not await _lookup_plan(db, settings, fill(facts_batch._LOOKUP_MANY))
