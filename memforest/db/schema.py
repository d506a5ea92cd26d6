"""The schema the code declares (SQLAlchemy Core). Migrations must produce exactly this.

``EMBEDDING_DIM_PLACEHOLDER`` columns are declared without a fixed dimension here; the real
dimension is fixed when the database is initialised and stored in ``memforest_meta``. The pieces
tables are built from are in ``schema_parts``; ``fact_events`` is declared in ``schema_history``,
``dirty_nodes`` in ``schema_dirty``.
"""

from __future__ import annotations

from pgvector.sqlalchemy import HALFVEC, Vector
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Computed,
    Double,
    ForeignKeyConstraint,
    Index,
    Integer,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, TSVECTOR, UUID

from memforest.db.schema_dirty import dirty_nodes as dirty_nodes
from memforest.db.schema_history import fact_events
from memforest.db.schema_parts import TS, metadata
from memforest.db.schema_parts import fk as _fk
from memforest.db.schema_parts import identity as _identity
from memforest.db.schema_parts import tenant as _tenant

memforest_meta = Table(
    "memforest_meta",
    metadata,
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
)

tenants = Table(
    "tenants",
    metadata,
    _tenant(),
    Column("name", Text, nullable=False),
    Column("created_at", TS, nullable=False, server_default=text("now()")),
    # per-tenant overrides of the fairness limits (NULL = the server's default; ADR 0019)
    Column("rate_limit_per_s", Double),
    Column("rate_limit_burst", Integer),
    Column("max_in_flight", Integer),
    # per-tenant quota overrides (NULL = the server's default, 0 = no cap; migration 0024)
    Column("max_queued_jobs", Integer),
    Column("max_facts", BigInteger),
    Column("max_forests", Integer),
    Column("max_large_forests", Integer),
    PrimaryKeyConstraint("tenant_id", name="pk_tenants"),
    UniqueConstraint("name", name="uq_tenants_name"),
    CheckConstraint(
        "coalesce(rate_limit_per_s, 0) >= 0 AND coalesce(rate_limit_burst, 0) >= 0 AND coalesce(max_in_flight, 0) >= 0",
        name="ck_tenants_limits",
    ),
    CheckConstraint("least(max_queued_jobs, max_facts, max_forests, max_large_forests) >= 0", name="ck_tenants_quotas"),
)

api_keys = Table(
    "api_keys",
    metadata,
    _tenant(),
    Column("key_id", UUID(as_uuid=True), nullable=False),
    Column("key_hash", Text, nullable=False),
    Column("key_prefix", Text, nullable=False),
    Column("scopes", ARRAY(Text), nullable=False),
    Column("created_at", TS, nullable=False, server_default=text("now()")),
    Column("revoked_at", TS),
    PrimaryKeyConstraint("tenant_id", "key_id", name="pk_api_keys"),
    UniqueConstraint("key_hash", name="uq_api_keys_hash"),
    ForeignKeyConstraint(["tenant_id"], ["tenants.tenant_id"], name="fk_api_keys_tenant", ondelete="CASCADE"),
)

forests = Table(
    "forests",
    metadata,
    _tenant(),
    _identity("forest_id"),
    Column("name", Text, nullable=False),
    Column("created_at", TS, nullable=False, server_default=text("now()")),
    PrimaryKeyConstraint("tenant_id", "forest_id", name="pk_forests"),
    UniqueConstraint("tenant_id", "name", name="uq_forests_name"),
    ForeignKeyConstraint(["tenant_id"], ["tenants.tenant_id"], name="fk_forests_tenant", ondelete="CASCADE"),
)

