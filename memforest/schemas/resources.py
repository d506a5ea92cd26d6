"""Forests, sessions and jobs as the wire shows them. ``Forest`` and ``Job`` here are response
bodies; the stored forest and the claimed job the layers below pass around are
:class:`memforest.domain.Forest` and :class:`memforest.domain.Job`."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from memforest.schemas.base import Timestamp, WireModel

JOB_DONE_STATES = frozenset({"succeeded", "failed"})


class Forest(WireModel):
    """A forest; ``counts`` (sessions, turns, facts, trees, nodes, ...) only in ``GET /v1/forests/{forest}``."""

    name: str
    counts: dict[str, Any] | None = Field(default=None, description="Only in GET /v1/forests/{forest}.")


class ForestDeleted(WireModel):
    """What ``DELETE /v1/forests/{forest}`` removed: rows deleted per table."""

    name: str
    deleted: dict[str, int]


class SessionAccepted(WireModel):
    """The answer to ``POST .../sessions``: the job that processes it (None when nothing new was accepted)."""

    job_id: str | None
    session_id: str
    created: bool
    kept: int | None = Field(default=None, description="POST .../messages: the messages kept as turns.")
    skipped: dict[str, int] | None = Field(
        default=None, description="POST .../messages: the messages skipped, per reason (docs/agents.md)."
    )


class SessionSummary(WireModel):
    """A session as listed (no turns)."""

    session_id: str
    time: Timestamp
    turns: int
    created_at: Timestamp | None = None


class Turn(WireModel):
    """One stored turn."""

    id: str | None
    speaker: str
    role: str | None
    text: str
    time: Timestamp | None


class Session(WireModel):
    """A stored session with its turns."""

    session_id: str
    time: Timestamp
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: Timestamp | None = None
    turns: tuple[Turn, ...] = ()


class Job(WireModel):
    """A queued job: ``state`` is queued, running, succeeded or failed.

    ``GET /v1/jobs/{job_id}`` answers every field; the admin's ``GET /v1/admin/tenants/{t}/jobs/{j}``
    leaves out ``forest``, ``created_at``, ``started_at`` and ``finished_at``.
    """

    job_id: str
    forest: str | None = None
    kind: str
    state: str
    attempts: int = 0
    progress: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    usage: dict[str, Any] | None = None
    errors: list[Any] | None = None
    created_at: Timestamp | None = None
    started_at: Timestamp | None = None
    finished_at: Timestamp | None = None
    kept: int | None = Field(default=None, description="POST .../messages?wait=: the messages kept as turns.")
    skipped: dict[str, int] | None = Field(
        default=None, description="POST .../messages?wait=: the messages skipped, per reason."
    )

    @property
    def done(self) -> bool:
        """Succeeded or failed (it will not change any more)."""
        return self.state in JOB_DONE_STATES

    @property
    def succeeded(self) -> bool:
        """The job finished without error."""
        return self.state == "succeeded"
