"""The rows a matrix product keeps as possible nearest neighbours hold the exact nearest ones, near
ties, duplicates and zero vectors included."""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from memforest import rules
from memforest.pipeline.nearest_rows import PRODUCT_MIN_ROWS, RowMatrix, error_bound

K = 3


def _first_k(rows: list[np.ndarray[Any, Any]], indices: list[int], q: np.ndarray[Any, Any]) -> list[int]:
    """The ``K`` first of ``indices`` by exact cosine to ``q``, as a batched step picks them."""
    nq = rules.squared_norm(q)
    scored = [(rules.cosine_sq(rows[i], rules.squared_norm(rows[i]), q, nq), i) for i in indices]
    return [i for _, i in heapq.nsmallest(K, scored, key=lambda s: rules.nearest_first(s[0]))]


def _matrix(rows: list[np.ndarray[Any, Any]]) -> RowMatrix:
    m = RowMatrix(2, len(rows[0]))  # (grows past its first capacity)
    for r in rows:
        m.append(r, rules.squared_norm(r))
    return m


def _tied_rows(rng: np.random.Generator, dim: int) -> list[np.ndarray[Any, Any]]:
    """Random unit rows, exact copies, copies one float32 step apart, scaled copies and zero rows."""
    base = [v / np.linalg.norm(v) for v in rng.standard_normal((12, dim)).astype(np.float32)]
    rows: list[np.ndarray[Any, Any]] = []
    for v in base:
        rows.append(v)
        if rng.random() < 0.5:
            rows.append(v.copy())
        if rng.random() < 0.5:
            w = v.copy()
            j = int(rng.integers(dim))
            w[j] = np.nextafter(w[j], np.float32(1.0))
            rows.append(w)
        if rng.random() < 0.3:
            rows.append((v * np.float32(3.0)).astype(np.float32))
        if rng.random() < 0.2:
            rows.append(np.zeros(dim, dtype=np.float32))
    order = rng.permutation(len(rows))
    return [rows[i] for i in order]


def test_the_kept_rows_hold_the_exact_nearest_among_near_ties() -> None:
    """Query by query, and for all of them with one product (``candidates_many``)."""
    rng = np.random.default_rng(11)
    for trial in range(150):
        dim = [8, 64, 384][trial % 3]
        rows = _tied_rows(rng, dim)
        m = _matrix(rows)
        queries = [rows[int(rng.integers(len(rows)))], rng.standard_normal(dim).astype(np.float32)]
        queries.append((queries[0] + np.float32(1e-6) * queries[1]).astype(np.float32))
        queries.append(np.zeros(dim, dtype=np.float32))
        pairs = [(q, rules.squared_norm(q)) for q in queries]
        alone = [m.candidates(q, qn, K) for q, qn in pairs]
        for q, kept in [*zip(queries, alone, strict=True), *zip(queries, m.candidates_many(pairs, K), strict=True)]:
            assert kept == sorted(set(kept))
            assert _first_k(rows, kept, q) == _first_k(rows, list(range(len(rows))), q)
    assert m.candidates_many([], K) == []


def test_far_rows_are_left_out() -> None:
    """The product does prune: of many spread rows, only the near ones are scored exactly."""
    rng = np.random.default_rng(2)
    rows = list(rng.standard_normal((60, 384)).astype(np.float32))
    m = _matrix(rows)
    kept = m.candidates(rows[7], rules.squared_norm(rows[7]), K)
    assert 7 in kept and K <= len(kept) < 20


def test_every_row_is_kept_when_too_few_have_a_cosine() -> None:
    """Zero rows have no cosine (NaN sorts last): with K or fewer others they may be among the first
    K; with more they are left out. Below PRODUCT_MIN_ROWS rows every row is kept."""
    zero, one = np.zeros(4, dtype=np.float32), np.array([1, 0, 0, 0], dtype=np.float32)
    q = np.array([1, 1, 0, 0], dtype=np.float32)
    few = _matrix([zero] * PRODUCT_MIN_ROWS + [one] * K)
    assert few.candidates(q, rules.squared_norm(q), K) == list(range(PRODUCT_MIN_ROWS + K))
    assert few.candidates(zero, 0.0, K) == list(range(PRODUCT_MIN_ROWS + K))
    enough = _matrix([zero] * PRODUCT_MIN_ROWS + [one] * (K + 1))
    assert enough.candidates(q, rules.squared_norm(q), K) == list(range(PRODUCT_MIN_ROWS, PRODUCT_MIN_ROWS + K + 1))
    small = _matrix([np.array([1, i, 0, 0], dtype=np.float32) for i in range(PRODUCT_MIN_ROWS - 1)])
    assert small.candidates(q, rules.squared_norm(q), K) == list(range(PRODUCT_MIN_ROWS - 1))
    assert len(RowMatrix(3, 4)) == 0 and len(small) == PRODUCT_MIN_ROWS - 1


def test_the_bound_covers_the_difference_of_the_two_cosines() -> None:
    """The product's cosine and ``rules.cosine`` differ by well under the bound on random rows."""
    rng = np.random.default_rng(5)
    for dim in (16, 384, 1024):
        rows = list(rng.standard_normal((40, dim)).astype(np.float32))
        q = rng.standard_normal(dim).astype(np.float32)
        a = np.asarray(rows, dtype=np.float64) @ q.astype(np.float64)
        approx = a / np.sqrt(np.array([rules.squared_norm(r) for r in rows]) * rules.squared_norm(q))
        exact = np.array([rules.cosine(r, q) for r in rows])
        assert float(np.max(np.abs(approx - exact))) < error_bound(dim) / 4
