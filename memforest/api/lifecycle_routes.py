"""Retract endpoints: ``DELETE`` a session or one turn of it (ADR 0007).

A tenant key with the ``write`` scope. The retract runs synchronously (structural edits in one
transaction, then a refresh of the touched paths only) and answers ``200`` with its report.
Another tenant's forests, sessions and turns are simply absent (``404``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from memforest.api.auth import Writer
from memforest.api.openapi import ERRORS
from memforest.api.paths import SegmentRoute
from memforest.app.maintenance import retract
from memforest.db.engine import Database
from memforest.schemas import RetractReport
from memforest.settings import Settings

router = APIRouter(prefix="/v1", tags=["lifecycle"], route_class=SegmentRoute)


async def _retract(request: Request, caller: Writer, forest: str, session_id: str, turn_id: str | None) -> Any:
    db: Database = request.app.state.db
    settings: Settings = request.app.state.settings
    report = await retract(db, settings, request.app.state.backends, caller.tenant_id, forest, session_id, turn_id)
    return report.as_dict()


@router.delete("/forests/{forest}/sessions/{session_id}", response_model=RetractReport, responses=ERRORS)
async def delete_session(forest: str, session_id: str, request: Request, caller: Writer) -> dict[str, Any]:
    """Retract a session: its turns, cells, the facts only it supports (with their leaves) and its
    session tree go; facts also stated elsewhere only lose it as a source. Returns the report."""
    out: dict[str, Any] = await _retract(request, caller, forest, session_id, None)
    return out


@router.delete(
    "/forests/{forest}/sessions/{session_id}/turns/{turn_id}", response_model=RetractReport, responses=ERRORS
)
async def delete_turn(forest: str, session_id: str, turn_id: str, request: Request, caller: Writer) -> dict[str, Any]:
    """Retract one turn (by its client id, or ``<session>#<seq>`` for a turn sent without one): the
    facts only it supports go, and the cell that held it is rewritten for its other turns."""
    out: dict[str, Any] = await _retract(request, caller, forest, session_id, turn_id)
    return out
