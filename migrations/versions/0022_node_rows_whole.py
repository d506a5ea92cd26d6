"""A summary node's row keeps its vector in its page, not in the TOAST table.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-28

At the default dimension (384) a node above the leaves holds a summary of up to 600 characters, its
full-text vector and a 1,544-byte embedding: ~2.3-2.9 KB, past PostgreSQL's 2 KB threshold, so the
embedding (pgvector's storage is EXTERNAL) went out of line. Every read of it then looks it up in the
TOAST table's index and heap (about four more buffers a row): the roots' re-scoring in recall, the
beam descent's children, and a refresh that re-embedded a node wrote a TOAST row besides it. The
benchmark database's ``nodes`` had a 513 MB TOAST relation (29K of its nodes in the 100K-fact
forest; ADR 0032).

``toast_tuple_target = 4080``: a row shorter than that is stored whole; a longer one (a longer
summary budget, a larger dimension) is toasted as before. It applies to values written from now on:
an update that leaves the embedding as it is keeps its TOAST pointer, so an existing node comes
whole when its summary (and so its embedding) next changes, or when the table is rewritten
(``VACUUM FULL nodes``, which locks it).
"""

from __future__ import annotations

from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE nodes SET (toast_tuple_target = 4080)")


def downgrade() -> None:
    op.execute("ALTER TABLE nodes RESET (toast_tuple_target)")
