"""The temporal walk's cost on a subject with no state of the asked kind: the walk reads node after
node back through the whole entity tree, and after each read tells the states among every fact read
so far again, so each fact's text is asked for its mood once per later read. The mood of a text is
worked out once for the question (``temporal.memo``), so the query's regex work grows with the
facts read, not with the facts times the reads, and nothing of the texts is kept past the question.
The walk's database statements are counted too: a step among the bottom nodes of one parent reads
all of them still ahead at once, with their facts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.retrieval.temporal import resolve
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.resolve import temporal_plan
from memforest.settings import Settings
from memforest.store import temporal as store
from memforest.store.tenants import ensure_tenant, get_forest
from memforest.text import mood

_THINGS = ("the garden", "a sourdough loaf", "the bike", "a chess puzzle", "the attic", "a kite")
_VERBS = ("tidied", "photographed", "repaired", "sketched", "measured")
N = 120


def _sessions() -> list[SessionInput]:
    start = datetime(2020, 1, 1, 12, tzinfo=UTC)
    return [
        SessionInput(
            external_id=f"s{i}",
            time=start + timedelta(days=i),
            turns=(
                TurnInput(
                    speaker="Bob",
                    text=f"I {_VERBS[i % len(_VERBS)]} {_THINGS[i % len(_THINGS)]} on day {i} of the season {i // 30}.",
                    external_id=f"s{i}:1",
                ),
            ),
        )
        for i in range(N)
    ]


class _Counting:
    """The set-phrase pattern of ``text.mood``, counting its ``sub`` calls: one per mood worked out."""

    def __init__(self, pattern: Any) -> None:
        self.pattern = pattern
        self.calls = 0

    def sub(self, *args: Any) -> Any:
        self.calls += 1
        return self.pattern.sub(*args)


class _Statements:
    """Counts the temporal store's reads (one database statement each)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        for name in ("children", "children_of", "facts_by_id", "facts_naming", "entity_root", "subject_facts"):
            monkeypatch.setattr(store, name, self._counted(getattr(store, name)))

    def _counted(self, fn: Any) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return await fn(*args, **kwargs)

        return call


async def test_walk_through_a_subject_works_out_each_mood_once(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    tenant_id = await ensure_tenant(db, "walk-cost")
    backends = build_backends(settings)
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "bob", _sessions())
        q = "What is Bob's identity?"  # a kind of which Bob states nothing: the walk reads every node
        async with db.tenant(tenant_id) as conn:
            forest_id = (await get_forest(conn, tenant_id, "bob")).forest_id
            counting = _Counting(mood._SET_PHRASES)
            monkeypatch.setattr(mood, "_SET_PHRASES", counting)
            statements = _Statements(monkeypatch)
            plan = await temporal_plan(conn, tenant_id, forest_id, parse_question(q), None, None)
            walk_calls, walk_statements = counting.calls, statements.calls
            counting.calls = 0
        answer = await query(db, settings, backends, tenant_id, QueryRequest("bob", q))
        query_calls = counting.calls
        monkeypatch.setattr(resolve, "QUERY_READS", 4)  # a question's node reads, all its walks together
        async with db.tenant(tenant_id) as conn:
            statements.calls = 0
            capped = await temporal_plan(conn, tenant_id, forest_id, parse_question(q), None, None)
            capped_statements = statements.calls
        capped_answer = await query(db, settings, backends, tenant_id, QueryRequest("bob", q))
    finally:
        await backends.aclose()
    # the walk asked for the moods of (up to) every fact of Bob's; each is worked out once
    assert plan is None and 0 < walk_calls <= N + 10, walk_calls
    # it moved through every bottom node of Bob's tree; a statement for each node read and one for
    # each bottom node's facts took about N / 2; the nodes of a level still ahead are read together,
    # with their facts, so the bottom nodes of one parent take two
    assert walk_statements <= N // 4, walk_statements
    # asked again (the whole query), each mood is worked out once again: none was kept past the
    # plan; and the answer is served
    assert 0 < query_calls <= N + 10, query_calls
    assert answer.evidence
    # past the question's node reads the walk stops: the root, the facts naming the kind, the
    # descent (its reads count) and the facts read so far, then the plan from what it has
    assert capped is None and capped_statements <= 8, capped_statements
    assert [e.source_id for e in capped_answer.evidence] == [e.source_id for e in answer.evidence]
