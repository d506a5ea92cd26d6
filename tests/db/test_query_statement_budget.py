"""What the default (``emb``) read path sends per query (ADR 0097): a question that names no time
and no relation runs the five round trips of the query's transaction (its BEGIN with the
settings, recall, the descent that also reads assembly's rows, provenance, COMMIT) and nothing
more; the statement reading a relative's words (``_relation_said``, ADR 0084) runs only for a
subject named by a relation ("my uncle"), never for one named by a name. Sentences, people and
places written for this test (none from a benchmark template)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from support.db import log_statements
from support.reads import asked, told_forest

from memforest.db.engine import Database
from memforest.retrieval import QueryRequest
from memforest.settings import Settings
from memforest.store import temporal as temporal_store

SAID = [
    ("q1", datetime(2022, 2, 5, 12, tzinfo=UTC), "My uncle mends church clocks from a shop in Hollowmere."),
    ("q2", datetime(2022, 8, 11, 12, tzinfo=UTC), "Brenna moved into a narrow flat on Tansy Court."),
    ("q3", datetime(2023, 1, 19, 12, tzinfo=UTC), "My uncle now rents a workshop in Drewsbury instead."),
    ("q4", datetime(2023, 6, 3, 12, tzinfo=UTC), "Brenna moved from Tansy Court to a houseboat at Lockridge."),
]
NOW = datetime(2024, 1, 10, 12, tzinfo=UTC)


async def _forest(db: Database, settings: Settings) -> uuid.UUID:
    return await told_forest(db, settings, "statement-budget", "clocks", SAID, "Quill")


async def _asked(db: Database, settings: Settings, tenant_id: uuid.UUID, question: str) -> list[str]:
    """The statements the query's own transaction sent for ``question``, asked a second time (the
    first also looks the forest up)."""
    request = QueryRequest("clocks", question, top_k=5, speaker="Quill", now=NOW)
    await asked(db, settings, tenant_id, request)
    log = log_statements(db)
    await asked(db, settings, tenant_id, request)
    return [sql for _, sql in log]


async def test_a_question_naming_no_time_runs_the_five_round_trips(db: Database, settings: Settings) -> None:
    tenant_id = await _forest(db, settings)
    sent = await _asked(db, settings, tenant_id, "What sort of clocks get mended in the shop?")
    assert len(sent) == 5, sent
    assert sent[0].startswith("BEGIN READ ONLY") and sent[-1].strip().upper().startswith("COMMIT"), sent


@pytest.fixture
def relation_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts ``facts_naming`` is asked for that begin with the subject asked about ("Quill" and
    "Quill's uncle"): the statement of ``_relation_said``, which reads the owner's facts naming the
    relative (an anchor's or a value's read asks for the value: "Lockridge")."""
    reads: list[str] = []
    real = temporal_store.facts_naming

    async def spy(conn: Any, tenant_id: uuid.UUID, forest_id: int, subject: str, text: str, as_of: Any) -> Any:
        if text.casefold().startswith(subject.casefold()):
            reads.append(text)
        return await real(conn, tenant_id, forest_id, subject, text, as_of)

    monkeypatch.setattr(temporal_store, "facts_naming", spy)
    return reads


async def test_only_a_subject_named_by_a_relation_reads_the_relatives_words(
    db: Database, settings: Settings, relation_reads: list[str]
) -> None:
    tenant_id = await _forest(db, settings)
    await _asked(db, settings, tenant_id, "Where did Brenna live before Lockridge?")
    await _asked(db, settings, tenant_id, "Where does Brenna live now?")
    assert relation_reads == []
    await _asked(db, settings, tenant_id, "How long did my uncle work in Hollowmere?")
    assert relation_reads and all(text.casefold() == "quill's uncle" for text in relation_reads), relation_reads
