"""An assistant's turns hold no one's state (ADR 0128): its advice and restatements ("Practise the
solo daily", "your new physio is Dr. Vance then") stay facts, filed under no one, while the user's
own sentence in the same session still files theirs. Sentences and names of my own."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import text as sqltext

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.settings import Settings
from memforest.store.tenants import ensure_tenant

AT = datetime(2024, 3, 5, 18, tzinfo=UTC)


async def test_only_the_users_turn_files_a_state(db: Database, settings: Settings) -> None:
    t = await ensure_tenant(db, "assistant-roles")
    turns = (
        TurnInput(
            speaker="Ysolde", text="My physio is Dr. Vance at Larkhill Clinic now.", role="user", external_id="t1"
        ),
        TurnInput(
            speaker="assistant", text="So your new physio is Dr. Marsh then.", role="assistant", external_id="t2"
        ),
        TurnInput(
            speaker="assistant", text="Practise the solo daily with slow breaths.", role="assistant", external_id="t3"
        ),
    )
    backends = build_backends(settings)
    try:
        await ingest_sessions(
            db, settings, backends, t, "roles", [SessionInput(external_id="s1", time=AT, turns=turns)]
        )
    finally:
        await backends.aclose()
    async with db.tenant(t) as conn:
        rows = (
            (
                await conn.execute(
                    sqltext("SELECT speaker, attribute, value FROM facts WHERE tenant_id = :t ORDER BY fact_id"),
                    {"t": t},
                )
            )
            .mappings()
            .all()
        )
    filed = [(r["speaker"], r["attribute"], r["value"]) for r in rows if r["attribute"] is not None]
    assert ("Ysolde", "physio", "Dr. Vance") in filed
    assert all(speaker == "Ysolde" for speaker, _, _ in filed), filed
    assert any(r["speaker"] == "assistant" for r in rows)  # (its words stay facts, filed under no one)
