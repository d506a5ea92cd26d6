"""The read path's full-text channels in a transaction beside the query's own (ADR 0024, session
10): the same recall as one statement, in small and indexed forests; a side pool of its own, so
requests holding their one connection of the main pool never deadlock waiting for a second; errors
of either side come out as they are, the other side's work cancelled."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest
from sqlalchemy.exc import DBAPIError
from support import session_input
from support.db import tenant_url

from memforest.backends.base import ChatModel, Embedder
from memforest.backends.factory import build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.errors import DatabaseUnavailableError, NotFoundError
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import RetrievalPreset, query
from memforest.retrieval.recall import lexical_beside, recall
from memforest.settings import Settings
from memforest.store.recall_channels import PARTS, channels_sql, forest_for_recall
from memforest.store.sql import Row
from memforest.store.tenants import ensure_tenant

FOREST = "pets"
TEXTS = [
    "I adopted a grey cat named Pistachio last weekend.",
    "Nice, I repaired my old bicycle in the garage yesterday.",
    "Pistachio sleeps on the windowsill every afternoon.",
    "My sister Dana moved to Lisbon for a job at a bakery.",
]
QUESTIONS = ["What is the cat called?", "Where did Dana move?", "bicycle garage", "Who sleeps on the windowsill?"]


def _threshold(settings: Settings, rows: int) -> Settings:
    retrieval = settings.retrieval.model_copy(update={"exact_scan_max_rows": rows})
    return settings.model_copy(update={"retrieval": retrieval})


async def _forest(db: Database, settings: Settings) -> uuid.UUID:
    when = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    sessions = [session_input(f"s{i}", when + timedelta(days=7 * i), TEXTS, ("Ilse", "Marek")) for i in range(3)]
    backends = build_backends(settings)
    try:
        tenant_id = await ensure_tenant(db, "acme")
        report = await ingest_sessions(db, settings, backends, tenant_id, FOREST, sessions)
        assert report.jobs_failed == 0 and not report.errors
    finally:
        await backends.aclose()
    return tenant_id


def test_the_two_parts_make_the_one_statement_between_them() -> None:
    """Each part names its own channels; both together are the one statement of every channel."""
    for exact in (True, False):
        both = channels_sql(exact, None, scan_text=exact)
        vector = channels_sql(exact, None, scan_text=exact, parts=("vector",))
        lexical = channels_sql(exact, None, scan_text=exact, parts=("lexical",))
        assert channels_sql(exact, None, scan_text=exact, parts=PARTS) == both
        for name in ("root", "fact", "cell", "label"):
            row = f"SELECT '{name}', "
            assert row in vector and row not in lexical and row in both
        for name in ("lexical_fact", "lexical_node"):
            row = f"SELECT '{name}', "
            assert row in lexical and row not in vector and row in both
    with pytest.raises(ValueError):
        channels_sql(True, None, scan_text=True, parts=())


@pytest.mark.parametrize("indexed", [False, True], ids=["exact", "own-indexes"])
async def test_recall_beside_finds_what_one_statement_finds(db: Database, settings: Settings, indexed: bool) -> None:
    s = _threshold(settings, 3 if indexed else 5_000)
    tenant_id = await _forest(db, s)
    preset = RetrievalPreset.from_settings(s.retrieval)
    embed = HashedEmbedder(s.embedding.dim)
    for question in QUESTIONS:
        q = np.asarray(embed.embed_sync([question])[0], dtype=np.float32)
        got = []
        for beside in (False, True):
            lexical = None
            if beside:
                side = lexical_beside(lambda: db.tenant(tenant_id, side=True), tenant_id, FOREST, question, preset)
                lexical = asyncio.create_task(side)
            async with db.tenant(tenant_id) as conn:
                found = await forest_for_recall(conn, tenant_id, FOREST, preset.hnsw_ef_search)
                assert found.indexed is indexed
                forest_id = found.forest.forest_id
                got.append(
                    await recall(conn, tenant_id, forest_id, question, q, preset, indexed=indexed, lexical=lexical)
                )
        one, two = got
        assert [(t.tree_id, t.score, t.ranks) for t in one.trees] == [(t.tree_id, t.score, t.ranks) for t in two.trees]
        assert (one.fact_sims, one.cell_sims, one.fact_lex, one.cell_lex) == (
            two.fact_sims,
            two.cell_sims,
            two.fact_lex,
            two.cell_lex,
        )
        assert one.fact_lex or one.cell_lex  # the full-text channels did find something
        assert one.strategy == two.strategy == ("hnsw" if indexed else "exact")


async def test_queries_holding_every_main_connection_still_finish(db_url: str, settings: Settings) -> None:
    """One main connection and two side connections, eight queries at once: each holds the main
    connection while its full-text channels wait for the side pool, which nothing else holds."""
    tenant_id = await _forest_in_own_db(db_url, settings)
    narrow = Database(db_url, tenant_url=tenant_url(db_url), pool_size=1, max_overflow=0, side_pool_size=1)
    backends = build_backends(settings)
    try:
        results = await asyncio.wait_for(
            asyncio.gather(*(query(narrow, settings, backends, tenant_id, FOREST, q) for q in QUESTIONS * 2)), 60
        )
    finally:
        await backends.aclose()
        await narrow.dispose()
    assert all(r.evidence for r in results)
    assert any("Pistachio" in e.text for e in results[0].evidence)


async def _forest_in_own_db(db_url: str, settings: Settings) -> uuid.UUID:
    wide = Database(db_url, tenant_url=tenant_url(db_url), pool_size=2, max_overflow=2)
    try:
        return await _forest(wide, settings)
    finally:
        await wide.dispose()


@dataclass
class _Hashed:
    """Query backends with a hashed embedder of ``dim`` dimensions (one too many: the vector
    channels' statement fails)."""

    dim: int
    chat: ChatModel | None = None

    @property
    def embedder(self) -> Embedder:
        return HashedEmbedder(self.dim)


async def test_errors_of_either_side_come_out_and_leave_no_side_transaction(db: Database, settings: Settings) -> None:
    tenant_id = await _forest(db, settings)
    preset = RetrievalPreset.from_settings(settings.retrieval)
    q = np.asarray(HashedEmbedder(settings.embedding.dim).embed_sync(["cat"])[0], dtype=np.float32)

    async def unavailable() -> list[Row]:
        raise DatabaseUnavailableError()

    async with db.tenant(tenant_id) as conn:
        found = await forest_for_recall(conn, tenant_id, FOREST, preset.hnsw_ef_search)
        with pytest.raises(DatabaseUnavailableError):
            await recall(
                conn, tenant_id, found.forest.forest_id, "cat", q, preset, indexed=False, lexical=unavailable()
            )
    assert db.side_engine is not None
    side_pool: Any = db.side_engine.pool
    # the vector channels fail (or the forest is unknown) while the full-text ones run beside: the
    # query's error comes out, and the side transaction was ended, not left running
    with pytest.raises(DBAPIError, match="dimensions"):
        await query(db, settings, _Hashed(settings.embedding.dim + 1), tenant_id, FOREST, "Where is the cat?")
    assert side_pool.checkedout() == 0
    with pytest.raises(NotFoundError):
        await query(db, settings, _Hashed(settings.embedding.dim), tenant_id, "no-such-forest", "Where is the cat?")
    assert side_pool.checkedout() == 0


async def test_a_database_without_a_side_pool_refuses_side_transactions(db_url: str) -> None:
    plain = Database(db_url, tenant_url=tenant_url(db_url), pool_size=1, max_overflow=0)
    try:
        assert plain.side_engine is None
        with pytest.raises(ValueError, match="side pool"):
            async with plain.tenant(uuid.uuid4(), side=True):
                pass
    finally:
        await plain.dispose()
