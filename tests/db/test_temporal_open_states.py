"""Open-ended states through the real write and read paths (issue #48): a user who speaks and asks
in the first person, a relative who changes the same kind of thing, a plan and a nostalgic remark
that are no states, and questions that name a month or another state. Sentences written for this
test (none comes from ``bench.temporal_v2``)."""

from __future__ import annotations

import uuid

from support.reads import first_turn, told_forest
from support.sessions import noon_utc

from memforest.db.engine import Database
from memforest.retrieval import QueryRequest
from memforest.settings import Settings

# (session, time, what Noor says); the assistant answers with chatter
NOOR = [
    ("n1", noon_utc(2022, 1, 10), "I moved to Tarragona last week, the flat is tiny."),
    ("n2", noon_utc(2022, 2, 14), "My new optician is Lumen Eyecare."),
    ("n3", noon_utc(2022, 5, 3), "My brother Idris joined Ashgrove Rowing Club."),
    ("n4", noon_utc(2022, 9, 20), "I switched opticians, from Lumen Eyecare to Clearview Optics."),
    ("n5", noon_utc(2023, 1, 8), "I'm planning to switch to Brightsight next year, nothing decided."),
    ("n6", noon_utc(2023, 4, 2), "I moved to Girona, the light here is beautiful."),
    ("n7", noon_utc(2023, 6, 11), "Idris quit Ashgrove Rowing Club and joined Weir Street Scullers."),
    ("n8", noon_utc(2023, 10, 5), "I still miss Lumen Eyecare sometimes, those were good days."),
    ("n9", noon_utc(2024, 3, 19), "Clearview Optics is not my optician anymore; Prism Eye Studio is my optician now."),
]
NOW = noon_utc(2024, 9, 1)


async def _forest(db: Database, settings: Settings) -> uuid.UUID:
    return await told_forest(db, settings, "open-states", "noor", NOOR, "Noor", "Thanks for telling me.")


async def _first(db: Database, settings: Settings, t: uuid.UUID, q: str, speaker: str | None = "Noor") -> str:
    return await first_turn(db, settings, t, QueryRequest("noor", q, top_k=5, speaker=speaker, now=NOW))


async def test_first_person_open_states_relatives_moods_and_named_times(db: Database, settings: Settings) -> None:
    t = await _forest(db, settings)
    # a kind of state no attribute names, asked in the first person
    assert await _first(db, settings, t, "What was my optician before Clearview Optics?") == "n2:1"
    assert await _first(db, settings, t, "Which optician do I have now?") == "n9:1"  # not the plan, not nostalgia
    # without a speaker on the query, "I" is the forest's user-role speaker
    assert await _first(db, settings, t, "What was my optician after Lumen Eyecare?", speaker=None) == "n4:1"
    # a relative's change of the same kind is theirs: by name and as "my brother"
    assert await _first(db, settings, t, "Which rowing club is Idris in now?") == "n7:1"
    assert await _first(db, settings, t, "What was my brother's rowing club before Weir Street Scullers?") == "n3:1"
    # a month, and another state, named in the question
    assert await _first(db, settings, t, "Who was my optician in March 2023?") == "n4:1"
    assert await _first(db, settings, t, "Which optician did I have back when I lived in Tarragona?") == "n2:1"
