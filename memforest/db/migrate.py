"""Alembic migrations driven from code (``memforest db upgrade`` / ``current``), on psycopg."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, pool, text

from memforest.errors import ConfigurationError

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


def sync_url(url: str) -> str:
    """The psycopg (sync) form of a PostgreSQL URL, whatever driver it names."""
    for prefix in ("postgresql+asyncpg://", "postgresql+psycopg://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    raise ConfigurationError(f"not a PostgreSQL URL: {url.split('://', 1)[0]}://...")


def alembic_config(url: str, *, embedding_dim: int) -> Config:
    """An Alembic config for ``url`` whose migrations create vectors of ``embedding_dim``."""
    if not (MIGRATIONS_DIR / "env.py").exists():
        raise ConfigurationError(f"migrations not found at {MIGRATIONS_DIR}")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", sync_url(url).replace("%", "%%"))
    cfg.attributes["embedding_dim"] = embedding_dim
    return cfg


def upgrade(url: str, *, embedding_dim: int, revision: str = "head") -> None:
    """Migrate the database at ``url`` up to ``revision``."""
    command.upgrade(alembic_config(url, embedding_dim=embedding_dim), revision)


def downgrade(url: str, *, embedding_dim: int, revision: str = "base") -> None:
    """Migrate the database at ``url`` down to ``revision``."""
    command.downgrade(alembic_config(url, embedding_dim=embedding_dim), revision)


def head_revision() -> str:
    """The newest revision the code ships."""
    script = ScriptDirectory(str(MIGRATIONS_DIR))
    head = script.get_current_head()
    assert head is not None
    return head


def current_revision(url: str) -> str | None:
    """The revision the database is at (None when not initialised)."""
    engine = create_engine(sync_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


def stored_embedding_dim(url: str) -> int | None:
    """The embedding dimension fixed when the database was initialised."""
    engine = create_engine(sync_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            exists = conn.execute(text("SELECT to_regclass('memforest_meta') IS NOT NULL")).scalar()
            if not exists:
                return None
            value = conn.execute(text("SELECT value FROM memforest_meta WHERE key = 'embedding_dim'")).scalar()
            return int(value) if value is not None else None
    finally:
        engine.dispose()
