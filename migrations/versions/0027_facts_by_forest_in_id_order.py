"""A forest's facts, and its user-role turns, in id order by index: the newest facts of one forest
that name someone, and its latest user-role turn, are found without reading the tenant's other forests.

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-29

The temporal read path reads the newest live facts of a forest whose text names a person (the other
names they go by, ``store.temporal.texts_naming``: ``ORDER BY fact_id DESC LIMIT n``). No index led
with ``(tenant_id, forest_id)`` in id order, so PostgreSQL walked ``pk_facts`` (``tenant_id,
fact_id``) backwards through every forest of the tenant, filtering each fact by forest and text: a
forest loaded before the tenant's others was reached only after all of their facts (ADR 0050).

``ix_facts_forest_id (tenant_id, forest_id, fact_id)`` serves that walk within the forest. No column
of it changes after a fact is inserted, so no update of a fact stops being HOT.

A question in the first person with no speaker on the query reads the forest's latest user-role turn
(``store.temporal.user_speaker``: ``role = 'user' ORDER BY turn_id DESC LIMIT 1``), which read every
turn of the forest when it had none of that role, or walked ``pk_turns`` through the tenant's other
forests. ``ix_turns_forest_user (tenant_id, forest_id, turn_id) WHERE role = 'user'`` answers it in
one probe; a turn's role and forest are never updated.
"""

from __future__ import annotations

from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("CREATE INDEX ix_facts_forest_id ON facts (tenant_id, forest_id, fact_id)")
    op.execute("CREATE INDEX ix_turns_forest_user ON turns (tenant_id, forest_id, turn_id) WHERE role = 'user'")


def downgrade() -> None:
    op.execute("DROP INDEX ix_turns_forest_user")
    op.execute("DROP INDEX ix_facts_forest_id")
