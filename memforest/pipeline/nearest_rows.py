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

from typing import Any

import numpy as np

__all__ = ["ERROR_UNITS", "RowMatrix", "error_bound"]

ERROR_UNITS = 4.0  # the bound in units of d * 2**-24: at least twice the analysis above needs


def error_bound(dim: int) -> float:
    """An upper bound of |product-cosine - exact cosine| for vectors of ``dim`` float32 elements."""
    return ERROR_UNITS * dim * 2.0**-24


class RowMatrix:
    """Vectors appended one at a time (float32 rows, each with its kept squared norm), and the
    rows that can be among the ``k`` nearest to a query."""

    def __init__(self, capacity: int, dim: int) -> None:
        self._rows = np.zeros((max(capacity, 1), dim), dtype=np.float64)
        self._norms = np.zeros(max(capacity, 1), dtype=np.float64)
        self._size = 0
        self._slack = 2.0 * error_bound(dim)

    def __len__(self) -> int:
        return self._size

    def append(self, vector: np.ndarray[Any, Any], squared_norm: float) -> None:
        """Add a row: ``vector`` and its squared norm as ``rules.squared_norm`` computes it."""
        if self._size == len(self._norms):
            self._rows = np.concatenate([self._rows, np.zeros_like(self._rows)])
            self._norms = np.concatenate([self._norms, np.zeros_like(self._norms)])
        self._rows[self._size] = vector
        self._norms[self._size] = squared_norm
        self._size += 1

    def candidates(self, query: np.ndarray[Any, Any], query_norm: float, k: int) -> list[int]:
        """Indices, ascending, of a set of rows that holds every row among the ``k`` first of the
        rows sorted by exact cosine to ``query`` (``rules.nearest_first``, stable)."""
        n = self._size
        if n <= k or query_norm == 0.0 or not np.isfinite(query_norm):
            return list(range(n))
        norms = self._norms[:n]
        finite = norms > 0.0
        if int(np.count_nonzero(finite)) <= k:
            return list(range(n))
        with np.errstate(divide="ignore", invalid="ignore"):
            approx = (self._rows[:n] @ query.astype(np.float64)) / np.sqrt(norms * query_norm)
        scored = approx[finite]
        if not np.isfinite(scored).all():
            return list(range(n))
        cut = float(np.partition(scored, len(scored) - k)[len(scored) - k]) - self._slack
        if cut - self._slack <= -1.0:  # (near -1 the clamp of rules.cosine_sq could make ties)
            return list(range(n))
        return [int(i) for i in np.flatnonzero(finite & (approx >= cut))]
