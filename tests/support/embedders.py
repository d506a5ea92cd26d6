"""Embedders for tests that look at what reaches the model: hashed vectors, every text recorded."""

from __future__ import annotations

from collections.abc import Sequence

from memforest.backends.base import UsageLedger
from memforest.backends.hashed import HashedEmbedder


class CountingEmbedder:
    """HashedEmbedder that records every text it is asked to embed."""

    name = "counting"

    def __init__(self, dim: int = 64) -> None:
        self.inner = HashedEmbedder(dim)
        self.dim = dim
        self.texts: list[str] = []

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        self.texts.extend(texts)
        return await self.inner.embed(texts, stage=stage, ledger=ledger)


class ChildrenCountingEmbedder(CountingEmbedder):
    """CountingEmbedder whose inner nodes take their children's mean vector (ADR 0058), as a model
    backend's do."""

    node_vectors = "children"


class FactCellsCountingEmbedder(ChildrenCountingEmbedder):
    """ChildrenCountingEmbedder whose cell leaves take their facts' mean vector (ADR 0105)."""

    cell_vectors = "facts"
