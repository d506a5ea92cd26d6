"""A person the write side filed no state for (ADR 0100): the recall pool's statements naming them,
filed under no one, whoever said them, are the loose plan's candidates, so a "now" question about
them pins the newest that shares the question's words. Sentences and names of my own."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import text as sqltext

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval.question import Question
from memforest.retrieval.temporal.plan import ANSWER
from memforest.retrieval.temporal.resolve import _loose, _Scope
from memforest.settings import Settings
from memforest.store.temporal import unfiled_by_id
from memforest.store.tenants import ensure_tenant, get_forest

SAID = [
    # (the dinghy's own berth: "Quincy keeps his dinghy at X" would be a place he uses, a state filed for him)
    ("u1", datetime(2023, 1, 14, 18, tzinfo=UTC), "Quincy's sailing dinghy sits at Brackwater Marina."),
    ("u2", datetime(2023, 3, 2, 18, tzinfo=UTC), "Quincy and I ate crab rolls on the harbour wall."),
    ("u3", datetime(2023, 8, 20, 18, tzinfo=UTC), "Quincy lent me a rain jacket for the ferry."),
    ("u4", datetime(2024, 2, 9, 18, tzinfo=UTC), "Quincy's sailing dinghy is moored at Tollgate Quay over the winter."),
    ("u5", datetime(2024, 4, 1, 18, tzinfo=UTC), "Baked a lemon tart with Quincy, it collapsed."),
    ("u6", datetime(2024, 4, 20, 18, tzinfo=UTC), "Quincy told a long story about a heron."),
    ("u7", datetime(2024, 5, 3, 18, tzinfo=UTC), "Quincy fixed the squeaky gate for me."),
]


async def _forest(db: Database, settings: Settings) -> tuple[object, int]:
    t = await ensure_tenant(db, "unfiled-pool")
    backends = build_backends(settings)
    sessions = [
        SessionInput(
            external_id=sid,
            time=when,
            turns=(
                TurnInput(speaker="Odile", text=s, role="user", external_id=f"{sid}:1"),
                TurnInput(speaker="assistant", text="Noted.", role="assistant", external_id=f"{sid}:2"),
            ),
        )
        for sid, when, s in SAID
    ]
    try:
        await ingest_sessions(db, settings, backends, t, "pool", sessions)
        async with db.tenant(t) as conn:
            forest_id = (await get_forest(conn, t, "pool")).forest_id
    finally:
        await backends.aclose()
    return t, forest_id


async def test_the_pool_statements_naming_a_person_filed_under_no_one(db: Database, settings: Settings) -> None:
    t, forest_id = await _forest(db, settings)
    async with db.tenant(t) as conn:  # type: ignore[arg-type]
        rows = (
            await conn.execute(
                sqltext("SELECT fact_id, subject, text FROM facts WHERE forest_id = :f"), {"f": forest_id}
            )
        ).all()
        ids = [int(r[0]) for r in rows]
        assert not any(r[1] and str(r[1]).casefold() == "quincy" for r in rows)  # no state is filed for him
        said = await unfiled_by_id(conn, t, forest_id, ids, ["Quincy"], None)  # type: ignore[arg-type]
        early = await unfiled_by_id(conn, t, forest_id, ids, ["quincy"], datetime(2023, 6, 1, tzinfo=UTC))  # type: ignore[arg-type]
        none = await unfiled_by_id(conn, t, forest_id, ids, ["Marguerite"], None)  # type: ignore[arg-type]
    assert len(said) == len(SAID) and all("Quincy" in str(r["text"]) for r in said)
    assert len(early) == 2  # (as of a time: only the statements made by then)
    assert none == []


async def test_the_loose_plan_of_such_a_person_pins_the_newest_sharing_the_question_words(
    db: Database, settings: Settings
) -> None:
    t, forest_id = await _forest(db, settings)
    tq = Question.parse(
        "Where is Quincy's sailing dinghy now?", now=datetime(2025, 1, 1, tzinfo=UTC), has_as_of=False
    ).temporal
    async with db.tenant(t) as conn:  # type: ignore[arg-type]
        facts = (
            await conn.execute(sqltext("SELECT fact_id, text FROM facts WHERE forest_id = :f"), {"f": forest_id})
        ).all()
        hints = {int(r[0]): 0.5 for r in facts}  # (the recall pool: every fact)
        scope = _Scope(conn, t, forest_id, "Quincy", None, hints)  # type: ignore[arg-type]
        plan = await _loose(scope, tq, None)
    assert plan is not None
    answer = next(fid for fid, role in plan.roles.items() if role == ANSWER)
    assert "Tollgate Quay" in next(str(r[1]) for r in facts if int(r[0]) == answer)
