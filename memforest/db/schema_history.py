"""``fact_events``: every event of a fact (migration 0025, ADR 0044), part of ``memforest.db.schema``.

Written by the triggers of migration 0025 on ``facts`` and ``fact_sources``, never by a statement
of the code; no foreign key, so a deleted fact's events stay (a trigger on ``forests`` deletes a
forest's). ``xact`` is the writing transaction's id; ``at`` its start."""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Column, Index, PrimaryKeyConstraint, Table, Text, text
from sqlalchemy.dialects.postgresql import ARRAY

from memforest.db.schema_parts import TS, identity, metadata, tenant

__all__ = ["fact_events"]

fact_events = Table(
    "fact_events",
    metadata,
    tenant(),
    identity("event_id"),
    Column("forest_id", BigInteger, nullable=False),
    Column("fact_id", BigInteger, nullable=False),
    Column("event", Text, nullable=False),
    Column("related_fact_id", BigInteger),
    Column("text", Text),
    Column("kind", Text),
    Column("valid_from", TS),
    Column("valid_to", TS),
    Column("turns", ARRAY(Text)),  # the client's turn ids of sources added or removed
    Column("sessions", ARRAY(Text)),  # their sessions' external ids
    Column("actor", Text),  # the transaction's memforest.actor: an API key (key:<id>), else NULL
    Column("text_dropped", Boolean, nullable=False, server_default=text("false")),  # a deletion forgot the text
    Column("xact", BigInteger, nullable=False, server_default=text("(pg_current_xact_id())::text::bigint")),
    Column("at", TS, nullable=False, server_default=text("now()")),
    PrimaryKeyConstraint("tenant_id", "event_id", name="pk_fact_events"),
    Index("ix_fact_events_fact", "tenant_id", "forest_id", "fact_id", "event_id"),
)
