"""Import a forest export (JSON Lines, see ``export.py``) through the merge path (ADR 0008).

1. ``parse_export``: read and validate every line before anything is written: header (format,
   version, embedding space), each record's fields and types, references to earlier records, vector
   sizes, and the header's counts (a truncated file fails). Errors name the line.
2. ``load_staging``: one transaction creates the target forest when missing and a hidden staging
   forest (``~staging:<hex>``) holding the file's state with fresh ids. Derived artifacts are used
   when the file has them *and* its vectors live in this deployment's embedding space (same
   backend, model and dimension); otherwise trees are rebuilt from persistent state
   (``build_trees_from_state``) and vectors are recomputed in step 3.
3. ``complete_import`` (in-process or as an ``import`` job): embed facts that have no vector (outside
   any transaction), recompute centroids that were not usable, then ``merge_forests`` staging ->
   target and drop the staging forest. No extraction runs.
"""

from __future__ import annotations

import json
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.errors import InputError, MemForestError, NotFoundError
from memforest.lifecycle.export import DERIVED_TYPES, FORMAT, PERSISTENT_TYPES, VERSION, decode_vector, embedding_info
from memforest.lifecycle.merge import MergeReport, Progress, merge_forests, notify
from memforest.lifecycle.treebuild import SceneScope, build_forest_trees, route_unscened
from memforest.pipeline.jobs import Job, enqueue, update_progress
from memforest.settings import Settings
from memforest.store.sql import execute, fetch_all, scalar
from memforest.store.tenants import ensure_forest
from memforest.store.trees import InsertStats

__all__ = [
    "STAGING_PREFIX",
    "ImportReport",
    "ParsedExport",
    "Staging",
    "build_trees_from_state",
    "complete_import",
    "import_file",
    "load_staging",
    "parse_export",
]

STAGING_PREFIX = "~staging:"
EMBED_BATCH = 512


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


@dataclass(slots=True)
class ParsedExport:
    """A validated export file, records grouped by type in file order."""

    header: Header
    records: dict[str, list[Any]] = field(default_factory=lambda: defaultdict(list))
    vectors: dict[tuple[str, int], np.ndarray[Any, Any]] = field(default_factory=dict)  # (type, id) -> vector
    lines: int = 0

    @property
    def counts(self) -> dict[str, int]:
        return {k: len(v) for k, v in self.records.items() if v}


# ---------------------------------------------------------------- parsing and validation


def _fail(source: str, line: int, message: str) -> InputError:
    return InputError(message, location=f"{source}: line {line}")


def _validation_message(exc: ValidationError, kind: str) -> str:
    first = exc.errors()[0]
    loc = ".".join(str(p) for p in first["loc"])
    return f"{kind}.{loc}: {first['msg']}" if loc else f"{kind}: {first['msg']}"


