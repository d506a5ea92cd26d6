"""The pieces every declared table is built from: the one ``MetaData``, the timestamp type, and the
tenant column, identity column and tenant-first foreign key (``memforest.db.schema``)."""

from __future__ import annotations

import uuid

from sqlalchemy import BigInteger, Column, DateTime, ForeignKeyConstraint, Identity, MetaData
from sqlalchemy.dialects.postgresql import UUID

__all__ = ["TS", "fk", "identity", "metadata", "tenant"]

metadata = MetaData()

TS = DateTime(timezone=True)


def tenant() -> Column[uuid.UUID]:
    """``tenant_id``, the first column of every tenant table."""
    return Column("tenant_id", UUID(as_uuid=True), nullable=False)


def identity(name: str) -> Column[int]:
    """A bigint identity column (BY DEFAULT: export, import and merge may give the id)."""
    return Column(name, BigInteger, Identity(always=False), nullable=False)


def fk(cols: list[str], ref: str, ref_cols: list[str], name: str, ondelete: str = "CASCADE") -> ForeignKeyConstraint:
    """A foreign key led by ``tenant_id`` on both sides."""
    return ForeignKeyConstraint(
        ["tenant_id", *cols],
        [f"{ref}.tenant_id", *(f"{ref}.{c}" for c in ref_cols)],
        name=name,
        ondelete=ondelete,
    )
