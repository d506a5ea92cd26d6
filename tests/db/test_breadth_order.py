"""A question that asks for several things is ranked by the fusion of two orders of its pool when
the preset shifts weight for it (``several_shift``); any other question, or a shift of 0, keeps the
rerank's order. Own sentences and names."""

from __future__ import annotations

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


async def test_only_a_question_for_several_things_is_reordered_by_the_shift(db: Database, settings: Settings) -> None:
    start = datetime(2023, 4, 2, 10, tzinfo=UTC)
    sessions = [
        session_input(f"s{i}", start + timedelta(days=9 * i), texts, ("Ilse", "Ravi"))
        for i, texts in enumerate(SESSIONS)
    ]
    tenant_id = await ingested_forest(db, settings, "breadth", "trips", sessions)
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
