"""A forest's two node graphs index its vectors at half precision (ADR 0026, issue 16).

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27

Every forest's own HNSW graphs of nodes, ``ix_nodes_root_vec_f<forest>`` (its tree roots) and
``ix_nodes_cell_vec_f<forest>`` (its cell leaves), are rebuilt over ``CAST(embedding AS
halfvec(dim))`` with ``halfvec_cosine_ops`` (``memforest.store.forest_indexes``), ``dim`` being the
stored vectors' dimension: an element of the graph is half the bytes, so a search reads fewer pages
and a refresh or a new cell leaf writes fewer. The cell leaves' graph also links 8 neighbours a
layer instead of pgvector's default 16 (``WITH (m = 8)``): a search and an insert visit fewer. The
read path orders those two graphs by the same key and keeps each row's full-precision distance
(``memforest.store.recall.node_graph_order``). The facts' graph is unchanged. Each new index is
built beside the old one (``CREATE INDEX`` takes a SHARE lock: writes to nodes wait, reads go on;
~16 s for the two large forests of bench.query_latency), then the old ones are dropped and the new
renamed (ACCESS EXCLUSIVE locks, held until the migration commits). Until it commits the read path
goes on with the old graphs; an old release's read path would scan the new ones' forests exactly
(its ORDER BY no longer matches them): stop the old readers for the upgrade, and the workers, as for
0016 (``memforest db index-forests`` rebuilds a graph an old worker made with the old key).

A downgrade restores full-precision graphs.
"""

from __future__ import annotations

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

_GRAPHS = (
    "SELECT c.relname::text AS name, pg_get_expr(i.indpred, i.indrelid) AS rows FROM pg_index i "
    "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace ns ON ns.oid = c.relnamespace "
    "WHERE ns.nspname = current_schema() AND c.relname ~ '^ix_nodes_(root|cell)_vec_f[0-9]+$'"
)
_HALF_KEY = "format('(CAST(embedding AS halfvec(%s))) halfvec_cosine_ops', dim)"
_FULL_KEY = "'embedding vector_cosine_ops'"
# the cell leaves' graph links 8 neighbours a layer (ADR 0026); the roots' keeps the default 16
_CELL_M8 = "CASE WHEN r.name LIKE 'ix_nodes_cell_vec_f%' THEN ' WITH (m = 8)' ELSE '' END"
_DEFAULTS = "''"
_REBUILD = f"""
DO $$
DECLARE
    r record;
    dim int := (SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = CAST('nodes' AS regclass)
                AND a.attname = 'embedding' AND NOT a.attisdropped);
BEGIN
    FOR r IN {_GRAPHS} LOOP
        EXECUTE format('CREATE INDEX %I ON nodes USING hnsw (%s)%s WHERE %s', r.name || '_m17', {{key}},
                       {{options}}, r.rows);
    END LOOP;
    FOR r IN {_GRAPHS} LOOP
        EXECUTE format('DROP INDEX %I', r.name);
        EXECUTE format('ALTER INDEX %I RENAME TO %I', r.name || '_m17', r.name);
    END LOOP;
END $$
"""


def _rebuild(key: str, options: str) -> None:
    """Every forest's node graphs built again over ``key`` with ``options`` (SQL expressions of the
    DO block: the key and opclass, and the ``WITH`` clause of graph ``r``)."""
    op.execute("SET LOCAL statement_timeout = 0")  # a forest's graph may take a minute
    op.execute("SET LOCAL maintenance_work_mem = '256MB'")  # as forest index builds (settings)
    op.execute(_REBUILD.format(key=key, options=options))


def upgrade() -> None:
    _rebuild(_HALF_KEY, _CELL_M8)


def downgrade() -> None:
    _rebuild(_FULL_KEY, _DEFAULTS)
