"""Refresh (DESIGN.md 2.6): dirty marks coalesce (each dirty node summarised once), levels go bottom
up, nothing stays dirty, no transaction is open during model calls, only changed summaries are
re-embedded, and a concurrent insert never leaves an ancestor summary stale."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

import numpy as np
from support.embedders import ChildrenCountingEmbedder, CountingEmbedder, FactCellsCountingEmbedder

from memforest.backends.base import SummaryInput, UsageLedger
from memforest.backends.summarize import ExtractiveSummarizer
from memforest.db.engine import Database
from memforest.domain import SessionInput, TreeKind, TurnInput
from memforest.memtree.model import InsertStats, LeafSpec
from memforest.pipeline.refresh import RefreshStats, refresh_forest
from memforest.pipeline.service import accept_sessions
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.sql import as_vector, execute, fetch_all, fetch_one, lock_forest, scalar
from memforest.store.tenants import ensure_tenant
from memforest.store.trees import get_or_create_tree, insert_leaf

BASE = datetime(2023, 1, 10, 9, 0, tzinfo=UTC)
Hook = Callable[[SummaryInput], Awaitable[None]]


class CountingSummarizer:
    """ExtractiveSummarizer that records every input (and may run a hook before answering)."""

    name = "counting"

    def __init__(self, max_chars: int = 600, hook: Hook | None = None) -> None:
        self.inner = ExtractiveSummarizer(max_chars=max_chars)
        self.calls: list[SummaryInput] = []
        self.hook = hook

    async def summarize(self, item: SummaryInput, *, ledger: UsageLedger | None = None) -> str:
        self.calls.append(item)
        if self.hook is not None:
            await self.hook(item)
        return await self.inner.summarize(item, ledger=ledger)


async def _tree(
    db: Database, settings: Settings, n_turns: int, fanout: int, *, ext: str = "s1"
) -> tuple[uuid.UUID, int]:
    """A forest whose session tree has one leaf per turn (b = 1)."""
    settings.pipeline.cell_turns = 1
    settings.pipeline.fanout_session = fanout
    tenant_id = await ensure_tenant(db, "t")
    session = SessionInput(
        external_id=ext,
        time=BASE,
        turns=tuple(
            TurnInput(
                ("Alice", "Bob")[i % 2], f"Sentence {i} is about hobby number {i}.", time=BASE + timedelta(minutes=i)
            )
            for i in range(n_turns)
        ),
    )
    forest, _ = await accept_sessions(db, settings, tenant_id, "f", [session])
    return tenant_id, forest.forest_id


async def _refresh(
    db: Database, tenant_id: uuid.UUID, forest_id: int, summarizer: CountingSummarizer, embedder: CountingEmbedder,
    ledger: UsageLedger | None = None,
) -> RefreshStats:  # fmt: skip
    return await refresh_forest(
        db, tenant_id, forest_id, summarizer=summarizer, embedder=embedder, concurrency=4, ledger=ledger
    )


async def _internal_count(db: Database, tenant_id: uuid.UUID) -> Counter[int]:
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(conn, "SELECT level, count(*) AS n FROM nodes WHERE level > 0 GROUP BY level")
    return Counter({int(r["level"]): int(r["n"]) for r in rows})


async def _dirty(db: Database, tenant_id: uuid.UUID) -> int:
    async with db.tenant(tenant_id) as conn:
        return int(await scalar(conn, "SELECT count(*) FROM nodes WHERE dirty"))


async def _add_leaf(
    db: Database, tenant_id: uuid.UUID, forest_id: int, text: str, when: datetime, *, ext: str = "s1"
) -> None:
    """A new cell hung in the session tree in its own transaction (as a concurrent accept would)."""
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id)
        sid = await scalar(conn, "SELECT session_id FROM sessions WHERE external_id = :e", {"e": ext})
        cid = await scalar(
            conn,
            "INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, t_end) "
            "SELECT :t, :f, :s, max(seq) + 1, 0, 0, :x, :ts, :ts FROM cells WHERE session_id = :s RETURNING cell_id",
            {"t": tenant_id, "f": forest_id, "s": sid, "x": text, "ts": when},
        )
        tree = await get_or_create_tree(conn, tenant_id, forest_id, TreeKind.SESSION, ext, ext, 2)
        leaf = LeafSpec("cell", int(cid), when, when, int(cid), text)
        assert await insert_leaf(conn, tenant_id, tree, leaf, InsertStats()) is not None


async def _stale_summaries(db: Database, tenant_id: uuid.UUID, summarizer: ExtractiveSummarizer) -> list[int]:
    """Internal nodes whose stored summary differs from the summary of their current children."""
    stale = []
    async with db.tenant(tenant_id) as conn:
        nodes = await fetch_all(
            conn,
            "SELECT n.node_id, n.level, n.t_start, n.t_end, n.summary, t.kind, t.label FROM nodes n "
            "JOIN trees t ON t.tree_id = n.tree_id WHERE n.level > 0 ORDER BY n.node_id",
        )
        for n in nodes:
            kids = await fetch_all(
                conn,
                "SELECT summary FROM nodes WHERE parent_id = :p ORDER BY t_start, seq",
                {"p": n["node_id"]},
            )
            item = SummaryInput(
                tree_kind=TreeKind(n["kind"]), tree_label=str(n["label"]), t_start=n["t_start"], t_end=n["t_end"],
                child_texts=tuple(str(k["summary"]) for k in kids), level=int(n["level"]),
            )  # fmt: skip
            if summarizer.summarize_sync(item) != n["summary"]:
                stale.append(int(n["node_id"]))
    return stale


async def test_first_refresh_summarises_each_dirty_node_once_bottom_up(db: Database, settings: Settings) -> None:
    tenant_id, forest_id = await _tree(db, settings, 30, 4)
    internal = await _internal_count(db, tenant_id)
    assert max(internal) >= 3  # a few levels, so that order matters

    one_at_a_time = asyncio.Lock()  # so that the hook's own transactions never overlap

    async def no_open_tx_and_lower_levels_clean(item: SummaryInput) -> None:
        async with one_at_a_time, db.system() as conn:
            # (level 1 is summarised from the same read as the leaves, whose summaries a refresh
            # keeps: the leaves are written just before it; every other lower level is clean)
            lower_dirty = await scalar(
                conn,
                "SELECT count(*) FROM nodes WHERE dirty AND level < :l AND (level > 0 OR :l > 1)",
                {"l": item.level},
            )
            open_tx = await scalar(
                conn,
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'",
            )
        assert (lower_dirty, open_tx) == (0, 0), item.level

    summarizer = CountingSummarizer(hook=no_open_tx_and_lower_levels_clean)
    embedder = CountingEmbedder()
    ledger = UsageLedger()
    stats = await _refresh(db, tenant_id, forest_id, summarizer, embedder, ledger)

    levels = [c.level for c in summarizer.calls]
    assert levels == sorted(levels)  # bottom-up
    assert Counter(levels) == internal  # every internal node exactly once
    assert ledger.stages["summarize"].calls == sum(internal.values())
    total = 30 + sum(internal.values())
    assert stats.levels == list(range(max(internal) + 1))
    # Leaves keep the text stored at accept (unchanged summary) but had no embedding yet.
    assert (stats.nodes_refreshed, stats.embedded, stats.stale_writes) == (total, total, 0)
    assert stats.summaries_changed == sum(internal.values())
    assert len(embedder.texts) == total
    assert await _dirty(db, tenant_id) == 0
    assert await _stale_summaries(db, tenant_id, summarizer.inner) == []
    async with db.tenant(tenant_id) as conn:
        report = await check_forest(conn, tenant_id, forest_id)
        unembedded = await scalar(conn, "SELECT count(*) FROM nodes WHERE embedding IS NULL")
    assert report.violations == [] and unembedded == 0


async def test_batch_under_one_parent_refreshes_each_ancestor_once(db: Database, settings: Settings) -> None:
    tenant_id, forest_id = await _tree(db, settings, 12, 8)
    await _refresh(db, tenant_id, forest_id, CountingSummarizer(), CountingEmbedder())
    async with db.tenant(tenant_id) as conn:
        height = int(await scalar(conn, "SELECT height FROM trees"))
        first = await fetch_one(
            conn, "SELECT node_id, n_children FROM nodes WHERE level = 1 ORDER BY t_start, seq LIMIT 1"
        )
    assert first is not None and height == 2 and int(first["n_children"]) <= 5  # room for 3 more: no split
    # Three leaves under the same level-1 node, in one transaction.
    texts = [f"Zelda fed the tortoise Sheldon, part {i}." for i in range(3)]
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id)
        sid = await scalar(conn, "SELECT session_id FROM sessions")
        tree = await get_or_create_tree(conn, tenant_id, forest_id, TreeKind.SESSION, "s1", "s1", 8)
        stats = InsertStats()
        for i, text in enumerate(texts):
            when = BASE + timedelta(seconds=10 * (i + 1))  # between the first two leaves
            cid = await scalar(
                conn,
                "INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, "
                "t_end) VALUES (:t, :f, :s, :q, 0, 0, :x, :ts, :ts) RETURNING cell_id",
                {"t": tenant_id, "f": forest_id, "s": sid, "q": 100 + i, "x": text, "ts": when},
            )
            await insert_leaf(conn, tenant_id, tree, LeafSpec("cell", int(cid), when, when, int(cid), text), stats)
        dirty = await fetch_all(conn, "SELECT node_id, level FROM nodes WHERE dirty ORDER BY level")
    assert stats.marks == 3 * height and stats.splits == 0  # three marks per ancestor ...
    assert [int(d["level"]) for d in dirty] == [0, 0, 0, 1, 2]  # ... coalesced into one dirty flag each
    assert int(dirty[3]["node_id"]) == int(first["node_id"])

    summarizer, embedder = CountingSummarizer(), CountingEmbedder()
    refreshed = await _refresh(db, tenant_id, forest_id, summarizer, embedder)
    assert [c.level for c in summarizer.calls] == [1, 2]
    assert refreshed.nodes_refreshed == 5
    assert sorted(embedder.texts[:3]) == texts  # the new leaves, then the two changed ancestors
    assert len(embedder.texts) == 5 == refreshed.embedded
    assert refreshed.summaries_changed == 2  # the leaves' text was stored at insert
    assert await _dirty(db, tenant_id) == 0
    assert await _stale_summaries(db, tenant_id, summarizer.inner) == []


async def test_unchanged_summaries_are_not_re_embedded(db: Database, settings: Settings) -> None:
    tenant_id, forest_id = await _tree(db, settings, 20, 4)
    await _refresh(db, tenant_id, forest_id, CountingSummarizer(), CountingEmbedder())
    async with db.tenant(tenant_id) as conn:
        n_nodes = int(await scalar(conn, "SELECT count(*) FROM nodes"))
        before = await fetch_all(conn, "SELECT node_id, summary, embedding FROM nodes ORDER BY node_id")
        await execute(conn, "UPDATE nodes SET dirty = true, version = version + 1")  # everything dirty, no edits
    summarizer, embedder = CountingSummarizer(), CountingEmbedder()
    stats = await _refresh(db, tenant_id, forest_id, summarizer, embedder)
    assert stats.nodes_refreshed == n_nodes
    assert (stats.summaries_changed, stats.embedded, embedder.texts) == (0, 0, [])
    assert len(summarizer.calls) == n_nodes - 20
    async with db.tenant(tenant_id) as conn:
        after = await fetch_all(conn, "SELECT node_id, summary, embedding FROM nodes ORDER BY node_id")
    assert [(r["node_id"], r["summary"]) for r in after] == [(r["node_id"], r["summary"]) for r in before]
    assert all(
        as_vector(a["embedding"]).tolist() == as_vector(b["embedding"]).tolist()
        for a, b in zip(after, before, strict=True)
    )

    # One leaf's text changes: that leaf and whichever ancestors' summaries change are re-embedded, nothing else.
    async with db.tenant(tenant_id) as conn:
        leaf = await fetch_one(conn, "SELECT node_id, parent_id FROM nodes WHERE level = 0 ORDER BY node_id LIMIT 1")
        assert leaf is not None
        await execute(
            conn,
            "UPDATE nodes SET summary = 'Alice: Sentence zero was corrected to mention Sheldon.', dirty = true "
            "WHERE node_id = :n",
            {"n": leaf["node_id"]},
        )
    stats = await _refresh(db, tenant_id, forest_id, CountingSummarizer(), embedder)
    assert embedder.texts[0] == "Alice: Sentence zero was corrected to mention Sheldon."
    assert len(embedder.texts) == stats.summaries_changed == stats.embedded >= 1


async def test_insert_during_refresh_leaves_no_stale_ancestor(db: Database, settings: Settings) -> None:
    """A leaf committed while refresh is summarising level 1 must end up reflected in every ancestor
    when refresh returns (the node's stale write leaves it dirty; its parent must not be marked
    clean with a summary of the old child)."""
    tenant_id, forest_id = await _tree(db, settings, 8, 4)
    await _refresh(db, tenant_id, forest_id, CountingSummarizer(20_000), CountingEmbedder())
    async with db.tenant(tenant_id) as conn:
        assert int(await scalar(conn, "SELECT height FROM trees")) == 2
        first = await scalar(conn, "SELECT n_children FROM nodes WHERE level = 1 ORDER BY t_start, seq LIMIT 1")
    assert first == 2
    await _add_leaf(
        db, tenant_id, forest_id, "Alice: Zelda adopted a tortoise named Sheldon.", BASE + timedelta(seconds=20)
    )
    inserted: list[bool] = []

    async def concurrent_insert(item: SummaryInput) -> None:
        if item.level == 1 and not inserted:
            inserted.append(True)
            await _add_leaf(
                db, tenant_id, forest_id, "Bob: Yuki planted a ginkgo tree in Kyoto.", BASE + timedelta(seconds=40)
            )

    summarizer = CountingSummarizer(20_000, hook=concurrent_insert)
    first_pass = await _refresh(db, tenant_id, forest_id, summarizer, CountingEmbedder())
    assert inserted and first_pass.stale_writes >= 1
    assert await _dirty(db, tenant_id) == 0  # refresh repeats passes until nothing is dirty
    async with db.tenant(tenant_id) as conn:
        root = await scalar(conn, "SELECT summary FROM nodes WHERE node_id = (SELECT root_node_id FROM trees)")
    assert "Sheldon" in root
    assert "Yuki" in root, root
    assert await _stale_summaries(db, tenant_id, summarizer.inner) == []


async def _means_hold(db: Database, tenant_id: uuid.UUID) -> None:
    """Every inner node's vector is the unit-norm mean of its children's vectors."""
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(conn, "SELECT node_id, parent_id, level, embedding FROM nodes")
    vectors = {int(r["node_id"]): as_vector(r["embedding"]) for r in rows}
    kids: dict[int, list[int]] = {}
    for r in rows:
        if r["parent_id"] is not None:
            kids.setdefault(int(r["parent_id"]), []).append(int(r["node_id"]))
    assert kids and all(int(r["level"]) == 0 for r in rows if int(r["node_id"]) not in kids)
    for parent, children in kids.items():
        mean = np.mean([vectors[c] for c in children], axis=0)
        assert np.allclose(vectors[parent], mean / np.linalg.norm(mean), atol=1e-5), parent


async def _settle_cells(db: Database, tenant_id: uuid.UUID) -> None:
    """Mark every cell extracted, as its ingest job's commit would (here: no fact came from any)."""
    async with db.tenant(tenant_id) as conn:
        await execute(conn, "UPDATE cells SET extracted_at = now() WHERE extracted_at IS NULL")


