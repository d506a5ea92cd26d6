"""Every event of a fact is kept (``fact_events``) and facts' changes reach webhooks (``memory.changed``).

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-29

- ``fact_events``: one row per event of a fact, written by triggers on ``facts`` and
  ``fact_sources`` so no write statement names it (ADR 0044):
  - ``created`` (an INSERT of facts; ``superseded`` or ``corrected`` too when the row is born
    superseded), ``sources_added`` / ``sources_removed`` (INSERT / DELETE of fact_sources, one row
    per fact per statement with the client's turn and session ids) and ``deleted`` (a DELETE of facts, with
    the text): statement-level triggers reading transition tables, one INSERT per write statement;
  - ``superseded`` / ``corrected`` (the successor is a client's correction) / ``restored``
    (``superseded_by`` cleared) / ``supersedes``: a row trigger with a WHEN on the two pointer
    columns, so an UPDATE that changes neither (embeddings, source counts) queues nothing and
    captures no transition table.
  A deletion that forgets the fact's text (``text_dropped``) blanks the text of all its events.
  Each row carries the transaction's id (``xact``: events of one transaction read together), its
  start time (``at``) and the transaction's ``memforest.actor`` setting (an API key id).
  ``memforest.history = 'off'`` (set by forgetting a forest, whose events go with it) skips them.
  No foreign key: a deleted fact's events stay. Deleting a forest deletes its events (a
  statement trigger on forests), and rows deleted with their forest (a tenant's cascade) write none.
- ``webhook_deliveries``: ``job_id`` may be NULL and ``xact`` names the transaction of a
  ``memory.changed`` delivery, one per webhook and transaction: a statement trigger on fact_events
  inserts it with its body, or appends its changes to the body already there (ADR 0045). An
  import's hidden staging forest (``~staging:``) sends none: its facts reach the target forest by
  a merge, which does.
- Row-level security on ``fact_events`` as on every tenant table; ``memforest_app`` may read and
  insert events, and use their sequence.
"""

from __future__ import annotations

from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"
POLICY = (
    "USING (tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid) "
    "WITH CHECK (tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid)"
)

