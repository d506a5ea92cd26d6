"""A temporal question typed all in lower case (issue #48): its names are read from the facts the
query recalls, so it finds the same states as the question with its capitals. Sentences written
for this test (none comes from ``bench.temporal_v2``)."""

from __future__ import annotations

from support.reads import first_turn, told_forest
from support.sessions import noon_utc

from memforest.db.engine import Database
from memforest.retrieval import QueryRequest
from memforest.settings import Settings

# (session, time, what Wynfrith says); the assistant answers with chatter
WYNFRITH = [
    ("w1", noon_utc(2021, 3, 2), "I started at Quillfeather Cartography this week, drawing harbour charts."),
    ("w2", noon_utc(2021, 8, 19), "My friend Osgar moved to Vessenholm for a job at the ferry yard."),
    ("w3", noon_utc(2022, 4, 7), "I left Quillfeather Cartography and started at Tamsby Surveying on Monday."),
    ("w4", noon_utc(2023, 2, 11), "Osgar moved again, he lives in Korrowby now, near his sister."),
]
NOW = noon_utc(2024, 1, 15)


async def test_a_question_in_lower_case_finds_the_states_of_the_names_it_types(
    db: Database, settings: Settings
) -> None:
    t = await told_forest(db, settings, "lower", "wynfrith", WYNFRITH, "Wynfrith", "Good to know.")

    async def first(q: str) -> str:
        return await first_turn(db, settings, t, QueryRequest("wynfrith", q, top_k=5, speaker="Wynfrith", now=NOW))

    # the same answers with capitals and without
    for asked in ("Where was I working before Tamsby Surveying?", "where was i working before tamsby surveying"):
        assert await first(asked) == "w1:1", asked
    for asked in ("Where does Osgar live now?", "where's osgar living these days? want to send a card"):
        assert await first(asked) == "w4:1", asked
    assert await first("where did osgar live before korrowby") == "w2:1"
