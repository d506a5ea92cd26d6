"""Fact pages keep room for one more version of a full row, so its updates stay HOT.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-27

Migration 0006 stored ``facts`` with fillfactor 85 when vectors had 256 dimensions. At the default
384 a fact row is about 1.9 KB inline (the vector alone 1,544 bytes), and a row whose text makes it
pass PostgreSQL's 2 KB TOAST threshold keeps its vector out of line and takes ~0.5 KB of the page.
Pages filled to 85% by a mix of both are left with ~1.2-1.7 KB: less than one inline row, so when an
old fact is superseded (``superseded_by``, ``valid_to``) or re-mentioned (``source_count``) the new
version goes to another page, and every index of the table takes a new entry, the forest's HNSW
graph included (~1-1.5 ms each at 50K facts). In bench.write_scaling's 50K-fact forest 19-35% of
these updates were not HOT at 85; at 75 none was (ADR 0025, session-19 addendum). 75 leaves
~2 KB, one inline row. The heap is ~15% larger; the indexes are not.

It applies to pages written from now on; ``VACUUM FULL facts`` rewrites existing ones.
"""

from __future__ import annotations

from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE facts SET (fillfactor = 75)")


def downgrade() -> None:
    op.execute("ALTER TABLE facts SET (fillfactor = 85)")
