"""The hashed n-gram embedder port: the built-in, download-free default embedder."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from memforest.backends.base import UsageLedger
from memforest.text.hashed import embed_hashed

__all__ = ["HashedEmbedder"]

# Batches larger than this are embedded in a worker thread so the event loop stays responsive.
_THREAD_THRESHOLD = 256


class HashedEmbedder:
    """Feature-hashing embedder (Embedder protocol): deterministic across runs and machines.

    Each feature is hashed with blake2b; the hash picks the dimension and the sign. Vectors are
    L2-normalised; a text without features (empty, only stopwords/punctuation) maps to zeros.
    """

    def __init__(self, dim: int = 384) -> None:
        if dim < 1:
            raise ValueError("dim must be positive")
        self.dim = dim
        self.name = f"hashed-ngram-{dim}"

    def embed_sync(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed ``texts`` into a float32 array of shape ``(len(texts), dim)``, rows unit or zero."""
        return embed_hashed(texts, self.dim)

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        """Embed ``texts`` in order (one ledger call per batch, no tokens)."""
        if not texts:
            return []
        t0 = time.perf_counter()
        if len(texts) > _THREAD_THRESHOLD:
            mat = await asyncio.to_thread(self.embed_sync, list(texts))
        else:
            mat = self.embed_sync(texts)
        if ledger is not None:
            ledger.record(stage, calls=1, latency_s=time.perf_counter() - t0)
        result: list[list[float]] = mat.tolist()
        return result
