"""A relative named by relation in some statements and by name in others, with nothing joining the
two: the relative who leaves a club the named person joined is that person, so a question about
either finds the other's states (issue 48 item 2). Sentences and names of my own."""

from __future__ import annotations

from datetime import UTC, datetime

from support.reads import asked, told_forest

from memforest.db.engine import Database
from memforest.retrieval import QueryRequest
from memforest.settings import Settings

NEPHEW_LEFT = "My nephew moved over from the Larchmont Harriers to the Quillbrook Pacers."
SAID = [
    ("v1", datetime(2022, 2, 6, 12, tzinfo=UTC), "Kasimir joined the Larchmont Harriers last month."),
    ("v2", datetime(2022, 9, 3, 12, tzinfo=UTC), "Made a huge pot of lentil soup for the week."),
    ("v3", datetime(2023, 5, 14, 12, tzinfo=UTC), NEPHEW_LEFT),
]


async def _answers(db: Database, settings: Settings, t: object, question: str) -> list[str]:
    request = QueryRequest("nephew", question, mode="emb", top_k=5, speaker="Briony")
    res = await asked(db, settings, t, request)  # type: ignore[arg-type]
    return [e.turn_ids[0] for e in res.evidence if e.temporal_role == "answer"]


async def test_the_relative_who_leaves_the_named_persons_club_is_them(db: Database, settings: Settings) -> None:
    t = await told_forest(db, settings, "value-partner", "nephew", SAID, "Briony", "Noted.")
    assert await _answers(db, settings, t, "Which running club is Kasimir in now?") == ["v3:1"]
    before = "Which running club was my nephew in before the Quillbrook Pacers?"
    assert await _answers(db, settings, t, before) == ["v1:1"]


async def test_a_relative_who_only_shares_the_club_is_someone_else(db: Database, settings: Settings) -> None:
    shared = [*SAID[:2], ("v3", SAID[2][1], "My nephew joined the Larchmont Harriers too, after Easter.")]
    t = await told_forest(db, settings, "value-shared", "nephew", shared, "Briony", "Noted.")
    assert await _answers(db, settings, t, "Which running club is Kasimir in now?") == ["v1:1"]
