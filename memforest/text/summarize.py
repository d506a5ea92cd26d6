"""Extractive summarising (the algorithm; ``backends.summarize`` is the port): central, varied sentences."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memforest.text.blas import single_threaded_blas
from memforest.text.hashed import embed_hashed
from memforest.text.lexicon import CAPITALS, STOPWORDS
from memforest.text.offload import Deadline
from memforest.text.sentences import split_sentences

__all__ = ["EmbedFn", "ExtractiveSelector", "NodeText", "strip_header", "summarize_in_worker", "truncate_text"]

# What a node's summary is made from, as a text worker process receives it: (t_start, t_end, the
# children's texts in time order).
NodeText = tuple[datetime, datetime, Sequence[str]]

# Texts to a float32 matrix, one unit (or zero) row per text.
EmbedFn = Callable[[Sequence[str]], np.ndarray[Any, Any]]

# One or more leading "[...]" headers (time intervals written by summarisers, cell stamps).
_HEADER_RE = re.compile(r"^\s*(?:\[[^\[\]\n]{0,120}\]\s*)+")
_WS_RE = re.compile(r"\s+")
# Capitalised word inside a sentence (a crude name detector); the first word is checked apart.
_NAME_RE = re.compile(rf"(?<=[a-z0-9,;)] )[{CAPITALS}][a-z]+")
_FIRST_WORD_RE = re.compile(rf"^(?:[\w'-]+: )?+([{CAPITALS}][a-z]+)\b")
_DATE_RE = re.compile(
    r"\b(?:\d{4}-\d{2}(?:-\d{2})?|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|(?:19|20)\d{2}"
    r"|jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday|yesterday|tomorrow|today|tonight|last (?:week|month|year|night)"
    r"|next (?:week|month|year))\b",
    re.IGNORECASE,
)

_NAME_BONUS = 0.05
_DATE_BONUS = 0.05
_COVERAGE_BONUS = 0.03  # first sentence picked from a child not yet represented
_MMR_LAMBDA = 0.7
_MIN_COSINE = 0.02  # sentences less central than this (or than a fraction of the best) are skipped
_MIN_RELATIVE = 0.25
_NEAR_DUPLICATE = 0.8  # never pick a sentence this similar to one already picked
_ELLIPSIS = "\u2026"

# A node's children keep their summaries between refreshes (only the right-most one changed), so a
# refresh sees mostly the same child texts and sentences again: their sentence split, vectors and
# bonuses are kept in least-recently-used caches of bounded size (results do not depend on them).
_CHILD_CACHE_MAX = 8_000
_SENTENCE_CACHE_MAX = 30_000


def _has_name(sentence: str) -> bool:
    """A capitalised word that is not just the sentence opener ("The", "I", "Yes")."""
    if _NAME_RE.search(sentence):
        return True
    m = _FIRST_WORD_RE.match(sentence)
    return m is not None and m.group(1).lower() not in STOPWORDS


def strip_header(text: str) -> str:
    """Remove leading ``[...]`` header(s) such as ``[2023-05-07 .. 2023-06-01]``."""
    return _HEADER_RE.sub("", text, count=1).strip()


def truncate_text(text: str, max_chars: int) -> str:
    """Cut ``text`` to at most ``max_chars`` characters, at a word boundary, ending with an ellipsis."""
    if len(text) <= max_chars:
        return text
    if max_chars <= 1:
        return text[:max_chars]
    cut = text[: max_chars - 1]
    space = cut.rfind(" ")
    if space >= max_chars // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:-") + _ELLIPSIS


def _embed_256(texts: Sequence[str]) -> np.ndarray[Any, Any]:
    return embed_hashed(texts, 256)


class ExtractiveSelector:
    """A model-free summary: header + the most central, least redundant sentences of the children.

    Sentences of all children are embedded with the hashed embedder; relevance is the cosine to
    the centroid of the other sentences, plus small bonuses for names, dates and not-yet-covered
    children; filler far below the best relevance and near-duplicates are never picked.
    Sentences are picked greedily MMR-style within ``max_chars`` and re-emitted in time order.
    """

    def __init__(self, max_chars: int = 600, *, embed: EmbedFn | None = None) -> None:
        if max_chars < 1:
            raise ValueError("max_chars must be positive")
        single_threaded_blas()  # (its products are small: ADR 0053)
        self.max_chars = max_chars
        self._embed: EmbedFn = embed or _embed_256
        self._child_sentences: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        self._sentence_features: OrderedDict[str, tuple[np.ndarray[Any, Any], float, float]] = OrderedDict()

    @staticmethod
    def header(t_start: datetime, t_end: datetime) -> str:
        """``[YYYY-MM-DD .. YYYY-MM-DD]``, or ``[YYYY-MM-DD]`` when both ends fall on one day."""
        a, b = t_start.date().isoformat(), t_end.date().isoformat()
        return f"[{a}]" if a == b else f"[{a} .. {b}]"

    def summarize_nodes(self, nodes: Sequence[NodeText], deadline: Deadline) -> list[str]:
        """:meth:`summarize_text` of each node in order, ``deadline`` checked before each."""
        out = []
        for t_start, t_end, child_texts in nodes:
            deadline.check()
            out.append(self.summarize_text(t_start, t_end, child_texts))
        return out

    def summarize_text(self, t_start: datetime, t_end: datetime, child_texts: Sequence[str]) -> str:
        """``header + " " + body`` of at most ``max_chars`` characters (no I/O, deterministic)."""
        head = self.header(t_start, t_end)
        budget = self.max_chars - len(head) - 1
        if budget <= 0:
            return head[: self.max_chars]
        body = self.select(child_texts, budget)
        return f"{head} {body}" if body else head

    def _sentences(self, child_text: str) -> tuple[str, ...]:
        """The whitespace-normalised, non-empty sentences of one child text, header removed."""
        cache = self._child_sentences
        cached = cache.get(child_text)
        if cached is not None:
            cache.move_to_end(child_text)
            return cached
        cleaned = (_WS_RE.sub(" ", s).strip() for s in split_sentences(strip_header(child_text)))
        cache[child_text] = cached = tuple(s for s in cleaned if s)
        if len(cache) > _CHILD_CACHE_MAX:
            cache.popitem(last=False)
        return cached

    def _features(
        self, sents: Sequence[str]
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Hashed vectors (float64, one row per sentence), and the name and the date bonus of each."""
        cache = self._sentence_features
        known = {s: f for s in sents if (f := cache.get(s)) is not None}
        for s in known:
            cache.move_to_end(s)
        missing = [s for s in dict.fromkeys(sents) if s not in known]
        if missing:
            vectors = self._embed(missing)
            for s, v in zip(missing, vectors, strict=True):
                name = _NAME_BONUS if _has_name(s) else 0.0
                date = _DATE_BONUS if _DATE_RE.search(s) else 0.0
                known[s] = cache[s] = (v, name, date)
            while len(cache) > _SENTENCE_CACHE_MAX:
                cache.popitem(last=False)
        rows = [known[s] for s in sents]
        vectors_ = np.stack([r[0] for r in rows]).astype(np.float64)
        return vectors_, np.array([r[1] for r in rows]), np.array([r[2] for r in rows])

    def select(self, child_texts: Sequence[str], budget: int) -> str:
        """Pick sentences of ``child_texts`` fitting ``budget`` chars, joined in original order."""
        sents: list[str] = []
        owner: list[int] = []
        seen: set[str] = set()
        for ci, raw in enumerate(child_texts):
            for s in self._sentences(raw):
                key = s.lower()
                if key in seen:
                    continue
                seen.add(key)
                sents.append(s)
                owner.append(ci)
        if not sents:
            return ""
        full = " ".join(sents)
        if len(full) <= budget:
            return full

        vecs, name_bonus, date_bonus = self._features(sents)
        # leave-one-out centroid: with few sentences, a sentence's own share of the centroid
        # would otherwise make even off-topic sentences look central
        others = vecs.sum(axis=0)[None, :] - vecs
        norms = np.linalg.norm(others, axis=1)
        dots = np.einsum("ij,ij->i", vecs, others)
        rel = np.divide(dots, norms, out=np.zeros(len(sents)), where=norms > 1e-12)
        best_cosine = float(rel.max())
        rel += name_bonus  # added one after the other, as floats add
        rel += date_bonus
        # filler ("Okay.", "The weather was fine.") is never picked just to use up the budget
        eligible = rel >= max(_MIN_COSINE, _MIN_RELATIVE * best_cosine)
        if not eligible.any():
            eligible = np.abs(vecs).sum(axis=1) > 0
        sim = vecs @ vecs.T

        n = len(sents)
        lengths = np.array([len(x) for x in sents])
        owners = np.array(owner)
        available = eligible.copy()
        uncovered = np.ones(n, dtype=bool)  # sentence's child has nothing picked yet
        max_sim = np.zeros(n)
        chosen: list[int] = []
        used = 0
        while True:
            sep = 1 if chosen else 0
            ok = available & (used + lengths + sep <= budget) & (max_sim < _NEAR_DUPLICATE)
            if not ok.any():
                break
            score = _MMR_LAMBDA * rel - (1 - _MMR_LAMBDA) * max_sim + _COVERAGE_BONUS * uncovered
            score[~ok] = -np.inf
            best = int(np.argmax(score))  # ties: the earliest sentence
            used += int(lengths[best]) + sep
            chosen.append(best)
            available[best] = False
            uncovered[owners == owners[best]] = False
            max_sim = np.maximum(max_sim, sim[best])
        if not chosen:
            # every sentence is longer than the budget: cut the most central one
            return truncate_text(sents[int(np.argmax(rel))], budget)
        return " ".join(sents[i] for i in sorted(chosen))


# A text worker process's selectors, by max_chars: their caches serve every call the process gets.
_WORKER_SELECTORS: dict[int, ExtractiveSelector] = {}


def summarize_in_worker(max_chars: int, nodes: Sequence[NodeText], deadline: Deadline) -> list[str]:
    """In a text worker process (``text.processes``): the summary of each node, as
    :meth:`ExtractiveSelector.summarize_text` with the default sentence vectors writes it."""
    selector = _WORKER_SELECTORS.get(max_chars)
    if selector is None:
        selector = _WORKER_SELECTORS[max_chars] = ExtractiveSelector(max_chars)
    return selector.summarize_nodes(nodes, deadline)
