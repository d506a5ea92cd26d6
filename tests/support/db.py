"""Database URLs for tests: tenant work logs in as the embedded server's tenant role (ADR 0018)."""

from __future__ import annotations

from memforest.db.embedded import TENANT_LOGIN


def tenant_url(db_url: str) -> str:
    """``db_url`` logging in as the tenant login role instead of the ``postgres`` superuser."""
    return db_url.replace("://postgres@", f"://{TENANT_LOGIN}@", 1)
