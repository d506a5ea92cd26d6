"""A relative the user names only by the relation ("my grandmother", never by a name) is planned
for: "When did my grandmother move?" (no value named: the past tense asks for the latest move) and
"When did my grandmother get the Pennock Tourer?" (the value is the only name besides the subject,
and the question's words name no attribute) both answer with the statement that started the state
(issue 48 item 2). Statements, question shapes, names and places are mine, none a benchmark
template's."""

from __future__ import annotations

from datetime import UTC, datetime

from support.reads import asked, told_forest

from memforest.db.engine import Database
from memforest.retrieval import QueryRequest
from memforest.settings import Settings

SAID = [
    ("g1", datetime(2023, 1, 15, 12, tzinfo=UTC), "My grandmother moved to Aldwick."),
    ("g2", datetime(2023, 6, 10, 12, tzinfo=UTC), "My grandmother bought a Corvane hatchback."),
    ("g3", datetime(2024, 5, 20, 12, tzinfo=UTC), "My grandmother relocated to Quenby."),
    ("g4", datetime(2024, 7, 2, 12, tzinfo=UTC), "My grandmother traded her Corvane for a Pennock Tourer."),
]
NOW = datetime(2025, 1, 20, 12, tzinfo=UTC)
ASKED = [
    ("When did my grandmother move?", "when Ottilie's grandmother.residence", "g3:1"),
    ("When did my grandmother get the Pennock Tourer?", "when Ottilie's grandmother.vehicle", "g4:1"),
    ("Where did my grandmother live in March 2024?", "as_of Ottilie's grandmother.residence", "g1:1"),
    ("What did my grandmother drive in September 2023?", "as_of Ottilie's grandmother.vehicle", "g2:1"),
]


async def test_a_relative_named_only_by_relation_is_planned(db: Database, settings: Settings) -> None:
    t = await told_forest(db, settings, "unnamed-relative", "gran", SAID, "Ottilie")
    answers = [
        await asked(db, settings, t, QueryRequest("gran", q, mode="emb", top_k=5, speaker="Ottilie", now=NOW))
        for q, _, _ in ASKED
    ]
    got = [(res.temporal, [e.turn_ids[0] for e in res.evidence if e.temporal_role == "answer"]) for res in answers]
    assert got == [(plan, [turn]) for _, plan, turn in ASKED]
