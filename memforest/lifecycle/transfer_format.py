"""The forest export file format (ADR 0008), shared by export and import.

Line 1 is a header::

    {"format": "memforest-forest", "version": 1, "forest": ..., "exported_at": ...,
     "embedding": {"backend", "model", "dim", "encoding": "base64-f32le"}, "settings": {...},
     "with_derived": bool, "counts": {record type: number of lines}}

then one record per line with a ``type``: ``session``, ``turn``, ``cell``, ``fact``, ``fact_source``,
``entity``, ``entity_fact``, ``scene_cluster`` (persistent state, always), and with derived artifacts
``tree``, ``node``, ``placement`` plus the ``embedding`` of facts and nodes. Records refer to each
other by the ``id`` they carry (the exporting database's ids, meaningful only inside the file);
every reference points to an earlier line (nodes come parents first). Vectors are base64 of
little-endian float32. A record's fields are its table's columns (``db.catalogue``) under their
file names, in declaration order; ``tests/test_export_import.py`` holds the models below to that.
"""

from __future__ import annotations

import base64
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from memforest.db.catalogue import TRANSFER_TABLES
from memforest.settings import Settings
from memforest.store.sql import as_vector

__all__ = [
    "DERIVED_TYPES",
    "FORMAT",
    "MODELS",
    "PERSISTENT_TYPES",
    "VECTOR_ENCODING",
    "VERSION",
    "Header",
    "decode_vector",
    "embedding_info",
    "encode_vector",
]

FORMAT = "memforest-forest"
VERSION = 1
VECTOR_ENCODING = "base64-f32le"
PERSISTENT_TYPES = tuple(s.record for s in TRANSFER_TABLES if not s.derived_table)
DERIVED_TYPES = tuple(s.record for s in TRANSFER_TABLES if s.derived_table)


def encode_vector(value: Any) -> str | None:
    """A stored vector as base64 of little-endian float32 (None stays None)."""
    if value is None:
        return None
    return base64.b64encode(as_vector(value).astype("<f4").tobytes()).decode("ascii")


def decode_vector(data: str, dim: int) -> np.ndarray[Any, Any]:
    """The inverse of ``encode_vector``; ValueError when it is not ``dim`` float32 values."""
    raw = base64.b64decode(data.encode("ascii"), validate=True)
    if len(raw) != 4 * dim:
        raise ValueError(f"vector has {len(raw) // 4} values, the header says dim {dim}")
    return np.frombuffer(raw, dtype="<f4").astype(np.float32)


def embedding_info(settings: Settings) -> dict[str, Any]:
    """Which embedding space the vectors live in (compared on import)."""
    emb = settings.embedding
    model = f"hashed-ngram-{emb.dim}" if emb.backend == "hashed" else (emb.local_path or emb.model)
    return {"backend": emb.backend, "model": model, "dim": emb.dim, "encoding": VECTOR_ENCODING}


# ---------------------------------------------------------------- records


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SessionRec(_Rec):
    type: Literal["session"]
    id: int
    external_id: str = Field(min_length=1, max_length=500)
    time: AwareDatetime
    content_hash: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    n_turns: int = Field(ge=0)
    created_at: AwareDatetime | None = None


class TurnRec(_Rec):
    type: Literal["turn"]
    id: int
    session: int
    seq: int = Field(ge=0)
    external_id: str | None = None
    speaker: str
    role: str | None = None
    text: str
    time: AwareDatetime


class CellRec(_Rec):
    type: Literal["cell"]
    id: int
    session: int
    seq: int = Field(ge=0)
    turn_from: int = Field(ge=0)
    turn_to: int = Field(ge=0)
    text: str
    t_start: AwareDatetime
    t_end: AwareDatetime
    extracted_at: AwareDatetime | None = None
    extract_attempts: int = 0
    extract_error: str | None = None


class FactRec(_Rec):
    type: Literal["fact"]
    id: int
    text: str = Field(min_length=1)
    text_hash: str = Field(min_length=1)
    kind: str
    entities: list[str] = Field(default_factory=list)
    topics: list[str] = Field(default_factory=list)
    speaker: str | None = None
    subject: str | None = None
    attribute: str | None = None
    value: str | None = None
    time_text: str | None = None
    valid_from: AwareDatetime
    valid_to: AwareDatetime | None = None
    recorded_at: AwareDatetime
    retracted_at: AwareDatetime | None = None
    supersedes: int | None = None
    superseded_by: int | None = None
    source_count: int = Field(ge=0)
    embedding: str | None = None


class FactSourceRec(_Rec):
    type: Literal["fact_source"]
    fact: int
    turn: int
    cell: int
    session: int
    created_at: AwareDatetime | None = None


class EntityRec(_Rec):
    type: Literal["entity"]
    id: int
    key: str = Field(min_length=1)
    label: str
    is_speaker: bool = False
    fact_count: int = Field(default=0, ge=0)
    session_count: int = Field(default=0, ge=0)
    activated: bool = False
    first_time: AwareDatetime | None = None
    last_time: AwareDatetime | None = None


class EntityFactRec(_Rec):
    type: Literal["entity_fact"]
    entity: int
    fact: int
    session: int


class SceneClusterRec(_Rec):
    type: Literal["scene_cluster"]
    id: int
    centroid: str
    member_count: int = Field(ge=0)
    topic_counts: dict[str, int] = Field(default_factory=dict)
    last_time: AwareDatetime | None = None
    merged_into: int | None = None
    label: str | None = None
    members: list[int] = Field(default_factory=list)


class TreeRec(_Rec):
    type: Literal["tree"]
    id: int
    kind: Literal["session", "entity", "scene"]
    key: str
    label: str
    fanout: int = Field(ge=2, le=16)
    root: int | None = None
    height: int = Field(ge=1)
    n_leaves: int = Field(ge=0)
    created_at: AwareDatetime | None = None


class NodeRec(_Rec):
    type: Literal["node"]
    id: int
    tree: int
    level: int = Field(ge=0)
    parent: int | None = None
    t_start: AwareDatetime
    t_end: AwareDatetime
    seq: int
    n_children: int = Field(ge=0)
    summary: str | None = None
    summary_hash: str | None = None
    version: int = 0
    dirty: bool = True
    embedding: str | None = None
    embedded_hash: str | None = None
    leaf_fact: int | None = None
    leaf_cell: int | None = None


class PlacementRec(_Rec):
    type: Literal["placement"]
    tree: int
    source_kind: Literal["fact", "cell"]
    source_id: int
    node: int


MODELS: dict[str, type[_Rec]] = {
    "session": SessionRec,
    "turn": TurnRec,
    "cell": CellRec,
    "fact": FactRec,
    "fact_source": FactSourceRec,
    "entity": EntityRec,
    "entity_fact": EntityFactRec,
    "scene_cluster": SceneClusterRec,
    "tree": TreeRec,
    "node": NodeRec,
    "placement": PlacementRec,
}


class EmbeddingHeader(_Rec):
    backend: str
    model: str
    dim: int = Field(ge=1, le=16_000)
    encoding: Literal["base64-f32le"] = "base64-f32le"


class Header(BaseModel):
    model_config = ConfigDict(extra="allow")
    format: Literal["memforest-forest"]
    version: int
    forest: str
    exported_at: AwareDatetime | None = None
    embedding: EmbeddingHeader
    settings: dict[str, Any] = Field(default_factory=dict)
    with_derived: bool
    counts: dict[str, Annotated[int, Field(ge=0)]]
