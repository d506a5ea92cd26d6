"""The table catalogue that export, import and merge derive their column lists from matches the
migrated database (its order and the export format's fields: tests/unit/test_catalogue_shape.py)."""

from __future__ import annotations

from sqlalchemy import create_engine, pool, text

from memforest.db import migrate
from memforest.db.catalogue import TRANSFER_TABLES


def test_catalogue_matches_the_migrated_columns(db_url: str) -> None:
    engine = create_engine(migrate.sync_url(db_url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            for s in TRANSFER_TABLES:
                rows = conn.execute(
                    text(
                        "SELECT column_name, is_generated FROM information_schema.columns "
                        "WHERE table_schema = current_schema() AND table_name = :t ORDER BY ordinal_position"
                    ),
                    {"t": s.name},
                ).all()
                assert tuple(r[0] for r in rows) == s.columns, s.name
                assert {r[0] for r in rows if r[1] == "ALWAYS"} == s.computed, s.name
                if s.id_column is not None:
                    seq = conn.execute(
                        text("SELECT pg_get_serial_sequence(:t, :c)"), {"t": s.name, "c": s.id_column}
                    ).scalar()
                    assert seq is not None, s.name
    finally:
        engine.dispose()
