"""Deleting facts reads their supersession links by index: forgetting a forest no longer scans the
whole facts table twice per fact.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27

``fk_facts_supersedes`` and ``fk_facts_superseded_by`` were ``ON DELETE SET NULL`` on columns no
index led with, so every deleted fact ran two sequential scans of the tenant's facts (PostgreSQL runs
the referential action for each deleted row). Forgetting a forest, dropping a merge's staging forest
or deleting a tenant grew with (facts deleted) x (facts stored): 150 ms a fact beside a 54K-fact
forest, so deleting a 1K-fact forest took minutes and held its locks meanwhile (ADR 0028).

``supersedes`` gets a partial b-tree, ``(tenant_id, supersedes) WHERE supersedes IS NOT NULL``: it is
set when a superseding fact is inserted and rarely changed after, so the index costs one entry per
superseding fact and no update of an old fact stops being HOT.

``superseded_by`` loses its foreign key instead. It is the column a supersession writes on the old
fact; indexing it would make every supersession a non-HOT update that re-enters each index of the
table, the forest's HNSW graph included (migration 0018). Its integrity is kept by the only paths
that delete single facts: retraction and client deletion re-thread the slot around the removed fact
and make current any other fact of the forest still pointing at it (``memforest.lifecycle.retract_chain``;
that one statement reads the forest's facts, where the key read the tenant's). Whole-forest and
whole-tenant deletions remove both ends of every link, which never crosses a forest.
"""

from __future__ import annotations

from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("CREATE INDEX ix_facts_supersedes ON facts (tenant_id, supersedes) WHERE supersedes IS NOT NULL")
    op.execute("ALTER TABLE facts DROP CONSTRAINT fk_facts_superseded_by")


def downgrade() -> None:
    # the key would not validate over links left to deleted facts: those end as the key would have
    op.execute(
        "UPDATE facts f SET superseded_by = NULL WHERE superseded_by IS NOT NULL AND NOT EXISTS "
        "(SELECT 1 FROM facts n WHERE n.tenant_id = f.tenant_id AND n.fact_id = f.superseded_by)"
    )
    op.execute(
        "ALTER TABLE facts ADD CONSTRAINT fk_facts_superseded_by FOREIGN KEY (tenant_id, superseded_by) "
        "REFERENCES facts (tenant_id, fact_id) ON DELETE SET NULL (superseded_by)"
    )
    op.execute("DROP INDEX ix_facts_supersedes")
