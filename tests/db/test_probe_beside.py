"""A temporal question's subject probe read beside the query (in a transaction of the side pool,
while the question is embedded and recalled) answers as the probe read in the query's own
transaction; a probe read for another forest or other names is not used."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from support.reads import exact_up_to, question_of, weekly_forest

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.retrieval import QueryRequest, query, service
from memforest.retrieval.temporal import resolve
from memforest.retrieval.temporal.resolve import ProbeRead, probe_asked, probe_beside
from memforest.settings import Settings
from memforest.store import temporal as store
from memforest.store.tenants import get_forest

FOREST = "probe-beside"
TEXTS = [
    "Quillon adopted a grey ferret named Biscotti in spring.",
    "Orrie repaired the old canoe by the boathouse.",
    "Quillon moved to Tallinn for a job at a glassworks.",
    "Orrie's cousin Vesna started a pottery class.",
]
QUESTIONS = [
    "When did Quillon move to Tallinn?",
    "When did Orrie repair the canoe?",
    "Where did Quillon live before Tallinn?",
    "What did Quillon adopt?",  # (no temporal operator: no probe)
]


async def _forest(db: Database, settings: Settings) -> uuid.UUID:
    return await weekly_forest(db, settings, "probe", FOREST, TEXTS, ("Quillon", "Orrie"))


def _asked(question: str) -> tuple[list[str], str] | None:
    return probe_asked(question_of(question).temporal)


def test_only_a_question_whose_names_are_its_own_is_probed_before_the_query() -> None:
    assert _asked("When did Quillon move to Tallinn?") == (["quillon", "tallinn"], "")
    assert _asked("Where did Quillon live before Tallinn?") == (["quillon", "tallinn"], "tallinn")
    assert _asked("When did Orrie's cousin start a class?") is None  # (a relative: read after aliases)
    assert _asked("Where did I live before Tallinn?") is None  # (the asker: the forest names them)
    assert _asked("What did Quillon adopt?") is None  # (no temporal operator)


async def test_the_probe_read_beside_answers_as_the_one_read_in_the_query(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = exact_up_to(settings, 3)
    tenant_id = await _forest(db, s)
    backends = build_backends(s)
    probes: list[tuple[list[str], str]] = []
    reads: list[ProbeRead | None] = []
    real_probe = store.subject_probe

    async def counting(*args: Any, **kwargs: Any) -> store.SubjectProbe:
        probes.append((list(args[3]), args[4]))
        return await real_probe(*args, **kwargs)

    async def recording(*args: Any, **kwargs: Any) -> ProbeRead | None:
        got = await probe_beside(*args, **kwargs)
        reads.append(got)
        return got

    monkeypatch.setattr(store, "subject_probe", counting)
    monkeypatch.setattr(service, "probe_beside", recording)
    planned = 0
    try:
        for question in QUESTIONS:
            answers = []
            for beside in (False, True):
                with monkeypatch.context() as m:
                    if not beside:
                        m.setattr(service, "probe_asked", lambda tq: None)
                    await query(db, s, backends, tenant_id, QueryRequest(FOREST, question))  # (the forest known)
                    probes.clear()
                    reads.clear()
                    got = await query(db, s, backends, tenant_id, QueryRequest(FOREST, question))
                answers.append((got, list(probes), list(reads)))
            (main, main_probes, main_reads), (side, side_probes, side_reads) = answers
            assert repr((main.evidence, main.temporal, main.trees)) == repr((side.evidence, side.temporal, side.trees))
            asked = _asked(question)
            assert main_reads == [] and main_probes == ([asked] if asked is not None else [])
            if asked is None:
                assert side_reads == [] and side_probes == []
            else:  # read once, beside, and used: the query's own transaction read none
                assert len(side_reads) == 1 and side_reads[0] is not None and side_probes == [asked]
                planned += side.temporal is not None
    finally:
        await backends.aclose()
    assert planned  # (a question the plan answered, from the probe read beside)
    assert db.side_engine is not None and db.side_engine.pool.checkedout() == 0  # type: ignore[attr-defined]


async def test_a_probe_of_another_forest_or_other_names_is_read_again(db: Database, settings: Settings) -> None:
    tenant_id = await _forest(db, settings)
    asked = (["quillon", "tallinn"], "")
    planted = store.SubjectProbe(frozenset({"nobody"}), "nobody", ("planted",), 1)
    async with db.tenant(tenant_id) as conn:
        forest_id = (await get_forest(conn, tenant_id, FOREST)).forest_id
        real = await store.subject_probe(conn, tenant_id, forest_id, *asked, resolve.ALIAS_TEXTS)
        assert real.first == "quillon" and real.texts and real != planted

        async def first(read: ProbeRead | None) -> store.SubjectProbe:
            return await resolve._first_probe(conn, tenant_id, forest_id, asked, _value(read))

        assert await first(ProbeRead(forest_id, asked, planted)) is planted  # (read beside: used)
        assert await first(ProbeRead(forest_id + 1, asked, planted)) == real  # another forest
        assert await first(ProbeRead(forest_id, (["orrie"], ""), planted)) == real  # other names
        assert await first(ProbeRead(forest_id, (["quillon", "tallinn"], "tallinn"), planted)) == real
        assert await first(None) == real  # the side pool was busy


async def _value(read: ProbeRead | None) -> ProbeRead | None:
    await asyncio.sleep(0)
    return read
