"""Webhook endpoints: register, list, delete, and the deliveries of one webhook (ADR 0020)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, status
from fastapi.responses import Response

from memforest.api.auth import Reader, Writer
from memforest.api.openapi import ERRORS, problems
from memforest.app import webhooks
from memforest.db.engine import Database
from memforest.schemas import Page
from memforest.schemas.agent import Webhook, WebhookDelivery, WebhookIn
from memforest.settings import Settings

router = APIRouter(prefix="/v1", tags=["webhooks"])


def _db(request: Request) -> Database:
    return request.app.state.db  # type: ignore[no-any-return]


@router.post(
    "/webhooks",
    status_code=status.HTTP_201_CREATED,
    response_model=Webhook,
    response_model_exclude_none=True,
    responses=ERRORS | problems(409),
)
async def post_webhook(body: WebhookIn, request: Request, caller: Writer) -> dict[str, Any]:
    """Register a URL for job events (`job.succeeded`, `job.failed`: the default) and changes to facts
    (`memory.changed`). The answer's `secret` (`whsec_<base64>`, shown only here) signs every delivery
    per Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256
    of "<id>.<timestamp>.<raw body>">` (docs/webhooks.md); the deprecated `MemForest-Signature` is sent
    too. Private or loopback targets are refused unless the server allows them."""
    settings: Settings = request.app.state.settings
    return await webhooks.create_webhook(_db(request), settings, caller.tenant_id, body.url, list(body.events))


@router.get("/webhooks", response_model=Page[Webhook], response_model_exclude_none=True, responses=ERRORS)
async def get_webhooks(request: Request, caller: Reader) -> dict[str, Any]:
    """The tenant's webhooks (without secrets)."""
    return {"items": await webhooks.list_webhooks(_db(request), caller.tenant_id), "next_cursor": None}


@router.delete("/webhooks/{webhook_id}", status_code=status.HTTP_204_NO_CONTENT, response_model=None, responses=ERRORS)
async def delete_webhook(webhook_id: str, request: Request, caller: Writer) -> Response:
    """Remove a webhook; its pending deliveries are dropped."""
    await webhooks.delete_webhook(_db(request), caller.tenant_id, webhook_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/webhooks/{webhook_id}/deliveries", response_model=Page[WebhookDelivery], responses=ERRORS)
async def get_deliveries(
    webhook_id: str,
    request: Request,
    caller: Reader,
    limit: Annotated[int, Query(ge=1, le=200, description="How many, newest first.")] = 50,
) -> dict[str, Any]:
    """The webhook's latest deliveries, newest first: `state` pending, delivered or failed (gave up),
    `attempts`, `last_status`, `last_error`, `next_attempt_at` (pending only)."""
    items = await webhooks.deliveries(_db(request), caller.tenant_id, webhook_id, limit)
    return {"items": items, "next_cursor": None}
