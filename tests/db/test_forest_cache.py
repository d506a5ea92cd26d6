"""The read path remembers which forest a name means (memforest.retrieval.forest_cache, ADR 0024
session 17): a known name is not looked up again, in the query's transaction or beside it; a name
that means another forest now (deleted, made again) or none is noticed by the same query; whether
the forest has its own indexes and its latest session come fresh with each query."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from support import session_input

from memforest.app.forests import delete_forest
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import Forest
from memforest.errors import NotFoundError
from memforest.pipeline.forest_indexes import ensure_forest_indexes
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryAnswer, QueryRequest, query
from memforest.retrieval import recall as recall_module
from memforest.retrieval.forest_cache import ForestCache, forest_cache
from memforest.settings import Settings
from memforest.store import recall_channels
from memforest.store.reading import ReadTransaction, read_beside
from memforest.store.recall_channels import RecallForest, forest_for_recall
from memforest.store.tenants import ensure_tenant

FOREST = "pets"
CATS = ["I adopted a grey cat named Pistachio last weekend.", "Pistachio sleeps on the windowsill every afternoon."]
BIKES = ["I repaired my old bicycle named Rocket in the garage.", "Rocket now rides along the river every Sunday."]
WHEN = datetime(2024, 3, 1, 9, 0, 0, 250_001, tzinfo=UTC)  # (microseconds: the forest row keeps them)


async def _ingest(db: Database, settings: Settings, tenant_id: uuid.UUID, texts: Sequence[str], days: int = 0) -> None:
    backends = build_backends(settings)
    try:
        sessions = [session_input(f"s{days}", WHEN + timedelta(days=days), texts, ("Ilse", "Marek"))]
        report = await ingest_sessions(db, settings, backends, tenant_id, FOREST, sessions)
        assert report.jobs_failed == 0 and not report.errors
    finally:
        await backends.aclose()


async def _ask(db: Database, settings: Settings, tenant_id: uuid.UUID, question: str) -> QueryAnswer:
    backends = build_backends(settings)
    try:
        return await query(db, settings, backends, tenant_id, QueryRequest(FOREST, question))
    finally:
        await backends.aclose()


_BESIDE: ContextVar[bool] = ContextVar("beside", default=False)


def _lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the by-name lookups of the query's transaction ("main") and of the side ("side"): both
    go through ``recall_channels.forest_for_recall``; the side's run inside ``read_beside``."""
    calls: list[str] = []

    async def lookup(*args: Any, **kwargs: Any) -> RecallForest:
        calls.append("side" if _BESIDE.get() else "main")
        found: RecallForest = await forest_for_recall(*args, **kwargs)
        return found

    async def beside(db: Database, tenant_id: uuid.UUID, read: Callable[[ReadTransaction], Awaitable[Any]]) -> Any:
        async def marked(side: ReadTransaction) -> Any:
            token = _BESIDE.set(True)
            try:
                return await read(side)
            finally:
                _BESIDE.reset(token)

        return await read_beside(db, tenant_id, marked)

    monkeypatch.setattr(recall_channels, "forest_for_recall", lookup)
    monkeypatch.setattr(recall_module, "read_beside", beside)
    return calls


async def test_a_known_name_is_not_looked_up_again(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    await _ingest(db, settings, tenant_id, CATS)
    calls = _lookups(monkeypatch)
    first = await _ask(db, settings, tenant_id, "Where does Pistachio sleep?")
    assert sorted(calls) == ["main", "side"]
    calls.clear()
    again = await _ask(db, settings, tenant_id, "Where does Pistachio sleep?")
    assert calls == []  # neither the query's transaction nor the side looked the name up
    assert first.evidence and [e.to_json() for e in again.evidence] == [e.to_json() for e in first.evidence]
    assert any("windowsill" in e.text for e in again.evidence)


async def test_a_name_made_again_means_the_new_forest_and_a_deleted_one_is_not_found(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    await _ingest(db, settings, tenant_id, CATS)
    assert any("Pistachio" in e.text for e in (await _ask(db, settings, tenant_id, "What is the cat called?")).evidence)
    old = forest_cache(db).get(tenant_id, FOREST)
    assert old is not None
    await delete_forest(db, tenant_id, FOREST)
    await _ingest(db, settings, tenant_id, BIKES)  # the same name, another forest (another id)
    calls = _lookups(monkeypatch)
    got = await _ask(db, settings, tenant_id, "What is the bicycle called?")
    assert "main" in calls  # the query's statement showed the remembered forest gone: looked up again
    assert got.evidence and all("Pistachio" not in e.text for e in got.evidence)
    assert any("Rocket" in e.text for e in got.evidence)
    new = forest_cache(db).get(tenant_id, FOREST)
    assert new is not None and new.forest.forest_id != old.forest.forest_id
    await delete_forest(db, tenant_id, FOREST)
    with pytest.raises(NotFoundError):
        await _ask(db, settings, tenant_id, "What is the bicycle called?")
    assert forest_cache(db).get(tenant_id, FOREST) is None


async def test_the_forests_indexes_and_latest_session_come_with_each_query(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    await _ingest(db, settings, tenant_id, CATS)
    assert (await _ask(db, settings, tenant_id, "What is the cat called?")).strategy == "exact"
    known = forest_cache(db).get(tenant_id, FOREST)
    assert known is not None and not known.indexed and known.latest == WHEN
    await _ingest(db, settings, tenant_id, CATS[::-1], days=9)  # a later session
    small = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update={"exact_scan_max_rows": 1})})
    await ensure_forest_indexes(db, small, tenant_id, known.forest.forest_id)  # it gets its own indexes
    # this query still reads it as remembered (exact: the same rows, only slower); its statement
    # tells it the forest's state now, for the next query
    assert (await _ask(db, settings, tenant_id, "What is the cat called?")).strategy == "exact"
    now = forest_cache(db).get(tenant_id, FOREST)
    assert now is not None and now.indexed and now.latest == WHEN + timedelta(days=9)
    async with db.tenant(tenant_id) as conn:
        assert (await forest_for_recall(conn, tenant_id, FOREST, 40)) == now
    got = await _ask(db, settings, tenant_id, "What is the cat called?")
    assert got.strategy == "hnsw" and any("Pistachio" in e.text for e in got.evidence)


def test_the_cache_forgets_the_least_recently_used_name() -> None:
    cache = ForestCache(entries=2)
    tenant = uuid.uuid4()

    def forest(i: int) -> RecallForest:
        return RecallForest(forest=Forest(tenant_id=tenant, forest_id=i, name=f"f{i}"), latest=None, indexed=False)

    cache.put(forest(1))
    cache.put(forest(2))
    assert cache.get(tenant, "f1") == forest(1)  # f1 used: f2 is now the least recent
    cache.put(forest(3))
    assert len(cache) == 2 and cache.get(tenant, "f2") is None
    assert cache.get(tenant, "f1") == forest(1) and cache.get(tenant, "f3") == forest(3)
    assert cache.get(uuid.uuid4(), "f1") is None  # another tenant's name is another entry
    cache.drop(tenant, "f1")
    assert cache.get(tenant, "f1") is None
    # a query that read the name's older forest and ended last does not put it back over the newer
    newer = RecallForest(forest=Forest(tenant_id=tenant, forest_id=9, name="f3"), latest=None, indexed=True)
    cache.put(newer)
    cache.put(forest(3))
    assert cache.get(tenant, "f3") == newer
