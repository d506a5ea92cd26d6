"""Flat retrieval baselines over raw turns: Okapi BM25, cosine over hashed n-gram embeddings (the
project's built-in embedder, not a dense neural model), and their RRF."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from memforest.backends.hashed import HashedEmbedder
from memforest.text.terms import content_terms


@dataclass(frozen=True, slots=True)
class Doc:
    """One raw turn: its client id and text (speaker included)."""

    doc_id: str
    text: str


class BM25:
    """Okapi BM25 over ``content_terms`` (k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)))."""

    def __init__(self, docs: Sequence[Doc], k1: float = 1.2, b: float = 0.75) -> None:
        self.docs = list(docs)
        self.k1, self.b = k1, b
        self.tfs = [Counter(content_terms(d.text)) for d in self.docs]
        self.lengths = [sum(tf.values()) for tf in self.tfs]
        self.avgdl = (sum(self.lengths) / len(self.lengths)) if self.lengths else 1.0
        df: Counter[str] = Counter()
        for tf in self.tfs:
            df.update(tf.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1.0 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def search(self, query: str, k: int) -> list[str]:
        """Ids of the ``k`` best documents (ties broken by document order)."""
        terms = content_terms(query)
        scores: list[tuple[float, int]] = []
        for i, tf in enumerate(self.tfs):
            s = 0.0
            norm = self.k1 * (1.0 - self.b + self.b * self.lengths[i] / (self.avgdl or 1.0))
            for t in terms:
                f = tf.get(t, 0)
                if f:
                    s += self.idf[t] * f * (self.k1 + 1.0) / (f + norm)
            if s > 0:
                scores.append((s, i))
        scores.sort(key=lambda x: (-x[0], x[1]))
        return [self.docs[i].doc_id for _, i in scores[:k]]


class HashedNgramTurns:
    """Cosine search over the project's hashed n-gram embeddings."""

    def __init__(self, docs: Sequence[Doc], dim: int) -> None:
        self.docs = list(docs)
        self.embedder = HashedEmbedder(dim)
        self.matrix: npt.NDArray[np.float32] = self.embedder.embed_sync([d.text for d in self.docs])

    def search(self, query: str, k: int) -> list[str]:
        """Ids of the ``k`` most similar documents."""
        q = self.embedder.embed_sync([query])[0]
        sims = self.matrix @ q
        order = np.lexsort((np.arange(len(sims)), -sims))[:k]
        return [self.docs[int(i)].doc_id for i in order]


def rrf_fuse(rankings: Sequence[Sequence[str]], k: int = 60, limit: int = 100) -> list[str]:
    """Reciprocal-rank fusion of id rankings: ``sum 1 / (k + rank)``."""
    scores: dict[str, float] = {}
    first: dict[str, int] = {}
    for ranking in rankings:
        for r, doc_id in enumerate(ranking, start=1):
            scores[doc_id] = scores.get(doc_id, 0.0) + 1.0 / (k + r)
            first.setdefault(doc_id, len(first))
    return sorted(scores, key=lambda d: (-scores[d], first[d]))[:limit]
