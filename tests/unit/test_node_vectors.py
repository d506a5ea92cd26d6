"""How inner tree nodes get their vectors (ADR 0058): the setting's resolution per backend, the
mean of children's vectors, and the cache in front of a model passing calls through when off."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memforest.backends.base import UsageLedger
from memforest.backends.embed_cache import CachingEmbedder
from memforest.backends.factory import build_embedder
from memforest.backends.hashed import HashedEmbedder
from memforest.pipeline.refresh_levels import mean_vector, vectors_from_children
from memforest.settings import Settings


class Recording:
    """An embedder that records every call (one row of ones per text)."""

    name = "recording"
    dim = 4

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        self.calls.append(list(texts))
        return [[0.5, 0.5, 0.5, 0.5] for _ in texts]


def test_hashed_embeds_summaries_unless_told_otherwise(tmp_path: Path) -> None:
    auto = build_embedder(Settings(home=tmp_path))
    assert isinstance(auto, HashedEmbedder) and not vectors_from_children(auto)
    told = build_embedder(Settings(home=tmp_path, embedding={"node_vectors": "children"}))  # type: ignore[arg-type]
    assert vectors_from_children(told) and told.name == auto.name and told.dim == auto.dim


def test_mean_vector_is_unit_norm_mean_or_none() -> None:
    assert mean_vector([]) is None
    assert mean_vector([[1.0, 0.0], [-1.0, 0.0]]) is None  # they cancel out
    got = mean_vector([[1.0, 0.0], np.asarray([0.0, 1.0], dtype=np.float32)])
    assert got is not None and np.allclose(got, [2**-0.5, 2**-0.5])


async def test_cache_of_no_entries_passes_every_call_through() -> None:
    inner = Recording()
    cached = CachingEmbedder(inner, max_entries=0, node_vectors="children")
    await cached.embed(["a", "a"])
    await cached.embed(["a"])
    assert inner.calls == [["a", "a"], ["a"]] and cached.node_vectors == "children"
    assert not vectors_from_children(CachingEmbedder(inner))
