"""The hashed n-gram embedder port: the built-in, download-free default embedder."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from memforest.backends.base import UsageLedger, embed_in_process, embed_in_process_rows
from memforest.text.blas import single_threaded_blas
from memforest.text.hashed import embed_hashed

__all__ = ["HashedEmbedder"]

# Batches larger than this, or with more characters than _THREAD_CHARS (a long question, embedded
# once per forest it is asked of), are embedded in a worker thread so the event loop stays responsive.
_THREAD_THRESHOLD = 256
_THREAD_CHARS = 2_000


class HashedEmbedder:
    """Feature-hashing embedder (Embedder protocol): deterministic across runs and machines.

    Each feature is hashed with blake2b; the hash picks the dimension and the sign. Vectors are
    L2-normalised; a text without features (empty, only stopwords/punctuation) maps to zeros.
    """

    def __init__(self, dim: int = 384) -> None:
        if dim < 1:
            raise ValueError("dim must be positive")
        single_threaded_blas()  # (the vectors' products are small: ADR 0053)
        self.dim = dim
        self.name = f"hashed-ngram-{dim}"

    def embed_sync(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed ``texts`` into a float32 array of shape ``(len(texts), dim)``, rows unit or zero."""
        return embed_hashed(texts, self.dim)

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        """Embed ``texts`` in order (one ledger call per batch, no tokens; big batches in a thread)."""
        return await embed_in_process(self.embed_sync, texts, stage=stage, ledger=ledger, in_thread=_in_thread(texts))

    async def embed_rows(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> npt.NDArray[np.float32]:
        """:meth:`embed` as the float32 array itself (``base.embed_rows`` takes it)."""
        embed = self.embed_sync
        return await embed_in_process_rows(embed, texts, stage=stage, ledger=ledger, in_thread=_in_thread(texts))


def _in_thread(texts: Sequence[str]) -> bool:
    """Whether a batch is embedded in a worker thread (large, or long texts) rather than inline."""
    return len(texts) > _THREAD_THRESHOLD or sum(len(t) for t in texts) > _THREAD_CHARS
