"""Extractive summariser port: the built-in, model-free way to summarise an internal tree node."""

from __future__ import annotations

import time

from memforest.backends.base import SummaryInput, UsageLedger
from memforest.backends.hashed import HashedEmbedder
from memforest.text.offload import DEFAULT_BUDGET_S, run_off_loop
from memforest.text.summarize import ExtractiveSelector, strip_header, truncate_text

__all__ = ["ExtractiveSummarizer", "strip_header", "truncate_text"]


class ExtractiveSummarizer(ExtractiveSelector):
    """Summarizer protocol without a model: header + the most central, least redundant sentences.

    The selection is ``memforest.text.summarize.ExtractiveSelector``; sentences are embedded with
    ``embedder`` (default: the hashed embedder at 256 dimensions). :meth:`summarize` runs in the
    text thread pool with ``budget_s`` seconds per node.
    """

    name = "extractive"

    def __init__(
        self, max_chars: int = 600, *, embedder: HashedEmbedder | None = None, budget_s: float = DEFAULT_BUDGET_S
    ) -> None:
        super().__init__(max_chars, embed=embedder.embed_sync if embedder is not None else None)
        self.budget_s = budget_s

    async def summarize(self, item: SummaryInput, *, ledger: UsageLedger | None = None) -> str:
        """Return ``header + " " + body`` of at most ``max_chars`` characters (ledger: calls only).

        Runs in the text thread pool, off the event loop; over ``budget_s`` seconds it raises
        ``TextBudgetExceededError``."""
        t0 = time.perf_counter()
        out = await run_off_loop(
            lambda _deadline: self.summarize_sync(item),
            budget_s=self.budget_s,
            what=f"summarising a level-{item.level} node of {item.tree_label!r}",
        )
        if ledger is not None:
            ledger.record("summarize", calls=1, latency_s=time.perf_counter() - t0)
        return out

    def summarize_sync(self, item: SummaryInput) -> str:
        """Synchronous :meth:`summarize` (no I/O, deterministic)."""
        return self.summarize_text(item.t_start, item.t_end, item.child_texts)