# (name, CREATE statement); migrations/functions/<name>.sql holds the same text (ADR 0036)
FUNCTIONS: tuple[tuple[str, str], ...] = (
    (
        "memforest_fact_events_created",
        """CREATE OR REPLACE FUNCTION memforest_fact_events_created() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    IF current_setting('memforest.history', true) IS NOT DISTINCT FROM 'off' THEN
        RETURN NULL;
    END IF;
    INSERT INTO fact_events (tenant_id, forest_id, fact_id, event, related_fact_id, text, kind, valid_from,
                             valid_to, actor)
    SELECT n.tenant_id, n.forest_id, n.fact_id, e.event, e.related, e.text, n.kind, n.valid_from, n.valid_to,
           NULLIF(current_setting('memforest.actor', true), '')
    FROM added n
    CROSS JOIN LATERAL (
        VALUES (0, 'created', n.supersedes, n.text),
               (1, CASE WHEN n.superseded_by IS NULL THEN NULL
                        WHEN (SELECT s.kind FROM facts s WHERE s.tenant_id = n.tenant_id
                              AND s.fact_id = n.superseded_by) = 'correction' THEN 'corrected'
                        ELSE 'superseded' END, n.superseded_by, NULL)
    ) AS e(step, event, related, text)
    WHERE e.event IS NOT NULL
    ORDER BY n.fact_id, e.step;
    RETURN NULL;
END
$fn$;""",
    ),
    (
        "memforest_fact_events_relinked",
        """CREATE OR REPLACE FUNCTION memforest_fact_events_relinked() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    INSERT INTO fact_events (tenant_id, forest_id, fact_id, event, related_fact_id, kind, valid_from, valid_to,
                             actor)
    SELECT NEW.tenant_id, NEW.forest_id, NEW.fact_id, e.event, e.related, NEW.kind, NEW.valid_from,
           NEW.valid_to, NULLIF(current_setting('memforest.actor', true), '')
    FROM (
        VALUES (0, CASE WHEN NEW.superseded_by IS NOT DISTINCT FROM OLD.superseded_by THEN NULL
                        WHEN NEW.superseded_by IS NULL THEN 'restored'
                        WHEN (SELECT s.kind FROM facts s WHERE s.tenant_id = NEW.tenant_id
                              AND s.fact_id = NEW.superseded_by) = 'correction' THEN 'corrected'
                        ELSE 'superseded' END, coalesce(NEW.superseded_by, OLD.superseded_by)),
               (1, CASE WHEN NEW.supersedes IS NOT NULL AND NEW.supersedes IS DISTINCT FROM OLD.supersedes
                        THEN 'supersedes' END, NEW.supersedes)
    ) AS e(step, event, related)
    WHERE e.event IS NOT NULL
    ORDER BY e.step;
    RETURN NULL;
END
$fn$;""",
    ),
    (
        "memforest_fact_events_deleted",
        """CREATE OR REPLACE FUNCTION memforest_fact_events_deleted() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    IF current_setting('memforest.history', true) IS NOT DISTINCT FROM 'off' THEN
        RETURN NULL;
    END IF;
    INSERT INTO fact_events (tenant_id, forest_id, fact_id, event, text, kind, valid_from, valid_to, actor)
    SELECT o.tenant_id, o.forest_id, o.fact_id, 'deleted', o.text, o.kind, o.valid_from, o.valid_to,
           NULLIF(current_setting('memforest.actor', true), '')
    FROM removed o
    WHERE EXISTS (SELECT FROM forests f WHERE f.tenant_id = o.tenant_id AND f.forest_id = o.forest_id)
    ORDER BY o.fact_id;
    RETURN NULL;
END
$fn$;""",
    ),
    (
        "memforest_fact_events_sources",
        """CREATE OR REPLACE FUNCTION memforest_fact_events_sources() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    IF current_setting('memforest.history', true) IS NOT DISTINCT FROM 'off' THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO fact_events (tenant_id, forest_id, fact_id, event, turns, sessions, actor)
        SELECT s.tenant_id, min(s.forest_id), s.fact_id, 'sources_added',
               array_agg(coalesce(tu.external_id, ss.external_id || '#' || tu.seq) ORDER BY s.turn_id),
               array_agg(DISTINCT ss.external_id), NULLIF(current_setting('memforest.actor', true), '')
        FROM added s
        LEFT JOIN turns tu ON tu.tenant_id = s.tenant_id AND tu.turn_id = s.turn_id
        LEFT JOIN sessions ss ON ss.tenant_id = s.tenant_id AND ss.session_id = s.session_id
        GROUP BY s.tenant_id, s.fact_id ORDER BY s.fact_id;
    ELSE
        INSERT INTO fact_events (tenant_id, forest_id, fact_id, event, turns, sessions, actor)
        SELECT s.tenant_id, min(s.forest_id), s.fact_id, 'sources_removed',
               array_agg(coalesce(tu.external_id, ss.external_id || '#' || tu.seq) ORDER BY s.turn_id),
               array_agg(DISTINCT ss.external_id), NULLIF(current_setting('memforest.actor', true), '')
        FROM removed s
        LEFT JOIN turns tu ON tu.tenant_id = s.tenant_id AND tu.turn_id = s.turn_id
        LEFT JOIN sessions ss ON ss.tenant_id = s.tenant_id AND ss.session_id = s.session_id
        WHERE EXISTS (SELECT FROM forests f WHERE f.tenant_id = s.tenant_id AND f.forest_id = s.forest_id)
        GROUP BY s.tenant_id, s.fact_id ORDER BY s.fact_id;
    END IF;
    RETURN NULL;
END
$fn$;""",
    ),
    (
        "memforest_fact_events_forest_gone",
        """CREATE OR REPLACE FUNCTION memforest_fact_events_forest_gone() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    DELETE FROM fact_events e USING removed g WHERE e.tenant_id = g.tenant_id AND e.forest_id = g.forest_id;
    RETURN NULL;
END
$fn$;""",
    ),
    (
        "memforest_memory_changed_outbox",
        """CREATE OR REPLACE FUNCTION memforest_memory_changed_outbox() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    INSERT INTO webhook_deliveries AS d (tenant_id, delivery_id, webhook_id, event_id, type, job_id, xact, body)
    SELECT c.tenant_id, gen_random_uuid(), w.webhook_id, c.event_id, 'memory.changed', NULL, c.xact,
           jsonb_build_object('id', c.event_id, 'type', 'memory.changed', 'created_at', now(),
                              'data', jsonb_build_object('changes', c.changes))::text
    FROM (
        SELECT n.tenant_id, n.xact, md5(n.tenant_id::text || ':' || n.xact::text)::uuid AS event_id,
               jsonb_agg(jsonb_build_object('forest', f.name, 'fact_id', n.fact_id::text, 'event', n.event,
                                            'related_fact_id', n.related_fact_id::text, 'at', n.at)
                         ORDER BY n.event_id) AS changes
        FROM added n JOIN forests f ON f.tenant_id = n.tenant_id AND f.forest_id = n.forest_id
        WHERE n.event IN ('created', 'superseded', 'corrected', 'restored', 'deleted')
          AND f.name NOT LIKE '~staging:%'
        GROUP BY n.tenant_id, n.xact
    ) c
    JOIN webhooks w ON w.tenant_id = c.tenant_id AND 'memory.changed' = ANY (w.events)
    ON CONFLICT (tenant_id, webhook_id, xact) WHERE xact IS NOT NULL DO UPDATE
    SET body = jsonb_set(d.body::jsonb, '{data,changes}',
                         (d.body::jsonb #> '{data,changes}') || (EXCLUDED.body::jsonb #> '{data,changes}'))::text
    WHERE d.state = 'pending' AND d.attempts = 0;
    RETURN NULL;
END
$fn$;""",
    ),
)

