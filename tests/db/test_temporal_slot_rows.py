"""A temporal plan reads at most the newest ``retrieval.temporal_slot_rows`` facts of each (subject,
attribute) slot (ADR 0091): one subject with a long history of one kind of state costs a query no
more than that many of its states. The statements, names and places are mine, none a benchmark
template's."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from support.reads import asked, told_forest

from memforest.db.engine import Database
from memforest.retrieval import QueryRequest
from memforest.retrieval.preset import RetrievalPreset
from memforest.settings import Settings
from memforest.store import temporal as store
from memforest.store.sql import scalar

TOWNS = ("Aldwick", "Quenby", "Gorsley", "Tolleston", "Strathmore")
SAID = [
    *(
        (f"m{i}", datetime(2020 + i, 3, 1, 12, tzinfo=UTC), f"My uncle moved to {town}.")
        for i, town in enumerate(TOWNS)
    ),
    ("p1", datetime(2024, 6, 1, 12, tzinfo=UTC), "My uncle repainted his fence a deep blue."),
]


async def _ingested(db: Database, settings: Settings) -> Any:
    return await told_forest(db, settings, "slot-rows", "unc", SAID, "Ilse")


async def test_only_the_newest_facts_of_a_slot_are_read(db: Database, settings: Settings) -> None:
    t = await _ingested(db, settings)
    async with db.tenant(t) as conn:
        forest_id = int(await scalar(conn, "SELECT forest_id FROM forests WHERE name = 'unc'"))
        every = await store.subject_facts(conn, t, forest_id, "Ilse's uncle", None)
        newest = await store.subject_facts(conn, t, forest_id, "Ilse's uncle", None, per_slot=2)
        then = await store.subject_facts(
            conn, t, forest_id, "Ilse's uncle", datetime(2022, 6, 1, tzinfo=UTC), per_slot=2
        )
    homes = [r["value"] for r in every if r["attribute"] == "residence"]
    assert homes == list(TOWNS)  # (precondition: one fact a move, in the uncle's residence slot)
    assert [r["value"] for r in newest if r["attribute"] == "residence"] == ["Tolleston", "Strathmore"]
    assert [r["value"] for r in then if r["attribute"] == "residence"] == ["Quenby", "Gorsley"]  # (newest as of then)
    assert len(newest) == len(every) - 3  # (facts of no slot are all read)


@pytest.mark.parametrize("rows", [1, 3])
async def test_the_setting_reaches_the_plan(
    db: Database, settings: Settings, rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = await _ingested(db, settings)
    seen: list[int] = []
    real = store.subject_facts

    async def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(args[5] if len(args) > 5 else kwargs["per_slot"])
        return await real(*args, **kwargs)

    monkeypatch.setattr(store, "subject_facts", spy)
    preset = RetrievalPreset.for_settings(
        settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update={"temporal_slot_rows": rows})})
    )
    await asked(
        db, settings, t, QueryRequest("unc", "Where does my uncle live now?", mode="emb", speaker="Ilse"), preset=preset
    )
    assert seen and set(seen) == {rows}
