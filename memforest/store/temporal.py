"""Reads of the temporal read path: which names of a question are subjects of the forest, a
subject's facts by id or naming a value, and the node reads of an interval-guided descent of the
subject's entity tree (its root, the children of a node)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memforest.rules import entity_key
from memforest.store import queries
from memforest.store.sql import Conn, Row, fetch_all

# One probe per name (each stops at its first row), and the subject's facts through
# ``ix_facts_speaker`` / ``ix_facts_subject`` (migration 0011), read by the SECURITY DEFINER
# functions of migration 0020: under the tenant's policy ``lower(...)`` (not leakproof) cannot be
# an index condition (ADR 0029). A person who is no speaker also has the speakers' slotless facts
# linked to their entity, the newest ``NAMED_FACTS`` of them, read by key (migration 0028, ADR 0072).
# The statements: ``memforest/store/queries/temporal.sql`` (ADR 0037).
_Q = queries.load("temporal")
_KNOWN_SUBJECTS = _Q["known_subjects"]
_SUBJECT_PROBE = _Q["subject_probe"]
_SUBJECT_FACTS = _Q["subject_facts"]
_FACTS_NAMING = _Q["facts_naming"]
_FACTS_BY_ID = _Q["facts_by_id"]
_UNFILED_BY_ID = _Q["unfiled_by_id"]
_ENTITY_ROOT = _Q["entity_root"]
_CHILDREN = _Q["children"]
_CHILDREN_OF = _Q["children_of"]
_TEXTS_NAMING = _Q["texts_naming"]
_TEXTS_BY_ID = _Q["texts_by_id"]
_USER_SPEAKER = _Q["user_speaker"]
_STATES_NAMING = _Q["states_naming"]
NAMED_FACTS = 128  # the speakers' words about one person a temporal plan reads at most
SLOT_ROWS = 64  # the newest facts of one (subject, attribute) slot a temporal plan reads (ADR 0091)


async def known_subjects(conn: Conn, tenant_id: uuid.UUID, forest_id: int, names: Sequence[str]) -> set[str]:
    """Those of ``names`` (lower case) that are a speaker, a fact subject or an entity tree of the forest."""
    if not names:
        return set()
    rows = await fetch_all(conn, _KNOWN_SUBJECTS, {"t": tenant_id, "f": forest_id, "names": list(names)})
    return {str(r["name"]) for r in rows}


@dataclass(frozen=True)
class SubjectProbe:
    """What :func:`subject_probe` read: the names that are subjects, the first of them (or None),
    that name's texts (as :func:`texts_naming`) and its entity tree's root (as :func:`entity_root`)."""

    known: frozenset[str]
    first: str | None
    texts: tuple[str, ...]
    root: int | None


async def subject_probe(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, names: Sequence[str], anchor: str, limit: int
) -> SubjectProbe:
    """In one statement: those of ``names`` (lower case, in order) that are subjects of the forest
    (:func:`known_subjects`) and, for the first of them that is not ``anchor``, its texts
    (:func:`texts_naming` with ``limit``) and its entity tree's root (:func:`entity_root`)."""
    keys = [entity_key(n) for n in names]
    params = {"t": tenant_id, "f": forest_id, "names": list(names), "keys": keys, "anchor": anchor, "n": limit}
    row = (await fetch_all(conn, _SUBJECT_PROBE, params))[0]
    root = row["root"]
    return SubjectProbe(
        frozenset(str(n) for n in row["known"]),
        None if row["first"] is None else str(row["first"]),
        tuple(str(t) for t in row["texts"]),
        None if root is None else int(root),
    )


async def subject_facts(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, subject: str, as_of: datetime | None, per_slot: int = SLOT_ROWS
) -> list[Row]:
    """Facts about ``subject`` (its slot subject, else its speaker), oldest first, superseded ones
    included; as of ``as_of`` when given (valid, recorded and not yet retracted then), else the
    unretracted ones: ``fact_id, text, speaker, subject, attribute, value, entities, valid_from,
    valid_to, superseded_by, recorded_at, retracted_at``. A subject who is no speaker of the forest
    also has the speakers' slotless facts linked to their entity (the newest :data:`NAMED_FACTS`):
    "..., my sister's knees gave out" is a statement about her as well. Of each (subject, attribute)
    slot only the newest ``per_slot`` facts (as of ``as_of``): one subject with a long history of one
    kind of state costs a plan no more than ``per_slot`` states of it (ADR 0091)."""
    params = {"t": tenant_id, "f": forest_id, "s": subject.casefold(), "k": entity_key(subject), "n": NAMED_FACTS,
              "as_of": as_of, "per_slot": per_slot}  # fmt: skip
    return await fetch_all(conn, _SUBJECT_FACTS, params)


