"""Which of a growing set of vectors can be among the ``k`` most similar to a query, found with one
matrix product, so that a batched step computes the exact cosine (``rules.cosine_sq``, the value its
decisions are pinned to) for those few rows only and not for every row.

Why the answer is exact: the product sums in float64 and ``cosine_sq`` sums ``np.dot`` of two
float32 vectors in float32, in whatever order the BLAS picks. Both are divided by the same kept
squared norms. For any summation order, a float32 dot of ``d`` terms is within
``gamma = d u / (1 - d u)`` (``u = 2**-24``) of ``sum |a_i b_i|``, which is at most the product of
the two lengths; each kept squared norm is at least ``(1 - gamma)`` times the true one. So the two
cosines of one row differ by less than ``ERROR_UNITS * d * u`` (``error_bound``). A row whose
product-cosine is more than twice that below the ``k``-th best has an exact cosine strictly below
the exact cosine of ``k`` rows: it is never among the ``k`` first of a stable sort of the exact
values, whatever the tie order. Rows with a zero norm (a NaN cosine, sorted last) are left out as
soon as ``k`` rows have a number; below ``k`` such rows, or for a query or row that is not finite,
every row is kept.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["ERROR_UNITS", "PRODUCT_MIN_ROWS", "RowMatrix", "error_bound"]

ERROR_UNITS = 4.0  # the bound in units of d * 2**-24: at least twice the analysis above needs
PRODUCT_MIN_ROWS = 12  # fewer rows are all kept (measured: the product costs about 8 exact cosines)


def error_bound(dim: int) -> float:
    """An upper bound of |product-cosine - exact cosine| for vectors of ``dim`` float32 elements."""
    return ERROR_UNITS * dim * 2.0**-24


class RowMatrix:
    """Vectors appended one at a time (float32 rows, each with its kept squared norm), and the
    rows that can be among the ``k`` nearest to a query."""

    def __init__(self, capacity: int, dim: int) -> None:
        self._rows = np.zeros((max(capacity, 1), dim), dtype=np.float64)
        self._scale = np.zeros(max(capacity, 1), dtype=np.float64)  # 1 / length, 0 for a zero row
        self._floor = np.zeros(max(capacity, 1), dtype=np.float64)  # -inf for a zero row (no cosine)
        self._size = 0
        self._with_cosine = 0  # rows with a non-zero norm
        self._all_finite = True
        self._slack = 2.0 * error_bound(dim)

    def __len__(self) -> int:
        return self._size

    def nbytes(self) -> int:
        """The memory its arrays hold (their capacity, not only the rows appended)."""
        return self._rows.nbytes + self._scale.nbytes + self._floor.nbytes

    def append(self, vector: np.ndarray[Any, Any], squared_norm: float) -> None:
        """Add a row: ``vector`` and its squared norm as ``rules.squared_norm`` computes it."""
        if self._size == len(self._scale):
            self._rows = np.concatenate([self._rows, np.zeros_like(self._rows)])
            self._scale = np.concatenate([self._scale, np.zeros_like(self._scale)])
            self._floor = np.concatenate([self._floor, np.zeros_like(self._floor)])
        i = self._size
        self._rows[i] = vector
        self._all_finite = self._all_finite and math.isfinite(squared_norm)
        if squared_norm > 0.0:
            self._scale[i] = 1.0 / math.sqrt(squared_norm)
            self._with_cosine += 1
        else:
            self._floor[i] = -math.inf
        self._size += 1

    def candidates_many(self, queries: list[tuple[np.ndarray[Any, Any], float]], k: int) -> list[list[int]]:
        """:meth:`candidates` of each ``(query, its squared norm)``, with one matrix product for all."""
        n = self._size
        if n < max(PRODUCT_MIN_ROWS, k + 1) or self._with_cosine <= k or not self._all_finite or len(queries) < 2:
            return [self.candidates(q, qn, k) for q, qn in queries]
        product = self._rows[:n] @ np.stack([q for q, _ in queries]).astype(np.float64).T
        return [self._kept(product[:, j], qn, k) for j, (_, qn) in enumerate(queries)]

    def candidates(self, query: np.ndarray[Any, Any], query_norm: float, k: int) -> list[int]:
        """Indices, ascending, of a set of rows that holds every row among the ``k`` first of the
        rows sorted by exact cosine to ``query`` (``rules.nearest_first``, stable). Below
        ``PRODUCT_MIN_ROWS`` rows every row is kept: scoring them is cheaper than the product."""
        n = self._size
        if n < max(PRODUCT_MIN_ROWS, k + 1) or self._with_cosine <= k or not self._all_finite:
            return list(range(n))
        return self._kept(self._rows[:n] @ query.astype(np.float64), query_norm, k)

    def _kept(self, dots: np.ndarray[Any, Any], query_norm: float, k: int) -> list[int]:
        """The rows kept for a query, given its product with every row (``dots``) and its squared norm."""
        n = self._size
        if not (query_norm > 0.0 and math.isfinite(query_norm)):
            return list(range(n))
        approx = dots * self._scale[:n] / math.sqrt(query_norm)
        approx += self._floor[:n]
        cut = float(np.partition(approx, n - k)[n - k]) - self._slack
        if not cut - self._slack > -1.0:  # (near -1 the clamp of rules.cosine_sq could make ties; NaN)
            return list(range(n))
        kept: list[int] = np.flatnonzero(approx >= cut).tolist()
        return kept
