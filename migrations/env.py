"""Alembic environment: runs migrations on psycopg (sync), given a connection or a URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool, text

from memforest.db.schema import metadata

config = context.config
target_metadata = metadata
LOCK_SQL = text("SELECT pg_advisory_xact_lock(hashtextextended('memforest:migrations', 0))")


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            connection.execute(LOCK_SQL)
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url")
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            conn.execute(LOCK_SQL)  # replicas starting together migrate one at a time
            context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported; run `memforest db upgrade`")
run_migrations_online()