TRIGGERS = (
    "CREATE TRIGGER trg_facts_events_created AFTER INSERT ON facts REFERENCING NEW TABLE AS added "
    "FOR EACH STATEMENT EXECUTE FUNCTION memforest_fact_events_created()",
    "CREATE TRIGGER trg_facts_events_relinked AFTER UPDATE OF superseded_by, supersedes ON facts FOR EACH ROW "
    "WHEN ((OLD.superseded_by IS DISTINCT FROM NEW.superseded_by OR (NEW.supersedes IS NOT NULL "
    "AND OLD.supersedes IS DISTINCT FROM NEW.supersedes)) "
    "AND current_setting('memforest.history', true) IS DISTINCT FROM 'off') "
    "EXECUTE FUNCTION memforest_fact_events_relinked()",
    "CREATE TRIGGER trg_facts_events_deleted AFTER DELETE ON facts REFERENCING OLD TABLE AS removed "
    "FOR EACH STATEMENT EXECUTE FUNCTION memforest_fact_events_deleted()",
    "CREATE TRIGGER trg_fact_sources_events_added AFTER INSERT ON fact_sources REFERENCING NEW TABLE AS added "
    "FOR EACH STATEMENT EXECUTE FUNCTION memforest_fact_events_sources()",
    "CREATE TRIGGER trg_fact_sources_events_removed AFTER DELETE ON fact_sources REFERENCING OLD TABLE AS removed "
    "FOR EACH STATEMENT EXECUTE FUNCTION memforest_fact_events_sources()",
    "CREATE TRIGGER trg_forests_fact_events_gone AFTER DELETE ON forests REFERENCING OLD TABLE AS removed "
    "FOR EACH STATEMENT EXECUTE FUNCTION memforest_fact_events_forest_gone()",
    "CREATE TRIGGER trg_fact_events_memory_changed AFTER INSERT ON fact_events REFERENCING NEW TABLE AS added "
    "FOR EACH STATEMENT EXECUTE FUNCTION memforest_memory_changed_outbox()",
)
_TRIGGER_TABLES = (
    ("trg_facts_events_created", "facts"),
    ("trg_facts_events_relinked", "facts"),
    ("trg_facts_events_deleted", "facts"),
    ("trg_fact_sources_events_added", "fact_sources"),
    ("trg_fact_sources_events_removed", "fact_sources"),
    ("trg_forests_fact_events_gone", "forests"),
    ("trg_fact_events_memory_changed", "fact_events"),
)


def _if_role(statement: str) -> None:
    op.execute(
        f"""
        DO $$
        BEGIN
            IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
                EXECUTE {statement};
            END IF;
        END
        $$
        """
    )


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE fact_events (
            tenant_id uuid NOT NULL,
            event_id bigint GENERATED BY DEFAULT AS IDENTITY,
            forest_id bigint NOT NULL,
            fact_id bigint NOT NULL,
            event text NOT NULL,
            related_fact_id bigint,
            text text,
            kind text,
            valid_from timestamptz,
            valid_to timestamptz,
            turns text[],
            sessions text[],
            actor text,
            text_dropped boolean NOT NULL DEFAULT false,
            xact bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
            at timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT pk_fact_events PRIMARY KEY (tenant_id, event_id)
        )
        """
    )
    op.execute("CREATE INDEX ix_fact_events_fact ON fact_events (tenant_id, forest_id, fact_id, event_id)")
    op.execute("ALTER TABLE fact_events ENABLE ROW LEVEL SECURITY")
    op.execute(f"CREATE POLICY tenant_isolation ON fact_events {POLICY}")
    _if_role(f"'GRANT SELECT, INSERT, UPDATE, DELETE ON fact_events TO {APP_ROLE}'")
    _if_role(
        f"'GRANT USAGE, SELECT ON SEQUENCE ' || pg_get_serial_sequence('fact_events', 'event_id') || ' TO {APP_ROLE}'"
    )
    op.execute("ALTER TABLE webhook_deliveries ALTER COLUMN job_id DROP NOT NULL, ADD COLUMN xact bigint")
    op.execute(
        "CREATE UNIQUE INDEX ux_webhook_deliveries_xact ON webhook_deliveries (tenant_id, webhook_id, xact) "
        "WHERE xact IS NOT NULL"
    )
    for _name, statement in FUNCTIONS:
        op.execute(statement)
    for statement in TRIGGERS:
        op.execute(statement)


def downgrade() -> None:
    for trigger, table in reversed(_TRIGGER_TABLES):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {table}")
    for name, _statement in reversed(FUNCTIONS):
        op.execute(f"DROP FUNCTION IF EXISTS {name}()")
    op.execute("DROP INDEX IF EXISTS ux_webhook_deliveries_xact")
    op.execute("DELETE FROM webhook_deliveries WHERE job_id IS NULL")
    op.execute("ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS xact, ALTER COLUMN job_id SET NOT NULL")
    op.execute("DROP TABLE IF EXISTS fact_events")
