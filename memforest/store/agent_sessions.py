"""Sessions as the agent endpoints see them: the session an Idempotency-Key already created."""

from __future__ import annotations

import uuid

from memforest.store.sql import Conn, Row, fetch_one

_SESSION_OF_KEY = """
SELECT s.external_id, s.time FROM jobs j
JOIN sessions s ON s.tenant_id = j.tenant_id AND s.session_id = (j.payload->>'session_id')::bigint
WHERE j.tenant_id = :t AND j.idempotency_key = :k AND j.kind = 'ingest'
"""


async def session_of_idempotency_key(conn: Conn, tenant_id: uuid.UUID, key: str) -> Row | None:
    """external_id and time of the session the ingest job with this Idempotency-Key accepted, or None."""
    return await fetch_one(conn, _SESSION_OF_KEY, {"t": tenant_id, "k": key})
