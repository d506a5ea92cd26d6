"""A fact's history: ``GET /v1/forests/{forest}/facts/{fact_id}/history`` (ADR 0044).

A tenant key with the ``read`` scope; another tenant's facts are 404 like absent ones (every
statement filters by the key's tenant and runs under row-level security)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from memforest.api.auth import Reader
from memforest.api.openapi import ERRORS
from memforest.api.paths import SegmentRoute
from memforest.app import facts
from memforest.schemas.history import FactHistory

router = APIRouter(prefix="/v1", tags=["facts"], route_class=SegmentRoute)


@router.get("/forests/{forest}/facts/{fact_id}/history", response_model=FactHistory, responses=ERRORS)
async def get_fact_history(forest: str, fact_id: str, request: Request, caller: Reader) -> dict[str, Any]:
    """Every event of the fact, oldest first, also after it was deleted: `extracted` (with its source
    sessions and turns), `created` (no source turns: a correction), `restated` (a later turn said it
    again), `sources_removed` (a retracted session or turn), `supersedes`, `superseded` /
    `corrected` (by `related_fact_id`), `restored` (its successor went), `deleted` (the tombstone
    keeps the text; `actor` names the API key). `status` is the fact now: `current`, `superseded`
    or `deleted`. Forgetting the forest removes its history too. 404 when no event of the fact is
    kept."""
    return await facts.history(request.app.state.db, caller.tenant_id, forest, fact_id)
