"""Shared test support: the admin key, settings, session/turn builders, app clients and servers.

Test files import from here (``from support import ADMIN_KEY, app_client``); the fixtures that
wrap these helpers live in ``tests/db/conftest.py``.
"""

from support.apps import AppClient, app_client, free_port, new_tenant, open_client, serve_app, tenant_key, wait_ready
from support.auth import ADMIN_AUTH, ADMIN_KEY, admin_settings, bearer
from support.db import DANGLING_SUPERSEDED_BY, cluster_root, seed_two_tenants, tenant_url
from support.reads import record_leaf_caps
from support.sessions import alternating_turns, hobby_sessions, session_body, session_input

__all__ = [
    "ADMIN_AUTH",
    "ADMIN_KEY",
    "DANGLING_SUPERSEDED_BY",
    "AppClient",
    "admin_settings",
    "alternating_turns",
    "app_client",
    "bearer",
    "cluster_root",
    "free_port",
    "hobby_sessions",
    "new_tenant",
    "open_client",
    "record_leaf_caps",
    "seed_two_tenants",
    "serve_app",
    "session_body",
    "session_input",
    "tenant_key",
    "tenant_url",
    "wait_ready",
]
