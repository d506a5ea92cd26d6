"""``POST /v1/forests/{forest}/rematerialize``: queue a re-materialisation of one forest (ADR 0009).

A tenant key with the ``write`` scope; the work runs in a worker as a ``rematerialize`` job (poll
``GET /v1/jobs/{id}``). A change of the embedding *dimension* is deployment-wide (it retypes the
vector columns of every tenant) and is therefore not offered here: it is the admin command
``memforest rematerialize --embeddings --all``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, status
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from memforest.api.auth import Writer
from memforest.app.maintenance import MAX_FANOUT, MIN_FANOUT, REMAT_KIND, queue_rematerialize
from memforest.db.engine import Database

router = APIRouter(prefix="/v1", tags=["lifecycle"])

JOB_KIND = REMAT_KIND


class RematIn(BaseModel):
    """What to regenerate. At least one action; ``k`` only with ``rebuild_trees``."""

    model_config = ConfigDict(extra="forbid")

    embeddings: StrictBool = Field(default=False, description="Recompute fact, node and centroid embeddings.")
    summaries: StrictBool = Field(default=False, description="Regenerate every internal-node summary.")
    rebuild_trees: StrictBool = Field(default=False, description="Drop and rebuild every tree from facts and cells.")
    k: int | None = Field(
        default=None, ge=MIN_FANOUT, le=MAX_FANOUT, description="Fan-out of the rebuilt trees (default: settings)."
    )


@router.post("/forests/{forest}/rematerialize", status_code=status.HTTP_202_ACCEPTED)
async def post_rematerialize(forest: str, body: RematIn, request: Request, caller: Writer) -> dict[str, Any]:
    """Queue a re-materialisation of the forest's derived artifacts (no extraction is replayed)."""
    db: Database = request.app.state.db
    return await queue_rematerialize(db, caller.tenant_id, forest, body.model_dump())
