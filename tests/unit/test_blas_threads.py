"""numpy's BLAS runs on one thread once MemForest's numeric backends exist (ADR 0053)."""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from memforest.backends.hashed import HashedEmbedder
from memforest.text import blas
from memforest.text.summarize import ExtractiveSelector


def _blas_threads() -> set[int]:
    return {int(i["num_threads"]) for i in threadpool_info() if i["user_api"] == "blas"}


@pytest.mark.skipif("OPENBLAS_NUM_THREADS" in os.environ, reason="the operator's thread count is kept")
@pytest.mark.parametrize("make", [lambda: HashedEmbedder(64), lambda: ExtractiveSelector()])
def test_backends_limit_blas_to_one_thread(make: Callable[[], object]) -> None:
    if not _blas_threads():
        pytest.skip("no BLAS library that threadpoolctl controls")
    with threadpool_limits(limits=2, user_api="blas"):  # restored on leaving
        blas.single_threaded_blas.cache_clear()
        make()
        assert _blas_threads() == {1}


def test_products_do_not_depend_on_the_thread_count() -> None:
    v = np.random.default_rng(7).random((60, 256))
    with threadpool_limits(limits=2, user_api="blas"):
        two = v @ v.T
    with threadpool_limits(limits=1, user_api="blas"):
        one = v @ v.T
    assert np.array_equal(one, two)
