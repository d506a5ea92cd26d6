"""Extractive summariser port: the built-in, model-free way to summarise an internal tree node."""

from __future__ import annotations

import time

from memforest.backends.base import SummaryInput, UsageLedger
from memforest.backends.hashed import HashedEmbedder
from memforest.text.summarize import ExtractiveSelector, strip_header, truncate_text

__all__ = ["ExtractiveSummarizer", "strip_header", "truncate_text"]


class ExtractiveSummarizer(ExtractiveSelector):
    """Summarizer protocol without a model: header + the most central, least redundant sentences.

    The selection is ``memforest.text.summarize.ExtractiveSelector``; sentences are embedded with
    ``embedder`` (default: the hashed embedder at 256 dimensions).
    """

    name = "extractive"

    def __init__(self, max_chars: int = 600, *, embedder: HashedEmbedder | None = None) -> None:
        super().__init__(max_chars, embed=embedder.embed_sync if embedder is not None else None)

    async def summarize(self, item: SummaryInput, *, ledger: UsageLedger | None = None) -> str:
        """Return ``header + " " + body`` of at most ``max_chars`` characters (ledger: calls only)."""
        t0 = time.perf_counter()
        out = self.summarize_sync(item)
        if ledger is not None:
            ledger.record("summarize", calls=1, latency_s=time.perf_counter() - t0)
        return out

    def summarize_sync(self, item: SummaryInput) -> str:
        """Synchronous :meth:`summarize` (no I/O, deterministic)."""
        return self.summarize_text(item.t_start, item.t_end, item.child_texts)
