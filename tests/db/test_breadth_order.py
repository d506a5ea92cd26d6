"""A question that asks for several things is ranked by the fusion of two orders of its pool when
the preset shifts weight for it (``several_shift``); any other question, or a shift of 0, keeps the
rerank's order. Own sentences and names."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from support.reads import ingested_forest
from support.sessions import session_input

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.retrieval import QueryRequest, query
from memforest.retrieval.preset import RetrievalPreset
from memforest.settings import Settings

SESSIONS = [
    [
        "I finally visited the harbour town of Brisk with my cousin.",
        "Brisk! Did you eat at the fish market there?",
        "Yes, and we hiked along the cliffs above the bay at sunset.",
        "That sounds lovely, I have never been near the sea.",
    ],
    [
        "We drove to the mountain village of Kell and slept in a wooden cabin.",
        "Was it cold up in the mountains?",
        "Freezing, but the lake by the village was beautiful.",
        "I would love to see that lake one day.",
    ],
    [
        "Next month I travel to the old river city of Ostmar for a conference.",
        "Ostmar has great bridges, take pictures of them.",
        "I will, and I also want to visit the places my grandmother lived.",
        "Places full of memories are worth the trip.",
    ],
]


async def _trips(db: Database, settings: Settings) -> uuid.UUID:
    """The tenant of the forest "trips": the three sessions above, nine days apart."""
    start = datetime(2023, 4, 2, 10, tzinfo=UTC)
    sessions = [
        session_input(f"s{i}", start + timedelta(days=9 * i), texts, ("Ilse", "Ravi"))
        for i, texts in enumerate(SESSIONS)
    ]
    return await ingested_forest(db, settings, "breadth", "trips", sessions)


async def test_only_a_question_for_several_things_is_reordered_by_the_shift(db: Database, settings: Settings) -> None:
    tenant_id = await _trips(db, settings)
    backends = build_backends(settings)
    base = RetrievalPreset.for_settings(settings)
    assert base.several_shift == 0.0  # (the tests' embedder is the hashed one)
    orders: dict[tuple[str, float], list[tuple[str, int]]] = {}
    try:
        for question in ("Which places has Ilse travelled to?", "What did Ilse eat at the fish market?"):
            for shift in (0.0, 0.4):
                request = QueryRequest("trips", question, top_k=8)
                res = await query(db, settings, backends, tenant_id, request, preset=replace(base, several_shift=shift))
                orders[(question, shift)] = [(e.kind, e.source_id) for e in res.evidence]
    finally:
        await backends.aclose()
    several, one = "Which places has Ilse travelled to?", "What did Ilse eat at the fish market?"
    assert orders[(several, 0.0)] and orders[(several, 0.4)] != orders[(several, 0.0)]
    assert orders[(one, 0.4)] == orders[(one, 0.0)]


async def test_a_question_for_several_things_reads_the_follow_on_only_behind_a_clear_lead(
    db: Database, settings: Settings
) -> None:
    tenant_id = await _trips(db, settings)
    backends = build_backends(settings)
    base = replace(RetrievalPreset.for_settings(settings), several_shift=0.4)
    assert base.several_follow_lead == 0.0  # (the tests' embedder is the hashed one)
    arms = {
        "always": base,
        "small lead": replace(base, several_follow_lead=0.05),
        "large lead": replace(base, several_follow_lead=1.0),  # (no first item leads by a whole point)
        "off": replace(base, follow_on_rank=0),
    }
    several, one = "What towns has Ilse visited?", "What did Ilse eat at the fish market?"
    evidence: dict[tuple[str, str], list[tuple[str, int, float]]] = {}
    try:
        for question in (several, one):
            for arm, preset in arms.items():
                res = await query(db, settings, backends, tenant_id, QueryRequest("trips", question), preset=preset)
                evidence[(question, arm)] = [(e.kind, e.source_id, e.score) for e in res.evidence]
    finally:
        await backends.aclose()
    first, second = evidence[(several, "off")][:2]
    lead = first[2] - second[2]
    assert 0.05 <= lead < 1.0  # (the town's own fact stands out, by less than a point)
    assert evidence[(several, "always")] != evidence[(several, "off")]  # (the follow-on joins)
    assert evidence[(several, "small lead")] == evidence[(several, "always")]
    assert evidence[(several, "large lead")] == evidence[(several, "off")]
    assert evidence[(one, "large lead")] == evidence[(one, "always")]  # (asks for one thing: no lead asked)
