"""A query over several forests (``app.query.ask_many``) parses and embeds its question once for
them all, and answers as before: each forest's evidence and trees, merged."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest
from support.sessions import noon_utc
from test_retrieval import FactSpec, build_forest

from memforest.app.query import ask, ask_many
from memforest.backends.base import Embedder, UsageLedger
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.retrieval import QueryRequest
from memforest.retrieval.question import Question
from memforest.settings import Settings

FACTS = [
    FactSpec("Dana repaired a boat in Lisbon", noon_utc(2020, 3, 1), noon_utc(2020, 3, 1), entity="Dana"),
    FactSpec("Dana adopted a cat named Pixel", noon_utc(2021, 5, 2), noon_utc(2021, 5, 2), entity="Dana"),
    FactSpec("Eli learned the cello", noon_utc(2022, 7, 3), noon_utc(2022, 7, 3), entity="Eli"),
]
FORESTS = ("first", "second", "third")


class CountingEmbedder:
    """An embedder that records every batch it is asked to embed, then embeds it as ``inner`` does."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.batches: list[list[str]] = []

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        self.batches.append(list(texts))
        return await self.inner.embed(texts, stage=stage, ledger=ledger)


@pytest.mark.parametrize("question", ["What did Dana repair?", "What did Dana do after she repaired a boat?"])
async def test_a_question_over_three_forests_is_parsed_and_embedded_once(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch, question: str
) -> None:
    for name in FORESTS:
        tenant_id = await build_forest(db, "t", name, FACTS)
    backends = build_backends(settings)
    counting = CountingEmbedder(backends.embedder)
    backends.embedder = counting
    parsed: list[str] = []
    real_parse = Question.parse

    def parse(
        text: str, *, now: datetime, has_as_of: bool, speaker: str | None = None, asked_at: datetime | None = None
    ) -> Question:
        parsed.append(text)
        return real_parse(text, now=now, has_as_of=has_as_of, speaker=speaker, asked_at=asked_at)

    monkeypatch.setattr(Question, "parse", parse)
    request = QueryRequest(FORESTS[0], question, top_k=9)
    try:
        many = await ask_many(db, settings, backends, tenant_id, FORESTS, request)
        assert parsed == [question]
        assert len(counting.batches) == 1 and counting.batches[0][0] == question
        singles = [await ask(db, settings, backends, tenant_id, replace(request, forest=name)) for name in FORESTS]
    finally:
        await backends.aclose()
    # the same evidence and trees as each forest asked alone
    assert many.evidence and {e.forest for e in many.evidence} <= set(FORESTS)
    assert [t.tree for t in many.trees] == [f"{s.forest}/{t.tree}" for s in singles for t in s.trees]
    alone: dict[tuple[Any, ...], float] = {
        (s.forest, e.kind, e.source_id): e.score for s in singles for e in s.evidence
    }
    for e in many.evidence:
        assert alone[(e.forest, e.kind, e.source_id)] == e.score
