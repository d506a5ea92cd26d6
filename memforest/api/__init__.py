"""The HTTP API (FastAPI): tenants and keys, forests, sessions, jobs, query. See DESIGN.md section 7."""

from __future__ import annotations

from memforest.api.app import create_app

__all__ = ["create_app"]
