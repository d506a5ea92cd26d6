"""Lifecycle answers: the retract report and the 202 answers that queue a job (merge, import,
rematerialise)."""

from __future__ import annotations

from pydantic import Field

from memforest.schemas.base import RawKept, Record, WireModel


class WallSeconds(WireModel):
    """Wall time of a retract's two phases, in seconds."""

    structural: float
    refresh: float


class RetractReport(Record):
    """What one retract (``DELETE`` a session or a turn) removed, detached and refreshed."""

    forest: str
    session: str
    turn: str | None = None
    sessions: int = Field(description="Session rows removed (a turn retract removes its session with its last turn).")
    turns: int
    cells: int
    cells_rewritten: int = Field(description="Cells re-created for the remaining turns of a partly retracted cell.")
    facts_removed: int
    facts_detached: int = Field(description="Facts that lost a source but kept others.")
    facts_restored: int = Field(description="Facts superseded only by a removed fact: current again.")
    leaves_removed: int
    trees_removed: int
    entities_removed: int
    scenes_removed: int
    nodes_refreshed: int
    summaries_changed: int
    model_calls: int
    summary_calls: int
    rebalance: dict[str, int] = Field(description="Tree rebalancing: leaves, borrows, merges, collapses, ...")
    model_usage: dict[str, dict[str, float | int]] = Field(description="Model usage per stage.")
    wall_s: WallSeconds


class JobAccepted(RawKept):
    """A 202 answer that queued a job. ``raw`` is the whole answer."""

    job_id: str
    kind: str


class MergeAccepted(JobAccepted):
    """``POST /v1/forests/{forest}/merge``: a ``merge`` job."""

    from_: str = Field(alias="from")
    forest: str


class AdminMergeAccepted(JobAccepted):
    """``POST /v1/admin/merge``: a ``merge`` job of the receiving tenant."""

    tenant: str
    forest: str


class ImportAccepted(JobAccepted):
    """``POST /v1/forests/{forest}/import``: an ``import`` job; ``records`` counted per kind."""

    forest: str
    records: dict[str, int]
    derived: str = Field(description="reused (vectors taken from the export) or rebuilt")


class RematAccepted(JobAccepted):
    """``POST /v1/forests/{forest}/rematerialize``: a ``rematerialize`` job."""

    forest: str
