"""A relative the user names by the relation alone ("my aunt") is the subject of the user's
statements that name them so, though no entity links them (issue 48 item 2, ADR 0084): "How long
did my aunt live in Marrowgate?" is planned for the aunt, and the plan's answer is the statement
naming her in Marrowgate, not the one naming her in Fennick. The question names Marrowgate, so
recall alone ranks that statement first: what pins the rule is the plan (its subject and the
answer role it gives the statement). The statements, the question shapes, names and places are
mine, none a benchmark template's."""

from __future__ import annotations

from datetime import UTC, datetime

from support.reads import asked, told_forest

from memforest.db.engine import Database
from memforest.retrieval import QueryRequest
from memforest.settings import Settings

SAID = [
    ("r1", datetime(2023, 3, 4, 12, tzinfo=UTC), "My aunt grows leeks on her allotment in Marrowgate."),
    ("r2", datetime(2023, 9, 2, 12, tzinfo=UTC), "My aunt Sorrel keeps bees behind her cottage in Kelsby."),
    ("r3", datetime(2024, 1, 8, 12, tzinfo=UTC), "Wisp, my whippet, ate a whole baguette off the table."),
    ("r4", datetime(2024, 2, 10, 12, tzinfo=UTC), "My aunt grumbles that parking in Fennick costs a fortune."),
]


async def test_a_statement_naming_a_relation_is_the_relatives(db: Database, settings: Settings) -> None:
    t = await told_forest(db, settings, "relation-said", "aunt", SAID, "Tobiah", "I see.")
    questions = ("How long did my aunt live in Marrowgate?", "For how many years did Marrowgate stay my aunt's town?")
    answers = [
        await asked(db, settings, t, QueryRequest("aunt", q, mode="emb", top_k=5, speaker="Tobiah")) for q in questions
    ]
    for res in answers:
        assert res.temporal == "how_long Tobiah's aunt.residence", res.temporal
        answered = [e.turn_ids[0] for e in res.evidence if e.temporal_role == "answer"]
        assert answered == ["r1:1"], [(e.text, e.temporal_role) for e in res.evidence]
