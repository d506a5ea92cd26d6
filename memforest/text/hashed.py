"""Deterministic hashed n-gram embeddings (the algorithm; ``backends.hashed`` is the port)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from memforest.text.lexicon import STOPWORDS
from memforest.text.stem import stem
from memforest.text.terms import tokenize

__all__ = ["BIGRAM_WEIGHT", "CHARGRAM_N", "CHARGRAM_WEIGHT", "UNIGRAM_WEIGHT", "embed_hashed"]

UNIGRAM_WEIGHT = 1.0
BIGRAM_WEIGHT = 0.5
CHARGRAM_WEIGHT = 0.25
CHARGRAM_N = 4

_SIGN_SHIFT = np.uint64(63)
_CACHE_MAX = 500_000

# Caches shared by all instances (hashes do not depend on ``dim``); bounded by clearing when full.
# token -> (stem, unigram hash, char 4-gram hashes) or None for stopwords.
_TokenInfo = tuple[str, int, tuple[int, ...]] | None
_TOKEN_CACHE: dict[str, _TokenInfo] = {}
_BIGRAM_CACHE: dict[str, int] = {}


def _hash64(kind: str, feature: str) -> int:
    """Stable 64-bit hash of a typed feature (blake2b; never Python's salted ``hash``)."""
    data = (kind + "\x1f" + feature).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8, person=b"memforest").digest(), "little")


def _token_info(tok: str) -> _TokenInfo:
    try:
        return _TOKEN_CACHE[tok]
    except KeyError:
        pass
    result: _TokenInfo = None
    if tok not in STOPWORDS:
        s = stem(tok)
        if s and s not in STOPWORDS:
            padded = "#" + tok + "#"
            grams = {padded[i : i + CHARGRAM_N] for i in range(max(1, len(padded) - CHARGRAM_N + 1))}
            result = (s, _hash64("u", s), tuple(_hash64("c", g) for g in sorted(grams)))
    if len(_TOKEN_CACHE) >= _CACHE_MAX:
        _TOKEN_CACHE.clear()
    _TOKEN_CACHE[tok] = result
    return result


def _bigram_hash(pair: str) -> int:
    h = _BIGRAM_CACHE.get(pair)
    if h is None:
        h = _hash64("b", pair)
        if len(_BIGRAM_CACHE) >= _CACHE_MAX:
            _BIGRAM_CACHE.clear()
        _BIGRAM_CACHE[pair] = h
    return h


def _accumulate(mat: npt.NDArray[np.float64], lengths: list[int], hashes: list[int], weight: float) -> None:
    """Add ``weight * (1 + ln tf) * sign`` for every distinct (row, feature) to ``mat``."""
    if not hashes:
        return
    n, dim = mat.shape
    rows = np.repeat(np.arange(n, dtype=np.uint64), lengths)
    h = np.asarray(hashes, dtype=np.uint64)
    order = np.lexsort((h, rows))
    rows, h = rows[order], h[order]
    new = np.ones(len(h), dtype=bool)
    new[1:] = (rows[1:] != rows[:-1]) | (h[1:] != h[:-1])
    starts = np.flatnonzero(new)
    tf = np.diff(np.append(starts, len(h))).astype(np.float64)
    rows, h = rows[starts], h[starts]
    vals = weight * (1.0 + np.log(tf))
    vals[(h >> _SIGN_SHIFT).astype(bool)] *= -1.0
    flat = rows.astype(np.int64) * dim + (h % np.uint64(dim)).astype(np.int64)
    mat += np.bincount(flat, weights=vals, minlength=n * dim).reshape(n, dim)


def embed_hashed(texts: Sequence[str], dim: int) -> npt.NDArray[np.float32]:
    """Embed ``texts`` into a float32 array of shape ``(len(texts), dim)``, rows unit or zero.

    Features are stemmed unigrams, bigrams of adjacent content stems and character 4-grams of
    each content token; each is hashed with blake2b, which picks the dimension and the sign.
    A text without features (empty, only stopwords/punctuation) maps to zeros.
    """
    n = len(texts)
    uni: list[int] = []
    bi: list[int] = []
    chars: list[int] = []
    uni_len: list[int] = []
    bi_len: list[int] = []
    char_len: list[int] = []
    for text in texts:
        u0, b0, c0 = len(uni), len(bi), len(chars)
        prev: str | None = None
        for tok in tokenize(text):
            info = _token_info(tok)
            if info is None:
                continue
            s, uh, ch = info
            uni.append(uh)
            chars.extend(ch)
            if prev is not None:
                bi.append(_bigram_hash(prev + " " + s))
            prev = s
        uni_len.append(len(uni) - u0)
        bi_len.append(len(bi) - b0)
        char_len.append(len(chars) - c0)
    mat = np.zeros((n, dim), dtype=np.float64)
    _accumulate(mat, uni_len, uni, UNIGRAM_WEIGHT)
    _accumulate(mat, bi_len, bi, BIGRAM_WEIGHT)
    _accumulate(mat, char_len, chars, CHARGRAM_WEIGHT)
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    np.divide(mat, norms, out=mat, where=norms > 1e-12)
    mat[norms[:, 0] <= 1e-12] = 0.0
    return mat.astype(np.float32)
