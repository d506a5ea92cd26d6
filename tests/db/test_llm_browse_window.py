"""llm mode: the planner's time focus restricts the browse as the question's window does in emb
mode (children outside it are offered to the navigator only when none under a parent is in it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import numpy as np
from support.reads import question_of, read_tx

from memforest.backends.base import UsageLedger
from memforest.backends.factory import build_backends
from memforest.backends.prompts import PlannerOutput, TreePlan
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval.browse import browse_llm
from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.recall import recall
from memforest.retrieval.timecues import TimeCues
from memforest.settings import Settings
from memforest.store.temporal import facts_by_id
from memforest.store.tenants import ensure_tenant, get_forest

START = datetime(2021, 1, 1, 12, tzinfo=UTC)
CUT = START + timedelta(days=200)


@dataclass
class _Planner:
    """Asks every tree for evidence before CUT (what a model would answer for "before ...")."""

    before: str | None

    async def plan(self, query: str, roots: list[str], ledger: UsageLedger | None = None) -> PlannerOutput:
        focus = "before" if self.before else None
        return PlannerOutput(
            plans=[
                TreePlan(tree_index=i, sub_query=query, time_focus=focus, before=self.before) for i in range(len(roots))
            ]
        )


@dataclass
class _Navigator:
    """Picks the LAST children offered (the newest), and records the hints it was given."""

    hints: list[str | None] = field(default_factory=list)

    async def choose(
        self,
        sub_query: str,
        children: list[str],
        max_choices: int,
        ledger: UsageLedger | None = None,
        *,
        time_hint: str | None = None,
    ) -> list[int]:
        self.hints.append(time_hint)
        return list(range(len(children)))[-max_choices:]


async def test_planner_window_restricts_the_llm_descent(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "llmwindow")
    sessions = [
        SessionInput(
            f"s{i}",
            START + timedelta(days=10 * i),
            (TurnInput(speaker="Bob", text=f"I baked a loaf of bread number {i} today.", external_id=f"s{i}:1"),),
        )
        for i in range(40)
    ]
    backends = build_backends(settings)
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "bob", sessions)
        q = "What bread did Bob bake?"
        preset = RetrievalPreset.from_settings(settings.retrieval)
        (qvec,) = await backends.embedder.embed([q], stage="query_embed")
        async with db.tenant(tenant_id) as conn:
            forest_id = (await get_forest(conn, tenant_id, "bob")).forest_id
            qv = np.asarray(qvec, dtype=np.float32)
            recalled = await recall(read_tx(conn, tenant_id), forest_id, question_of(q), qv, preset)
        times: dict[str | None, list[datetime]] = {}
        for before in (None, CUT.date().isoformat()):
            nav = _Navigator()
            leaves, _ = await browse_llm(
                lambda: db.tenant(tenant_id), tenant_id, forest_id, recalled.trees, q, backends.embedder,
                _Planner(before), nav, preset, TimeCues(),  # type: ignore[arg-type]
            )  # fmt: skip
            ids = [lf.fact_id for lf in leaves if lf.fact_id is not None]
            async with db.tenant(tenant_id) as conn:
                times[before] = [
                    r["valid_from"] for r in await facts_by_id(conn, tenant_id, forest_id, "bob", ids, None)
                ]
            if before is not None:
                assert set(nav.hints) == {f"before {before}"}
        assert any(t >= CUT for t in times[None])  # a newest-first navigator, no window: later loaves
        assert times[CUT.date().isoformat()] and all(t < CUT for t in times[CUT.date().isoformat()])
    finally:
        await backends.aclose()
