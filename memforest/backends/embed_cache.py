"""An embedder that never embeds the same text twice (ADR 0042): a bounded least-recently-used map
from (tenant, text digest) to the vector, in front of a model embedder (local or HTTP).

One ``embed`` call looks every text up, sends the texts it has not seen (each once, however often it
repeats in the call) to the model in one call, and answers in order. Entries are kept per tenant,
so one tenant's texts never answer, nor time, another tenant's lookups. The model's vectors depend
on the text alone, so a cached vector is the one the model would give again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from memforest.backends.base import Embedder, UsageLedger
from memforest.text.shares import current_tenant

__all__ = ["DEFAULT_CACHE_ENTRIES", "CachingEmbedder"]

DEFAULT_CACHE_ENTRIES = 50_000

Key = tuple[str, bytes]


class CachingEmbedder:
    """Embedder protocol: ``inner`` behind a cache of at most ``max_entries`` vectors (0: none, every
    call goes to ``inner``). ``node_vectors`` tells the refresh how inner tree nodes get their
    vectors (``memforest.pipeline.refresh_levels``). ``aclose`` closes the inner embedder; other
    attributes (``ping``, ``settings``) are the inner embedder's. ``cell_vectors`` tells it how cell
    leaves get theirs (``"text"`` or ``"facts"``, ADR 0105)."""

    def __init__(
        self,
        inner: Embedder,
        *,
        max_entries: int = DEFAULT_CACHE_ENTRIES,
        node_vectors: str = "summary",
        cell_vectors: str = "text",
    ) -> None:
        if max_entries < 0:
            raise ValueError("max_entries must not be negative")
        self.inner = inner
        self.node_vectors = node_vectors
        self.cell_vectors = cell_vectors
        self.name: str = inner.name
        self.dim: int = inner.dim
        self.max_entries = max_entries
        self.hits = 0
        self.misses = 0
        self._cache: OrderedDict[Key, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @staticmethod
    def _key(tenant: str, text: str) -> Key:
        return tenant, hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()

    def _lookup(self, keys: list[Key]) -> list[npt.NDArray[np.float32] | None]:
        with self._lock:
            found = [self._cache.get(k) for k in keys]
            for k, v in zip(keys, found, strict=True):
                if v is not None:
                    self._cache.move_to_end(k)
        return found

    def _store(self, keys: list[Key], vectors: list[list[float]]) -> None:
        with self._lock:
            for k, v in zip(keys, vectors, strict=True):
                self._cache[k] = np.asarray(v, dtype=np.float32)
                self._cache.move_to_end(k)
            while len(self._cache) > self.max_entries:
                self._cache.popitem(last=False)

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        """Embed ``texts`` in order: cached vectors as they are, the rest in one call to the model."""
        if not self.max_entries:
            return await self.inner.embed(texts, stage=stage, ledger=ledger)
        tenant = current_tenant()
        keys = [self._key(tenant, t) for t in texts]
        found = self._lookup(keys)
        missing: dict[Key, str] = {}
        for key, text, vec in zip(keys, texts, found, strict=True):
            if vec is None:
                missing.setdefault(key, text)
        self.hits += len(texts) - sum(1 for v in found if v is None)
        self.misses += len(missing)
        fresh: dict[Key, list[float]] = {}
        if missing:
            vectors = await self.inner.embed(list(missing.values()), stage=stage, ledger=ledger)
            fresh = dict(zip(missing, vectors, strict=True))
            self._store(list(fresh), list(fresh.values()))
        return [fresh[k] if v is None else v.tolist() for k, v in zip(keys, found, strict=True)]

    async def aclose(self) -> None:
        """Close the inner embedder (its HTTP clients or worker threads), if it has anything to close."""
        close = getattr(self.inner, "aclose", None)
        if close is not None:
            await close()

    def clear(self) -> None:
        """Forget every cached vector (after the model changed under the same name)."""
        with self._lock:
            self._cache.clear()
