"""numpy's BLAS on one thread in MemForest's processes.

The matrices MemForest multiplies are small (a summary's sentences against each other, a batch's
vectors against a few candidates). On them a multi-threaded BLAS (OpenBLAS, as numpy's wheels ship
it) spends far more CPU waking and spinning its threads than the product costs, and those threads
compete with the event loop, the text threads and the database for the same cores. Results do not
depend on the thread count (each element of a product is summed in the same order either way).
An explicitly set ``OPENBLAS_NUM_THREADS`` is left as the operator set it (ADR 0053).
"""

from __future__ import annotations

import os
from functools import cache

from threadpoolctl import threadpool_limits

__all__ = ["single_threaded_blas"]


@cache
def single_threaded_blas() -> None:
    """Limit the BLAS libraries loaded now (numpy's) to one thread, once per process; a no-op when
    ``OPENBLAS_NUM_THREADS`` is set."""
    if "OPENBLAS_NUM_THREADS" in os.environ:
        return
    threadpool_limits(limits=1, user_api="blas")
