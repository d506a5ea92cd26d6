"""An inner node's refresh write changes no indexed column, so it is a HOT update (ADR 0102).

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-30

A large forest's own indexes over ``nodes`` (ADR 0024) hold its cell leaves' text (GIN over
``tsv``) and its roots' and cell leaves' vectors (HNSW over ``CAST(embedding AS halfvec(dim))``).
PostgreSQL decides whether an update may be HOT by the columns any index of the table names, in
its key or its predicate, whichever rows it holds: once one forest had its indexes, a refresh
write of any inner node (new ``summary``, hence ``tsv``, and ``embedding``) changed indexed
columns, and got a new entry in every b-tree of ``nodes`` (39% of node updates were HOT in the
database of ADR 0095). Now:

- ``tsv`` is generated for cell leaves only (NULL on every other row, which no text channel reads:
  migration 0016);
- ``graph_embedding`` (``halfvec``, generated) holds the vector of a root or a cell leaf, the rows
  of the two node graphs, and is NULL on every other row; each forest's two node graphs are built
  again over it (``CAST(graph_embedding AS halfvec(dim))``: the same half-precision key as before,
  the same names, rows and storage parameters), and the read path orders by it.

An inner node's indexed columns thus stay NULL through its refreshes. Both columns are computed by
the server, so every writer (refresh, tree insert, import, re-embedding) keeps them right: a root
that gets a parent loses its graph vector in the same update. Adding the two columns (``tsv`` dropped and added again with its new
expression, which PostgreSQL 15 and 16 allow) rewrites ``nodes`` once, under an ACCESS EXCLUSIVE lock held until the migration commits
(reads and writes of ``nodes`` wait: stop the workers and the old release's readers, as for 0016 and
0017); the forests' node graphs are dropped before the rewrite and built over the new column after
it. A downgrade restores both.
"""

from __future__ import annotations

from alembic import op

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None

_TSV_ALL = "to_tsvector('english'::regconfig, COALESCE(summary, ''::text))"
_TSV_CELLS = f"CASE WHEN leaf_cell_id IS NOT NULL THEN {_TSV_ALL} END"
_GRAPH_ROWS = "CASE WHEN parent_id IS NULL OR leaf_cell_id IS NOT NULL THEN CAST(embedding AS halfvec) END"
_GRAPHS = (
    "SELECT c.relname::text AS name, pg_get_expr(i.indpred, i.indrelid) AS rows, "
    "coalesce(' WITH (' || array_to_string(c.reloptions, ', ') || ')', '') AS options FROM pg_index i "
    "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace ns ON ns.oid = c.relnamespace "
    "WHERE ns.nspname = current_schema() AND c.relname ~ '^ix_nodes_(root|cell)_vec_f[0-9]+$'"
)
# Every forest's node graph (name, rows, storage parameters) and every index that reads ``tsv`` (its
# definition) is kept and dropped; ``tsv`` is dropped and both generated columns added in one
# ``ALTER TABLE`` (``{add}``: one rewrite, which rebuilds the b-trees); the ``tsv`` indexes are built
# again from their definitions and each graph over ``{column}`` at the stored vectors' dimension.
# Dropping and adding ``tsv`` instead of ``ALTER COLUMN ... SET EXPRESSION`` keeps the migration
# valid on PostgreSQL 15 and 16 (``SET EXPRESSION`` is PostgreSQL 17's); the graphs are dropped first
# because the rewrite would build each old graph again only for it to be replaced.
_ALTER = f"""
DO $$
DECLARE
    names text[] := ARRAY(SELECT g.name FROM ({_GRAPHS}) g ORDER BY g.name);
    preds text[] := ARRAY(SELECT g.rows FROM ({_GRAPHS}) g ORDER BY g.name);
    opts text[] := ARRAY(SELECT g.options FROM ({_GRAPHS}) g ORDER BY g.name);
    texts text[] := ARRAY(
        SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i
        WHERE i.indrelid = CAST('nodes' AS regclass) AND pg_get_indexdef(i.indexrelid) ~ '\\mtsv\\M'
        ORDER BY i.indexrelid);
    dim int := (SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = CAST('nodes' AS regclass)
                AND a.attname = 'embedding' AND NOT a.attisdropped);
BEGIN
    FOR k IN 1 .. coalesce(array_length(names, 1), 0) LOOP
        EXECUTE format('DROP INDEX %I', names[k]);
    END LOOP;
    EXECUTE 'ALTER TABLE nodes DROP COLUMN tsv';
    EXECUTE {{add}};
    FOR k IN 1 .. coalesce(array_length(texts, 1), 0) LOOP
        EXECUTE texts[k];
    END LOOP;
    FOR k IN 1 .. coalesce(array_length(names, 1), 0) LOOP
        EXECUTE format('CREATE INDEX %I ON nodes USING hnsw ((CAST({{column}} AS halfvec(%s))) '
                       'halfvec_cosine_ops)%s WHERE %s', names[k], dim, opts[k], preds[k]);
    END LOOP;
END $$
"""


def _alter(add: str, column: str) -> None:
    op.execute("SET LOCAL statement_timeout = 0")  # a rewrite and the graphs' builds
    op.execute("SET LOCAL maintenance_work_mem = '256MB'")  # as forest index builds (settings)
    op.execute(_ALTER.format(add="'" + add.replace("'", "''") + "'", column=column))


def upgrade() -> None:
    _alter(
        f"ALTER TABLE nodes ADD COLUMN tsv tsvector GENERATED ALWAYS AS ({_TSV_CELLS}) STORED, "
        f"ADD COLUMN graph_embedding halfvec GENERATED ALWAYS AS ({_GRAPH_ROWS}) STORED",
        "graph_embedding",
    )
    op.execute("ANALYZE nodes")  # a rewrite leaves the new columns without statistics until then


def downgrade() -> None:
    _alter(
        f"ALTER TABLE nodes DROP COLUMN graph_embedding, "
        f"ADD COLUMN tsv tsvector GENERATED ALWAYS AS ({_TSV_ALL}) STORED",
        "embedding",
    )
    op.execute("ANALYZE nodes")