async def test_children_node_vectors_embed_only_leaves(db: Database, settings: Settings) -> None:
    tenant_id, forest_id = await _tree(db, settings, 30, 4)
    internal = await _internal_count(db, tenant_id)
    summarizer, embedder = CountingSummarizer(), ChildrenCountingEmbedder()
    stats = await _refresh(db, tenant_id, forest_id, summarizer, embedder)
    # the model sees the 30 leaves' texts only; every inner node is still summarised and gets a vector
    assert len(embedder.texts) == 30 and all(t.startswith(("Alice:", "Bob:")) for t in embedder.texts)
    assert Counter(c.level for c in summarizer.calls) == internal
    assert stats.embedded == 30 + sum(internal.values())
    assert await _dirty(db, tenant_id) == 0
    assert await _stale_summaries(db, tenant_id, summarizer.inner) == []
    await _means_hold(db, tenant_id)

    # a new leaf: only its text goes to the model; its ancestors' means take it in
    await _add_leaf(db, tenant_id, forest_id, "Bob: Sentence 99 is about the new canoe.", BASE + timedelta(hours=2))
    embedder.texts.clear()
    await _refresh(db, tenant_id, forest_id, CountingSummarizer(), embedder)
    assert embedder.texts == ["Bob: Sentence 99 is about the new canoe."]
    await _means_hold(db, tenant_id)
    async with db.tenant(tenant_id) as conn:
        report = await check_forest(conn, tenant_id, forest_id)
    assert report.violations == []


