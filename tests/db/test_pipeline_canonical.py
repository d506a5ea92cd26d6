"""Canonicalisation (DESIGN.md 2.3): exact and near-duplicate merges (a merged fact gains a source,
never a second leaf) and supersession on the bi-temporal columns (never a delete)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from support import session_input
from support.reference.canonical import canonicalize

from memforest.backends.factory import build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.domain import Candidate, FactKind, SessionInput
from memforest.pipeline.canonical import SourceRef, normalise_text, text_hash
from memforest.pipeline.service import IngestReport, accept_sessions, ingest_sessions
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.sql import fetch_all, scalar
from memforest.store.tenants import ensure_tenant

JAN = datetime(2023, 1, 10, 9, 0, tzinfo=UTC)
MAR = datetime(2023, 3, 14, 9, 0, tzinfo=UTC)
MAY = datetime(2023, 5, 3, 9, 0, tzinfo=UTC)


async def _ingest(db: Database, settings: Settings, tenant_id: uuid.UUID, *sessions: SessionInput) -> IngestReport:
    backends = build_backends(settings)
    try:
        return await ingest_sessions(db, settings, backends, tenant_id, "f", list(sessions))
    finally:
        await backends.aclose()


async def _assert_check_ok(db: Database, tenant_id: uuid.UUID) -> None:
    async with db.tenant(tenant_id) as conn:
        forest_id = await scalar(conn, "SELECT forest_id FROM forests WHERE name = 'f'")
        report = await check_forest(conn, tenant_id, int(forest_id))
    assert report.violations == []


async def _residence_facts(db: Database, tenant_id: uuid.UUID) -> dict[str, dict[str, Any]]:
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn,
            "SELECT fact_id, value, valid_from, valid_to, supersedes, superseded_by, retracted_at FROM facts "
            "WHERE subject = 'alice' AND attribute = 'residence'",
        )
    return {str(r["value"]): r for r in rows}


def test_normalise_text_ignores_case_punctuation_and_spacing() -> None:
    assert normalise_text("  Alice LOVES   painting, landscapes!! ") == "alice loves painting landscapes"
    assert text_hash("Alice loves painting.") == text_hash("alice  loves painting")
    assert text_hash("Alice loves painting.") != text_hash("Alice loves hiking.")


async def test_exact_duplicate_across_sessions_is_one_fact_with_two_sources(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "t")
    line = "I love painting landscapes with watercolors."
    report = await _ingest(
        db,
        settings,
        tenant_id,
        session_input("s1", JAN, [line, "That sounds lovely."]),
        session_input("s2", MAR, [line, "Nice city."]),
    )
    assert report.jobs_succeeded == 2 and report.jobs_failed == 0
    assert report.counts.facts_merged == 1
    async with db.tenant(tenant_id) as conn:
        facts = await fetch_all(
            conn,
            "SELECT fact_id, source_count FROM facts WHERE text = 'Alice loves painting landscapes with watercolors.'",
        )
        assert len(facts) == 1
        fact_id = int(facts[0]["fact_id"])
        sources = await fetch_all(
            conn,
            "SELECT s.external_id FROM fact_sources fs JOIN sessions s ON s.session_id = fs.session_id "
            "WHERE fs.fact_id = :f ORDER BY s.external_id",
            {"f": fact_id},
        )
        leaves = await fetch_all(
            conn,
            "SELECT t.kind, t.key, count(*) AS n FROM nodes n JOIN trees t ON t.tree_id = n.tree_id "
            "WHERE n.leaf_fact_id = :f GROUP BY t.kind, t.key ORDER BY t.kind",
            {"f": fact_id},
        )
    assert [r["external_id"] for r in sources] == ["s1", "s2"]
    assert facts[0]["source_count"] == 2
    assert [(r["kind"], r["n"]) for r in leaves] == [("entity", 1), ("scene", 1)]
    assert leaves[0]["key"] == "alice"
    await _assert_check_ok(db, tenant_id)


class _Fixture:
    """A forest with one accepted session whose turns serve as fact sources."""

    def __init__(self, tenant_id: uuid.UUID, forest_id: int, session_id: int, cell_id: int, turns: list[int]):
        self.tenant_id, self.forest_id, self.session_id, self.cell_id, self.turns = (
            tenant_id,
            forest_id,
            session_id,
            cell_id,
            turns,
        )
        self.embedder = HashedEmbedder(64)

    def src(self, i: int) -> SourceRef:
        return SourceRef(self.session_id, self.cell_id, (self.turns[i],))

    def vec(self, text: str) -> np.ndarray[Any, Any]:
        vec: np.ndarray[Any, Any] = self.embedder.embed_sync([text])[0]
        return vec


async def _fixture(db: Database, settings: Settings) -> _Fixture:
    settings.pipeline.cell_turns = 8
    tenant_id = await ensure_tenant(db, "t")
    forest, (res,) = await accept_sessions(
        db, settings, tenant_id, "f", [session_input("s1", JAN, [f"turn {i}" for i in range(8)])]
    )
    async with db.tenant(tenant_id) as conn:
        turns = await fetch_all(conn, "SELECT turn_id FROM turns ORDER BY seq")
        cell_id = await scalar(conn, "SELECT cell_id FROM cells")
    return _Fixture(tenant_id, forest.forest_id, res.session_id, int(cell_id), [int(t["turn_id"]) for t in turns])


def _cand(text: str, kind: FactKind, when: datetime, speaker: str = "Alice") -> Candidate:
    return Candidate(text=text, kind=kind, source_turn_seqs=(0,), valid_from=when, speaker=speaker)


async def test_near_duplicates_merge_states_across_time_but_not_events_on_other_days(
    db: Database, settings: Settings
) -> None:
    fx = await _fixture(db, settings)
    threshold = settings.pipeline.near_duplicate_threshold
    pref_a = "Alice loves painting landscapes with watercolors."
    pref_b = "Alice really loves painting landscapes with watercolors."
    hike_a = "Alice went hiking at Mount Tam."
    hike_b = "Alice went hiking at Mount Tam again."
    hike_c = "Alice went for hiking at Mount Tam."
    # Preconditions: the pairs are near (not exact) duplicates under the default embedder.
    for a, b in ((pref_a, pref_b), (hike_a, hike_b), (hike_a, hike_c)):
        assert text_hash(a) != text_hash(b)
        assert float(fx.vec(a) @ fx.vec(b)) >= threshold

    async def put(text: str, kind: FactKind, when: datetime, src: int, speaker: str = "Alice") -> tuple[int, str]:
        async with db.tenant(fx.tenant_id) as conn:
            out = await canonicalize(
                conn, fx.tenant_id, fx.forest_id, _cand(text, kind, when, speaker), fx.vec(text), fx.src(src),
                near_threshold=threshold,
            )  # fmt: skip
        return out.fact_id, out.status

    pref_id, status = await put(pref_a, FactKind.PREFERENCE, JAN, 0)
    assert status == "new"
    assert await put(pref_b, FactKind.PREFERENCE, MAY, 1) == (pref_id, "merged")  # states merge across months
    assert await put(pref_b, FactKind.PREFERENCE, MAY, 1) == (pref_id, "duplicate")  # same source again

    hike_id, status = await put(hike_a, FactKind.EVENT, JAN, 2)
    assert status == "new"
    assert await put(hike_c, FactKind.EVENT, JAN + timedelta(hours=5), 3) == (hike_id, "merged")  # same day
    other_day, status = await put(hike_b, FactKind.EVENT, JAN + timedelta(days=10), 4)  # another hike
    assert status == "new" and other_day != hike_id
    bob_pref, status = await put(pref_b, FactKind.PREFERENCE, MAY, 5, speaker="Bob")  # other speaker
    assert status == "new" and bob_pref != pref_id

    async with db.tenant(fx.tenant_id) as conn:
        facts = await fetch_all(conn, "SELECT fact_id, text, source_count FROM facts ORDER BY fact_id")
        sources = await fetch_all(conn, "SELECT fact_id, turn_id FROM fact_sources ORDER BY fact_id, turn_id")
    assert [(f["text"], f["source_count"]) for f in facts] == [
        (pref_a, 2),
        (hike_a, 2),
        (hike_b, 1),
        (pref_b, 1),
    ]
    assert [(s["fact_id"], s["turn_id"]) for s in sources] == [
        (pref_id, fx.turns[0]),
        (pref_id, fx.turns[1]),
        (hike_id, fx.turns[2]),
        (hike_id, fx.turns[3]),
        (other_day, fx.turns[4]),
        (bob_pref, fx.turns[5]),
    ]


async def test_supersession_links_old_and_new_and_deletes_nothing(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "t")
    report = await _ingest(
        db,
        settings,
        tenant_id,
        session_input("s1", JAN, ["I live in Boston.", "Nice city."]),
    )
    report2 = await _ingest(
        db, settings, tenant_id, session_input("s2", MAY, ["I moved to Davis.", "Oh wow, big change."])
    )
    assert report.counts.facts_superseded == 0 and report2.counts.facts_superseded == 1
    facts = await _residence_facts(db, tenant_id)
    assert set(facts) == {"Boston", "Davis"}
    boston, davis = facts["Boston"], facts["Davis"]
    assert davis["valid_from"] == MAY
    assert boston["valid_to"] == davis["valid_from"]
    assert boston["superseded_by"] == davis["fact_id"] and davis["supersedes"] == boston["fact_id"]
    assert davis["valid_to"] is None and davis["superseded_by"] is None and boston["supersedes"] is None
    assert boston["retracted_at"] is None and davis["retracted_at"] is None
    await _assert_check_ok(db, tenant_id)


async def test_a_state_dated_by_a_week_holds_until_superseded(db: Database, settings: Settings) -> None:
    """The week in "moved to Davis in the week of 6 March" dates the move; it does not end the state."""
    tenant_id = await ensure_tenant(db, "t")
    await _ingest(
        db, settings, tenant_id, session_input("s1", MAY, ["I moved to Davis in the week of 6 March.", "Oh wow."])
    )
    davis = (await _residence_facts(db, tenant_id))["Davis"]
    assert davis["valid_from"].date().isoformat() == "2023-03-06"
    assert davis["valid_to"] is None


async def test_supersession_out_of_order_newer_first(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "t")
    await _ingest(db, settings, tenant_id, session_input("s2", MAY, ["I moved to Davis.", "Oh wow, big change."]))
    report = await _ingest(db, settings, tenant_id, session_input("s1", JAN, ["I live in Boston.", "Nice city."]))
    assert report.counts.facts_superseded == 1
    facts = await _residence_facts(db, tenant_id)
    boston, davis = facts["Boston"], facts["Davis"]
    assert boston["valid_from"] == JAN and boston["valid_to"] == davis["valid_from"] == MAY
    assert boston["superseded_by"] == davis["fact_id"] and davis["supersedes"] == boston["fact_id"]
    assert davis["valid_to"] is None and davis["superseded_by"] is None
    await _assert_check_ok(db, tenant_id)


async def test_supersession_inserted_between_two_linked_facts(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "t")
    await _ingest(
        db,
        settings,
        tenant_id,
        session_input("s1", JAN, ["I live in Boston.", "Nice city."]),
    )
    await _ingest(db, settings, tenant_id, session_input("s3", MAY, ["I moved to Davis.", "Oh wow, big change."]))
    await _ingest(db, settings, tenant_id, session_input("s2", MAR, ["I moved to Chicago.", "Oh wow, big change."]))
    facts = await _residence_facts(db, tenant_id)
    boston, chicago, davis = facts["Boston"], facts["Chicago"], facts["Davis"]
    assert chicago["valid_from"] == MAR
    # A timeline Boston [Jan, Mar) -> Chicago [Mar, May) -> Davis [May, ...): no two values valid at once.
    assert (chicago["valid_to"], chicago["superseded_by"]) == (MAY, davis["fact_id"])
    assert (boston["valid_to"], boston["superseded_by"]) == (MAR, chicago["fact_id"])
    assert davis["supersedes"] == chicago["fact_id"]


async def test_two_values_of_one_slot_stay_two_states_however_similar(db: Database, settings: Settings) -> None:
    fx = await _fixture(db, settings)
    threshold = 0.8  # a threshold these sentences pass under the 64-dimension test embedder
    tail = "is our new cat, she loves the windowsill and sleeps on the warm radiator all afternoon."
    cosmo, waffles, cosmo_again = f"Cosmo {tail}", f"Waffles {tail}", f"Cosmo really {tail}"
    # Precondition: without the slot values these would be near duplicates.
    assert float(fx.vec(cosmo) @ fx.vec(waffles)) >= threshold
    assert float(fx.vec(cosmo) @ fx.vec(cosmo_again)) >= threshold

    async def put(text: str, value: str, when: datetime, src: int) -> tuple[int, str, int | None]:
        cand = Candidate(
            text=text, kind=FactKind.STATE, source_turn_seqs=(0,), valid_from=when, speaker="Alice",
            subject="Alice", attribute="pet", value=value,
        )  # fmt: skip
        async with db.tenant(fx.tenant_id) as conn:
            out = await canonicalize(
                conn, fx.tenant_id, fx.forest_id, cand, fx.vec(text), fx.src(src), near_threshold=threshold
            )
        return out.fact_id, out.status, out.superseded

    cosmo_id, status, _ = await put(cosmo, "Cosmo", JAN, 0)
    assert status == "new"
    waffles_id, status, superseded = await put(waffles, "Waffles", MAY, 1)
    assert status == "new" and waffles_id != cosmo_id and superseded == cosmo_id  # a second state, threaded
    assert await put(cosmo_again, "cosmo", JAN + timedelta(days=3), 2) == (cosmo_id, "merged", None)
    async with db.tenant(fx.tenant_id) as conn:
        rows = await fetch_all(conn, "SELECT value, superseded_by FROM facts ORDER BY fact_id")
    assert [(r["value"], r["superseded_by"]) for r in rows] == [("Cosmo", waffles_id), ("Waffles", None)]


async def test_a_switch_of_one_kind_never_closes_a_switch_of_another(db: Database, settings: Settings) -> None:
    """Both sentences name no kind (the verb class ``change``): a club and a physio are two timelines,
    so the later switch neither ends the club nor points at it (review s8 R4)."""
    tenant_id = await ensure_tenant(db, "t")
    club = "I left the Copperbeck Rowers and joined the Fenwick Kayak Club."
    physio = "I switched from Quayside Physio to Linden Physio."
    await _ingest(db, settings, tenant_id, session_input("s1", JAN, [club, "Sounds fun."]))
    report = await _ingest(db, settings, tenant_id, session_input("s2", MAR, [physio, "Good luck with it."]))
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn, "SELECT value, valid_to, superseded_by, supersedes FROM facts WHERE attribute = 'change'"
        )
    facts = {str(r["value"]): r for r in rows}
    assert set(facts) == {"Fenwick Kayak Club", "Linden Physio"}  # (precondition: one verb-class slot)
    assert report.counts.facts_superseded == 0
    assert facts["Fenwick Kayak Club"]["valid_to"] is None and facts["Fenwick Kayak Club"]["superseded_by"] is None
    assert facts["Linden Physio"]["supersedes"] is None
    await _assert_check_ok(db, tenant_id)
