"""The full-text channel of nodes reads cell leaves only, not internal nodes (ADR 0024, session 14).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26

Internal nodes' summaries gather their leaves' words (30 lexemes a node against 10 a cell leaf in
bench.query_latency's 100K forest), so a pair of a question's words was found in 43% of them
(12,773 of 29,337): 12,773 of the 19,610 rows the node channel's GIN index returned for that
question's term pairs, 8.4 ms of bitmap before the first row. A match on an internal node names a
tree whose leaves the fact and cell channels reach directly. So:

- ``memforest_node_text_candidates`` (migration 0014) reads rows with ``leaf_cell_id IS NOT NULL``
  (the cell leaves) where it read every row without ``leaf_fact_id``; signature, tenant filter,
  visibility and grants unchanged;
- every forest's own node GIN index ``ix_nodes_tsv_f<forest>`` is rebuilt over its cell leaves
  (``memforest.store.forest_indexes``): a third of the posting entries, and the write path no longer
  adds an internal node's words to it each time a refresh rewrites its summary. Each new index is
  built beside the old one (``CREATE INDEX`` takes a SHARE lock: writes to nodes wait, reads go
  on; a few seconds per 100K-fact forest), then the old ones are dropped and the new renamed,
  and the function replaced: those take ACCESS EXCLUSIVE locks, held until the migration commits
  (moments after). Stop the workers for the upgrade: an old worker could build a forest's index
  with the old predicate afterwards, which the read path's check (by name) would take as current
  (``memforest db index-forests`` compares predicates and rebuilds it).

A downgrade restores both.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def _revision_0014() -> Any:
    """Migration 0014's module: the function builder, the grants and 0013's pieces it uses."""
    path = Path(__file__).with_name("0014_text_candidates_one_call.py")
    spec = importlib.util.spec_from_file_location("memforest_migration_0014", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_V14 = _revision_0014()
_NAME = "memforest_node_text_candidates"
_RETURNS = "node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector"
_COLS = "m.node_id, m.tree_id, m.leaf_cell_id, m.tsv"
_VISIBLE = "($2 IS NULL OR m.t_start <= $2)"
_CELLS = "leaf_cell_id IS NOT NULL"
_NOT_FACTS = "leaf_fact_id IS NULL"
# every forest's own node GIN index, built again over the rows of ``{rows}``: each new one beside
# the old (reads go on), then the old ones dropped and the new renamed (brief exclusive locks)
_FOREST_NODE_TEXT = (
    "SELECT c.relname::text AS name, substring(c.relname FROM '[0-9]+$') AS forest FROM pg_class c "
    "JOIN pg_namespace ns ON ns.oid = c.relnamespace WHERE c.relkind = 'i' AND ns.nspname = current_schema() "
    "AND c.relname ~ '^ix_nodes_tsv_f[0-9]+$'"
)
_REBUILD = f"""
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN {_FOREST_NODE_TEXT} LOOP
        EXECUTE format('CREATE INDEX %I ON nodes USING gin (tsv) WHERE forest_id = %s AND {{rows}}',
                       r.name || '_m16', r.forest);
    END LOOP;
    FOR r IN {_FOREST_NODE_TEXT} LOOP
        EXECUTE format('DROP INDEX %I', r.name);
        EXECUTE format('ALTER INDEX %I RENAME TO %I', r.name || '_m16', r.name);
    END LOOP;
END $$
"""


def _replace(rows: str) -> None:
    """The forests' node GIN indexes and the node candidates function over the rows of ``rows``
    (the indexes first: replacing the function locks it until the migration commits)."""
    op.execute("SET LOCAL statement_timeout = 0")  # a forest's GIN build may take seconds
    op.execute("SET LOCAL maintenance_work_mem = '256MB'")  # as forest index builds (settings)
    op.execute(_REBUILD.format(rows=rows))
    op.execute(f"DROP FUNCTION IF EXISTS {_NAME}{_V14._SIGNATURE}")
    op.execute(_V14._function(_NAME, _RETURNS, _COLS, "nodes", f"AND x.{rows} ", _VISIBLE))
    _V14._grant((_NAME,), _V14._SIGNATURE)


def upgrade() -> None:
    _replace(_CELLS)


def downgrade() -> None:
    _replace(_NOT_FACTS)
