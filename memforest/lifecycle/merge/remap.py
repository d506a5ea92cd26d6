"""Merge steps 1 and 2: A's snapshot under A's tenant, then A's sessions, turns and cells in B.

Across tenants the transaction switches the RLS tenant setting (transaction-local) between the
phases: A's rows are read only as A, B's rows are written only as B.
"""

from __future__ import annotations

import uuid

from memforest.errors import NotFoundError
from memforest.lifecycle.merge.report import MergeReport
from memforest.store.sql import Conn
from memforest.store.transfer.remap import copy_session_rows, copy_sessions
from memforest.store.transfer.snapshot import forest_name, set_tenant, snapshot_forest

__all__ = ["enter_target", "remap_sessions", "snapshot_source"]


async def _named(conn: Conn, tenant_id: uuid.UUID, forest_id: int, what: str) -> str:
    name = await forest_name(conn, tenant_id, forest_id)
    if name is None:
        raise NotFoundError(f"{what} forest {forest_id} does not exist")
    return name


async def snapshot_source(conn: Conn, tenant_id: uuid.UUID, forest_id: int, report: MergeReport) -> None:
    """As A's tenant: A's name into the report and A's rows into the ``mm_`` snapshot tables."""
    await set_tenant(conn, tenant_id)
    report.src_forest = await _named(conn, tenant_id, forest_id, "source")
    await snapshot_forest(conn, tenant_id, forest_id)


async def enter_target(conn: Conn, tenant_id: uuid.UUID, forest_id: int, report: MergeReport) -> None:
    """Switch to B's tenant; B's name into the report."""
    await set_tenant(conn, tenant_id)
    report.dst_forest = await _named(conn, tenant_id, forest_id, "target")


async def remap_sessions(conn: Conn, tenant_id: uuid.UUID, forest_id: int, report: MergeReport) -> None:
    """A's sessions shared with B's same conversation or copied (renamed when their id is taken),
    their turns and cells mapped or copied with fresh ids."""
    counts = await copy_sessions(conn, tenant_id, forest_id, report.src_forest)
    report.sessions_shared = counts.shared
    report.sessions_copied = counts.copied
    report.sessions_renamed = counts.renamed
    report.turns = await copy_session_rows(conn, tenant_id, forest_id, "turns")
    report.cells = await copy_session_rows(conn, tenant_id, forest_id, "cells")
