"""The client's agent-facing operations: chat messages in (optionally waiting), one fact corrected,
deleted or its history read, a query over several forests, and webhooks. Written as generators of steps
(:mod:`memforest.client.steps`) and run by both clients."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Unpack

from memforest.client.steps import Steps, decode_json, operation, request, request_json
from memforest.client.wire import QueryOptions, parse, query_body, seg
from memforest.schemas import Fact, Job, Page, QueryResult, SessionAccepted
from memforest.schemas.agent import FactDeleted, Webhook, WebhookDelivery
from memforest.schemas.history import FactHistory

__all__ = ["AgentOperations"]


class AgentOperations:
    """The agent-facing operations (mixed into the clients' operations)."""

    @operation
    def add_messages(
        self,
        forest: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        session_id: str | None = None,
        time: datetime | None = None,
        metadata: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        wait: float | None = None,
    ) -> Steps[SessionAccepted | Job]:
        """Store OpenAI-style chat messages as one session (speaker = ``name``, else the role). With
        ``wait`` (0-30 s) the finished :class:`Job` comes back when it ends in time, else the
        :class:`SessionAccepted` as without it."""
        body: dict[str, Any] = {"messages": [dict(m) for m in messages]}
        optional = {"session_id": session_id, "time": time.isoformat() if time else None,
                    "metadata": dict(metadata) if metadata is not None else None}  # fmt: skip
        body.update({k: v for k, v in optional.items() if v is not None})
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key is not None else None
        response = yield from request(
            "POST", f"/v1/forests/{seg(forest)}/messages", json_body=body, headers=headers, params={"wait": wait}
        )
        data = decode_json(response, "POST", f"/v1/forests/{seg(forest)}/messages")
        if response.status_code == 200:
            return parse(Job, data, "job")
        return parse(SessionAccepted, data, "accepted messages")

    @operation
    def correct_fact(
        self, forest: str, fact_id: str | int, text: str, *, valid_from: datetime | None = None
    ) -> Steps[Fact]:
        """Correct a fact: the new fact (kind ``correction``) supersedes it; the old one is kept."""
        body: dict[str, Any] = {"text": text} | ({"valid_from": valid_from.isoformat()} if valid_from else {})
        data = yield from request_json("PATCH", f"/v1/forests/{seg(forest)}/facts/{seg(str(fact_id))}", json_body=body)
        return parse(Fact, data, "fact")

    @operation
    def delete_fact(self, forest: str, fact_id: str | int) -> Steps[FactDeleted]:
        """Delete a fact from every tree, listing, query and export (NotFoundError the second time)."""
        data = yield from request_json("DELETE", f"/v1/forests/{seg(forest)}/facts/{seg(str(fact_id))}")
        return parse(FactDeleted, data, "fact deletion")

    @operation
    def fact_history(self, forest: str, fact_id: str | int) -> Steps[FactHistory]:
        """Every event of a fact, oldest first, also after it was deleted (ADR 0044)."""
        data = yield from request_json("GET", f"/v1/forests/{seg(forest)}/facts/{seg(str(fact_id))}/history")
        return parse(FactHistory, data, "fact history")

    @operation
    def query_forests(self, forests: Sequence[str], query: str, **options: Unpack[QueryOptions]) -> Steps[QueryResult]:
        """One ranked list of evidence from several forests (the options of ``query``); each item
        names its ``forest``."""
        body = query_body(query, **options) | {"forests": list(forests)}
        return parse(QueryResult, (yield from request_json("POST", "/v1/query", json_body=body)), "query result")

    @operation
    def create_webhook(self, url: str, events: Sequence[str] = ("job.succeeded", "job.failed")) -> Steps[Webhook]:
        """Register a webhook; the answer's ``secret`` (shown only now) verifies the signatures."""
        data = yield from request_json("POST", "/v1/webhooks", json_body={"url": url, "events": list(events)})
        return parse(Webhook, data, "webhook")

    @operation
    def list_webhooks(self) -> Steps[Page[Webhook]]:
        """The tenant's webhooks (without secrets)."""
        return parse(Page[Webhook], (yield from request_json("GET", "/v1/webhooks")), "webhook page")

    @operation
    def delete_webhook(self, webhook_id: str) -> Steps[None]:
        """Remove a webhook and its pending deliveries."""
        yield from request("DELETE", f"/v1/webhooks/{seg(webhook_id)}")

    @operation
    def webhook_deliveries(self, webhook_id: str, *, limit: int = 50) -> Steps[Page[WebhookDelivery]]:
        """The webhook's latest deliveries, newest first."""
        data = yield from request_json("GET", f"/v1/webhooks/{seg(webhook_id)}/deliveries", params={"limit": limit})
        return parse(Page[WebhookDelivery], data, "delivery page")
