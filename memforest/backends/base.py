"""Small interfaces every model backend implements, plus usage accounting."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np
from pydantic import BaseModel

from memforest.domain import Candidate, CellView, TreeKind

ModelT = TypeVar("ModelT", bound=BaseModel)


@dataclass(slots=True)
class StageUsage:
    """Counters for one pipeline stage (extract, summarize, embed, plan, navigate, ...)."""

    calls: int = 0
    failures: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    latency_s: float = 0.0  # sum of per-call latencies (not wall time)

    def add(self, other: StageUsage) -> None:
        self.calls += other.calls
        self.failures += other.failures
        self.retries += other.retries
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cached_prompt_tokens += other.cached_prompt_tokens
        self.latency_s += other.latency_s


@dataclass
class UsageLedger:
    """Thread/task-safe per-stage usage sums. One ledger per job (or per benchmark run)."""

    stages: dict[str, StageUsage] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(
        self,
        stage: str,
        *,
        calls: int = 1,
        failures: int = 0,
        retries: int = 0,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
        cached_prompt_tokens: int = 0,
        latency_s: float = 0.0,
    ) -> None:
        """Add one call's (or a batch's) counters to ``stage``."""
        with self._lock:
            usage = self.stages.setdefault(stage, StageUsage())
            usage.calls += calls
            usage.failures += failures
            usage.retries += retries
            usage.prompt_tokens += prompt_tokens
            usage.completion_tokens += completion_tokens
            usage.cached_prompt_tokens += cached_prompt_tokens
            usage.latency_s += latency_s

    def merge(self, other: UsageLedger) -> None:
        """Fold another ledger into this one."""
        with self._lock:
            for stage, usage in other.stages.items():
                self.stages.setdefault(stage, StageUsage()).add(usage)

    def as_dict(self) -> dict[str, dict[str, float | int]]:
        """Plain-JSON view, stages sorted by name."""
        with self._lock:
            return {
                name: {
                    "calls": u.calls,
                    "failures": u.failures,
                    "retries": u.retries,
                    "prompt_tokens": u.prompt_tokens,
                    "completion_tokens": u.completion_tokens,
                    "cached_prompt_tokens": u.cached_prompt_tokens,
                    "latency_s": round(u.latency_s, 6),
                }
                for name, u in sorted(self.stages.items())
            }


class ModelCallObserver(Protocol):
    """Process-wide sink for model-call telemetry (the API's ``/metrics`` registers one)."""

    def call_finished(
        self, stage: str, backend: str, *, ok: bool, latency_s: float, prompt_tokens: int, completion_tokens: int
    ) -> None:
        """One logical call ended after its retries: success with its token usage, or final failure."""

    def attempt_failed(self, stage: str, backend: str, reason: str) -> None:
        """One attempt failed (``http_429``, ``http_5xx``, ``timeout``, ``connection``, ``invalid_output``, ...)."""


MODEL_OBSERVERS: list[ModelCallObserver] = []
"""Observers the HTTP model backends notify of every call and every failed attempt; they must not raise."""


@runtime_checkable
class ChatModel(Protocol):
    """Chat completion constrained to a JSON schema given by a pydantic model."""

    name: str

    async def complete_json(
        self,
        *,
        system: str,
        user: str,
        schema: type[ModelT],
        stage: str,
        ledger: UsageLedger | None = None,
        max_tokens: int | None = None,
    ) -> ModelT:
        """Return the model's answer parsed and validated as ``schema``."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Text to fixed-size vectors (L2-normalised)."""

    name: str
    dim: int

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        """Embed ``texts`` in order; every vector has length ``dim`` and unit norm (or is zero)."""
        ...


async def embed_in_process(
    embed_sync: Callable[[list[str]], Any],
    texts: Sequence[str],
    *,
    stage: str,
    ledger: UsageLedger | None,
    in_thread: bool,
    executor: Executor | None = None,
) -> list[list[float]]:
    """The ``embed`` of an in-process embedder: ``embed_sync`` (texts to a ``(n, dim)`` array) run in a
    worker thread when ``in_thread`` (one of ``executor``'s, else of the event loop's default
    executor), else inline; one ledger call for the batch, no tokens."""
    if not texts:
        return []
    result: list[list[float]] = (
        await embed_in_process_rows(
            embed_sync, texts, stage=stage, ledger=ledger, in_thread=in_thread, executor=executor
        )
    ).tolist()
    return result


async def embed_in_process_rows(
    embed_sync: Callable[[list[str]], Any],
    texts: Sequence[str],
    *,
    stage: str,
    ledger: UsageLedger | None,
    in_thread: bool,
    executor: Executor | None = None,
) -> np.ndarray[Any, Any]:
    """:func:`embed_in_process` as the ``(len(texts), dim)`` float32 array itself, without the lists
    of Python floats (which hold the same values)."""
    t0 = time.perf_counter()
    if not in_thread:
        mat = embed_sync(list(texts))
    elif executor is None:
        mat = await asyncio.to_thread(embed_sync, list(texts))
    else:  # as ``to_thread`` does, in the caller's context (its log fields, its tenant)
        call = functools.partial(contextvars.copy_context().run, embed_sync, list(texts))
        mat = await asyncio.get_running_loop().run_in_executor(executor, call)
    if ledger is not None:
        ledger.record(stage, calls=1, latency_s=time.perf_counter() - t0)
    return np.asarray(mat, dtype=np.float32)


async def embed_rows(
    embedder: Embedder, texts: Sequence[str], *, stage: str, ledger: UsageLedger | None
) -> list[np.ndarray[Any, Any]]:
    """``embedder.embed(texts)`` as one float32 array per text, the values ``np.asarray(v,
    dtype=np.float32)`` of each returned list gives: taken from the embedder's own array where it has
    one (its ``embed_rows``), so the vectors are not converted to Python floats and back."""
    if not texts:
        return []
    own = getattr(embedder, "embed_rows", None)
    if own is not None:
        mat: np.ndarray[Any, Any] = await own(texts, stage=stage, ledger=ledger)
        return list(mat)
    return [np.asarray(v, dtype=np.float32) for v in await embedder.embed(texts, stage=stage, ledger=ledger)]


@runtime_checkable
class Extractor(Protocol):
    """Cell to candidates. Sees only the cell (its turns and time span), never the rest of memory."""

    name: str

    async def extract(self, cell: CellView, *, ledger: UsageLedger | None = None) -> list[Candidate]:
        """Return the memory candidates stated in ``cell``."""
        ...


@dataclass(frozen=True, slots=True)
class SummaryInput:
    """What an internal node's summary is made from: its interval and children's texts in time order."""

    tree_kind: TreeKind
    tree_label: str
    t_start: datetime
    t_end: datetime
    child_texts: tuple[str, ...]
    level: int


@runtime_checkable
class Summarizer(Protocol):
    """Children summaries to one internal-node summary, prefixed with its time interval."""

    name: str

    async def summarize(self, item: SummaryInput, *, ledger: UsageLedger | None = None) -> str:
        """Return the node summary text."""
        ...


@runtime_checkable
class BatchSummarizer(Summarizer, Protocol):
    """A summariser that takes a level's inner nodes at once (the built-in extractive one): the
    items' summaries in order, each what ``summarize`` would return. Refresh calls it once per level
    and leaves the chunking (and any concurrency) to it."""

    async def summarize_many(self, items: Sequence[SummaryInput], *, ledger: UsageLedger | None = None) -> list[str]:
        """Return the summaries of ``items``, in order."""
        ...
