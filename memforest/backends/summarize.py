"""Extractive summariser port: the built-in, model-free way to summarise an internal tree node."""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial

from memforest.backends.base import SummaryInput, UsageLedger
from memforest.backends.hashed import HashedEmbedder
from memforest.text.offload import DEFAULT_BUDGET_S, Deadline, run_off_loop
from memforest.text.processes import run_in_process
from memforest.text.summarize import ExtractiveSelector, NodeText, strip_header, summarize_in_worker, truncate_text

__all__ = ["ExtractiveSummarizer", "strip_header", "truncate_text"]

# Nodes summarised per hand-off to the text thread pool by summarize_many: a hand-off costs the event
# loop about as much CPU as an extractive summary (ADR 0080); a chunk holds a thread a few ms.
CHUNK = 32


class ExtractiveSummarizer(ExtractiveSelector):
    """Summarizer protocol without a model: header + the most central, least redundant sentences.

    The selection is ``memforest.text.summarize.ExtractiveSelector``; sentences are embedded with
    ``embedder`` (default: the hashed embedder at 256 dimensions). Summaries are written in
    ``processes`` text worker processes (``memforest.text.processes``, shared with the rule-based
    extractor; the default sentence vectors only), ``budget_s`` seconds for each hand-off of up to
    :data:`CHUNK` nodes; or, with ``processes`` 0 (or an ``embedder`` given), in the text thread
    pool, off the event loop but on its GIL, ``budget_s`` seconds per node.
    """

    name = "extractive"

    def __init__(
        self,
        max_chars: int = 600,
        *,
        embedder: HashedEmbedder | None = None,
        budget_s: float = DEFAULT_BUDGET_S,
        processes: int = 0,
    ) -> None:
        super().__init__(max_chars, embed=embedder.embed_sync if embedder is not None else None)
        self.budget_s = budget_s
        self.processes = processes if embedder is None else 0

    async def summarize(self, item: SummaryInput, *, ledger: UsageLedger | None = None) -> str:
        """Return ``header + " " + body`` of at most ``max_chars`` characters (ledger: calls only).

        Runs off the event loop (in a text worker process, or in the text thread pool: see the
        class); over ``budget_s`` seconds it raises ``TextBudgetExceededError``."""
        t0 = time.perf_counter()
        what = f"summarising a level-{item.level} node of {item.tree_label!r}"
        if self.processes:
            (out,) = await self._in_process([item], what)
        else:
            out = await run_off_loop(lambda _deadline: self.summarize_sync(item), budget_s=self.budget_s, what=what)
        if ledger is not None:
            ledger.record("summarize", calls=1, latency_s=time.perf_counter() - t0)
        return out

    async def summarize_many(self, items: Sequence[SummaryInput], *, ledger: UsageLedger | None = None) -> list[str]:
        """:meth:`summarize` of each item, in order, with one hand-off to the text thread pool per
        :data:`CHUNK` items (the budget: ``budget_s`` per item of a chunk; the ledger counts one call
        per item and each chunk's latency once)."""
        out: list[str] = []
        for start in range(0, len(items), CHUNK):
            chunk = items[start : start + CHUNK]
            t0 = time.perf_counter()
            what = f"summarising {len(chunk)} level-{chunk[0].level} nodes of {chunk[0].tree_label!r} and others"
            if self.processes:
                out += await self._in_process(chunk, what)
            else:
                out += await run_off_loop(
                    partial(self._summarize_chunk, chunk), budget_s=self.budget_s * len(chunk), what=what
                )
            if ledger is not None:
                ledger.record("summarize", calls=len(chunk), latency_s=time.perf_counter() - t0)
        return out

    async def _in_process(self, items: Sequence[SummaryInput], what: str) -> list[str]:
        """The summaries of ``items`` written in a text worker process, within one node's budget in
        all (the pool ends a task that overruns by the budget of the task queued ahead of it too, so
        its tasks' budgets stay alike; a summary takes milliseconds)."""
        return await run_in_process(
            summarize_in_worker, self.max_chars, _node_texts(items), processes=self.processes,
            budget_s=self.budget_s, what=what,
        )  # fmt: skip

    def _summarize_chunk(self, chunk: Sequence[SummaryInput], deadline: Deadline) -> list[str]:
        return self.summarize_nodes(_node_texts(chunk), deadline)

    def summarize_sync(self, item: SummaryInput) -> str:
        """Synchronous :meth:`summarize` (no I/O, deterministic)."""
        return self.summarize_text(item.t_start, item.t_end, item.child_texts)


def _node_texts(items: Sequence[SummaryInput]) -> list[NodeText]:
    """What each node's summary is made from, as ``ExtractiveSelector.summarize_nodes`` takes it."""
    return [(i.t_start, i.t_end, i.child_texts) for i in items]
