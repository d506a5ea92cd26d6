"""The commit's duplicate lookup ranked in the process (``nearest_stored``) over a kept view of the
forest's live vectors answers as the database's lookup (``lookup_many``) does, after every kind of
change another transaction can make: new facts, a retraction, a deletion, a vector rewritten, a
writer that rolled back after the view read its facts; and it reads only what changed."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest
from support import session_input
from support.reference.canonical import canonicalize

from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.domain import Candidate, FactKind
from memforest.pipeline.canonical import SourceRef
from memforest.pipeline.service import accept_sessions
from memforest.pipeline.stored_nearest import ForestViews, nearest_stored
from memforest.settings import Settings
from memforest.store.facts_batch import lookup_many
from memforest.store.live_facts import XID_WINDOW, Snapshot
from memforest.store.sql import Conn, execute, scalar
from memforest.store.tenants import ensure_tenant

EMBEDDER = HashedEmbedder(64)
T0 = datetime(2024, 2, 1, 9, 0, tzinfo=UTC)
PLACES = ["harbour", "orchard", "library", "bakery", "foundry", "meadow", "station", "gallery", "quarry", "chapel"]
DOINGS = ["walked past the", "painted the", "sketched the", "photographed the", "cleaned the", "visited the"]
QUERIES = [f"Ines {d} {p} again" for d in DOINGS[:3] for p in PLACES[:6]] + ["nothing in common whatsoever"]


class Forest:
    """A forest of one session, facts stored one at a time (the reference canonicaliser)."""

    def __init__(self, db: Database, tenant_id: uuid.UUID, forest_id: int, source: SourceRef) -> None:
        self.db, self.tenant_id, self.forest_id, self.source = db, tenant_id, forest_id, source
        self.n = 0

    async def store(self, conn: Conn, text: str, near: float = 0.999) -> int:
        self.n += 1
        cand = Candidate(text=text, kind=FactKind.EVENT, source_turn_seqs=(0,), valid_from=T0 + timedelta(hours=self.n))
        emb = EMBEDDER.embed_sync([text])[0]
        outcome = await canonicalize(conn, self.tenant_id, self.forest_id, cand, emb, self.source, near_threshold=near)
        return outcome.fact_id

    async def answers(self, conn: Conn, views: ForestViews) -> tuple[list[Any], list[Any]]:
        """(in the process, by the database) for QUERIES and one exact text, comparable."""
        texts = [*QUERIES, f"Ines {DOINGS[0]} {PLACES[0]}."]
        hashes = [f"h{i}" for i in range(len(QUERIES))] + [await self.hash_of(conn, 1)]
        embs = [EMBEDDER.embed_sync([t])[0] for t in texts] + [np.zeros(64, dtype=np.float32)]
        hashes.append("h-zero")
        mine = await nearest_stored(conn, self.tenant_id, self.forest_id, hashes, embs, views)
        theirs = await lookup_many(conn, self.tenant_id, self.forest_id, hashes, embs)
        return _comparable(mine), _comparable(theirs)

    async def hash_of(self, conn: Conn, nth: int) -> str:
        return str(await scalar(conn, "SELECT text_hash FROM facts ORDER BY fact_id OFFSET :k LIMIT 1", {"k": nth - 1}))


def _comparable(rows: list[dict[str, Any]]) -> list[Any]:
    """Per row: candidate, exact id, fact id, the cosine (float32 sums: to within 1e-6), the columns read."""
    keys = ("kind", "speaker", "valid_from", "subject", "attribute", "value")
    return [
        (r["i"], r["exact_id"], r["fact_id"], None if r["sim"] is None else pytest.approx(float(r["sim"]), abs=1e-6),
         tuple(r[k] for k in keys))
        for r in rows
    ]  # fmt: skip


@pytest.fixture
async def forest(db: Database, settings: Settings) -> Forest:
    tenant_id = await ensure_tenant(db, "views")
    f, (res,) = await accept_sessions(db, settings, tenant_id, "f", [session_input("s1", T0, ["a turn"])])
    async with db.tenant(tenant_id) as conn:
        turn_id = int(await scalar(conn, "SELECT turn_id FROM turns"))
        cell_id = int(await scalar(conn, "SELECT cell_id FROM cells"))
    forest = Forest(db, tenant_id, f.forest_id, SourceRef(res.session_id, cell_id, (turn_id,)))
    async with db.tenant(tenant_id) as conn:
        for d in DOINGS[:4]:
            for p in PLACES[:5]:
                await forest.store(conn, f"Ines {d} {p}.")
    return forest


async def _same(forest: Forest, views: ForestViews) -> None:
    async with forest.db.tenant(forest.tenant_id) as conn:
        mine, theirs = await forest.answers(conn, views)
    assert mine == theirs


async def test_the_first_read_and_each_change_answer_as_the_database(forest: Forest) -> None:
    views = ForestViews()
    key = (forest.tenant_id, forest.forest_id)
    await _same(forest, views)
    view = views.peek(key)
    assert view is not None and len(view.rows) == 20
    async with forest.db.tenant(forest.tenant_id) as conn:  # new facts, committed elsewhere
        for p in PLACES[5:]:
            await forest.store(conn, f"Ines {DOINGS[4]} {p}.")
    await _same(forest, views)
    assert views.peek(key) is view and len(view.rows) == 25  # brought up to date, not read again
    p = {"t": forest.tenant_id}
    async with forest.db.tenant(forest.tenant_id) as conn:  # the nearest fact of the first query retracted
        await execute(conn, "UPDATE facts SET retracted_at = now() WHERE tenant_id = :t AND text = :x",
                      p | {"x": f"Ines {DOINGS[0]} {PLACES[0]}."})  # fmt: skip
    await _same(forest, views)
    assert len(view.rows) == 24
    async with forest.db.tenant(forest.tenant_id) as conn:  # a vector rewritten in place
        fid = await scalar(conn, "SELECT fact_id FROM facts WHERE text = :x", {"x": f"Ines {DOINGS[1]} {PLACES[1]}."})
        other = EMBEDDER.embed_sync([QUERIES[-1]])[0]
        await execute(conn, "UPDATE facts SET embedding = :e WHERE tenant_id = :t AND fact_id = :f",
                      p | {"e": other, "f": fid})  # fmt: skip
    await _same(forest, views)
    async with forest.db.tenant(forest.tenant_id) as conn:  # a fact deleted: the view is read again
        await execute(conn, "DELETE FROM facts WHERE tenant_id = :t AND text = :x",
                      p | {"x": f"Ines {DOINGS[2]} {PLACES[2]}."})  # fmt: skip
    await _same(forest, views)
    assert len(views.peek(key).rows) == 23  # type: ignore[union-attr]


async def test_a_writers_own_facts_are_never_kept_and_its_rollback_leaves_no_trace(forest: Forest) -> None:
    views = ForestViews()
    key = (forest.tenant_id, forest.forest_id)
    p = {"t": forest.tenant_id}

    class Undo(Exception):
        pass

    with pytest.raises(Undo):
        async with forest.db.tenant(forest.tenant_id) as conn:
            await forest.answers(conn, views)
            assert views.peek(key) is not None
            await execute(conn, "UPDATE facts SET retracted_at = now() WHERE tenant_id = :t AND text = :x",
                          p | {"x": f"Ines {DOINGS[0]} {PLACES[0]}."})  # fmt: skip
            await forest.store(conn, "Ines repaired the lighthouse lamp.")  # (the count is even again)
            other = EMBEDDER.embed_sync([QUERIES[-1]])[0]
            await execute(conn, "UPDATE facts SET embedding = :e WHERE tenant_id = :t AND text = :x",
                          p | {"e": other, "x": f"Ines {DOINGS[1]} {PLACES[1]}."})  # fmt: skip
            mine, theirs = await forest.answers(conn, views)  # the writer's own changes, seen by both
            assert mine == theirs and views.peek(key) is None  # served, not kept
            raise Undo
    await _same(forest, views)
    assert len(views.peek(key).rows) == 20  # type: ignore[union-attr]


async def test_a_writers_changes_after_the_view_read_are_brought_in(forest: Forest) -> None:
    views = ForestViews()
    key = (forest.tenant_id, forest.forest_id)
    await _same(forest, views)
    async with forest.db.tenant(forest.tenant_id) as conn:
        await scalar(conn, "SELECT pg_current_xact_id()")  # (a writer: it has its id before the read)
        async with forest.db.tenant(forest.tenant_id) as other:  # a younger writer ends first
            await scalar(other, "SELECT pg_current_xact_id()")
        await forest.answers(conn, views)
        assert views.peek(key) is not None
        await execute(conn, "UPDATE facts SET embedding = :e WHERE text = :x",
                      {"e": EMBEDDER.embed_sync([QUERIES[-1]])[0], "x": f"Ines {DOINGS[0]} {PLACES[3]}."})  # fmt: skip
    await _same(forest, views)
    assert len(views.peek(key).rows) == 20  # type: ignore[union-attr]


async def test_ties_go_to_the_older_fact(forest: Forest) -> None:
    twin = "Ines walked past the harbour."
    async with forest.db.tenant(forest.tenant_id) as conn:
        older = await scalar(conn, "SELECT fact_id FROM facts WHERE text = :x", {"x": twin})
        await execute(conn, "UPDATE facts SET text_hash = 'moved' WHERE fact_id = :f", {"f": older})
        newer = await forest.store(conn, twin, near=1.5)  # the same vector again (nothing is near enough)
    emb = EMBEDDER.embed_sync([twin])[0]
    async with forest.db.tenant(forest.tenant_id) as conn:
        rows = await nearest_stored(conn, forest.tenant_id, forest.forest_id, ["none"], [emb], ForestViews())
    assert [r["fact_id"] for r in rows[:2]] == [older, newer]


async def test_a_forest_whose_view_is_over_its_share_of_the_budget_is_left_to_the_database(forest: Forest) -> None:
    views = ForestViews(bytes_max=1)
    key = (forest.tenant_id, forest.forest_id)
    async with forest.db.tenant(forest.tenant_id) as conn:
        mine, theirs = await forest.answers(conn, views)
    assert mine == theirs and views.peek(key) is None and views.ranked_elsewhere(key)


async def test_a_forest_known_to_have_its_own_indexes_is_ranked_by_the_database(forest: Forest) -> None:
    views = ForestViews()
    key = (forest.tenant_id, forest.forest_id)
    views.send_elsewhere(key)
    emb = EMBEDDER.embed_sync([QUERIES[0]])[0]
    async with forest.db.tenant(forest.tenant_id) as conn:
        mine = await nearest_stored(conn, forest.tenant_id, forest.forest_id, ["none"], [emb], views)
        theirs = await lookup_many(conn, forest.tenant_id, forest.forest_id, ["none"], [emb])
    assert mine == theirs and len(mine) == 3 and views.peek(key) is None


async def test_a_view_too_many_transactions_old_is_read_whole(forest: Forest) -> None:
    views = ForestViews()
    key = (forest.tenant_id, forest.forest_id)
    await _same(forest, views)
    view = views.take(key)
    assert view is not None
    view.snapshot = Snapshot(view.snapshot.xmax - XID_WINDOW, ())  # (as if idle for 2^30 transactions)
    view.rows.pop(min(view.rows))  # (what bringing it up to date could not see)
    views.keep(key, view)
    await _same(forest, views)
    assert views.peek(key) is not view and len(views.peek(key).rows) == 20  # type: ignore[union-attr]
