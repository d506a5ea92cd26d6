"""The read path's full-text channels in a transaction beside the query's own (ADR 0024, session
10): the same recall as one statement, in small and indexed forests; a side pool of its own, so
requests holding their one connection of the main pool never deadlock waiting for a second; errors
of either side come out as they are, the other side's work cancelled."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from support.db import tenant_url
from support.reads import exact_up_to, question_of, read_tx, weekly_forest

from memforest.backends.base import ChatModel, Embedder, UsageLedger
from memforest.backends.factory import build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database, SidePoolBusy
from memforest.errors import DatabaseUnavailableError, InputError, NotFoundError
from memforest.retrieval import QueryRequest, RetrievalPreset, query, service
from memforest.retrieval import recall as recall_module
from memforest.retrieval.forest_cache import forest_cache
from memforest.retrieval.recall import LexicalRows, lexical_beside, recall
from memforest.settings import Settings
from memforest.store import recall_channels
from memforest.store.reading import ReadTransaction, read_beside
from memforest.store.recall_channels import PARTS, channels_sql, forest_for_recall
from memforest.store.sql import execute, fetch_all

FOREST = "pets"
TEXTS = [
    "I adopted a grey cat named Pistachio last weekend.",
    "Nice, I repaired my old bicycle in the garage yesterday.",
    "Pistachio sleeps on the windowsill every afternoon.",
    "My sister Dana moved to Lisbon for a job at a bakery.",
]
QUESTIONS = ["What is the cat called?", "Where did Dana move?", "bicycle garage", "Who sleeps on the windowsill?"]


def _threshold(settings: Settings, rows: int) -> Settings:
    return exact_up_to(settings, rows)


async def _forest(db: Database, settings: Settings) -> uuid.UUID:
    return await weekly_forest(db, settings, "acme", FOREST, TEXTS, ("Ilse", "Marek"))


def test_the_two_parts_make_the_one_statement_between_them() -> None:
    """Each part names its own channels; both together are the one statement of every channel."""
    for exact in (True, False):
        both = channels_sql(exact, None, scan_text=exact, dim=64)
        vector = channels_sql(exact, None, scan_text=exact, parts=("vector",), dim=64)
        lexical = channels_sql(exact, None, scan_text=exact, parts=("lexical",))
        assert channels_sql(exact, None, scan_text=exact, parts=PARTS, dim=64) == both
        # an indexed forest's node graphs are read by their half-precision key, a scan by the vector
        assert ("halfvec(64)" in vector) is (not exact) and "halfvec" not in lexical
        for name in ("root", "fact", "cell", "label"):
            row = f"SELECT '{name}', "
            assert row in vector and row not in lexical and row in both
        for name in ("lexical_fact", "lexical_node"):
            row = f"SELECT '{name}', "
            assert row in lexical and row not in vector and row in both
    with pytest.raises(ValueError):
        channels_sql(True, None, scan_text=True, parts=())
    with pytest.raises(ValueError, match="dimension"):
        channels_sql(False, None, scan_text=False, parts=("vector",))


async def test_the_named_trees_are_read_by_primary_key_not_by_scanning_the_forest(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each channel statement closes with the rows of the ~100 trees its channels named: probed
    through ``pk_trees``, not a scan of every tree of the forest joined to them (0.8 ms of each
    statement at 5,000 trees; ADR 0024, session 12). The label channel finds the entity trees
    named by the question's words through the trees' unique key, not by filtering every entity
    tree of the forest (``lower(label)`` could not be an index condition under the policy; ADR 0029)."""
    tenant_id = await _forest(db, settings)
    statements: list[tuple[str, dict[str, Any]]] = []
    fetch = recall_channels.fetch_rows

    async def recording(conn: Any, sql: str, params: dict[str, Any]) -> Any:
        statements.append((sql, params))
        return await fetch(conn, sql, params)

    monkeypatch.setattr(recall_channels, "fetch_rows", recording)
    backends = build_backends(settings)
    try:
        await query(db, settings, backends, tenant_id, QueryRequest(FOREST, "Where did Dana move?"))
    finally:
        await backends.aclose()
    assert len(statements) == 2  # the vector channels and the full-text ones
    async with db.system() as conn:  # a forest of many trees (without roots: no channel names them)
        forest_id = statements[0][1]["f"]
        await execute(
            conn,
            "INSERT INTO trees (tenant_id, forest_id, kind, key, label, fanout) SELECT :t, :f, 'entity', "
            "'filler-' || i, 'filler ' || i, 8 FROM generate_series(1, 5000) i",
            {"t": tenant_id, "f": forest_id},
        )
        await execute(conn, "ANALYZE trees")
    async with db.tenant(tenant_id) as conn:
        for sql, params in statements:
            plan = "\n".join(str(r["QUERY PLAN"]) for r in await fetch_all(conn, "EXPLAIN " + sql, params))
            assert "using pk_trees on trees t " in plan and "Scan on trees t " not in plan
            if "lab AS" in sql:
                assert "using uq_trees_key on trees" in plan and "ix_trees_forest_kind" not in plan, plan
    assert sum("lab AS" in sql for sql, _ in statements) == 1


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
                lexical = asyncio.create_task(lexical_beside(db, tenant_id, FOREST, question_of(question), preset))
            async with db.tenant(tenant_id) as conn:
                found = await forest_for_recall(conn, tenant_id, FOREST, preset.hnsw_ef_search)
                assert found.indexed is indexed
                forest_id = found.forest.forest_id
                tx = read_tx(conn, tenant_id)
                got.append(
                    await recall(tx, forest_id, question_of(question), q, preset, indexed=indexed, lexical=lexical)
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
            asyncio.gather(
                *(query(narrow, settings, backends, tenant_id, QueryRequest(FOREST, q)) for q in QUESTIONS * 2)
            ),
            60,
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
    channels' statement fails), which answers once ``ready`` is set, when given."""

    dim: int
    ready: asyncio.Event | None = None
    chat: ChatModel | None = None

    @property
    def embedder(self) -> Embedder:
        return _WaitingEmbedder(HashedEmbedder(self.dim), self.ready)


class _WaitingEmbedder:
    def __init__(self, inner: HashedEmbedder, ready: asyncio.Event | None) -> None:
        self.inner, self.ready = inner, ready
        self.name, self.dim = "hashed-waiting", inner.dim

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        if self.ready is not None:
            await self.ready.wait()
        return await self.inner.embed(texts, stage=stage, ledger=ledger)


async def test_an_error_beside_comes_out(db: Database, settings: Settings) -> None:
    tenant_id = await _forest(db, settings)
    preset = RetrievalPreset.from_settings(settings.retrieval)
    q = np.asarray(HashedEmbedder(settings.embedding.dim).embed_sync(["cat"])[0], dtype=np.float32)

    async def unavailable() -> LexicalRows | None:
        raise DatabaseUnavailableError()

    async with db.tenant(tenant_id) as conn:
        found = await forest_for_recall(conn, tenant_id, FOREST, preset.hnsw_ef_search)
        forest_id = found.forest.forest_id
        with pytest.raises(DatabaseUnavailableError):
            await recall(
                read_tx(conn, tenant_id), forest_id, question_of("cat"), q, preset, indexed=False, lexical=unavailable()
            )


async def test_an_error_of_the_query_cancels_the_side_transaction(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The vector channels fail (a vector of the wrong dimension), or the forest is unknown, while
    the full-text channels still run beside: the query's error comes out, the side work is
    cancelled and waited for, and no side connection stays checked out."""
    tenant_id = await _forest(db, settings)
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def blocked(side_db: Database, tenant: uuid.UUID, *args: Any, **kwargs: Any) -> LexicalRows | None:
        async def waiting(side: ReadTransaction) -> LexicalRows | None:
            started.set()
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                cancelled.set()
                raise
            return None

        return await read_beside(side_db, tenant, waiting)

    monkeypatch.setattr(service, "lexical_beside", blocked)  # (the module's own name)
    assert db.side_engine is not None
    side_pool: Any = db.side_engine.pool
    wrong = _Hashed(settings.embedding.dim + 1, ready=started)  # embeds once the side work has begun
    with pytest.raises(InputError, match="SQLSTATE 22000"):  # a data exception (wrong dimension)
        await asyncio.wait_for(query(db, settings, wrong, tenant_id, QueryRequest(FOREST, "Where is the cat?")), 20)
    assert cancelled.is_set() and side_pool.checkedout() == 0
    started.clear()
    cancelled.clear()
    unknown = _Hashed(settings.embedding.dim, ready=started)
    with pytest.raises(NotFoundError):
        await asyncio.wait_for(
            query(db, settings, unknown, tenant_id, QueryRequest("no-such-forest", "Where is the cat?")), 20
        )
    assert cancelled.is_set() and side_pool.checkedout() == 0


async def test_the_side_rows_reach_the_query_before_the_side_commits(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The side hands its rows to the query while its own transaction is still open (its COMMIT
    is off the query's path), the query answers as the forest's own statement does, and the side
    connection is back in its pool once the query is done."""
    tenant_id = await _forest(db, settings)
    backends = _Hashed(settings.embedding.dim)
    question = "Who sleeps on the windowsill?"
    handed: list[asyncio.Future[LexicalRows | None]] = []
    before_commit: list[bool] = []

    async def recording(*args: Any, **kwargs: Any) -> LexicalRows | None:
        handed.append(kwargs["handed"])
        got: LexicalRows | None = await lexical_beside(*args, **kwargs)
        return got

    async def beside(side_db: Database, tenant: uuid.UUID, read: Any) -> Any:
        async def inside(side: ReadTransaction) -> Any:
            got = await read(side)
            before_commit.append(handed[-1].done() and handed[-1].result() is got)
            return got

        return await read_beside(side_db, tenant, inside)

    monkeypatch.setattr(service, "lexical_beside", recording)
    monkeypatch.setattr(recall_module, "read_beside", beside)
    forest_cache(db).drop(tenant_id, FOREST)  # (an unknown forest reads full text beside)
    got = await query(db, settings, backends, tenant_id, QueryRequest(FOREST, question))
    assert before_commit == [True] and handed[0].result() is not None
    assert db.side_engine is not None
    side_pool: Any = db.side_engine.pool
    assert side_pool.checkedout() == 0
    want = await query(db, settings, backends, tenant_id, QueryRequest(FOREST, question))  # (known: no side)
    assert want.evidence and [(e.kind, e.text, e.score) for e in got.evidence] == [
        (e.kind, e.text, e.score) for e in want.evidence
    ]


async def test_a_busy_side_pool_or_another_forest_reads_full_text_in_the_query(
    db: Database, settings: Settings
) -> None:
    """No free side connection within a moment, or rows of another forest of that name: recall reads
    the full-text channels in the query's own transaction, and finds what one statement finds."""
    tenant_id = await _forest(db, settings)
    preset = RetrievalPreset.from_settings(settings.retrieval)
    question = "Who sleeps on the windowsill?"
    q = np.asarray(HashedEmbedder(settings.embedding.dim).embed_sync([question])[0], dtype=np.float32)
    async with db.tenant(tenant_id) as conn:
        found = await forest_for_recall(conn, tenant_id, FOREST, preset.hnsw_ef_search)
        forest_id = found.forest.forest_id
        tx, parsed = read_tx(conn, tenant_id), question_of(question)
        want = await recall(tx, forest_id, parsed, q, preset, indexed=False)

        async def elsewhere() -> LexicalRows | None:
            return LexicalRows(forest_id + 1000, [])

        other = await recall(tx, forest_id, parsed, q, preset, indexed=False, lexical=elsewhere())
    assert want.fact_lex or want.cell_lex
    assert [t.tree_id for t in other.trees] == [t.tree_id for t in want.trees]
    assert (other.fact_lex, other.cell_lex) == (want.fact_lex, want.cell_lex)
    # every side connection held (side_pool_size 2: 2 + 2 overflow): the query does not wait for one
    async with contextlib.AsyncExitStack() as held:
        for _ in range(4):
            await held.enter_async_context(db.tenant(tenant_id, side=True))
        with pytest.raises(SidePoolBusy):
            async with db.tenant(tenant_id, side=True):
                pass
        busy = await asyncio.wait_for(
            query(db, settings, _Hashed(settings.embedding.dim), tenant_id, QueryRequest(FOREST, question)), 10
        )
    free = await query(db, settings, _Hashed(settings.embedding.dim), tenant_id, QueryRequest(FOREST, question))
    assert [e.text for e in busy.evidence] == [e.text for e in free.evidence] and free.evidence


async def test_a_forest_the_side_does_not_find_yet_is_read_in_the_query(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The side looks the forest up before the query does; a forest made in between is not there
    for the side. The side then brings nothing (no 404), and the query reads full text itself."""
    tenant_id = await _forest(db, settings)
    preset = RetrievalPreset.from_settings(settings.retrieval)
    assert await lexical_beside(db, tenant_id, "made-later", question_of("Where is the cat?"), preset) is None
    real = lexical_beside
    misses: list[LexicalRows | None] = []

    async def too_early(
        side_db: Database, tenant: uuid.UUID, name: str, *args: Any, **kwargs: Any
    ) -> LexicalRows | None:
        got: LexicalRows | None = await real(side_db, tenant, "made-later", *args, **kwargs)
        misses.append(got)
        return got

    backends = _Hashed(settings.embedding.dim)
    question = "Who sleeps on the windowsill?"
    want = await query(db, settings, backends, tenant_id, QueryRequest(FOREST, question))
    monkeypatch.setattr(service, "lexical_beside", too_early)
    forest_cache(db).drop(tenant_id, FOREST)  # (a name the process knows is not looked up, beside or not)
    got = await query(db, settings, backends, tenant_id, QueryRequest(FOREST, question))
    assert misses == [None]
    assert want.evidence and [e.text for e in got.evidence] == [e.text for e in want.evidence]


async def test_a_question_without_words_to_look_for_opens_no_side_transaction(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    tenant_id = await _forest(db, settings)
    calls: list[str] = []
    real = lexical_beside

    async def counting(*args: Any, **kwargs: Any) -> LexicalRows | None:
        calls.append(args[3].text)  # lexical_beside(db, tenant_id, forest_name, question, ...)
        got: LexicalRows | None = await real(*args, **kwargs)
        return got

    monkeypatch.setattr(service, "lexical_beside", counting)
    backends = _Hashed(settings.embedding.dim)
    await query(db, settings, backends, tenant_id, QueryRequest(FOREST, "Where is it?"))  # stopwords only
    forest_cache(db).drop(tenant_id, FOREST)  # (a known forest read exactly reads full text in its own statement)
    await query(db, settings, backends, tenant_id, QueryRequest(FOREST, "Where is the cat?"))
    assert calls == ["Where is the cat?"]


async def test_a_database_without_a_side_pool_refuses_side_transactions(db_url: str) -> None:
    plain = Database(db_url, tenant_url=tenant_url(db_url), pool_size=1, max_overflow=0)
    try:
        assert plain.side_engine is None
        with pytest.raises(ValueError, match="side pool"):
            async with plain.tenant(uuid.uuid4(), side=True):
                pass
    finally:
        await plain.dispose()


async def test_a_query_cancelled_between_hand_over_and_commit_leaves_no_side_connection(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The query is cancelled after the side handed its rows and before the side's COMMIT: the
    side is not cancelled, it commits and its connection goes back to the side pool. Cancelled
    again while it waits for that COMMIT, the query ends at once; the side still ends on its own,
    and an error it then raises is read and logged, not left unretrieved."""
    tenant_id = await _forest(db, settings)
    backends = _Hashed(settings.embedding.dim)
    assert db.side_engine is not None
    side_pool: Any = db.side_engine.pool
    sides: list[asyncio.Task[Any]] = []
    handed, release = asyncio.Event(), asyncio.Event()
    fail_after: list[bool] = [False]

    async def recording(*args: Any, **kwargs: Any) -> LexicalRows | None:
        sides.append(asyncio.current_task())  # type: ignore[arg-type]
        got: LexicalRows | None = await lexical_beside(*args, **kwargs)
        return got

    async def beside(side_db: Database, tenant: uuid.UUID, read: Any) -> Any:
        async def inside(side: ReadTransaction) -> Any:
            got = await read(side)
            handed.set()
            await release.wait()  # (the rows are the query's; the side's transaction is still open)
            if fail_after[0]:
                raise DatabaseUnavailableError()
            return got

        return await read_beside(side_db, tenant, inside)

    monkeypatch.setattr(service, "lexical_beside", recording)
    monkeypatch.setattr(recall_module, "read_beside", beside)

    async def cancelled_query(times: int) -> None:
        handed.clear()
        release.clear()
        forest_cache(db).drop(tenant_id, FOREST)  # (an unknown forest reads full text beside)
        asked = asyncio.create_task(query(db, settings, backends, tenant_id, QueryRequest(FOREST, "Where is the cat?")))
        await asyncio.wait_for(handed.wait(), 20)
        asked.cancel()
        await asyncio.sleep(0.2)
        assert not asked.done()  # (waiting for the side's COMMIT)
        if times == 2:
            asked.cancel()
            with pytest.raises(asyncio.CancelledError):
                await asyncio.wait_for(asked, 20)
            assert not sides[-1].done()  # (the side runs on, detached)
        release.set()
        await asyncio.wait_for(asyncio.wait({sides[-1]}), 20)
        if times == 1:
            with pytest.raises(asyncio.CancelledError):
                await asyncio.wait_for(asked, 20)
        assert not sides[-1].cancelled() and side_pool.checkedout() == 0

    await cancelled_query(1)
    assert sides[-1].exception() is None
    fail_after[0] = True
    with caplog.at_level("WARNING", logger=service.__name__):
        await cancelled_query(2)
        await asyncio.sleep(0)  # (the side's done callbacks)
    assert any("after handing its rows on" in r.getMessage() for r in caplog.records)