sessions = Table(
    "sessions",
    metadata,
    _tenant(),
    _identity("session_id"),
    Column("forest_id", BigInteger, nullable=False),
    Column("external_id", Text, nullable=False),
    Column("time", TS, nullable=False),
    Column("content_hash", Text, nullable=False),
    Column("metadata", JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    Column("n_turns", Integer, nullable=False),
    Column("created_at", TS, nullable=False, server_default=text("now()")),
    PrimaryKeyConstraint("tenant_id", "session_id", name="pk_sessions"),
    UniqueConstraint("tenant_id", "forest_id", "external_id", name="uq_sessions_external"),
    _fk(["forest_id"], "forests", ["forest_id"], "fk_sessions_forest"),
    # the forest's latest session, read by every query (its time resolves "now" and relative dates):
    # an index-only look, where max(time) would read every session of the forest (ADR 0024)
    Index("ix_sessions_forest_time", "tenant_id", "forest_id", "time"),
)

turns = Table(
    "turns",
    metadata,
    _tenant(),
    _identity("turn_id"),
    Column("forest_id", BigInteger, nullable=False),
    Column("session_id", BigInteger, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("external_id", Text),
    Column("speaker", Text, nullable=False),
    Column("role", Text),
    Column("text", Text, nullable=False),
    Column("time", TS, nullable=False),
    PrimaryKeyConstraint("tenant_id", "turn_id", name="pk_turns"),
    UniqueConstraint("tenant_id", "session_id", "seq", name="uq_turns_seq"),
    _fk(["session_id"], "sessions", ["session_id"], "fk_turns_session"),
    Index("ix_turns_forest", "tenant_id", "forest_id", "session_id", "seq"),
    # the forest's latest user-role turn in one probe (migration 0027, ADR 0050)
    Index("ix_turns_forest_user", "tenant_id", "forest_id", "turn_id", postgresql_where=text("role = 'user'")),
)

cells = Table(
    "cells",
    metadata,
    _tenant(),
    _identity("cell_id"),
    Column("forest_id", BigInteger, nullable=False),
    Column("session_id", BigInteger, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("turn_from", Integer, nullable=False),
    Column("turn_to", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("t_start", TS, nullable=False),
    Column("t_end", TS, nullable=False),
    Column("extracted_at", TS),
    Column("extract_attempts", Integer, nullable=False, server_default=text("0")),
    Column("extract_error", Text),
    PrimaryKeyConstraint("tenant_id", "cell_id", name="pk_cells"),
    UniqueConstraint("tenant_id", "session_id", "seq", name="uq_cells_seq"),
    _fk(["session_id"], "sessions", ["session_id"], "fk_cells_session"),
    Index("ix_cells_pending", "tenant_id", "session_id", postgresql_where=text("extracted_at IS NULL")),
)

# Stored with fillfactor 75 (migrations 0006, 0018) so a page keeps room for one more version of a
# full row and unindexed-column updates stay HOT (ADR 0015, ADR 0025).
facts = Table(
    "facts",
    metadata,
    _tenant(),
    _identity("fact_id"),
    Column("forest_id", BigInteger, nullable=False),
    Column("text", Text, nullable=False),
    Column("text_hash", Text, nullable=False),
    Column("kind", Text, nullable=False),
    Column("entities", ARRAY(Text), nullable=False, server_default=text("'{}'::text[]")),
    Column("topics", ARRAY(Text), nullable=False, server_default=text("'{}'::text[]")),
    Column("speaker", Text),
    Column("subject", Text),
    Column("attribute", Text),
    Column("value", Text),
    Column("time_text", Text),
    Column("valid_from", TS, nullable=False),
    Column("valid_to", TS),
    Column("recorded_at", TS, nullable=False, server_default=text("now()")),
    Column("retracted_at", TS),
    Column("supersedes", BigInteger),
    Column("superseded_by", BigInteger),
    Column("source_count", Integer, nullable=False, server_default=text("1")),
    Column("embedding", Vector()),
    Column("tsv", TSVECTOR, Computed("to_tsvector('english'::regconfig, text)", persisted=True)),
    PrimaryKeyConstraint("tenant_id", "fact_id", name="pk_facts"),
    UniqueConstraint("tenant_id", "forest_id", "text_hash", name="uq_facts_text_hash"),
    _fk(["forest_id"], "forests", ["forest_id"], "fk_facts_forest"),
    _fk(["supersedes"], "facts", ["fact_id"], "fk_facts_supersedes", ondelete="SET NULL (supersedes)"),
    # a deleted fact's successors are found by index; superseded_by has no foreign key (written by
    # every supersession, an index there would make those updates non-HOT): migration 0019, ADR 0028
    Index("ix_facts_supersedes", "tenant_id", "supersedes", postgresql_where=text("supersedes IS NOT NULL")),
    Index("ix_facts_forest_time", "tenant_id", "forest_id", "valid_from"),
    # a forest's newest facts without walking the tenant's other forests (migration 0027, ADR 0050)
    Index("ix_facts_forest_id", "tenant_id", "forest_id", "fact_id"),
    # a slot's facts in time order: a new fact's neighbours in its slot are one probe (migration 0015)
    Index(
        "ix_facts_slot",
        "tenant_id",
        "forest_id",
        "subject",
        "attribute",
        "valid_from",
        "fact_id",
        postgresql_where=text("subject IS NOT NULL AND attribute IS NOT NULL"),
    ),
    # no vector or full-text index here: a forest past exact_scan_max_rows facts gets partial HNSW
    # and GIN indexes of its own (memforest.store.forest_indexes; migrations 0012-0013, ADR 0024)
    # the known-subject test of temporal questions (migration 0011): ix_facts_speaker, ix_facts_subject
    *(
        Index(f"ix_facts_{c}", "tenant_id", "forest_id", text(f"lower({c})"), postgresql_where=text(f"{c} IS NOT NULL"))
        for c in ("speaker", "subject")
    ),
)

fact_sources = Table(
    "fact_sources",
    metadata,
    _tenant(),
    Column("fact_id", BigInteger, nullable=False),
    Column("turn_id", BigInteger, nullable=False),
    Column("cell_id", BigInteger, nullable=False),
    Column("forest_id", BigInteger, nullable=False),
    Column("session_id", BigInteger, nullable=False),
    Column("created_at", TS, nullable=False, server_default=text("now()")),
    PrimaryKeyConstraint("tenant_id", "fact_id", "turn_id", name="pk_fact_sources"),
    _fk(["fact_id"], "facts", ["fact_id"], "fk_fact_sources_fact"),
    _fk(["turn_id"], "turns", ["turn_id"], "fk_fact_sources_turn"),
    _fk(["cell_id"], "cells", ["cell_id"], "fk_fact_sources_cell"),
    Index("ix_fact_sources_turn", "tenant_id", "turn_id"),
    Index("ix_fact_sources_session", "tenant_id", "session_id"),
    Index("ix_fact_sources_cell", "tenant_id", "cell_id"),
)

entities = Table(
    "entities",
    metadata,
    _tenant(),
    _identity("entity_id"),
    Column("forest_id", BigInteger, nullable=False),
    Column("key", Text, nullable=False),
    Column("label", Text, nullable=False),
    Column("is_speaker", Boolean, nullable=False, server_default=text("false")),
    Column("fact_count", Integer, nullable=False, server_default=text("0")),
    Column("session_count", Integer, nullable=False, server_default=text("0")),
    Column("activated", Boolean, nullable=False, server_default=text("false")),
    Column("first_time", TS),
    Column("last_time", TS),
    PrimaryKeyConstraint("tenant_id", "entity_id", name="pk_entities"),
    UniqueConstraint("tenant_id", "forest_id", "key", name="uq_entities_key"),
    _fk(["forest_id"], "forests", ["forest_id"], "fk_entities_forest"),
)

entity_facts = Table(
    "entity_facts",
    metadata,
    _tenant(),
    Column("entity_id", BigInteger, nullable=False),
    Column("fact_id", BigInteger, nullable=False),
    Column("forest_id", BigInteger, nullable=False),
    Column("session_id", BigInteger, nullable=False),
    PrimaryKeyConstraint("tenant_id", "entity_id", "fact_id", name="pk_entity_facts"),
    _fk(["entity_id"], "entities", ["entity_id"], "fk_entity_facts_entity"),
    _fk(["fact_id"], "facts", ["fact_id"], "fk_entity_facts_fact"),
    Index("ix_entity_facts_fact", "tenant_id", "fact_id"),
    Index("ix_entity_facts_session", "tenant_id", "entity_id", "session_id"),
)

scene_clusters = Table(
    "scene_clusters",
    metadata,
    _tenant(),
    _identity("cluster_id"),
    Column("forest_id", BigInteger, nullable=False),
    Column("centroid", Vector(), nullable=False),
    Column("member_count", Integer, nullable=False, server_default=text("0")),
    Column("topic_counts", JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    Column("last_time", TS),
    Column("merged_into", BigInteger),
    PrimaryKeyConstraint("tenant_id", "cluster_id", name="pk_scene_clusters"),
    _fk(["forest_id"], "forests", ["forest_id"], "fk_scene_clusters_forest"),
    Index("ix_scene_clusters_forest", "tenant_id", "forest_id", postgresql_where=text("merged_into IS NULL")),
)

trees = Table(
    "trees",
    metadata,
    _tenant(),
    _identity("tree_id"),
    Column("forest_id", BigInteger, nullable=False),
    Column("kind", Text, nullable=False),
    Column("key", Text, nullable=False),
    Column("label", Text, nullable=False),
    Column("fanout", Integer, nullable=False),
    Column("root_node_id", BigInteger),
    Column("height", Integer, nullable=False, server_default=text("1")),
    Column("n_leaves", Integer, nullable=False, server_default=text("0")),
    Column("created_at", TS, nullable=False, server_default=text("now()")),
    PrimaryKeyConstraint("tenant_id", "tree_id", name="pk_trees"),
    UniqueConstraint("tenant_id", "forest_id", "kind", "key", name="uq_trees_key"),
    CheckConstraint("kind IN ('session', 'entity', 'scene')", name="ck_trees_kind"),
    CheckConstraint("fanout BETWEEN 2 AND 16", name="ck_trees_fanout"),
    _fk(["forest_id"], "forests", ["forest_id"], "fk_trees_forest"),
    Index("ix_trees_forest_kind", "tenant_id", "forest_id", "kind"),
)

# Stored with toast_tuple_target 4080 (migration 0022): a summary node's row, embedding included,
# stays whole in its page at the default dimension instead of reading its vector from TOAST (ADR 0032);
# and with fillfactor 80 (migration 0026): a page keeps room for another version of a row, so an
# update that changes no indexed column (``dirty`` is not one: ``dirty_nodes`` mirrors it) is HOT.
# Only cell leaves fill ``tsv`` and only roots and cell leaves ``graph_embedding``, the keys of a
# large forest's text index and node graphs: an inner node's refresh is HOT (0029, ADR 0102).
_CELL_TEXT = "CASE WHEN leaf_cell_id IS NOT NULL THEN to_tsvector('english', COALESCE(summary, '')) END"
_GRAPH_VECTOR = "CASE WHEN parent_id IS NULL OR leaf_cell_id IS NOT NULL THEN CAST(embedding AS halfvec) END"
nodes = Table(
    "nodes",
    metadata,
    _tenant(),
    _identity("node_id"),
    Column("forest_id", BigInteger, nullable=False),
    Column("tree_id", BigInteger, nullable=False),
    Column("level", Integer, nullable=False),
    Column("parent_id", BigInteger),
    Column("t_start", TS, nullable=False),
    Column("t_end", TS, nullable=False),
    Column("seq", BigInteger, nullable=False),
    Column("n_children", Integer, nullable=False, server_default=text("0")),
    Column("summary", Text),
    Column("summary_hash", Text),
    Column("version", Integer, nullable=False, server_default=text("0")),
    Column("dirty", Boolean, nullable=False, server_default=text("true")),
    Column("embedding", Vector()),
    Column("embedded_hash", Text),
    Column("leaf_fact_id", BigInteger),
    Column("leaf_cell_id", BigInteger),
    Column("tsv", TSVECTOR, Computed(_CELL_TEXT, persisted=True)),
    Column("graph_embedding", HALFVEC(), Computed(_GRAPH_VECTOR, persisted=True)),
    PrimaryKeyConstraint("tenant_id", "node_id", name="pk_nodes"),
    CheckConstraint("(level = 0) = (leaf_fact_id IS NOT NULL OR leaf_cell_id IS NOT NULL)", name="ck_nodes_leaf"),
    _fk(["tree_id"], "trees", ["tree_id"], "fk_nodes_tree"),
    _fk(["parent_id"], "nodes", ["node_id"], "fk_nodes_parent"),
    _fk(["leaf_fact_id"], "facts", ["fact_id"], "fk_nodes_fact"),
    _fk(["leaf_cell_id"], "cells", ["cell_id"], "fk_nodes_cell"),
    Index("ix_nodes_seek", "tenant_id", "forest_id", "tree_id", "level", "t_start", "seq"),
    Index("ix_nodes_parent", "tenant_id", "parent_id", "t_start", "seq"),
    Index(
        "ix_nodes_leaf_fact",
        "tenant_id",
        "leaf_fact_id",
        postgresql_where=text("leaf_fact_id IS NOT NULL"),
    ),
    Index(
        "ix_nodes_leaf_cell",
        "tenant_id",
        "leaf_cell_id",
        postgresql_where=text("leaf_cell_id IS NOT NULL"),
    ),
    # the forest's cell leaves, for the exact cell scan (migration 0011, ADR 0022)
    Index(
        "ix_nodes_cell_leaves",
        "tenant_id",
        "forest_id",
        postgresql_where=text("level = 0 AND leaf_cell_id IS NOT NULL"),
    ),
    # tree roots only (migration 0010_read_indexes, ADR 0021): recall reads the top roots, not all
    Index("ix_nodes_roots", "tenant_id", "forest_id", postgresql_where=text("parent_id IS NULL")),
)

placements = Table(
    "placements",
    metadata,
    _tenant(),
    Column("tree_id", BigInteger, nullable=False),
    Column("source_kind", Text, nullable=False),
    Column("source_id", BigInteger, nullable=False),
    Column("forest_id", BigInteger, nullable=False),
    Column("node_id", BigInteger, nullable=False),
    PrimaryKeyConstraint("tenant_id", "tree_id", "source_kind", "source_id", name="pk_placements"),
    CheckConstraint("source_kind IN ('fact', 'cell')", name="ck_placements_kind"),
    _fk(["tree_id"], "trees", ["tree_id"], "fk_placements_tree"),
    _fk(["node_id"], "nodes", ["node_id"], "fk_placements_node"),
    Index("ix_placements_source", "tenant_id", "source_kind", "source_id"),
    Index("ix_placements_node", "tenant_id", "node_id"),
)

jobs = Table(
    "jobs",
    metadata,
    _tenant(),
    Column("job_id", UUID(as_uuid=True), nullable=False),
    Column("forest_id", BigInteger),
    Column("kind", Text, nullable=False),
    Column("state", Text, nullable=False, server_default=text("'queued'::text")),
    Column("idempotency_key", Text),
    Column("request_hash", Text),
    Column("payload", JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    Column("progress", JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    Column("result", JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    Column("usage", JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    Column("errors", JSONB, nullable=False, server_default=text("'[]'::jsonb")),
    Column("attempts", Integer, nullable=False, server_default=text("0")),
    Column("leased_until", TS),
    Column("worker_id", Text),
    Column("created_at", TS, nullable=False, server_default=text("now()")),
    Column("started_at", TS),
    Column("finished_at", TS),
    Column("run_after", TS),  # not claimed before this time (a coalesced refresh waits for more commits)
    PrimaryKeyConstraint("tenant_id", "job_id", name="pk_jobs"),
    UniqueConstraint("tenant_id", "idempotency_key", name="uq_jobs_idempotency"),
    CheckConstraint("state IN ('queued', 'running', 'succeeded', 'failed')", name="ck_jobs_state"),
    ForeignKeyConstraint(["tenant_id"], ["tenants.tenant_id"], name="fk_jobs_tenant", ondelete="CASCADE"),
    _fk(["forest_id"], "forests", ["forest_id"], "fk_jobs_forest"),
    Index("ix_jobs_claim", "state", "created_at", postgresql_where=text("state IN ('queued', 'running')")),
    Index("ix_jobs_forest", "tenant_id", "forest_id"),
    # a tenant's queued jobs, counted against its quota (migration 0024)
    Index("ix_jobs_tenant_queued", "tenant_id", postgresql_where=text("state = 'queued'")),
    # the retention prune and the /metrics gauges of finished jobs (ADR 0019)
    Index("ix_jobs_finished", "state", "finished_at", postgresql_where=text("state IN ('succeeded', 'failed')")),
    # at most one queued refresh job per forest: later commits join it (ADR 0013)
    Index(
        "uq_jobs_queued_refresh",
        "tenant_id",
        "forest_id",
        unique=True,
        postgresql_where=text("kind = 'refresh' AND state = 'queued'"),
    ),
)


# ---------------------------------------------------------------- webhooks (migration 0008_webhooks, ADR 0020)
# Filled by the trigger trg_jobs_webhook_outbox on jobs (declared in the migration only).

webhooks = Table(
    "webhooks",
    metadata,
    _tenant(),
    Column("webhook_id", UUID(as_uuid=True), nullable=False),
    Column("url", Text, nullable=False),
    Column("events", ARRAY(Text), nullable=False),
    Column("secret", Text, nullable=False),
    Column("created_at", TS, nullable=False, server_default=text("now()")),
    PrimaryKeyConstraint("tenant_id", "webhook_id", name="pk_webhooks"),
    ForeignKeyConstraint(["tenant_id"], ["tenants.tenant_id"], name="fk_webhooks_tenant", ondelete="CASCADE"),
)

webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    _tenant(),
    Column("delivery_id", UUID(as_uuid=True), nullable=False),
    Column("webhook_id", UUID(as_uuid=True), nullable=False),
    Column("event_id", UUID(as_uuid=True), nullable=False),
    Column("type", Text, nullable=False),
    Column("job_id", UUID(as_uuid=True)),  # NULL for memory.changed, whose transaction is xact (migration 0025)
    Column("body", Text),
    Column("state", Text, nullable=False, server_default=text("'pending'::text")),
    Column("attempts", Integer, nullable=False, server_default=text("0")),
    Column("next_attempt_at", TS, nullable=False, server_default=text("now()")),
    Column("last_status", Integer),
    Column("last_error", Text),
    Column("created_at", TS, nullable=False, server_default=text("now()")),
    Column("delivered_at", TS),
    Column("xact", BigInteger),  # a memory.changed delivery's transaction: one per webhook (migration 0025)
    PrimaryKeyConstraint("tenant_id", "delivery_id", name="pk_webhook_deliveries"),
    _fk(["webhook_id"], "webhooks", ["webhook_id"], "fk_webhook_deliveries_webhook"),
    CheckConstraint("state IN ('pending', 'delivered', 'failed')", name="ck_webhook_deliveries_state"),
    Index("ix_webhook_deliveries_due", "next_attempt_at", postgresql_where=text("state = 'pending'")),
    Index("ix_webhook_deliveries_webhook", "tenant_id", "webhook_id", "created_at"),
    # the retention prune (migration 0024): next_attempt_at, a lease or a backoff after the last attempt
    Index("ix_webhook_deliveries_finished", "next_attempt_at", postgresql_where=text("state <> 'pending'")),
    Index(
        "ux_webhook_deliveries_xact", "tenant_id", "webhook_id", "xact", unique=True,
        postgresql_where=text("xact IS NOT NULL"),
    ),
)  # fmt: skip

# A merge job's source tenant, recorded by the admin endpoint as the owner; memforest_app has no grant
# on it: the one authority the worker accepts for a cross-tenant source (migration 0024).
admin_merges = Table(
    "admin_merges", metadata, _tenant(), Column("job_id", UUID(as_uuid=True), nullable=False),
    Column("src_tenant", UUID(as_uuid=True), nullable=False),
    Column("created_at", TS, nullable=False, server_default=text("now()")),
    PrimaryKeyConstraint("tenant_id", "job_id", name="pk_admin_merges"),
    _fk(["job_id"], "jobs", ["job_id"], "fk_admin_merges_job"),
)  # fmt: skip

WEBHOOK_TABLES = (webhooks.name, webhook_deliveries.name)

HISTORY_TABLES = (fact_events.name,)

TENANT_TABLES: tuple[str, ...] = tuple(t.name for t in metadata.sorted_tables if "tenant_id" in t.c)
