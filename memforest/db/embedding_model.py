"""Which embedding model made a database's vectors (ADR 0042).

``memforest_meta`` keeps the model's identity next to its dimension: ``embedding_model`` names the
model every stored vector was made with, and while ``memforest rematerialize --embeddings --all``
moves the deployment to another model, ``embedding_model_target`` names that model and
``embedding_model_done`` lists the forests already re-embedded with it (so an interrupted run
resumes where it stopped). A process started with another model is refused with one line naming
the command; one started with the target model of a move under way is let in, so every forest
stays queryable while it is re-embedded.

The identity is read from the settings and, for a local model, from its files (no model is loaded):
``hashed-ngram-<dim>``; ``http:<model>``; ``local:<directory name>@<digest>``, the digest over the
model's configuration files and the size and first MiB of each weight file, so two fine-tunes in
directories of the same name differ, and moving the directory changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, pool, text

from memforest.db.migrate import sync_url
from memforest.settings import EmbeddingSettings

__all__ = [
    "GENERIC_DIR_NAMES",
    "ModelRecord",
    "embedding_identity",
    "local_model_identity",
    "mismatch_message",
    "model_dir_label",
    "read_model_record",
    "record_model",
]

_CONFIG_FILES = ("config.json", "modules.json", "sentence_bert_config.json", "tokenizer.json", "1_Pooling/config.json")
_WEIGHT_SUFFIXES = (".safetensors", ".bin", ".onnx")
_HEAD_BYTES = 1 << 20
# directory names that say nothing about the model (a packaged model's ``model/``): the parent names it
GENERIC_DIR_NAMES = frozenset({"model", "models", "onnx", "snapshot", "files"})

_READ_META = "SELECT key, value FROM memforest_meta WHERE key LIKE 'embedding_model%'"
_UPSERT_META = (
    "INSERT INTO memforest_meta (key, value) VALUES (:k, :v) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
)


def model_dir_label(path: Path) -> str:
    """A readable name of a model directory: its own name, or its parent's when its own is generic."""
    resolved = path.expanduser().resolve()
    if resolved.name.lower() in GENERIC_DIR_NAMES and resolved.parent.name:
        return resolved.parent.name
    return resolved.name


def local_model_identity(path: str | Path) -> str:
    """``local:<label>@<digest>`` of a local model directory (a name that is not a directory: ``local:<name>``)."""
    root = Path(path).expanduser()
    if not root.is_dir():
        return f"local:{path}"
    digest = hashlib.blake2b(digest_size=8)
    for name in _CONFIG_FILES:
        file = root / name
        if file.is_file():
            digest.update(name.encode())
            digest.update(file.read_bytes())
    for file in sorted(p for p in root.rglob("*") if p.suffix in _WEIGHT_SUFFIXES and p.is_file()):
        if file.parent.name == "onnx" or file.suffix == ".onnx":
            continue  # an exported copy of the same weights; the runtime does not change the vectors
        digest.update(str(file.stat().st_size).encode())
        with file.open("rb") as fh:
            digest.update(fh.read(_HEAD_BYTES))
    return f"local:{model_dir_label(root)}@{digest.hexdigest()}"


def embedding_identity(emb: EmbeddingSettings) -> str:
    """The identity of the model these settings embed with (see the module docstring)."""
    if emb.backend == "hashed":
        return f"hashed-ngram-{emb.dim}"
    if emb.backend == "http":
        return f"http:{emb.model}"
    return local_model_identity(emb.local_path or "")


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
        if record.target == configured:
            return None
        return (
            f"a re-embedding of every forest with {record.target} is under way but the settings embed with "
            f"{configured}; finish it with `memforest rematerialize --embeddings --all` under that model's settings"
        )
    if record.model is None or record.model == configured:
        return None
    return (
        f"the database's vectors were made by {record.model} but the settings embed with {configured}; "
        "run `memforest rematerialize --embeddings --all` to re-embed every forest with the configured model, "
        "or configure the stored one again"
    )
