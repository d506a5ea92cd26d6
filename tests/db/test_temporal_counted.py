"""States counted back from the latest, a kind named only by its values' names, and a switch that
names what it left by a short form, through the real write and read paths (issue #48). Sentences,
people and values written for this test (none comes from ``bench.temporal_v2``)."""

from __future__ import annotations

import uuid

from support.reads import first_turn, told_forest
from support.sessions import noon_utc

from memforest.db.engine import Database
from memforest.retrieval import QueryRequest
from memforest.settings import Settings

# (session, time, what Oskar says); the assistant answers with chatter
OSKAR = [
    ("o1", noon_utc(2020, 2, 3), "I signed on with Brackwater Analytics as a tester."),
    ("o2", noon_utc(2020, 6, 9), "Opened my first current account at Lindqvist Bank today."),
    ("o3", noon_utc(2021, 3, 15), "I joined the Ashby Lane Harriers, Tuesday track sessions."),
    ("o4", noon_utc(2021, 8, 2), "I left Brackwater Analytics and joined Tillage Systems."),
    ("o5", noon_utc(2022, 1, 20), "I quit Ashby and switched to Moorgate Runners, closer to the flat."),
    ("o6", noon_utc(2022, 9, 30), "Our current account moved from Lindqvist Bank to Pennock Mutual."),
    ("o7", noon_utc(2023, 5, 4), "I left Tillage Systems and joined Corbel Robotics."),
]
NOW = noon_utc(2024, 2, 1)


async def _first(db: Database, settings: Settings, t: uuid.UUID, q: str) -> str:
    return await first_turn(db, settings, t, QueryRequest("oskar", q, top_k=5, speaker="Oskar", now=NOW))


async def test_counted_back_value_named_kinds_and_short_forms(db: Database, settings: Settings) -> None:
    tenant_id = await told_forest(db, settings, "counted", "oskar", OSKAR, "Oskar", "Noted, thanks.")
    # counted back from the latest employer: previous, and two back
    assert await _first(db, settings, tenant_id, "Who was my previous employer?") == "o4:1"
    assert await _first(db, settings, tenant_id, "Where did I work two jobs ago?") == "o1:1"
    # a kind no chain is named for, known by its values' names ("Lindqvist Bank")
    assert await _first(db, settings, tenant_id, "Which bank did I have in 2021?") == "o2:1"
    # a switch naming the club it left by a short form joins that club's chain
    assert await _first(db, settings, tenant_id, "Which running club am I in now?") == "o5:1"
