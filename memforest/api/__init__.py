"""The HTTP API (FastAPI): tenants and keys, forests, sessions, jobs, query. See DESIGN.md section 7."""

from __future__ import annotations

from memforest.api.app import AppExtension, create_api_app

__all__ = ["AppExtension", "create_api_app"]
