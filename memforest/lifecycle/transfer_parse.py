"""Reading an export file: every line validated before anything is written.

Header (format, version, embedding space), each record's fields and types, references to earlier
records, vector sizes, the header's counts (a truncated file fails), and the structure of the
trees the file brings (levels, heights, child counts within the fan-out, keys, time intervals,
leaf order and placements: the invariants ``memforest check`` verifies). Any bad line, deeply
nested, undecodable, carrying NaN or infinity, a lone surrogate or a value outside its column's
range (``transfer_format``), is an InputError naming the line.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from memforest.errors import InputError
from memforest.lifecycle.transfer_format import (
    DERIVED_TYPES,
    FORMAT,
    MODELS,
    PERSISTENT_TYPES,
    VERSION,
    Header,
    decode_vector,
)
from memforest.memtree.invariants import check_tree

__all__ = ["MAX_DEPTH", "ParsedExport", "parse_export", "read_export"]

#: How deeply a record's JSON may nest (objects and arrays); deeper lines are refused.
MAX_DEPTH = 64

_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


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


def _depth_ok(doc: Any) -> bool:
    """Whether ``doc`` nests at most ``MAX_DEPTH`` objects and arrays deep (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        elif not isinstance(value, list):
            continue
        if depth > MAX_DEPTH:
            return False
        stack.extend((v, depth + 1) for v in value if isinstance(v, (dict, list)))
    return True


def _no_constant(name: str) -> Any:
    """``json.loads`` reads NaN, Infinity and -Infinity, which are not JSON (nor storable): refused."""
    raise ValueError(f"{name} is not a JSON number")


def _has_lone_surrogate(doc: Any) -> bool:
    """Whether a string of ``doc`` (a key or a value) holds half of a UTF-16 surrogate pair, which a
    ``\\ud800`` escape can carry and no UTF-8 text can (walked without recursion)."""
    stack = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return True
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def _load(raw: str | bytes, source: str, line: int, what: str) -> Any:
    """One line's JSON document; InputError for anything that is not (bad UTF-8, bad JSON, too deep)."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise _fail(source, line, f"{what} is not UTF-8 text") from None
    if "\\u0000" in text or "\x00" in text:
        raise _fail(source, line, "NUL characters are not allowed")
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise _fail(source, line, f"{what} is not valid JSON ({exc.msg}; truncated line?)") from None
    except RecursionError:
        raise _fail(source, line, f"{what} is not valid JSON (nested more than {MAX_DEPTH} deep?)") from None
    except ValueError as exc:  # NaN or Infinity, or an integer of too many digits
        raise _fail(source, line, f"{what} is not valid JSON ({exc})") from None
    if not _depth_ok(doc):
        raise _fail(source, line, f"{what} nests more than {MAX_DEPTH} levels deep")
    if _ESCAPED_SURROGATE.search(text) and _has_lone_surrogate(doc):
        raise _fail(source, line, f"{what} has a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape)")
    return doc


def _parse_header(raw: str | bytes, source: str) -> Header:
    doc = _load(raw, source, 1, "the header")
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


def _leaf(n: Any) -> tuple[str, int] | None:
    if n.leaf_fact is not None:
        return ("fact", int(n.leaf_fact))
    if n.leaf_cell is not None:
        return ("cell", int(n.leaf_cell))
    return None


def _check_trees(parsed: ParsedExport) -> str | None:
    """The first broken tree invariant of the file's trees, nodes and placements (None when sound):
    ``check_tree`` per tree (levels, height, child counts within fan-out, keys, intervals, leaf
    order, reachability), plus node intervals, one leaf per source per tree, and every leaf placed
    exactly where its placement says."""
    nodes_by_tree: dict[int, list[dict[str, Any]]] = defaultdict(list)
    leaves: set[tuple[int, str, int]] = set()
    for n in parsed.records["node"]:
        if n.t_start > n.t_end:
            return f"node {n.id}: t_start is after t_end"
        leaf = _leaf(n)
        if leaf is not None:
            if (n.tree, *leaf) in leaves:
                return f"tree {n.tree} has two leaves for {leaf[0]} {leaf[1]}"
            leaves.add((n.tree, *leaf))
        nodes_by_tree[n.tree].append(
            {"node_id": n.id, "tree_id": n.tree, "level": n.level, "parent_id": n.parent, "t_start": n.t_start,
             "t_end": n.t_end, "seq": n.seq, "n_children": n.n_children, "dirty": n.dirty,
             "leaf_fact_id": n.leaf_fact, "leaf_cell_id": n.leaf_cell}
        )  # fmt: skip
    for t in parsed.records["tree"]:
        tree = {"tree_id": t.id, "kind": t.kind, "label": t.label, "fanout": t.fanout, "root_node_id": t.root,
                "height": t.height, "n_leaves": t.n_leaves}  # fmt: skip
        broken = check_tree(tree, nodes_by_tree.get(t.id, []), allow_dirty=True)
        if broken:
            return broken[0]
    nodes = {n.id: n for n in parsed.records["node"]}
    placed: set[tuple[int, str, int]] = set()
    for p in parsed.records["placement"]:
        node = nodes[p.node]
        if node.tree != p.tree or _leaf(node) != (p.source_kind, p.source_id):
            return f"placement of {p.source_kind} {p.source_id} in tree {p.tree} does not name its leaf"
        placed.add((p.tree, p.source_kind, p.source_id))
    unplaced = leaves - placed
    if unplaced:
        tree_id, kind, source_id = min(unplaced)
        return f"the leaf of {kind} {source_id} in tree {tree_id} has no placement"
    return None


def parse_export(lines: Iterable[str | bytes], *, source: str = "<input>") -> ParsedExport:
    """Validate an export line by line (streaming the input); InputError names the first bad line."""
    it = iter(lines)
    first = next(it, None)
    if first is None:
        raise _fail(source, 1, "the file is empty")
    header = _parse_header(first, source)
    dim = header.embedding.dim
    allowed = set(PERSISTENT_TYPES) | (set(DERIVED_TYPES) if header.with_derived else set())
    parsed = ParsedExport(header=header)
    refs = _Refs()
    n = 1
    for n, raw_line in enumerate(it, start=2):
        if not raw_line.strip():
            continue
        doc = _load(raw_line, source, n, "the line")
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
    broken = _check_trees(parsed)
    if broken is not None:
        raise _fail(source, end, f"the file's trees are not sound: {broken}")
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
