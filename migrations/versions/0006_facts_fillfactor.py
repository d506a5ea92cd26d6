"""Leave room on fact pages so counter and supersession updates stay HOT.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22

Merging a duplicate bumps ``facts.source_count`` and a supersession sets ``superseded_by`` /
``valid_to``: none of these columns is indexed, so PostgreSQL can update the row in place (HOT)
when its page has free space. Fact rows are wide (the embedding), pages were filled to 100 %, and
at 50K facts a third of those updates moved the row to another page, which re-inserts it into
every index of the table, the HNSW index included (about 1-2 ms each at that size, and a dead
entry for VACUUM to clean). A fill factor of 85 keeps room for the update on the same page. It
applies to pages written from now on; ``VACUUM FULL facts`` rewrites existing ones. See ADR 0015.
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE facts SET (fillfactor = 85)")


def downgrade() -> None:
    op.execute("ALTER TABLE facts RESET (fillfactor)")
