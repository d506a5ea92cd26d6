"""Request bodies of the HTTP API (the session body is :class:`~memforest.schemas.session.SessionModel`).

Every request model forbids fields it does not declare (a 422 naming the field); only documented
free-form maps such as ``metadata`` take any keys. Response models ignore unknown fields instead."""

from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from memforest.domain import MAX_FANOUT, MIN_FANOUT
from memforest.schemas.session import as_utc_if_naive


class TenantIn(BaseModel):
    """``POST /v1/tenants``."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)


class KeyIn(BaseModel):
    """``POST /v1/tenants/{tenant_id}/keys``."""

    model_config = ConfigDict(extra="forbid")

    scopes: list[str] = Field(default_factory=lambda: ["read", "write"], max_length=3)


class ForestIn(BaseModel):
    """``POST /v1/forests``."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)


class QueryIn(BaseModel):
    """``POST /v1/forests/{forest}/query``."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=20_000)
    mode: str = "emb"
    top_k: int | None = Field(default=None, ge=1)
    as_of: datetime | None = None
    time_from: datetime | None = None
    time_to: datetime | None = None
    scope: list[str] | None = Field(default=None, max_length=3)
    include_superseded: bool = False
    token_budget: int | None = Field(default=None, ge=1, le=1_000_000)
    speaker: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description='Who asks: whom the question\'s "I" and "my" name (default: the forest\'s user-role speaker).',
    )
    now: datetime | None = Field(
        default=None, description='When the question is asked: "two years ago" counts back from it (default: now).'
    )

    @field_validator("as_of", "time_from", "time_to", "now")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc_if_naive(value)  # 422, not a 500, when out of range


class RematIn(BaseModel):
    """What to regenerate. At least one action; ``k`` only with ``rebuild_trees``."""

    model_config = ConfigDict(extra="forbid")

    embeddings: StrictBool = Field(default=False, description="Recompute fact, node and centroid embeddings.")
    summaries: StrictBool = Field(default=False, description="Regenerate every internal-node summary.")
    rebuild_trees: StrictBool = Field(default=False, description="Drop and rebuild every tree from facts and cells.")
    k: int | None = Field(
        default=None, ge=MIN_FANOUT, le=MAX_FANOUT, description="Fan-out of the rebuilt trees (default: settings)."
    )


class MergeIn(BaseModel):
    """Merge forest ``from`` (same tenant) into the forest of the path."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_: str = Field(alias="from", min_length=1, max_length=200, description="The forest to merge (unchanged).")
    from_tenant: str | None = Field(default=None, description="Not allowed with a tenant key (403).")


class AdminMergeIn(BaseModel):
    """A merge across tenants (admin key only)."""

    model_config = ConfigDict(extra="forbid")

    from_tenant: uuid.UUID
    from_forest: str = Field(min_length=1, max_length=200)
    into_tenant: uuid.UUID
    into_forest: str = Field(min_length=1, max_length=200)
