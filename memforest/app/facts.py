"""A client's edits to one fact: correct it (a superseding correction) or delete it (ADR 0020)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from memforest.app.browse import fact_detail
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.lifecycle import correct
from memforest.settings import Settings

__all__ = ["correct_fact", "delete_fact"]


async def correct_fact(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest: str,
    fact_id: str,
    text: str,
    valid_from: datetime | None = None,
) -> dict[str, Any]:
    """Supersede the fact with the client's text; the new fact as ``GET .../facts/{id}`` shows it."""
    done = await correct.correct_fact(db, settings, backends, tenant_id, forest, fact_id, text, valid_from)
    return await fact_detail(db, tenant_id, forest, str(done.fact_id))


async def delete_fact(
    db: Database, settings: Settings, backends: Backends, tenant_id: uuid.UUID, forest: str, fact_id: str
) -> dict[str, Any]:
    """Remove the fact from the forest; what was removed and refreshed."""
    report = await correct.delete_fact(db, settings, backends, tenant_id, forest, fact_id)
    return {
        "fact_id": fact_id,
        "forest": forest,
        "leaves_removed": report.leaves_removed,
        "trees_removed": report.trees_removed,
        "facts_restored": report.facts_restored,
        "nodes_refreshed": report.nodes_refreshed,
        "rebalance": report.rebalance.as_dict(),
    }
