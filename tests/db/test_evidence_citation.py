"""A fact restated in several turns cites the turns said in the question's time window, else the
latest one, and says how many other source turns it has (``other_turns``)."""

from __future__ import annotations

from datetime import UTC, datetime

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.settings import Settings
from memforest.store.tenants import ensure_tenant

SAID = [
    ("s1", datetime(2021, 3, 1, 12, tzinfo=UTC), "I play the cello in a small orchestra."),
    ("s2", datetime(2022, 3, 1, 12, tzinfo=UTC), "I play the cello in a small orchestra."),
    ("s3", datetime(2023, 3, 1, 12, tzinfo=UTC), "I play the cello in a small orchestra."),
]


async def test_restated_fact_cites_the_window_else_the_latest(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "citation")
    sessions = [
        SessionInput(sid, when, (TurnInput(speaker="Bob", text=text, external_id=f"{sid}:1"),))
        for sid, when, text in SAID
    ]
    backends = build_backends(settings)
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "bob", sessions)

        async def cello(q: str, **kw: object) -> tuple[tuple[str, ...], int, dict[str, object]]:
            r = await query(db, settings, backends, tenant_id, QueryRequest("bob", q, **kw))  # type: ignore[arg-type]
            e = next(e for e in r.evidence if e.kind == "fact" and "cello" in e.text)
            return e.turn_ids, e.other_turns, e.to_json()

        turns, others, js = await cello("What instrument does Bob play?")
        assert turns == ("s3:1",) and others == 2 and js["other_turns"] == 2
        turns, others, _ = await cello("What instrument did Bob play in 2022?")
        assert turns == ("s2:1",) and others == 2
        turns, others, _ = await cello("What instrument does Bob play?", as_of=datetime(2022, 6, 1, tzinfo=UTC))
        assert turns == ("s1:1", "s2:1") and others == 1
        turns, others, _ = await cello("When did Bob first play the cello?")
        assert turns == ("s1:1",) and others == 2
    finally:
        await backends.aclose()
