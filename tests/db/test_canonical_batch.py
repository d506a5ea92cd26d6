"""Batched canonicalisation (``canonicalize_many``) against canonicalising one candidate at a time
(``canonicalize``): same outcomes, facts, sources and supersession links, with duplicates and
near duplicates inside the batch, merges into stored facts, a slot timeline threaded through stored
and new facts, and vectors of zeros."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from support import session_input
from support.reference.canonical import canonicalize

from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.domain import Candidate, FactKind
from memforest.pipeline.canonical import SourceRef
from memforest.pipeline.canonical_batch import canonicalize_many
from memforest.pipeline.service import accept_sessions
from memforest.settings import Settings
from memforest.store.sql import fetch_all, scalar
from memforest.store.tenants import ensure_tenant

JAN = datetime(2023, 1, 10, 9, 0, tzinfo=UTC)
MAR = datetime(2023, 3, 14, 9, 0, tzinfo=UTC)
APR = datetime(2023, 4, 2, 9, 0, tzinfo=UTC)
MAY = datetime(2023, 5, 3, 9, 0, tzinfo=UTC)
EMBEDDER = HashedEmbedder(64)
THRESHOLD = 0.8

PREF_A = "Alice loves painting landscapes with watercolors."
PREF_B = "Alice really loves painting landscapes with watercolors."
HIKE_A = "Alice went hiking at Mount Tam."
HIKE_C = "Alice went for hiking at Mount Tam."
ZERO = "A fact whose vector is all zeros."

# (text, kind, valid_from, source turn index, speaker, residence value or None, zero vector)
Spec = tuple[str, FactKind, datetime, int, str, str | None, bool]
STORED: list[Spec] = [
    (PREF_A, FactKind.PREFERENCE, JAN, 0, "Alice", None, False),
    ("Alice lives in Boston.", FactKind.STATE, JAN, 1, "Alice", "Boston", False),
    ("Alice moved to Davis.", FactKind.STATE, MAY, 2, "Alice", "Davis", False),
]
BATCH: list[Spec] = [
    (PREF_B, FactKind.PREFERENCE, MAY, 3, "Alice", None, False),  # near duplicate of a stored fact
    (PREF_B, FactKind.PREFERENCE, MAY, 3, "Alice", None, False),  # the same source again: duplicate
    (HIKE_A, FactKind.EVENT, JAN, 4, "Alice", None, False),  # new
    (HIKE_C, FactKind.EVENT, JAN + timedelta(hours=5), 5, "Alice", None, False),  # near duplicate of the batch's
    (HIKE_A, FactKind.EVENT, JAN, 4, "Alice", None, False),  # exact duplicate in the batch, same source
    (HIKE_A, FactKind.EVENT, JAN, 6, "Alice", None, False),  # exact duplicate in the batch, new source
    ("Alice moved to Chicago.", FactKind.STATE, MAR, 6, "Alice", "Chicago", False),  # between Boston and Davis
    ("Alice moved to Seattle.", FactKind.STATE, APR, 7, "Alice", "Seattle", False),  # between Chicago and Davis
    ("Alice lived in Lisbon.", FactKind.STATE, JAN - timedelta(days=90), 7, "Alice", "Lisbon", False),  # first
    (ZERO, FactKind.EVENT, MAR, 5, "Alice", None, True),  # no vector: exact matches only
    (ZERO, FactKind.EVENT, MAR, 6, "Alice", None, True),
    (PREF_B, FactKind.PREFERENCE, MAY, 7, "Bob", None, False),  # another speaker: new
]


def _cand(spec: Spec) -> tuple[Candidate, np.ndarray[Any, Any]]:
    text, kind, when, _, speaker, value, zero = spec
    state = {"subject": "Alice", "attribute": "residence", "value": value} if value else {}
    cand = Candidate(text=text, kind=kind, source_turn_seqs=(0,), valid_from=when, speaker=speaker, **state)
    emb = np.zeros(64, dtype=np.float32) if zero else EMBEDDER.embed_sync([text])[0]
    return cand, emb


async def _run(db: Database, settings: Settings, name: str, *, batched: bool) -> dict[str, Any]:
    settings.pipeline.cell_turns = 8
    tenant_id = await ensure_tenant(db, name)
    forest, (res,) = await accept_sessions(
        db, settings, tenant_id, "f", [session_input("s1", JAN, [f"turn {i}" for i in range(8)])]
    )
    fid = forest.forest_id
    async with db.tenant(tenant_id) as conn:
        turns = [int(t["turn_id"]) for t in await fetch_all(conn, "SELECT turn_id FROM turns ORDER BY seq")]
        cell_id = int(await scalar(conn, "SELECT cell_id FROM cells"))

    def item(spec: Spec) -> tuple[Candidate, np.ndarray[Any, Any], SourceRef]:
        cand, emb = _cand(spec)
        return cand, emb, SourceRef(res.session_id, cell_id, (turns[spec[3]],))

    async with db.tenant(tenant_id) as conn:
        for spec in STORED:
            await canonicalize(conn, tenant_id, fid, *item(spec), near_threshold=THRESHOLD)
    async with db.tenant(tenant_id) as conn:  # one commit
        if batched:
            outcomes = await canonicalize_many(conn, tenant_id, fid, [item(s) for s in BATCH], near_threshold=THRESHOLD)
        else:
            outcomes = [await canonicalize(conn, tenant_id, fid, *item(s), near_threshold=THRESHOLD) for s in BATCH]
    async with db.tenant(tenant_id) as conn:
        facts = await fetch_all(
            conn,
            "SELECT fact_id, text, text_hash, kind, entities, topics, speaker, subject, attribute, value, valid_from, "
            "valid_to, source_count, supersedes, superseded_by, embedding FROM facts ORDER BY fact_id",
        )
        sources = await fetch_all(conn, "SELECT fact_id, turn_id, cell_id, session_id FROM fact_sources")
    rank = {int(f["fact_id"]): i for i, f in enumerate(facts)}
    rank_of = {None: None, **rank}
    turn = {t: i for i, t in enumerate(turns)}
    return {
        "outcomes": [(rank[o.fact_id], o.status, rank_of[o.superseded]) for o in outcomes],
        "facts": [
            {
                **{k: v for k, v in f.items() if k not in ("fact_id", "supersedes", "superseded_by", "embedding")},
                "supersedes": rank_of[f["supersedes"]],
                "superseded_by": rank_of[f["superseded_by"]],
                "embedding": np.asarray(f["embedding"].to_list()).tolist(),
            }
            for f in facts
        ],
        "sources": sorted((rank[int(s["fact_id"])], turn[int(s["turn_id"])]) for s in sources),
        "ids_ascend": [int(f["fact_id"]) for f in facts] == sorted(int(f["fact_id"]) for f in facts),
    }


async def test_canonicalize_many_equals_canonicalizing_one_at_a_time(db: Database, settings: Settings) -> None:
    one_by_one = await _run(db, settings, "a", batched=False)
    batched = await _run(db, settings, "b", batched=True)
    assert batched == one_by_one
    statuses = [s for _, s, _ in batched["outcomes"]]
    assert statuses == [
        "merged", "duplicate", "new", "merged", "duplicate", "merged", "new", "new", "new", "new", "merged", "new",
    ]  # fmt: skip
    by_value = {f["value"]: f for f in batched["facts"] if f["value"]}
    rank = {f["value"]: i for i, f in enumerate(batched["facts"]) if f["value"]}
    # Lisbon -> Boston -> Chicago -> Seattle -> Davis, threaded through stored and new facts
    assert by_value["Lisbon"]["superseded_by"] == rank["Boston"]
    assert by_value["Boston"]["superseded_by"] == rank["Chicago"] and by_value["Boston"]["valid_to"] == MAR
    assert by_value["Chicago"]["superseded_by"] == rank["Seattle"] and by_value["Chicago"]["valid_to"] == APR
    assert by_value["Seattle"]["superseded_by"] == rank["Davis"] and by_value["Seattle"]["valid_to"] == MAY
    assert by_value["Davis"]["supersedes"] == rank["Seattle"]


async def test_canonicalize_many_of_nothing_runs_no_statement(db: Database) -> None:
    async with db.tenant(uuid.uuid4()) as conn:
        assert await canonicalize_many(conn, uuid.uuid4(), 1, [], near_threshold=THRESHOLD) == []