def _parse_header(raw: str, source: str) -> Header:
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise _fail(source, 1, f"the header is not valid JSON ({exc.msg})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _fail(source, 1, f"not a MemForest export: the first line must be a header with format {FORMAT!r}")
    if doc.get("version") != VERSION:
        raise _fail(source, 1, f"unsupported export version {doc.get('version')!r} (this MemForest reads {VERSION})")
    try:
        return Header.model_validate(doc)
    except ValidationError as exc:
        raise _fail(source, 1, _validation_message(exc, "header")) from None


class _Refs:
    """Ids seen so far per record type, for reference checks."""

    def __init__(self) -> None:
        self.ids: dict[str, set[int]] = defaultdict(set)
        self.turn_session: dict[int, int] = {}
        self.node_tree: dict[int, int] = {}
        self.keys: set[tuple[Any, ...]] = set()

    def unique(self, rec: Any) -> str | None:
        """The database's unique keys, checked here so that a bad file never reaches a constraint."""
        key: tuple[Any, ...] | None = None
        kind = rec.type
        if kind == "session":
            key, what = (kind, rec.external_id), f"session external_id {rec.external_id!r}"
        elif kind in ("turn", "cell"):
            key, what = (kind, rec.session, rec.seq), f"{kind} seq {rec.seq} in session {rec.session}"
        elif kind == "fact":
            key, what = (kind, rec.text_hash), f"fact text_hash {rec.text_hash!r}"
        elif kind == "entity":
            key, what = (kind, rec.key), f"entity key {rec.key!r}"
        elif kind == "tree":
            key, what = (kind, rec.kind, rec.key), f"{rec.kind} tree key {rec.key!r}"
        elif kind == "placement":
            key, what = (kind, rec.tree, rec.source_kind, rec.source_id), "placement"
        if key is None:
            return None
        if key in self.keys:
            return f"duplicate {what}"
        self.keys.add(key)
        return None

    def need(self, kind: str, value: int | None, what: str) -> str | None:
        if value is not None and value not in self.ids[kind]:
            return f"{what} refers to unknown {kind} {value}"
        return None


def _check_refs(rec: Any, refs: _Refs) -> str | None:
    kind = rec.type
    if kind in ("turn", "cell"):
        if kind == "cell" and rec.turn_from > rec.turn_to:
            return "cell.turn_from is after cell.turn_to"
        return refs.need("session", rec.session, f"{kind}.session")
    if kind == "fact_source":
        for k, v in (("fact", rec.fact), ("turn", rec.turn), ("cell", rec.cell), ("session", rec.session)):
            bad = refs.need(k, v, f"fact_source.{k}")
            if bad:
                return bad
        if refs.turn_session.get(rec.turn) != rec.session:
            return f"fact_source.turn {rec.turn} is not a turn of session {rec.session}"
        return None
    if kind == "entity_fact":
        for k, v in (("entity", rec.entity), ("fact", rec.fact), ("session", rec.session)):
            bad = refs.need(k, v, f"entity_fact.{k}")
            if bad:
                return bad
        return None
    if kind == "scene_cluster":
        for m in rec.members:
            bad = refs.need("fact", m, "scene_cluster.members")
            if bad:
                return bad
        return None
    if kind == "node":
        for k, v in (("tree", rec.tree), ("fact", rec.leaf_fact), ("cell", rec.leaf_cell)):
            bad = refs.need(k, v, f"node.{'leaf_' + k if k != 'tree' else k}")
            if bad:
                return bad
        if rec.parent is not None:
            if rec.parent not in refs.ids["node"]:
                return f"node.parent refers to unknown (or later) node {rec.parent}"
            if refs.node_tree[rec.parent] != rec.tree:
                return f"node.parent {rec.parent} is in another tree"
        if (rec.level == 0) != (rec.leaf_fact is not None or rec.leaf_cell is not None):
            return "node: a node has a leaf payload exactly when its level is 0"
        return None
    if kind == "placement":
        return (
            refs.need("tree", rec.tree, "placement.tree")
            or refs.need("node", rec.node, "placement.node")
            or refs.need(rec.source_kind, rec.source_id, "placement.source_id")
        )
    return None


def parse_export(lines: Iterable[str | bytes], *, source: str = "<input>") -> ParsedExport:
    """Validate an export line by line (streaming the input); InputError names the first bad line."""
    it = iter(lines)
    first = next(it, None)
    if first is None:
        raise _fail(source, 1, "the file is empty")
    header = _parse_header(first.decode("utf-8") if isinstance(first, bytes) else first, source)
    dim = header.embedding.dim
    allowed = set(PERSISTENT_TYPES) | (set(DERIVED_TYPES) if header.with_derived else set())
    parsed = ParsedExport(header=header)
    refs = _Refs()
    n = 1
    for n, raw_line in enumerate(it, start=2):
        raw = raw_line.decode("utf-8") if isinstance(raw_line, bytes) else raw_line
        if not raw.strip():
            continue
        if "\\u0000" in raw or "\x00" in raw:
            raise _fail(source, n, "NUL characters are not allowed")
        try:
            doc = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise _fail(source, n, f"not valid JSON ({exc.msg}; truncated line?)") from None
        if not isinstance(doc, dict):
            raise _fail(source, n, "a record must be a JSON object")
        kind = doc.get("type")
        if kind not in MODELS:
            raise _fail(source, n, f"unknown record type {kind!r} (expected one of {', '.join(MODELS)})")
        if kind not in allowed:
            raise _fail(source, n, f"{kind} records need a header with with_derived true")
        if kind == "fact" and doc.get("embedding") is not None and not header.with_derived:
            raise _fail(source, n, "fact.embedding needs a header with with_derived true")
        try:
            rec: Any = MODELS[kind].model_validate(doc)
        except ValidationError as exc:
            raise _fail(source, n, _validation_message(exc, kind)) from None
        bad = _check_refs(rec, refs) or refs.unique(rec)
        if bad:
            raise _fail(source, n, bad)
        rid = getattr(rec, "id", None)
        if rid is not None:
            if rid in refs.ids[kind]:
                raise _fail(source, n, f"duplicate {kind} id {rid}")
            refs.ids[kind].add(rid)
        if kind == "turn":
            refs.turn_session[rec.id] = rec.session
        elif kind == "node":
            refs.node_tree[rec.id] = rec.tree
        for attr in ("embedding", "centroid"):
            data = getattr(rec, attr, None)
            if data is not None:
                try:
                    parsed.vectors[(kind, int(rec.id))] = decode_vector(data, dim)
                except ValueError as exc:
                    raise _fail(source, n, f"{kind}.{attr}: {exc}") from None
        parsed.records[kind].append(rec)
    end = n + 1
    for fact in parsed.records["fact"]:
        for attr in ("supersedes", "superseded_by"):
            target = getattr(fact, attr)
            if target is not None and target not in refs.ids["fact"]:
                raise _fail(source, end, f"fact {fact.id}.{attr} refers to unknown fact {target}")
    for tree in parsed.records["tree"]:
        if tree.root is not None and refs.node_tree.get(tree.root) != tree.id:
            raise _fail(source, end, f"tree {tree.id}.root refers to unknown node {tree.root}")
    for kind in allowed | set(header.counts):
        announced, found = header.counts.get(kind, 0), len(parsed.records.get(kind, []))
        if announced != found:
            raise _fail(
                source, end, f"the header announces {announced} {kind} records but the file has {found} (truncated?)"
            )
    parsed.lines = n
    return parsed


def read_export(path: Path) -> ParsedExport:
    """``parse_export`` over a file, streamed line by line."""
    try:
        with path.open("r", encoding="utf-8") as fh:
            return parse_export(fh, source=str(path))
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None


# ---------------------------------------------------------------- staging load


@dataclass(frozen=True, slots=True)
class Staging:
    """A loaded staging forest and what the import still has to do."""

    staging_forest_id: int
    staging_forest: str
    dst_forest_id: int
    dst_forest: str
    reused_vectors: bool
    rebuilt_trees: bool
    job_id: uuid.UUID | None = None


async def _alloc(conn: AsyncConnection, table: str, column: str, old_ids: Sequence[int]) -> dict[int, int]:
    """Fresh ids from the table's identity sequence, in the file's order."""
    if not old_ids:
        return {}
    rows = await fetch_all(
        conn,
        "SELECT nextval(CAST(pg_get_serial_sequence(:tb, :col) AS regclass)) AS id FROM generate_series(1, :n)",
        {"tb": table, "col": column, "n": len(old_ids)},
    )
    return dict(zip(old_ids, (int(r["id"]) for r in rows), strict=True))


async def _insert(conn: AsyncConnection, sql: str, rows: list[dict[str, Any]]) -> None:
    for i in range(0, len(rows), 5000):
        chunk = rows[i : i + 5000]
        if chunk:
            await conn.execute(text(sql), chunk)


def _same_space(parsed: ParsedExport, settings: Settings) -> bool:
    mine, theirs = embedding_info(settings), parsed.header.embedding
    return (theirs.backend, theirs.model, theirs.dim) == (mine["backend"], mine["model"], mine["dim"])


async def load_staging(
    db: Database,
    settings: Settings,
    tenant_id: uuid.UUID,
    parsed: ParsedExport,
    dst_forest: str,
    *,
    enqueue_job: bool = False,
) -> Staging:
    """One transaction: the target forest (created when missing) and a staging forest with the file's
    state. Derived artifacts are loaded when usable, else trees are built from persistent state.
    With ``enqueue_job`` the ``import`` job that completes it is queued in the same transaction."""
    t = tenant_id
    same_space = _same_space(parsed, settings)
    use_derived = parsed.header.with_derived and same_space
    dim = settings.embedding.dim
    recs = parsed.records
    vec = parsed.vectors
    async with db.tenant(tenant_id) as conn:
        dst = await ensure_forest(conn, t, dst_forest)
        staging_name = f"{STAGING_PREFIX}{uuid.uuid4().hex}"
        f = int(
            await scalar(
                conn,
                "INSERT INTO forests (tenant_id, name) VALUES (:t, :n) RETURNING forest_id",
                {"t": t, "n": staging_name},
            )
        )
        sm = await _alloc(conn, "sessions", "session_id", [r.id for r in recs["session"]])
        tm = await _alloc(conn, "turns", "turn_id", [r.id for r in recs["turn"]])
        cm = await _alloc(conn, "cells", "cell_id", [r.id for r in recs["cell"]])
        fm = await _alloc(conn, "facts", "fact_id", [r.id for r in recs["fact"]])
        em = await _alloc(conn, "entities", "entity_id", [r.id for r in recs["entity"]])
        km = await _alloc(conn, "scene_clusters", "cluster_id", [r.id for r in recs["scene_cluster"]])
        await _insert(
            conn,
            "INSERT INTO sessions (tenant_id, session_id, forest_id, external_id, time, content_hash, metadata, "
            "n_turns, created_at) VALUES (:t, :id, :f, :e, :ts, :h, CAST(:m AS jsonb), :n, coalesce(CAST(:c AS "
            "timestamptz), now()))",
            [{"t": t, "id": sm[r.id], "f": f, "e": r.external_id, "ts": r.time, "h": r.content_hash,
              "m": json.dumps(r.metadata), "n": r.n_turns, "c": r.created_at} for r in recs["session"]],
        )  # fmt: skip
        await _insert(
            conn,
            "INSERT INTO turns (tenant_id, turn_id, forest_id, session_id, seq, external_id, speaker, role, text, "
            "time) VALUES (:t, :id, :f, :s, :seq, :e, :sp, :r, :x, :ts)",
            [{"t": t, "id": tm[r.id], "f": f, "s": sm[r.session], "seq": r.seq, "e": r.external_id, "sp": r.speaker,
              "r": r.role, "x": r.text, "ts": r.time} for r in recs["turn"]],
        )  # fmt: skip
        await _insert(
            conn,
            "INSERT INTO cells (tenant_id, cell_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, "
            "t_end, extracted_at, extract_attempts, extract_error) VALUES (:t, :id, :f, :s, :seq, :a, :b, :x, :ts, "
            ":te, :xa, :n, :err)",
            [{"t": t, "id": cm[r.id], "f": f, "s": sm[r.session], "seq": r.seq, "a": r.turn_from, "b": r.turn_to,
              "x": r.text, "ts": r.t_start, "te": r.t_end, "xa": r.extracted_at, "n": r.extract_attempts,
              "err": r.extract_error} for r in recs["cell"]],
        )  # fmt: skip
        await _insert(
            conn,
            "INSERT INTO facts (tenant_id, fact_id, forest_id, text, text_hash, kind, entities, topics, speaker, "
            "subject, attribute, value, time_text, valid_from, valid_to, recorded_at, retracted_at, source_count, "
            "embedding) VALUES (:t, :id, :f, :x, :h, :k, :en, :to, :sp, :su, :at, :va, :tt, :vf, :vt, :ra, :rt, 0, "
            ":e)",
            [{"t": t, "id": fm[r.id], "f": f, "x": r.text, "h": r.text_hash, "k": r.kind, "en": r.entities,
              "to": r.topics, "sp": r.speaker, "su": r.subject, "at": r.attribute, "va": r.value, "tt": r.time_text,
              "vf": r.valid_from, "vt": r.valid_to, "ra": r.recorded_at, "rt": r.retracted_at,
              "e": vec.get(("fact", r.id)) if use_derived else None} for r in recs["fact"]],
        )  # fmt: skip
        links = [
            {"t": t, "id": fm[r.id], "s": fm.get(r.supersedes or -1), "b": fm.get(r.superseded_by or -1)}
            for r in recs["fact"]
            if r.supersedes is not None or r.superseded_by is not None
        ]
        await _insert(
            conn, "UPDATE facts SET supersedes = :s, superseded_by = :b WHERE tenant_id = :t AND fact_id = :id", links
        )
        await _insert(
            conn,
            "INSERT INTO fact_sources (tenant_id, fact_id, turn_id, cell_id, forest_id, session_id, created_at) "
            "VALUES (:t, :fa, :tu, :c, :f, :s, coalesce(CAST(:ca AS timestamptz), now())) ON CONFLICT DO NOTHING",
            [{"t": t, "fa": fm[r.fact], "tu": tm[r.turn], "c": cm[r.cell], "f": f, "s": sm[r.session],
              "ca": r.created_at} for r in recs["fact_source"]],
        )  # fmt: skip
        await execute(
            conn,
            "UPDATE facts x SET source_count = c.n FROM (SELECT fact_id, count(*) AS n FROM fact_sources "
            "WHERE tenant_id = :t AND forest_id = :f GROUP BY fact_id) c "
            "WHERE x.tenant_id = :t AND x.fact_id = c.fact_id",
            {"t": t, "f": f},
        )
        await _insert(
            conn,
            "INSERT INTO entities (tenant_id, entity_id, forest_id, key, label, is_speaker, fact_count, session_count, "
            "activated, first_time, last_time) VALUES (:t, :id, :f, :k, :l, :sp, :fc, :sc, :a, :ft, :lt)",
            [{"t": t, "id": em[r.id], "f": f, "k": r.key, "l": r.label, "sp": r.is_speaker, "fc": r.fact_count,
              "sc": r.session_count, "a": r.activated, "ft": r.first_time, "lt": r.last_time} for r in recs["entity"]],
        )  # fmt: skip
        await _insert(
            conn,
            "INSERT INTO entity_facts (tenant_id, entity_id, fact_id, forest_id, session_id) VALUES (:t, :e, :fa, :f, "
            ":s) ON CONFLICT DO NOTHING",
            [{"t": t, "e": em[r.entity], "fa": fm[r.fact], "f": f, "s": sm[r.session]} for r in recs["entity_fact"]],
        )
        zero = np.zeros(dim, dtype=np.float32)
        await _insert(
            conn,
            "INSERT INTO scene_clusters (tenant_id, cluster_id, forest_id, centroid, member_count, topic_counts, "
            "last_time, merged_into) VALUES (:t, :id, :f, :c, :n, CAST(:tc AS jsonb), :lt, :mi)",
            [{"t": t, "id": km[r.id], "f": f, "c": vec[("scene_cluster", r.id)] if same_space else zero,
              "n": r.member_count, "tc": json.dumps(r.topic_counts, sort_keys=True), "lt": r.last_time,
              "mi": km.get(r.merged_into or -1)} for r in recs["scene_cluster"]],
        )  # fmt: skip
        if use_derived:
            await _load_trees(conn, t, f, parsed, sm, cm, fm, km)
        else:
            scenes = [
                (km[r.id], r.label or "misc", [fm[m] for m in r.members])
                for r in recs["scene_cluster"]
                if r.members and r.merged_into is None
            ]
            await build_trees_from_state(conn, t, f, settings, scenes=scenes)
        job_id = None
        if enqueue_job:
            payload = {"staging_forest_id": f, "records": parsed.counts, "reused_vectors": use_derived,
                       "rebuilt_trees": not use_derived}  # fmt: skip
            job_id = await enqueue(conn, t, dst.forest_id, "import", payload)
    return Staging(f, staging_name, dst.forest_id, dst.name, use_derived, not use_derived, job_id)


async def _load_trees(
    conn: AsyncConnection,
    t: uuid.UUID,
    f: int,
    parsed: ParsedExport,
    sm: dict[int, int],
    cm: dict[int, int],
    fm: dict[int, int],
    km: dict[int, int],
) -> None:
    """Trees, nodes and placements of the file, ids remapped (session and scene keys follow their scope)."""
    recs = parsed.records
    trm = await _alloc(conn, "trees", "tree_id", [r.id for r in recs["tree"]])
    nm = await _alloc(conn, "nodes", "node_id", [r.id for r in recs["node"]])

    def key_of(r: TreeRec) -> str:
        if r.kind == "scene" and r.key.isdigit() and int(r.key) in km:
            return str(km[int(r.key)])
        return r.key

    await _insert(
        conn,
        "INSERT INTO trees (tenant_id, tree_id, forest_id, kind, key, label, fanout, root_node_id, height, n_leaves, "
        "created_at) VALUES (:t, :id, :f, :k, :key, :l, :fo, :r, :h, :n, coalesce(CAST(:c AS timestamptz), now()))",
        [{"t": t, "id": trm[r.id], "f": f, "k": r.kind, "key": key_of(r), "l": r.label, "fo": r.fanout,
          "r": nm.get(r.root or -1), "h": r.height, "n": r.n_leaves, "c": r.created_at} for r in recs["tree"]],
    )  # fmt: skip
    vec = parsed.vectors
    await _insert(
        conn,
        "INSERT INTO nodes (tenant_id, node_id, forest_id, tree_id, level, parent_id, t_start, t_end, seq, n_children, "
        "summary, summary_hash, version, dirty, embedding, embedded_hash, leaf_fact_id, leaf_cell_id) VALUES (:t, :id, "
        ":f, :tr, :lv, :p, :ts, :te, :seq, :nc, :s, :sh, :v, :d, :e, :eh, :lf, :lc)",
        [{"t": t, "id": nm[r.id], "f": f, "tr": trm[r.tree], "lv": r.level, "p": nm.get(r.parent or -1),
          "ts": r.t_start, "te": r.t_end, "seq": r.seq, "nc": r.n_children, "s": r.summary, "sh": r.summary_hash,
          "v": r.version, "d": r.dirty, "e": vec.get(("node", r.id)), "eh": r.embedded_hash,
          "lf": fm.get(r.leaf_fact or -1), "lc": cm.get(r.leaf_cell or -1)} for r in recs["node"]],
    )  # fmt: skip
    await _insert(
        conn,
        "INSERT INTO placements (tenant_id, tree_id, source_kind, source_id, forest_id, node_id) VALUES (:t, :tr, :sk, "
        ":sid, :f, :n)",
        [{"t": t, "tr": trm[r.tree], "sk": r.source_kind, "sid": (fm if r.source_kind == "fact" else cm)[r.source_id],
          "f": f, "n": nm[r.node]} for r in recs["placement"]],
    )  # fmt: skip


# ---------------------------------------------------------------- trees from persistent state


async def build_trees_from_state(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    settings: Settings,
    *,
    scenes: Sequence[tuple[int, str, Sequence[int]]] | None = None,
) -> InsertStats:
    """Hang a forest's evidence in fresh trees from its persistent state (the forest has no trees)
    with ``treebuild.build_forest_trees`` in replay mode: session trees from cells, entity trees for
    activated entities from their links, scene trees from ``scenes`` (cluster id, label, member fact
    ids in insertion order). Leaves go in in the order the write path inserted them (cells in order;
    an entity's facts backfilled in time order up to the point it earned its tree, then in creation
    order; scene members in order), batched, so a forest ingested with the same settings gets the
    same tree shapes. Live facts with a vector left without a scene are clustered. Caller holds the
    transaction."""
    return await build_forest_trees(
        conn, tenant_id, forest_id, settings.pipeline, replay=True,
        scenes=[SceneScope(str(cluster_id), label, members) for cluster_id, label, members in scenes or ()],
    )  # fmt: skip


async def place_orphans(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, settings: Settings, stats: InsertStats
) -> int:
    """Route live facts that no scene tree holds (and that have a vector) to a scene, as the write path does."""
    return await route_unscened(conn, tenant_id, forest_id, settings.pipeline, stats)


# ---------------------------------------------------------------- completing an import


@dataclass(slots=True)
class ImportReport:
    """What an import did: the staging load, the vectors computed, and the merge into the target."""

    forest: str
    records: dict[str, int] = field(default_factory=dict)
    reused_vectors: bool = False
    rebuilt_trees: bool = False
    embedded_facts: int = 0
    centroids: int = 0
    orphans_routed: int = 0
    merge: MergeReport | None = None
    wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON (job results, ``--json``)."""
        return {
            "forest": self.forest,
            "records": dict(sorted(self.records.items())),
            "reused_vectors": self.reused_vectors,
            "rebuilt_trees": self.rebuilt_trees,
            "embedded_facts": self.embedded_facts,
            "centroids": self.centroids,
            "orphans_routed": self.orphans_routed,
            "merge": self.merge.as_dict() if self.merge is not None else None,
            "wall_s": round(self.wall_s, 4),
        }


async def _embed_missing(
    db: Database, backends: Backends, tenant_id: uuid.UUID, forest_id: int, ledger: UsageLedger
) -> int:
    """Embed the forest's facts that have no vector, in batches (no transaction across the calls)."""
    done, last = 0, 0
    while True:
        async with db.tenant(tenant_id) as conn:
            rows = await fetch_all(
                conn,
                "SELECT fact_id, text FROM facts WHERE tenant_id = :t AND forest_id = :f AND embedding IS NULL "
                "AND fact_id > :last ORDER BY fact_id LIMIT :n",
                {"t": tenant_id, "f": forest_id, "last": last, "n": EMBED_BATCH},
            )
        if not rows:
            return done
        vectors = await backends.embedder.embed([str(r["text"]) for r in rows], stage="embed", ledger=ledger)
        async with db.tenant(tenant_id) as conn:
            await conn.execute(
                text("UPDATE facts SET embedding = :e WHERE tenant_id = :t AND fact_id = :id"),
                [{"e": np.asarray(v, dtype=np.float32), "t": tenant_id, "id": int(r["fact_id"])}
                 for r, v in zip(rows, vectors, strict=True)],
            )  # fmt: skip
        done += len(rows)
        last = int(rows[-1]["fact_id"])


async def _finish_vectors(
    db: Database, settings: Settings, tenant_id: uuid.UUID, forest_id: int, report: ImportReport
) -> None:
    """Fact leaves take their fact's new vector (born clean, as on the write path); unusable (zero)
    centroids become the normalised sum of their members; facts still without a tree get a scene."""
    p = {"t": tenant_id, "f": forest_id}
    async with db.tenant(tenant_id) as conn:
        await execute(
            conn,
            "UPDATE nodes n SET embedding = x.embedding, embedded_hash = n.summary_hash, dirty = false FROM facts x "
            "WHERE n.tenant_id = :t AND n.forest_id = :f AND n.level = 0 AND n.embedding IS NULL "
            "AND x.tenant_id = n.tenant_id AND x.fact_id = n.leaf_fact_id AND x.embedding IS NOT NULL "
            "AND x.text = n.summary",
            p,
        )
        report.centroids = await execute(
            conn,
            "UPDATE scene_clusters c SET centroid = l2_normalize(m.s) FROM (SELECT tr.key, sum(x.embedding) AS s "
            "FROM placements pl JOIN trees tr ON tr.tenant_id = pl.tenant_id AND tr.tree_id = pl.tree_id "
            "JOIN facts x ON x.tenant_id = pl.tenant_id AND x.fact_id = pl.source_id WHERE pl.tenant_id = :t "
            "AND pl.forest_id = :f AND pl.source_kind = 'fact' AND tr.kind = 'scene' AND x.embedding IS NOT NULL "
            "GROUP BY tr.key) m WHERE c.tenant_id = :t AND c.forest_id = :f AND CAST(c.cluster_id AS text) = m.key "
            "AND vector_norm(c.centroid) = 0",
            p,
        )
        report.orphans_routed = await place_orphans(conn, tenant_id, forest_id, settings, InsertStats())


async def drop_staging(db: Database, tenant_id: uuid.UUID, staging_forest_id: int) -> None:
    """Delete a staging forest and everything in it (only ever a ``~staging:`` forest)."""
    async with db.tenant(tenant_id) as conn:
        await execute(
            conn,
            "DELETE FROM forests WHERE tenant_id = :t AND forest_id = :f AND name LIKE :prefix",
            {"t": tenant_id, "f": staging_forest_id, "prefix": STAGING_PREFIX + "%"},
        )


async def complete_import(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    staging_forest_id: int,
    dst_forest_id: int,
    *,
    ledger: UsageLedger,
    progress: Progress | None = None,
    report: ImportReport | None = None,
) -> ImportReport:
    """Vectors for the staging forest, merge staging -> target, drop staging (also on failure)."""
    t0 = time.perf_counter()
    async with db.tenant(tenant_id) as conn:
        name = await scalar(
            conn,
            "SELECT name FROM forests WHERE tenant_id = :t AND forest_id = :f",
            {"t": tenant_id, "f": dst_forest_id},
        )
        staged = await scalar(
            conn,
            "SELECT name FROM forests WHERE tenant_id = :t AND forest_id = :f",
            {"t": tenant_id, "f": staging_forest_id},
        )
    if staged is None or not str(staged).startswith(STAGING_PREFIX):
        raise NotFoundError(f"staging forest {staging_forest_id} does not exist (import already finished?)")
    if name is None:
        await drop_staging(db, tenant_id, staging_forest_id)
        raise NotFoundError(f"target forest {dst_forest_id} does not exist")
    report = report or ImportReport(forest=str(name))
    report.forest = str(name)
    try:
        await notify(progress, "vectors", 0, 1)
        report.embedded_facts = await _embed_missing(db, backends, tenant_id, staging_forest_id, ledger)
        await _finish_vectors(db, settings, tenant_id, staging_forest_id, report)
        await notify(progress, "vectors", 1, 1)
        report.merge = await merge_forests(
            db, settings, backends, src_tenant=tenant_id, src_forest_id=staging_forest_id, dst_tenant=tenant_id,
            dst_forest_id=dst_forest_id, ledger=ledger, progress=progress,
        )  # fmt: skip
    finally:
        await drop_staging(db, tenant_id, staging_forest_id)
    report.wall_s += time.perf_counter() - t0
    return report


async def import_parsed(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    parsed: ParsedExport,
    forest: str,
    *,
    ledger: UsageLedger,
    progress: Progress | None = None,
) -> ImportReport:
    """Load a parsed export into staging and merge it into ``forest`` (created when missing)."""
    t0 = time.perf_counter()
    staging = await load_staging(db, settings, tenant_id, parsed, forest)
    report = ImportReport(
        forest=staging.dst_forest,
        records=parsed.counts,
        reused_vectors=staging.reused_vectors,
        rebuilt_trees=staging.rebuilt_trees,
        wall_s=time.perf_counter() - t0,
    )
    return await complete_import(
        db, settings, backends, tenant_id, staging.staging_forest_id, staging.dst_forest_id,
        ledger=ledger, progress=progress, report=report,
    )  # fmt: skip


async def import_file(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    path: Path,
    forest: str,
    *,
    ledger: UsageLedger,
    progress: Progress | None = None,
) -> ImportReport:
    """Validate the whole file first (nothing is written on bad input), then import it."""
    parsed = read_export(path)
    return await import_parsed(db, settings, backends, tenant_id, parsed, forest, ledger=ledger, progress=progress)


async def run_import_job(
    db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``import`` job: payload ``{"staging_forest_id", "records", "reused_vectors", "rebuilt_trees"}``;
    the job's forest is the target. The staging forest is dropped whatever happens."""
    p = job.payload
    if job.forest_id is None or "staging_forest_id" not in p:
        return {}, [{"error": "an import job needs a target forest and a staging forest"}]

    async def progress(stage: str, done: int, total: int) -> None:
        await update_progress(db, job, {"stage": stage, "done": done, "total": total})

    report = ImportReport(
        forest="",
        records=dict(p.get("records") or {}),
        reused_vectors=bool(p.get("reused_vectors")),
        rebuilt_trees=bool(p.get("rebuilt_trees")),
    )
    try:
        report = await complete_import(
            db, settings, backends, job.tenant_id, int(p["staging_forest_id"]), int(job.forest_id),
            ledger=ledger, progress=progress, report=report,
        )  # fmt: skip
    except MemForestError as exc:
        return {}, [{"error": str(exc)}]
    return report.as_dict(), []
