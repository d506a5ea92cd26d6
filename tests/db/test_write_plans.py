"""The write path's set-based transactions let the server choose its plans (ADR 0157): a session's
commit and a refresh's level writes open with ``plan_cache_mode = auto``, every other tenant
transaction with ``force_custom_plan`` as before, and an ingest through them stores what it did."""

from __future__ import annotations

from datetime import UTC, datetime

from support import session_input
from support.db import log_statements

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.db.tenant_entry import WRITE_PLANS
from memforest.pipeline.service import ingest_sessions
from memforest.settings import Settings
from memforest.store.sql import scalar
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
    opened_for_writes = [text for _, text in sent if _AUTO in text]
    # a session's commit, and the writes of its refresh (at least one level)
    assert len(opened_for_writes) >= 2
    assert any("force_custom_plan" in text for _, text in sent)  # (the reads around them as before)
    async with db.tenant(tenant_id) as conn:
        assert await scalar(conn, "SELECT count(*) FROM facts WHERE text LIKE '%Pistachio%'") >= 1
