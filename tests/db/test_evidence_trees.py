"""Assembly reads each candidate's scoring trees only (and its first tree), and the kept items'
tree labels with their provenance: the statements give the same trees as placements hold, a kept
fact without sources still gets its label, and a scoped query still filters on every tree's kind."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import numpy as np

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.settings import Settings
from memforest.store import evidence
from memforest.store.fact_edits import delete_fact_sources
from memforest.store.sql import fetch_all
from memforest.store.tenants import ensure_tenant

LINES = [
    "Bob moved to Lisbon for a job at a fintech startup.",
    "Bob adopted a grey cat named Pixel from the shelter.",
    "Alice and Bob went hiking in the Alps last summer.",
    "Bob started learning the cello with a teacher in Lisbon.",
]

_PLACED = (
    "SELECT p.source_kind AS kind, p.source_id AS id, tr.tree_id, tr.kind AS tree_kind, tr.label "
    "FROM placements p JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id "
    "WHERE p.tenant_id = :t AND p.forest_id = :f"
)


async def _forest(db: Database, settings: Settings) -> tuple[uuid.UUID, int, dict[tuple[str, int], set[int]]]:
    tenant_id = await ensure_tenant(db, f"trees-{uuid.uuid4().hex[:8]}")
    start = datetime(2023, 1, 1, 12, tzinfo=UTC)
    sessions = [
        SessionInput(f"s{i}", start + timedelta(days=30 * i), (TurnInput(speaker="Bob", text=line),))
        for i, line in enumerate(LINES)
    ]
    backends = build_backends(settings)
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "bob", sessions)
    finally:
        await backends.aclose()
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(conn, "SELECT forest_id FROM forests WHERE tenant_id = :t", {"t": tenant_id})
        forest_id = int(rows[0]["forest_id"])
        placed: dict[tuple[str, int], set[int]] = {}
        for r in await fetch_all(conn, _PLACED, {"t": tenant_id, "f": forest_id}):
            placed.setdefault((str(r["kind"]), int(r["id"])), set()).add(int(r["tree_id"]))
    return tenant_id, forest_id, placed


async def test_candidates_read_the_scoring_trees_or_every_tree(db: Database, settings: Settings) -> None:
    tenant_id, forest_id, placed = await _forest(db, settings)
    fids = sorted(i for k, i in placed if k == "fact")
    cids = sorted(i for k, i in placed if k == "cell")
    assert fids and cids
    every_tree = sorted(set().union(*placed.values()))
    scoring = every_tree[::2]  # some of the forest's trees
    q = np.ones(settings.embedding.dim, dtype=np.float32)
    async with db.tenant(tenant_id) as conn:
        full = await evidence.candidates_with_sim(conn, tenant_id, forest_id, fids, cids, q)
        part = await evidence.candidates_with_sim(conn, tenant_id, forest_id, fids, cids, q, scoring)
    assert {(r["kind"], r["id"]) for r in full} == {(r["kind"], r["id"]) for r in part} == set(placed)
    for r in full:
        assert r["in_trees"] is None and r["first_tree"] is None
        assert {t[0] for t in evidence.tree_triples(r["trees"])} == placed[(r["kind"], r["id"])]
    for r in part:
        assert r["trees"] is None
        assert set(r["in_trees"] or ()) == placed[(r["kind"], r["id"])] & set(scoring)
        assert r["first_tree"] == min(placed[(r["kind"], r["id"])])


async def test_a_kept_fact_without_sources_keeps_its_label(db: Database, settings: Settings) -> None:
    tenant_id, forest_id, placed = await _forest(db, settings)
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn, "SELECT fact_id FROM facts WHERE tenant_id = :t AND text LIKE '%Lisbon for a job%'", {"t": tenant_id}
        )
        fact_id = int(rows[0]["fact_id"])
        assert await delete_fact_sources(conn, tenant_id, fact_id) > 0
        names = await evidence.provenance(conn, tenant_id, forest_id, [fact_id], [], sorted(placed[("fact", fact_id)]))
    assert {(r["kind"], r["id"]) for r in names} == {("tree", t) for t in placed[("fact", fact_id)]}
    backends = build_backends(settings)
    try:
        res = await query(
            db, settings, backends, tenant_id, QueryRequest("bob", "Why did Bob move to Lisbon for a job?")
        )
    finally:
        await backends.aclose()
    kept = next(e for e in res.evidence if e.kind == "fact" and e.source_id == fact_id)
    assert kept.session_id is None and kept.turn_ids == ()
    assert kept.tree in {str(r["tree"]) for r in names}


async def test_evidence_names_a_tree_that_holds_it_and_scope_filters_on_kinds(db: Database, settings: Settings) -> None:
    tenant_id, forest_id, _ = await _forest(db, settings)
    named: dict[tuple[str, int], set[str]] = {}  # every tree of each source, as evidence names it
    kinds: dict[tuple[str, int], set[str]] = {}
    async with db.tenant(tenant_id) as conn:
        for r in await fetch_all(conn, _PLACED, {"t": tenant_id, "f": forest_id}):
            key = (str(r["kind"]), int(r["id"]))
            named.setdefault(key, set()).add(f"{r['tree_kind']}:{r['label']}")
            kinds.setdefault(key, set()).add(str(r["tree_kind"]))
    backends = build_backends(settings)
    try:
        res = await query(
            db, settings, backends, tenant_id, QueryRequest("bob", "Where does Bob live and what pet does he have?")
        )
        assert res.evidence
        for e in res.evidence:
            assert e.tree in named[(e.kind, e.source_id)]
        scoped = await query(
            db, settings, backends, tenant_id, QueryRequest("bob", "What does Bob do?", scope_kinds=["entity"])
        )
        assert scoped.evidence
        for e in scoped.evidence:
            assert "entity" in kinds[(e.kind, e.source_id)]
    finally:
        await backends.aclose()
