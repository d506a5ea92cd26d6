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
from memforest.db.engine import Database
from memforest.errors import InputError, NotFoundError
from memforest.pipeline import jobs
from memforest.schemas import RematAccepted, RematIn
from memforest.store.tenants import get_forest

router = APIRouter(prefix="/v1", tags=["lifecycle"])

JOB_KIND = "rematerialize"


@router.post(
    "/forests/{forest}/rematerialize",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=RematAccepted,
    responses=ERRORS,
)
async def post_rematerialize(forest: str, body: RematIn, request: Request, caller: Writer) -> dict[str, Any]:
    """Queue a re-materialisation of the forest's derived artifacts (no extraction is replayed)."""
    if not (body.embeddings or body.summaries or body.rebuild_trees):
        raise InputError("nothing to do: set embeddings, summaries and/or rebuild_trees", location="body")
    if body.k is not None and not body.rebuild_trees:
        raise InputError("k only applies with rebuild_trees", location="k")
    if "\x00" in forest:
        raise NotFoundError(f"no forest named {forest!r}")
    db: Database = request.app.state.db
    async with db.tenant(caller.tenant_id) as conn:
        f = await get_forest(conn, caller.tenant_id, forest)
        job_id = await jobs.enqueue(conn, caller.tenant_id, f.forest_id, JOB_KIND, body.model_dump())
    return {"job_id": str(job_id), "kind": JOB_KIND, "forest": f.name}
