"""``POST /v1/forests/{forest}/rematerialize``: queue a re-materialisation of one forest (ADR 0009).

A tenant key with the ``write`` scope; the work runs in a worker as a ``rematerialize`` job (poll
``GET /v1/jobs/{id}``). A change of the embedding *dimension* is deployment-wide (it retypes the
vector columns of every tenant) and is therefore not offered here: it is the admin command
``memforest rematerialize --embeddings --all``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, status

from memforest.api.auth import Writer
from memforest.api.openapi import ERRORS
from memforest.api.paths import SegmentRoute
from memforest.app.maintenance import REMAT_KIND, queue_rematerialize
from memforest.db.engine import Database
from memforest.schemas import RematAccepted, RematIn

router = APIRouter(prefix="/v1", tags=["lifecycle"], route_class=SegmentRoute)

JOB_KIND = REMAT_KIND


@router.post(
    "/forests/{forest}/rematerialize",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=RematAccepted,
    responses=ERRORS,
)
async def post_rematerialize(forest: str, body: RematIn, request: Request, caller: Writer) -> dict[str, Any]:
    """Queue a re-materialisation of the forest's derived artifacts (no extraction is replayed)."""
    db: Database = request.app.state.db
    return await queue_rematerialize(
        db, caller.tenant_id, forest, body.model_dump(), settings=request.app.state.settings
    )