async def _vectorless(db: Database, tenant_id: uuid.UUID) -> int:
    async with db.tenant(tenant_id) as conn:
        return int(await scalar(conn, "SELECT count(*) FROM nodes WHERE embedding IS NULL"))


async def _cell_texts(db: Database, tenant_id: uuid.UUID) -> list[str]:
    async with db.tenant(tenant_id) as conn:
        return sorted(str(r["text"]) for r in await fetch_all(conn, "SELECT text FROM cells"))


async def test_cell_vectors_from_facts_pass_over_cells_waiting_for_their_job(db: Database, settings: Settings) -> None:
    """With ``cell_vectors = facts``, a cell whose ingest job has not committed is passed over, and
    so is every node above it: they stay dirty and nothing reaches the model, while a settled cell
    beside them is refreshed. Once its job commits (no fact was drawn from these cells), a refresh
    embeds each cell's text once and takes the means."""
    tenant_id, forest_id = await _tree(db, settings, 6, 4)
    embedder = FactCellsCountingEmbedder()
    stats = await _refresh(db, tenant_id, forest_id, CountingSummarizer(), embedder)
    async with db.tenant(tenant_id) as conn:
        total = int(await scalar(conn, "SELECT count(*) FROM nodes"))
    assert embedder.texts == [] and stats.nodes_refreshed == 0 and stats.stale_writes == 0
    assert await _dirty(db, tenant_id) == total

    await _settle_cells(db, tenant_id)
    await _add_leaf(db, tenant_id, forest_id, "Bob: Sentence 99 is about the new canoe.", BASE + timedelta(hours=2))
    await _refresh(db, tenant_id, forest_id, CountingSummarizer(), embedder)
    texts = await _cell_texts(db, tenant_id)
    assert sorted(embedder.texts) == [t for t in texts if "canoe" not in t]
    async with db.tenant(tenant_id) as conn:
        dirty = await fetch_all(conn, "SELECT level, summary FROM nodes WHERE dirty ORDER BY level")
    assert dirty and "canoe" in str(dirty[0]["summary"]) and all(int(r["level"]) > 0 for r in dirty[1:])

    await _settle_cells(db, tenant_id)
    await _refresh(db, tenant_id, forest_id, CountingSummarizer(), embedder)
    assert sorted(embedder.texts) == texts
    assert await _vectorless(db, tenant_id) == 0 and await _dirty(db, tenant_id) == 0
    await _means_hold(db, tenant_id)


