"""Which embedding model made a database's vectors (ADR 0042).

``memforest_meta`` keeps the model's identity next to its dimension: ``embedding_model`` names the
model every stored vector was made with, and while ``memforest rematerialize --embeddings --all``
moves the deployment to another model, ``embedding_model_target`` names that model and
``embedding_model_done`` lists the forests already re-embedded with it (so an interrupted run
resumes where it stopped). A process started with another model is refused with one line naming
the command; one started with the target model of a move under way is let in, so every forest
stays queryable while it is re-embedded.

The identity itself is made in ``memforest.db.model_identity``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import create_engine, pool, text

from memforest.db.migrate import sync_url
from memforest.db.model_identity import same_model

__all__ = ["ModelRecord", "mismatch_message", "read_model_record", "record_model"]

_READ_META = "SELECT key, value FROM memforest_meta WHERE key LIKE 'embedding_model%'"
_UPSERT_META = (
    "INSERT INTO memforest_meta (key, value) VALUES (:k, :v) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
)


@dataclass(frozen=True, slots=True)
class ModelRecord:
    """What ``memforest_meta`` says about the stored vectors' model."""

    model: str | None  # None: a database from before the model was recorded
    target: str | None  # the model a re-embedding under way moves to
    done: frozenset[str]  # "tenant_id/forest_id" of the forests already re-embedded with ``target``


def read_model_record(url: str) -> ModelRecord:
    """The stored model record (all None on a database that has none yet)."""
    engine = create_engine(sync_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            if not conn.execute(text("SELECT to_regclass('memforest_meta') IS NOT NULL")).scalar():
                return ModelRecord(None, None, frozenset())
            rows = {str(k): str(v) for k, v in conn.execute(text(_READ_META)).all()}
    finally:
        engine.dispose()
    done = json.loads(rows["embedding_model_done"]) if "embedding_model_done" in rows else []
    return ModelRecord(rows.get("embedding_model"), rows.get("embedding_model_target"), frozenset(done))


def record_model(url: str, model: str) -> None:
    """Store ``model`` as the stored vectors' model (a database that had none adopts the configured one)."""
    engine = create_engine(sync_url(url), poolclass=pool.NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(text(_UPSERT_META), {"k": "embedding_model", "v": model})
    finally:
        engine.dispose()


def mismatch_message(record: ModelRecord, configured: str) -> str | None:
    """One line refusing a start with ``configured`` against ``record``, or None when it may start:
    the stored model, or, while a move is under way, only its target."""
    if record.target is not None:
        if same_model(record.target, configured):
            return None
        return (
            f"a re-embedding of every forest with {record.target} is under way but the settings embed with "
            f"{configured}; finish it with `memforest rematerialize --embeddings --all` under that model's settings"
        )
    if record.model is None or same_model(record.model, configured):
        return None
    return (
        f"the database's vectors were made by {record.model} but the settings embed with {configured}; "
        "run `memforest rematerialize --embeddings --all` to re-embed every forest with the configured model, "
        "or configure the stored one again"
    )
