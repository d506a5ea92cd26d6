"""Dirty marks move to ``dirty_nodes``, so a node's updates can stay HOT; ``nodes`` keeps room for them.

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-29

``ix_nodes_dirty`` (partial, ``WHERE dirty``) made every change of a node's ``dirty`` flag a change
of an indexed column: each ancestor an append marks (``dirty``, ``version``, ``t_end``,
``n_children``) and each node a refresh writes got a new row version on another page, with an entry
in every index of ``nodes``, the forest's HNSW and GIN graphs included when the node is a root or a
cell leaf (ADR 0051). Now:

- ``dirty_nodes (tenant_id, forest_id, level, node_id)`` holds a row exactly while the node's
  ``dirty`` flag is set, written by triggers on ``nodes`` so no write statement names it:
  row triggers of ``memforest_dirty_nodes_mark`` on INSERT, UPDATE OF the flag (or forest or level)
  and DELETE, each guarded by a WHEN, so only a node whose flag is set or changes calls it (a bulk
  load or deletion of clean nodes, an embedding's update, call nothing).
  Row-level security as on every tenant table; ``memforest_app`` may read and write it.
- ``ix_nodes_dirty`` is dropped: refresh, the orphan sweep and the gauges read ``dirty_nodes``.
- ``nodes`` is stored with fillfactor 80: an insert leaves a fifth of its page free, so an update
  that changes no indexed column finds room for the new version on the same page (HOT). It applies
  to pages written from now on; ``VACUUM FULL nodes`` rewrites existing ones.
"""

from __future__ import annotations

from alembic import op

revision = "0026"
down_revision = "0025"
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
        "memforest_dirty_nodes_mark",
        """CREATE OR REPLACE FUNCTION memforest_dirty_nodes_mark() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        IF OLD.dirty THEN
            DELETE FROM dirty_nodes d WHERE d.tenant_id = OLD.tenant_id AND d.forest_id = OLD.forest_id
              AND d.level = OLD.level AND d.node_id = OLD.node_id;
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        IF NEW.dirty THEN
            INSERT INTO dirty_nodes (tenant_id, forest_id, level, node_id)
            VALUES (NEW.tenant_id, NEW.forest_id, NEW.level, NEW.node_id) ON CONFLICT DO NOTHING;
        END IF;
    END IF;
    RETURN NULL;
END
$fn$;""",
    ),
)

# Row triggers guarded by WHEN: a row whose flag neither is set nor changes (a bulk load of clean
# nodes, an embedding's update, a clean node's deletion) calls no function.
TRIGGERS = (
    "CREATE TRIGGER trg_nodes_dirty_inserted AFTER INSERT ON nodes FOR EACH ROW WHEN (NEW.dirty) "
    "EXECUTE FUNCTION memforest_dirty_nodes_mark()",
    "CREATE TRIGGER trg_nodes_dirty_updated AFTER UPDATE OF dirty, forest_id, level ON nodes FOR EACH ROW "
    "WHEN (OLD.dirty IS DISTINCT FROM NEW.dirty OR (NEW.dirty AND (OLD.forest_id <> NEW.forest_id "
    "OR OLD.level <> NEW.level))) EXECUTE FUNCTION memforest_dirty_nodes_mark()",
    "CREATE TRIGGER trg_nodes_dirty_deleted AFTER DELETE ON nodes FOR EACH ROW WHEN (OLD.dirty) "
    "EXECUTE FUNCTION memforest_dirty_nodes_mark()",
)
_TRIGGER_NAMES = ("trg_nodes_dirty_inserted", "trg_nodes_dirty_updated", "trg_nodes_dirty_deleted")


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
        CREATE TABLE dirty_nodes (
            tenant_id uuid NOT NULL,
            forest_id bigint NOT NULL,
            level integer NOT NULL,
            node_id bigint NOT NULL,
            CONSTRAINT pk_dirty_nodes PRIMARY KEY (tenant_id, forest_id, level, node_id)
        )
        """
    )
    op.execute("ALTER TABLE dirty_nodes ENABLE ROW LEVEL SECURITY")
    op.execute(f"CREATE POLICY tenant_isolation ON dirty_nodes {POLICY}")
    _if_role(f"'GRANT SELECT, INSERT, UPDATE, DELETE ON dirty_nodes TO {APP_ROLE}'")
    # no writer may flag a node between the copy below and the triggers that keep the copy
    op.execute("LOCK TABLE nodes IN SHARE ROW EXCLUSIVE MODE")
    op.execute(
        "INSERT INTO dirty_nodes (tenant_id, forest_id, level, node_id) "
        "SELECT tenant_id, forest_id, level, node_id FROM nodes WHERE dirty ORDER BY 1, 2, 3, 4"
    )
    for _name, statement in FUNCTIONS:
        op.execute(statement)
    for statement in TRIGGERS:
        op.execute(statement)
    op.execute("DROP INDEX IF EXISTS ix_nodes_dirty")
    op.execute("ALTER TABLE nodes SET (fillfactor = 80)")


def downgrade() -> None:
    op.execute("ALTER TABLE nodes RESET (fillfactor)")
    op.execute("CREATE INDEX ix_nodes_dirty ON nodes (tenant_id, forest_id, level) WHERE dirty")
    for trigger in reversed(_TRIGGER_NAMES):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger} ON nodes")
    for name, _statement in reversed(FUNCTIONS):
        op.execute(f"DROP FUNCTION IF EXISTS {name}()")
    op.execute("DROP TABLE IF EXISTS dirty_nodes")
