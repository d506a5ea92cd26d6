"""Whose state a turn states, through the real write and read paths (issue #48, item 2): a
relative's change said with "she" in the next sentence, a name that opens its sentence with a
contracted "has", a noun and its value in apposition, and a value owned by "his". None of them may
supersede the user's own state of the same kind, and each is found under its holder, by name and
for a month named in the question. A "while ..." clause may name another person's state, whose time
comes from that person's facts, and asking what changed then is answered by the change made while
it held (ADR 0108). Sentences written for this test (none comes from ``bench.temporal_v2``)."""

from __future__ import annotations

import uuid

from support.reads import first_turn, told_forest
from support.sessions import noon_utc

from memforest.db.engine import Database
from memforest.retrieval import QueryRequest
from memforest.settings import Settings

# (session, time, what Wren says); the assistant answers with chatter
WREN = [
    ("w1", noon_utc(2022, 2, 1), "My dentist is Dr. Halloran, nice enough."),
    ("w2", noon_utc(2022, 4, 9), "Ottilie's dentist, Dr. Amadi, keeps pushing her to get whitening."),
    ("w3", noon_utc(2022, 8, 15), "Ottilie's been working at Brackenfield Labs for six years and she's exhausted."),
    (
        "w4",
        noon_utc(2023, 1, 20),
        "My sister Ottilie rang. Her new dentist is Dr. Castellan, after one pitch too many.",
    ),
    ("w5", noon_utc(2023, 3, 3), "Helped Bram unpack at his new flat in Port Quill, my back hates me."),
    ("w6", noon_utc(2023, 6, 30), "Ottilie left Brackenfield Labs and she started at Sorrel Analytics this week."),
    ("w7", noon_utc(2023, 9, 1), "Family news: she switched dentists, to Dr. Pike, and loves him."),  # whose: unsaid
    ("w8", noon_utc(2022, 10, 28), "Checkup in October 2022 went fine, which dentist hands out lollipops though?"),
]
NOW = noon_utc(2024, 2, 1)


async def _first(db: Database, settings: Settings, t: uuid.UUID, q: str) -> str:
    return await first_turn(db, settings, t, QueryRequest("wren", q, top_k=5, speaker="Wren", now=NOW))


async def test_other_peoples_states_are_theirs_and_never_the_users(db: Database, settings: Settings) -> None:
    t = await told_forest(db, settings, "holders", "wren", WREN, "Wren", "Thanks for telling me.")
    assert await _first(db, settings, t, "Who is my dentist now?") == "w1:1"  # no one else's dentist replaces it
    assert await _first(db, settings, t, "Which dentist was Ottilie seeing in October 2022?") == "w2:1"
    assert await _first(db, settings, t, "Who is Ottilie's dentist now?") == "w4:1"  # "She switched": Ottilie's
    assert await _first(db, settings, t, "Where was Ottilie working in January 2023?") == "w3:1"
    assert await _first(db, settings, t, "Where does Ottilie work now?") == "w6:1"
    assert await _first(db, settings, t, "Where does Bram live now?") == "w5:1"


# Bram works at Halden Works from February 2022 to March 2023 ("he started" after a phrase of time:
# Bram's), while Wren changes running clubs
WHILE = [
    ("c1", noon_utc(2022, 1, 10), "I joined the Brackwater Harriers, Tuesday track sessions."),
    ("c2", noon_utc(2022, 2, 14), "Bram started at Halden Works this week, his first proper engineering job."),
    ("c3", noon_utc(2022, 5, 3), "My phone contract is with Fernhill Mobile, which is fine."),
    ("c4", noon_utc(2022, 10, 20), "I left the Brackwater Harriers and joined the Tolland Pacers instead."),
    ("c5", noon_utc(2023, 3, 8), "Bram is restless. In the week of 6 March 2023 he started at Sorrel Analytics."),
    ("c6", noon_utc(2023, 6, 2), "I quit the Tolland Pacers and joined the Quayside Striders."),
]


async def test_a_change_made_while_another_person_held_a_state(db: Database, settings: Settings) -> None:
    t = await told_forest(db, settings, "while", "wren", WHILE, "Wren", "Thanks for telling me.")
    asked = "While Bram was working at Halden Works, which running club did I join?"
    assert await _first(db, settings, t, asked) == "c4:1"  # (not January's club, held in the middle)
    assert await _first(db, settings, t, "Where does Bram work now?") == "c5:1"
    assert await _first(db, settings, t, "Which running club am I in now?") == "c6:1"
