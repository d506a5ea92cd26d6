"""A speaker's statement with no slot that names another person, no speaker, among its entities
("..., Wenna's arms are done") is in that person's fact pool (``subject_facts``, ``facts_by_id``,
through the entity links: migration 0028, ADR 0072) as well as the speaker's; a slot fact of the
speaker's never is (issue 48 item 2). Names of my own."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import text as sqltext

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.settings import Settings
from memforest.store.temporal import facts_by_id, subject_facts
from memforest.store.tenants import ensure_tenant, get_forest

SAID = [
    ("p1", datetime(2024, 2, 3, 12, tzinfo=UTC), "My friend Wenna rows for Brindle Paddlers now."),
    (
        "p2",
        datetime(2024, 5, 9, 12, tzinfo=UTC),
        "Raced the river sprint with Weirgate Paddlers, Wenna's arms are done.",
    ),
    ("p3", datetime(2024, 7, 1, 12, tzinfo=UTC), "I moved to Harrowby with Wenna."),
]


async def test_a_statement_naming_another_person_is_in_their_pool(db: Database, settings: Settings) -> None:
    t = await ensure_tenant(db, "named-pool")
    backends = build_backends(settings)
    sessions = [
        SessionInput(external_id=sid, time=when, turns=(TurnInput(speaker="Tobiah", text=s, external_id=f"{sid}:1"),))
        for sid, when, s in SAID
    ]
    try:
        await ingest_sessions(db, settings, backends, t, "pool", sessions)
    finally:
        await backends.aclose()
    async with db.tenant(t) as conn:
        forest_id = (await get_forest(conn, t, "pool")).forest_id
        ids = [
            int(r[0])
            for r in (
                await conn.execute(sqltext("SELECT fact_id FROM facts WHERE forest_id = :f"), {"f": forest_id})
            ).all()
        ]
        hers = {str(r["text"]) for r in await subject_facts(conn, t, forest_id, "Wenna", None)}
        by_id = {str(r["text"]) for r in await facts_by_id(conn, t, forest_id, "Wenna", ids, None)}
        his = {str(r["text"]) for r in await subject_facts(conn, t, forest_id, "Tobiah", None)}
    sprint = next(s for s in his if "Weirgate" in s)
    assert sprint in hers and sprint in by_id
    assert not any("Harrowby" in s for s in hers | by_id)  # the speaker's slot fact stays his alone
