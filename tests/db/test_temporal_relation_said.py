"""A relative the user names by the relation alone ("my aunt") is the subject of the user's
statements that name them so, though no entity links them (issue 48 item 2, ADR 0084): "How long
was X my aunt's home?" finds "..., my aunt walks everywhere" in X. Sentences and names of my own."""

from __future__ import annotations

from datetime import UTC, datetime

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.settings import Settings
from memforest.store.tenants import ensure_tenant
from tests.support.sessions import said_to_assistant

SAID = [
    ("r1", datetime(2023, 3, 4, 12, tzinfo=UTC), "The trams in Marrowgate are always late, my aunt walks everywhere."),
    ("r2", datetime(2023, 9, 2, 12, tzinfo=UTC), "My aunt Sorrel moved to Kelsby, the flat has a view of the docks."),
    ("r3", datetime(2024, 1, 8, 12, tzinfo=UTC), "I adopted a greyhound called Wisp."),
]


async def test_a_statement_naming_a_relation_is_the_relatives(db: Database, settings: Settings) -> None:
    t = await ensure_tenant(db, "relation-said")
    backends = build_backends(settings)
    asked = QueryRequest("aunt", "How long was Marrowgate my aunt's home city?", mode="emb", top_k=5, speaker="Tobiah")
    try:
        await ingest_sessions(db, settings, backends, t, "aunt", said_to_assistant(SAID, "Tobiah", "I see."))
        res = await query(db, settings, backends, t, asked)
    finally:
        await backends.aclose()
    assert res.temporal is not None and "Tobiah's aunt" in res.temporal
    assert res.evidence[0].turn_ids[0] == "r1:1", [e.text for e in res.evidence]
