"""The read path's request and answer values, and the stage recorder."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.errors import InputError
from memforest.retrieval.assemble import Evidence
from memforest.retrieval.request import QueryAnswer, QueryRequest, TreeScore
from memforest.retrieval.stages import Stages
from memforest.schemas.query import EvidenceItem, QueryResult


def test_request_checks_mode_and_scope() -> None:
    with pytest.raises(InputError, match="mode must be one of"):
        QueryRequest("f", "q?", mode="fast")
    with pytest.raises(InputError, match="scope kinds"):
        QueryRequest("f", "q?", scope_kinds=["session", "galaxy"])
    with pytest.raises(InputError, match="scope kinds"):
        QueryRequest("f", "q?", scope_kinds=[])
    assert QueryRequest("f", "q?", scope_kinds=["entity"]).scope_kinds == ("entity",)


def test_request_reads_naive_times_as_utc() -> None:
    req = QueryRequest("f", "q?", as_of=datetime(2024, 1, 2))
    assert req.as_of == datetime(2024, 1, 2, tzinfo=UTC)
    assert not req.live_only
    assert QueryRequest("f", "q?").live_only


def test_stages_add_up_a_stage_run_twice() -> None:
    stages = Stages()
    with stages.timed("recall"):
        pass
    with stages.timed("recall"):
        pass
    report = stages.report()
    assert set(report) == {"recall", "total"}
    assert report["total"] >= report["recall"] >= 0.0


def _answer() -> QueryAnswer:
    t = datetime(2024, 5, 1, tzinfo=UTC)
    ev = Evidence(
        rank=1, kind="fact", text="Ines adopted a greyhound.", time=t, valid_from=t, valid_to=None,
        tree="entity:Ines", score=0.5, session_id="s1", turn_ids=("t1",), source_id=7, temporal_role="answer",
    )  # fmt: skip
    return QueryAnswer(
        question="q?", forest="f", mode="emb", mode_used="emb", evidence=[ev],
        trees=[TreeScore("entity:Ines", 0.1, {"root": 1})], temporal="now: pet of Ines",
    )  # fmt: skip


def test_every_key_the_server_sends_is_in_the_wire_model() -> None:
    body = _answer().to_json()
    assert set(body) <= set(QueryResult.model_fields)
    for item in body["evidence"]:
        assert set(item) <= set(EvidenceItem.model_fields)
    wire = QueryResult.model_validate(body)
    assert wire.model_dump(mode="json", exclude_unset=True) == body
