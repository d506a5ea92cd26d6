"""The slot index carries the time: a new fact's slot neighbours are one index probe, not the slot's
whole history.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26

Accepting a fact that names a slot (subject and attribute) reads the slot's live holders just
before and just after its ``valid_from`` (``ORDER BY valid_from ... LIMIT 1``). ``ix_facts_slot``
held ``(tenant, forest, subject, attribute)`` only, so each lookup read and sorted every fact the
slot ever had: at 50K facts of bench.write_scaling's world a slot held ~380 facts, and the two
lookups per new fact took 6 ms a session, growing with the forest (ADR 0025 addendum, session 11).
With ``valid_from, fact_id`` in the key the lookup reads the b-tree from the time on, forwards or
backwards, and stops at the first live holder. Lookups by slot alone still use its prefix.
"""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

_SLOT = "subject IS NOT NULL AND attribute IS NOT NULL"


def upgrade() -> None:
    op.drop_index("ix_facts_slot", table_name="facts")
    op.execute(
        f"CREATE INDEX ix_facts_slot ON facts (tenant_id, forest_id, subject, attribute, valid_from, fact_id) WHERE {_SLOT}"
    )


def downgrade() -> None:
    op.drop_index("ix_facts_slot", table_name="facts")
    op.execute(f"CREATE INDEX ix_facts_slot ON facts (tenant_id, forest_id, subject, attribute) WHERE {_SLOT}")
