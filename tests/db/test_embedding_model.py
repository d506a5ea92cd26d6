"""Switching the embedding model on an existing database (ADR 0042): refused at start with one line
naming the command; ``rematerialize --embeddings --all`` moves every forest, one at a time,
resumably, each queryable meanwhile, and records the new model."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from support import tenant_url
from support.sessions import hobby_sessions

from memforest.backends.factory import build_backends
from memforest.db.embedding_model import read_model_record
from memforest.db.engine import Database
from memforest.db.runtime import open_database
from memforest.errors import ConfigurationError
from memforest.lifecycle.rematerialize import rematerialize_all
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.settings import Settings
from memforest.store.sql import fetch_all
from memforest.store.tenants import ensure_tenant
from memforest.testing.simulated_llm import SimulationConfig, run_server_in_thread

FORESTS = ("alpha", "beta")


class Stopped(Exception):
    """The operator stopping the run between two forests."""


def _http(settings: Settings, url: str) -> Settings:
    """``settings`` embedding with the simulated server's model (same dimension, another model)."""
    emb = settings.embedding.model_copy(update={"backend": "http", "base_url": url, "model": "sim-embed"})
    return settings.model_copy(update={"embedding": emb})


async def _ingest_two(settings: Settings) -> uuid.UUID:
    async with open_database(settings) as db:
        backends = build_backends(settings)
        try:
            tenant_id = await ensure_tenant(db, "switch")
            for name in FORESTS:
                report = await ingest_sessions(
                    db, settings, backends, tenant_id, name, hobby_sessions(3, datetime(2024, 3, 1, tzinfo=UTC))
                )
                assert report.jobs_failed == 0
        finally:
            await backends.aclose()
    return tenant_id


async def _fact_vectors(db: Database) -> dict[int, str]:
    async with db.system() as conn:
        rows = await fetch_all(conn, "SELECT fact_id, CAST(embedding AS text) AS v FROM facts ORDER BY fact_id")
    return {int(r["fact_id"]): str(r["v"]) for r in rows}


async def test_start_refuses_another_model_in_one_line(settings: Settings, db_url: str) -> None:
    await _ingest_two(settings)
    assert read_model_record(db_url).model == "hashed-ngram-64"  # recorded by the first start
    other = _http(settings, "http://127.0.0.1:9/v1")  # never contacted: the check reads the settings
    with pytest.raises(ConfigurationError) as caught:
        async with open_database(other):
            pass
    message = str(caught.value)
    assert "\n" not in message and "memforest rematerialize --embeddings --all" in message
    assert "hashed-ngram-64" in message and "http:sim-embed" in message


async def test_move_resumes_after_a_stop_and_keeps_forests_queryable(settings: Settings, db_url: str) -> None:
    tenant_id = await _ingest_two(settings)
    with run_server_in_thread(SimulationConfig(ttft_ms=0.0, tpot_ms=0.0, embed_dim=64)) as url:
        moved = _http(settings, url)
        db = Database(db_url, tenant_url=tenant_url(db_url), pool_size=2, max_overflow=2)
        backends = build_backends(moved)
        try:
            before = await _fact_vectors(db)
            finished: list[int] = []

            def stop_after_first(stage: str, done: int, total: int) -> None:
                if stage == "forests" and done == 1:
                    finished.append(done)
                    raise Stopped

            with pytest.raises(Stopped):
                await rematerialize_all(db, moved, backends, embeddings=True, progress=stop_after_first)
            record = read_model_record(db_url)
            assert (record.model, record.target, len(record.done)) == ("hashed-ngram-64", "http:sim-embed", 1)
            half = await _fact_vectors(db)
            assert 0 < sum(half[k] != before[k] for k in before) < len(before)  # one forest moved, one not

            # A process with the new model starts while the move is under way; both forests answer.
            async with open_database(moved) as served:
                for name in FORESTS:
                    result = await query(served, moved, backends, tenant_id, QueryRequest(name, "Where is Brakel?"))
                    assert result.evidence
            with pytest.raises(ConfigurationError, match="under way"):  # the old model no longer starts
                async with open_database(settings):
                    pass

            report = await rematerialize_all(db, moved, backends, embeddings=True)
            assert report.forests == 1  # the forest moved before the stop is not embedded again
            after = await _fact_vectors(db)
            assert all(after[k] != before[k] for k in before)
            record = read_model_record(db_url)
            assert (record.model, record.target, record.done) == ("http:sim-embed", None, frozenset())
            async with open_database(moved):
                pass
        finally:
            await backends.aclose()
            await db.dispose()
