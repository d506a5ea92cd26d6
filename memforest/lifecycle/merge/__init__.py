"""Merge forest A into forest B without replaying extraction (DESIGN.md section 4, ADR 0008).

``orchestrate`` runs the stages in one transaction; ``remap`` (snapshot, sessions, turns, cells),
``reconcile`` (facts, entities, scene clusters) and ``trees`` do the work; the SQL is in
``memforest.store.transfer``.
"""

from memforest.lifecycle.merge.orchestrate import merge_forests, run_merge_job
from memforest.lifecycle.merge.report import STAGES, MergeReport, Progress, notify

__all__ = ["STAGES", "MergeReport", "Progress", "merge_forests", "notify", "run_merge_job"]
