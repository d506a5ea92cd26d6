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

Every value a record carries fits its column, so a crafted file fails validation (422 naming the
line), never the database: integers within their column's type (``Int4``, ``Int8``; ids too),
times that stay in range once converted to UTC (``Time``), finite vectors, the text of indexed
columns within what a b-tree entry holds (``Key``, ``SlotKey``) and full-text columns within what a
tsvector holds; ``tests/unit/test_transfer_bounds.py`` holds the models to the schema's types.
"""

from __future__ import annotations

import base64
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field

from memforest.db.catalogue import TRANSFER_TABLES
from memforest.schemas.session import addressable_id, as_utc_if_naive
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
    "Int4",
    "Int8",
    "Key",
    "SlotKey",
    "Time",
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
    vector = np.frombuffer(raw, dtype="<f4").astype(np.float32)
    if not np.isfinite(vector).all():
        raise ValueError("vector has values that are not finite numbers (NaN or infinity)")
    return vector


def embedding_info(settings: Settings) -> dict[str, Any]:
    """Which embedding space the vectors live in (compared on import)."""
    emb = settings.embedding
    model = f"hashed-ngram-{emb.dim}" if emb.backend == "hashed" else (emb.local_path or emb.model)
    return {"backend": emb.backend, "model": model, "dim": emb.dim, "encoding": VECTOR_ENCODING}


# ---------------------------------------------------------------- bounded values

#: PostgreSQL ``integer`` and ``bigint``: a value outside its column's type is refused here.
Int4 = Annotated[int, Field(ge=-(2**31), le=2**31 - 1)]
Int8 = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]

#: The most UTF-8 bytes of a text column a b-tree index covers (an index entry holds about 2,700
#: bytes, its other key columns included); half that for the two texts that share one index entry
#: (a fact's subject and attribute, ``ix_facts_slot``).
MAX_KEY_BYTES = 2_000
MAX_SLOT_KEY_BYTES = 1_000
#: The most characters of a text that a full-text column indexes (a tsvector holds 1 MB of lexemes).
MAX_SEARCHED_CHARS = 200_000


def _fits(limit: int) -> AfterValidator:
    def check(value: str) -> str:
        if len(value) > limit // 4 and len(value.encode("utf-8")) > limit:
            raise ValueError(f"longer than {limit} bytes (an indexed column)")
        return value

    return AfterValidator(check)


#: A time: tz-aware and still a time once converted to UTC (ValueError, a 422, past year 1 or 9999).
Time = Annotated[AwareDatetime, AfterValidator(as_utc_if_naive)]
#: The text of a column a b-tree index covers.
Key = Annotated[str, _fits(MAX_KEY_BYTES)]
SlotKey = Annotated[str, _fits(MAX_SLOT_KEY_BYTES)]


# ---------------------------------------------------------------- records


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SessionRec(_Rec):
    type: Literal["session"]
    id: Int8
    external_id: Annotated[str, Field(min_length=1, max_length=500), AfterValidator(addressable_id)]
    time: Time
    content_hash: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    n_turns: Int4 = Field(ge=0)
    created_at: Time | None = None


class TurnRec(_Rec):
    type: Literal["turn"]
    id: Int8
    session: Int8
    seq: Int4 = Field(ge=0)
    external_id: Annotated[str, AfterValidator(addressable_id)] | None = None
    speaker: str
    role: str | None = None
    text: str
    time: Time


class CellRec(_Rec):
    type: Literal["cell"]
    id: Int8
    session: Int8
    seq: Int4 = Field(ge=0)
    turn_from: Int4 = Field(ge=0)
    turn_to: Int4 = Field(ge=0)
    text: str
    t_start: Time
    t_end: Time
    extracted_at: Time | None = None
    extract_attempts: Int4 = 0
    extract_error: str | None = None


class FactRec(_Rec):
    type: Literal["fact"]
    id: Int8
    text: str = Field(min_length=1, max_length=MAX_SEARCHED_CHARS)
    text_hash: Key = Field(min_length=1)
    kind: str
    entities: list[str] = Field(default_factory=list)
    topics: list[str] = Field(default_factory=list)
    speaker: Key | None = None
    subject: SlotKey | None = None
    attribute: SlotKey | None = None
    value: str | None = None
    time_text: str | None = None
    valid_from: Time
    valid_to: Time | None = None
    recorded_at: Time
    retracted_at: Time | None = None
    supersedes: Int8 | None = None
    superseded_by: Int8 | None = None
    source_count: Int4 = Field(ge=0)
    embedding: str | None = None


class FactSourceRec(_Rec):
    type: Literal["fact_source"]
    fact: Int8
    turn: Int8
    cell: Int8
    session: Int8
    created_at: Time | None = None


class EntityRec(_Rec):
    type: Literal["entity"]
    id: Int8
    key: Key = Field(min_length=1)
    label: str
    is_speaker: bool = False
    fact_count: Int4 = Field(default=0, ge=0)
    session_count: Int4 = Field(default=0, ge=0)
    activated: bool = False
    first_time: Time | None = None
    last_time: Time | None = None


class EntityFactRec(_Rec):
    type: Literal["entity_fact"]
    entity: Int8
    fact: Int8
    session: Int8


class SceneClusterRec(_Rec):
    type: Literal["scene_cluster"]
    id: Int8
    centroid: str
    member_count: Int4 = Field(ge=0)
    topic_counts: dict[str, Int4] = Field(default_factory=dict)
    last_time: Time | None = None
    merged_into: Int8 | None = None
    label: str | None = None
    members: list[Int8] = Field(default_factory=list)


class TreeRec(_Rec):
    type: Literal["tree"]
    id: Int8
    kind: Literal["session", "entity", "scene"]
    key: Key
    label: str
    fanout: int = Field(ge=2, le=16)
    root: Int8 | None = None
    height: Int4 = Field(ge=1)
    n_leaves: Int4 = Field(ge=0)
    created_at: Time | None = None


class NodeRec(_Rec):
    type: Literal["node"]
    id: Int8
    tree: Int8
    level: Int4 = Field(ge=0)
    parent: Int8 | None = None
    t_start: Time
    t_end: Time
    seq: Int8
    n_children: Int4 = Field(ge=0)
    summary: str | None = Field(default=None, max_length=MAX_SEARCHED_CHARS)
    summary_hash: str | None = None
    version: Int4 = 0
    dirty: bool = True
    embedding: str | None = None
    embedded_hash: str | None = None
    leaf_fact: Int8 | None = None
    leaf_cell: Int8 | None = None


class PlacementRec(_Rec):
    type: Literal["placement"]
    tree: Int8
    source_kind: Literal["fact", "cell"]
    source_id: Int8
    node: Int8


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
    exported_at: Time | None = None
    embedding: EmbeddingHeader
    settings: dict[str, Any] = Field(default_factory=dict)
    with_derived: bool
    counts: dict[str, Annotated[int, Field(ge=0)]]
