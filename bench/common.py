"""Shared helpers of the write-path benchmarks, re-exported from the modules that hold them by job:

* :mod:`bench.env`: the database, settings and backends of a run (``bench_env``), LoCoMo paths,
  forest counters and the invariant check;
* :mod:`bench.report`: machine info, result JSON, figures, ``publish``, usage and stage summaries;
* :mod:`bench.synthetic`: the synthetic conversation world;
* :mod:`bench.stepwise`: the step-wise (eager / sequential) write path.
"""

from bench.env import (
    LOCOMO_CANDIDATES,
    REPO_ROOT,
    RESULTS_DIR,
    BenchEnv,
    bench_env,
    check_verdict,
    default_locomo,
    forest_counts,
    locomo_or_complain,
)
from bench.report import (
    machine_info,
    new_figure,
    publish,
    save_figure,
    stage_breakdown,
    usage_totals,
    write_json,
)
from bench.stepwise import StepwiseReport, ingest_stepwise
from bench.synthetic import SyntheticConversations

__all__ = [
    "LOCOMO_CANDIDATES",
    "REPO_ROOT",
    "RESULTS_DIR",
    "BenchEnv",
    "StepwiseReport",
    "SyntheticConversations",
    "bench_env",
    "check_verdict",
    "default_locomo",
    "forest_counts",
    "ingest_stepwise",
    "locomo_or_complain",
    "machine_info",
    "new_figure",
    "publish",
    "save_figure",
    "stage_breakdown",
    "usage_totals",
    "write_json",
]
