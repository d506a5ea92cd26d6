"""``dirty_nodes``: the nodes waiting for a refresh (migration 0026, ADR 0051), part of
``memforest.db.schema``.

Written by the triggers of migration 0026 on ``nodes``, never by a statement of the code: a node is
here exactly while its ``dirty`` flag is set. Refresh finds its work here, so no index of ``nodes``
covers ``dirty`` and a node's updates that change only unindexed columns (its ``dirty`` flag,
version, ``t_end``, child count) can stay HOT. No foreign key: a deleted node's row goes by the
trigger."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Integer, PrimaryKeyConstraint, Table

from memforest.db.schema_parts import metadata, tenant

__all__ = ["dirty_nodes"]

dirty_nodes = Table(
    "dirty_nodes",
    metadata,
    tenant(),
    Column("forest_id", BigInteger, nullable=False),
    Column("level", Integer, nullable=False),
    Column("node_id", BigInteger, nullable=False),
    # a forest's lowest dirty level, its nodes by id, and its count are reads of this key
    PrimaryKeyConstraint("tenant_id", "forest_id", "level", "node_id", name="pk_dirty_nodes"),
)
