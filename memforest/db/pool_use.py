"""How many connections a :class:`~memforest.db.engine.Database`'s pools hold open: the worker's
database bound counts them as its own to reuse (ADR 0099)."""

from __future__ import annotations

from sqlalchemy.pool import QueuePool

from memforest.db.engine import Database


def open_connections(db: Database) -> int:
    """Connections ``db``'s pools hold open now, in use or idle (an engine two pools share counted once)."""
    engines = {id(e): e for e in (db.engine, db.tenant_engine, db.side_engine) if e is not None}
    pools = [e.pool for e in engines.values() if isinstance(e.pool, QueuePool)]
    return sum(p.checkedin() + p.checkedout() for p in pools)