async def facts_by_id(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, subject: str, ids: Sequence[int], as_of: datetime | None
) -> list[Row]:
    """Those of the facts ``ids`` that ``subject_facts`` would return (same columns, same filter),
    the named ones (``memforest_named_facts``) among them."""
    if not ids:
        return []
    params = {"t": tenant_id, "f": forest_id, "s": subject.casefold(), "k": entity_key(subject), "n": NAMED_FACTS,
              "as_of": as_of, "ids": list(ids)}  # fmt: skip
    return await fetch_all(conn, _FACTS_BY_ID, params)


async def unfiled_by_id(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, ids: Sequence[int], names: Sequence[str], as_of: datetime | None
) -> list[Row]:
    """Those of the facts ``ids`` that no state files (no subject, no attribute) whose text contains
    one of ``names`` (case-insensitive), whoever said them, visible as of ``as_of`` (as
    ``facts_by_id``): the statements about a person the write side filed under no one (ADR 0100)."""
    if not ids or not names:
        return []
    params = {"t": tenant_id, "f": forest_id, "ids": list(ids), "a": [n.casefold() for n in names], "as_of": as_of}
    return await fetch_all(conn, _UNFILED_BY_ID, params)


async def facts_naming(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, subject: str, text: str, as_of: datetime | None
) -> list[Row]:
    """The subject's facts (as ``subject_facts``) whose text contains ``text`` (case-insensitive):
    the candidates for the state an anchor value names."""
    params = {"t": tenant_id, "f": forest_id, "s": subject.casefold(), "as_of": as_of, "a": text.casefold()}
    return await fetch_all(conn, _FACTS_NAMING, params)


async def entity_root(conn: Conn, tenant_id: uuid.UUID, forest_id: int, subject: str) -> int | None:
    """The root node of the subject's entity tree, None when it has none."""
    rows = await fetch_all(conn, _ENTITY_ROOT, {"t": tenant_id, "f": forest_id, "s": entity_key(subject)})
    return int(rows[0]["root_node_id"]) if rows else None


async def children(conn: Conn, tenant_id: uuid.UUID, forest_id: int, node_id: int) -> list[Row]:
    """One node read: the children of ``node_id`` in time order (``node_id, level, leaf_fact_id,
    leaf_cell_id, t_start, t_end``)."""
    return await fetch_all(conn, _CHILDREN, {"t": tenant_id, "f": forest_id, "p": node_id})


async def children_of(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, node_ids: Sequence[int]
) -> dict[int, list[Row]]:
    """The children of each of ``node_ids`` in one statement: node id -> its children as
    ``children`` returns them (a node with none is absent)."""
    if not node_ids:
        return {}
    rows = await fetch_all(conn, _CHILDREN_OF, {"t": tenant_id, "f": forest_id, "ps": list(node_ids)})
    out: dict[int, list[Row]] = {}
    for r in rows:
        out.setdefault(int(r["parent_id"]), []).append(r)
    return out


async def texts_naming(conn: Conn, tenant_id: uuid.UUID, forest_id: int, text: str, limit: int) -> list[str]:
    """The texts of the forest's live facts that contain ``text`` (case-insensitive), newest first,
    at most ``limit``: where the other names of a person ("Ana's sister Mia") are read from."""
    rows = await fetch_all(conn, _TEXTS_NAMING, {"t": tenant_id, "f": forest_id, "a": text.casefold(), "n": limit})
    return [str(r["text"]) for r in rows]


async def texts_by_id(conn: Conn, tenant_id: uuid.UUID, forest_id: int, ids: Sequence[int]) -> list[str]:
    """The texts of those of the facts ``ids`` that are the forest's and live, in the order of ``ids``."""
    if not ids:
        return []
    rows = await fetch_all(conn, _TEXTS_BY_ID, {"t": tenant_id, "f": forest_id, "ids": list(ids)})
    return [str(r["text"]) for r in rows]


async def user_speaker(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> str | None:
    """The speaker of the forest's latest user-role turn (whom a question's "I" names when the
    query names no speaker), or None."""
    rows = await fetch_all(conn, _USER_SPEAKER, {"t": tenant_id, "f": forest_id})
    return str(rows[0]["speaker"]) if rows else None


async def states_naming(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, values: Sequence[str], limit: int
) -> list[Row]:
    """The forest's live slot facts whose text contains one of ``values`` (case-insensitive), oldest
    first, at most ``limit``: ``fact_id, text, subject, attribute, value, valid_from``."""
    if not values:
        return []
    params = {"t": tenant_id, "f": forest_id, "a": [v.casefold() for v in values], "n": limit}
    return await fetch_all(conn, _STATES_NAMING, params)
