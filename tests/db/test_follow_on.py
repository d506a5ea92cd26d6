"""The follow-on cell (the cell said after the turn the first evidence item cites) is read by the
provenance statement of the kept items, and a query that names no time shows it at its rank."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.retrieval.preset import RetrievalPreset
from memforest.settings import Settings
from memforest.store import evidence
from memforest.store.sql import fetch_all
from memforest.store.tenants import ensure_tenant

LINES = [
    ("Ann", "Did you finish the novel about the lighthouse keeper?"),
    ("Bob", "I did, last night."),
    ("Ann", "What did you make of the ending of the lighthouse novel?"),
    ("Bob", "It taught me that patience pays off, and I cried a little."),
    ("Ann", "Same here, I loved the final chapter."),
    ("Bob", "We should pick the next one for our club."),
]

_CELLS = "SELECT cell_id, seq, turn_from, turn_to FROM cells WHERE tenant_id = :t AND forest_id = :f ORDER BY seq"
_FACTS = (
    "SELECT fs.fact_id, tu.seq FROM fact_sources fs JOIN turns tu ON tu.tenant_id = fs.tenant_id "
    "AND tu.turn_id = fs.turn_id WHERE fs.tenant_id = :t AND fs.forest_id = :f"
)


async def _forest(db: Database, settings: Settings) -> tuple[uuid.UUID, int]:
    tenant_id = await ensure_tenant(db, f"follow-on-{uuid.uuid4().hex[:8]}")
    turns = tuple(TurnInput(speaker=who, text=text) for who, text in LINES)
    backends = build_backends(settings)
    try:
        start = datetime(2023, 3, 1, 18, tzinfo=UTC)
        await ingest_sessions(db, settings, backends, tenant_id, "club", [SessionInput("s1", start, turns)])
    finally:
        await backends.aclose()
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(conn, "SELECT forest_id FROM forests WHERE tenant_id = :t", {"t": tenant_id})
    return tenant_id, int(rows[0]["forest_id"])


async def test_provenance_reads_the_cell_after_a_cells_last_turn_and_a_facts_source_turn(
    db: Database, settings: Settings
) -> None:
    tenant_id, forest_id = await _forest(db, settings)
    p = {"t": tenant_id, "f": forest_id}
    async with db.tenant(tenant_id) as conn:
        cells = await fetch_all(conn, _CELLS, p)
        facts = await fetch_all(conn, _FACTS, p)
        assert len(cells) >= 2 and facts

        async def following(kind: str, source_id: int, tenant: uuid.UUID = tenant_id) -> list[int]:
            rows = await evidence.provenance(conn, tenant, forest_id, [], [], (), (kind, source_id))
            return [int(r["id"]) for r in rows if r["kind"] == "next"]

        after = [await following("cell", int(c["cell_id"])) for c in cells]
        of_fact = {int(f["fact_id"]): await following("fact", int(f["fact_id"])) for f in facts}
        elsewhere = await following("cell", int(cells[0]["cell_id"]), uuid.uuid4())
        rows = await evidence.provenance(conn, tenant_id, forest_id, [], [int(cells[0]["cell_id"])], ())
    assert after == [[int(c["cell_id"])] for c in cells[1:]] + [[]]
    for f in facts:
        holding = next(i for i, c in enumerate(cells) if int(c["turn_from"]) <= int(f["seq"]) <= int(c["turn_to"]))
        assert of_fact[int(f["fact_id"])] == ([int(cells[holding + 1]["cell_id"])] if holding + 1 < len(cells) else [])
    assert elsewhere == [] and [r["kind"] for r in rows] == ["cell"]  # (none asked: no row)


async def test_a_query_shows_the_follow_on_cell_at_its_rank_unless_it_names_a_time(
    db: Database, settings: Settings
) -> None:
    tenant_id, _ = await _forest(db, settings)
    backends = build_backends(settings)
    base = RetrievalPreset.for_settings(settings)
    try:

        async def evidence_of(question: str, rank: int) -> list[tuple[str, tuple[str, ...]]]:
            res = await query(
                db, settings, backends, tenant_id, QueryRequest("club", question, top_k=4),
                preset=replace(base, follow_on_rank=rank),
            )  # fmt: skip
            return [(e.kind, e.turn_ids) for e in res.evidence]

        plain = "What did Bob make of the ending of the lighthouse novel?"
        off, on = await evidence_of(plain, 0), await evidence_of(plain, 2)
        timed = "When did Bob make something of the ending of the lighthouse novel?"
        timed_off, timed_on = await evidence_of(timed, 0), await evidence_of(timed, 2)
    finally:
        await backends.aclose()
    assert len(on) == len(off) == 4 and on[0] == off[0]
    assert on[1][0] == "cell" and on[1] not in off[:1] and on[2:] == [e for e in off[1:] if e != on[1]][:2]
    assert timed_on == timed_off