async def test_a_waiting_cell_holds_back_only_its_own_path(db: Database, settings: Settings) -> None:
    """With ``cell_vectors = facts``, a waiting cell keeps its ancestors dirty, but the rest of the
    forest is refreshed: another session's tree with a dirty root whose children are clean is
    summarised in the same refresh (the lowest level with a node ready to refresh is read, not the
    lowest dirty level). Once the waiting cell's job has failed, the cell is embedded from its text."""
    tenant_id, forest_id = await _tree(db, settings, 6, 4)
    other = SessionInput(
        external_id="s2",
        time=BASE + timedelta(days=1),
        turns=tuple(TurnInput("Carol", f"Line {i} is about garden bed {i}.", time=BASE + timedelta(days=1, minutes=i))
                    for i in range(6)),
    )  # fmt: skip
    await accept_sessions(db, settings, tenant_id, "f", [other])
    await _settle_cells(db, tenant_id)
    embedder = FactCellsCountingEmbedder()
    await _refresh(db, tenant_id, forest_id, CountingSummarizer(), embedder)
    assert await _dirty(db, tenant_id) == 0
    async with db.tenant(tenant_id) as conn:
        root = "SELECT t.root_node_id FROM trees t WHERE t.key = :k"
        await execute(conn, f"UPDATE nodes SET dirty = true WHERE node_id = ({root})", {"k": "s2"})
    await _add_leaf(db, tenant_id, forest_id, "Bob: Sentence 99 is about the new canoe.", BASE + timedelta(hours=2))
    await _refresh(db, tenant_id, forest_id, CountingSummarizer(), embedder)
    async with db.tenant(tenant_id) as conn:
        dirty = await fetch_all(
            conn,
            "SELECT t.key, n.level FROM nodes n JOIN trees t ON t.tree_id = n.tree_id WHERE n.dirty ORDER BY n.level",
        )
    assert dirty and {r["key"] for r in dirty} == {"s1"} and int(dirty[0]["level"]) == 0  # s2's root refreshed

    async with db.tenant(tenant_id) as conn:  # s1's ingest job is gone: its cells wait no longer
        await execute(conn, "UPDATE jobs SET state = 'failed', finished_at = now() WHERE kind = 'ingest'")
    embedder.texts.clear()
    await _refresh(db, tenant_id, forest_id, CountingSummarizer(), embedder)
    assert embedder.texts == ["Bob: Sentence 99 is about the new canoe."]
    assert await _vectorless(db, tenant_id) == 0 and await _dirty(db, tenant_id) == 0
    await _means_hold(db, tenant_id)
