"""What every re-materialisation step shares: the report it returns, progress callbacks, the
fan-out check, and the refresh that follows a step."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.pipeline.refresh import RefreshStats, refresh_forest
from memforest.settings import Settings

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: called as work advances (the CLI drives a bar with it)."""

MIN_FANOUT, MAX_FANOUT = 2, 16


@dataclass(slots=True)
class RematReport:
    """What a re-materialisation did. ``model_calls`` counts calls per stage (never ``extract``)."""

    forests: int = 0
    trees_rebuilt: int = 0
    leaves: int = 0
    nodes_refreshed: int = 0
    summaries_changed: int = 0
    embedded_facts: int = 0
    embedded_nodes: int = 0
    centroids: int = 0
    model_calls: dict[str, int] = field(default_factory=dict)
    dimension_from: int | None = None
    dimension_to: int | None = None
    wall_s: float = 0.0

    def add(self, other: RematReport) -> None:
        """Fold another report (of another forest or step) into this one."""
        for name in ("forests", "trees_rebuilt", "leaves", "nodes_refreshed", "summaries_changed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.embedded_facts += other.embedded_facts
        self.embedded_nodes += other.embedded_nodes
        self.centroids += other.centroids
        for stage, n in other.model_calls.items():
            self.model_calls[stage] = self.model_calls.get(stage, 0) + n
        self.wall_s += other.wall_s

    def add_refresh(self, stats: RefreshStats) -> None:
        """Count what a refresh did."""
        self.nodes_refreshed += stats.nodes_refreshed
        self.summaries_changed += stats.summaries_changed
        self.embedded_nodes += stats.embedded

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON (job results, ``--json``)."""
        return {
            "forests": self.forests,
            "trees_rebuilt": self.trees_rebuilt,
            "leaves": self.leaves,
            "nodes_refreshed": self.nodes_refreshed,
            "summaries_changed": self.summaries_changed,
            "embedded_facts": self.embedded_facts,
            "embedded_nodes": self.embedded_nodes,
            "centroids": self.centroids,
            "model_calls": dict(sorted(self.model_calls.items())),
            "dimension": (
                {"from": self.dimension_from, "to": self.dimension_to} if self.dimension_from is not None else None
            ),
            "wall_s": round(self.wall_s, 4),
        }


def check_fanout(fanout: int | None) -> int | None:
    """``fanout`` when it is None or within 2..16, else InputError."""
    if fanout is None:
        return None
    if isinstance(fanout, bool) or not isinstance(fanout, int) or not MIN_FANOUT <= fanout <= MAX_FANOUT:
        raise InputError(f"k must be an integer between {MIN_FANOUT} and {MAX_FANOUT}, got {fanout!r}", location="k")
    return fanout


def check_actions(*, embeddings: bool, summaries: bool, rebuild: bool, fanout: int | None) -> None:
    """InputError unless at least one action is asked for and a fan-out comes only with a rebuild."""
    if not (embeddings or summaries or rebuild):
        raise InputError("nothing to do: ask for embeddings, summaries and/or rebuild_trees")
    if fanout is not None and not rebuild:
        raise InputError("k (fan-out) only applies with rebuild_trees", location="k")
    check_fanout(fanout)


def finish(report: RematReport, local: UsageLedger, ledger: UsageLedger | None, t0: float) -> RematReport:
    """Stamp the model calls of ``local`` and the wall time on ``report``; merge ``local`` into ``ledger``."""
    report.model_calls = {stage: int(u["calls"]) for stage, u in local.as_dict().items()}
    report.wall_s = time.perf_counter() - t0
    if ledger is not None:
        ledger.merge(local)
    return report


def notify(progress: Progress | None, stage: str, done: int, total: int) -> None:
    """Call ``progress`` when there is one."""
    if progress is not None:
        progress(stage, done, total)


async def refresh(
    db: Database, settings: Settings, backends: Backends, tenant_id: uuid.UUID, forest_id: int, ledger: UsageLedger
) -> RefreshStats:
    """Refresh the forest's dirty nodes (summaries, node vectors) with the process's backends."""
    return await refresh_forest(
        db, tenant_id, forest_id, summarizer=backends.summarizer, embedder=backends.embedder,
        concurrency=settings.pipeline.refresh_concurrency, ledger=ledger,
    )  # fmt: skip
