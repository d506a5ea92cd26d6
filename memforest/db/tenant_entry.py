"""The statements that enter a tenant transaction: the role, the tenant, the planning mode and the
lock wait set for the transaction only, with parameters (:func:`enter_tenant`) or as checked literals
for a simple-protocol string sent with its BEGIN (:func:`tenant_settings_sql`, :func:`enter_reading`;
ADR 0022, ADR 0082)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from functools import lru_cache

from sqlalchemy import TextClause, text

from memforest.db.rls import APP_ROLE

# the role, the tenant and the lock_timeout (db.lock_wait) of a tenant transaction, in one statement (like SET LOCAL)
# Tenant statements are planned for their parameters (``force_custom_plan``): a forest's own HNSW
# indexes are partial (``WHERE forest_id = N``, ADR 0024) and a generic plan, made for any forest,
# could never use them. Until ``engine.KEY_LOOKUP_PLANS`` switches the rest of a transaction.
ENTER_TENANT_SQL = (
    "SELECT set_config('role', :role, true), set_config('memforest.tenant_id', :t, true), set_config('plan_cache_mode',"
    " 'force_custom_plan', true), set_config('lock_timeout', coalesce(:lt, current_setting('lock_timeout')), true)"
)

# The write path's set-based transactions (a session's commit, a refresh's level writes), as knobs
# of ``Database.tenant``, let the server choose (``auto``): a statement, and each foreign-key check
# of the rows it inserts, keeps its cached generic plan once the statistics say that plan is as good
# as one made for the parameters, instead of being planned again for every row (ADR 0157). The one
# statement of these transactions that reads a forest's partial index (the commit's nearest-facts
# lookup) names the forest by a literal, so whatever plan is kept can use it; the worker's
# statistics upkeep (ADR 0156) keeps generic plans from being made for a fresh database's empty tables.
WRITE_PLANS = {"plan_cache_mode": "auto"}


@lru_cache(maxsize=16)
def enter_tenant(knob_count: int) -> TextClause:
    """The statement that enters a tenant transaction and sets ``knob_count`` more transaction-local
    settings (``:k0``/``:v0``, ...) in the same round trip."""
    knobs = "".join(f", set_config(:k{i}, :v{i}, true)" for i in range(knob_count))
    return text(ENTER_TENANT_SQL + knobs)


# a reading transaction's setting names and values (literals in its BEGIN): no quote, no backslash
_PLAIN_SETTING = re.compile(r"[A-Za-z0-9_.\-]+")


def refuse_identity_knobs(knobs: Mapping[str, str]) -> None:
    """ValueError when ``knobs`` would set the role or the tenant (names compared as the server does)."""
    if {"role", "memforest.tenant_id"} & {name.strip().lower() for name in knobs}:
        raise ValueError("knobs cannot set the role or the tenant")


def tenant_settings_sql(tenant_id: uuid.UUID, knobs: Mapping[str, str], lock_timeout: str | None = None) -> str:
    """The settings of :data:`ENTER_TENANT_SQL` plus ``knobs`` as one ``SELECT set_config(...)``
    without parameters, for a simple-protocol string (that protocol takes none, so every name and
    value is checked to be plain and written as a literal). ValueError for anything else."""
    settings = {"role": APP_ROLE, "memforest.tenant_id": str(tenant_id), "plan_cache_mode": "force_custom_plan"}
    if lock_timeout is not None:  # (None: the server's, as ``coalesce`` keeps it in ENTER_TENANT_SQL)
        settings["lock_timeout"] = lock_timeout
    refuse_identity_knobs(knobs)
    settings |= knobs
    for part in (p for item in settings.items() for p in item if not _PLAIN_SETTING.fullmatch(p)):
        raise ValueError(f"not a plain setting: {part!r}")
    return "SELECT " + ", ".join(f"set_config('{k}', '{v}', true)" for k, v in settings.items())


def enter_reading(tenant_id: uuid.UUID, knobs: Mapping[str, str]) -> str:
    """``BEGIN READ ONLY`` and the settings of :func:`tenant_settings_sql`, as one simple-protocol
    string (one round trip). ValueError for a name or value that is not plain."""
    return "BEGIN READ ONLY; " + tenant_settings_sql(tenant_id, knobs)
