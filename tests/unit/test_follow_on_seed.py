"""The follow-on's seed: the first kept item, unless the follow-on is off, the question names a
time, or a lead is asked (a question for several things) that the first item does not hold."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from memforest.retrieval.follow_on import seed
from memforest.retrieval.preset import SEVERAL_FOLLOW_LEAD_WITH_A_MODEL, RetrievalPreset
from memforest.retrieval.timecues import TimeCues
from memforest.settings import Settings


@dataclass
class _Item:
    kind: str
    source_id: int
    score: float


def _kept(*scores: float) -> list[_Item]:
    return [_Item("fact", 10 + i, s) for i, s in enumerate(scores)]


def test_without_a_lead_the_first_item_seeds_even_on_a_tie() -> None:
    assert seed(_kept(0.61, 0.61, 0.4), TimeCues(), 3) == ("fact", 10)


def test_a_first_item_that_leads_by_the_asked_margin_seeds() -> None:
    assert seed(_kept(0.70, 0.64, 0.5), TimeCues(), 3, lead=0.05) == ("fact", 10)
    assert seed(_kept(0.75, 0.5, 0.25), TimeCues(), 3, lead=0.25) == ("fact", 10)  # (exactly the lead)


def test_a_first_item_close_to_the_second_seeds_nothing() -> None:
    assert seed(_kept(0.70, 0.69, 0.5), TimeCues(), 3, lead=0.05) is None
    # (a fused order may put a lower score first: no lead at all)
    assert seed(_kept(0.60, 0.66, 0.5), TimeCues(), 3, lead=0.05) is None


def test_a_lone_item_seeds_whatever_the_lead() -> None:
    assert seed(_kept(0.3), TimeCues(), 3, lead=0.05) == ("fact", 10)


def test_the_rank_and_the_time_rules_still_apply() -> None:
    assert seed(_kept(0.9, 0.1), TimeCues(), 0, lead=0.05) is None
    assert seed(_kept(0.9, 0.1), TimeCues(after=datetime(2024, 3, 1, tzinfo=UTC)), 3, lead=0.05) is None
    assert seed([], TimeCues(), 3) is None


def test_a_real_model_asks_a_lead_and_the_hashed_vectors_do_not() -> None:
    hashed = Settings(embedding={"backend": "hashed"})
    model = Settings(embedding={"backend": "local", "local_path": "/nowhere", "dim": 384})
    assert RetrievalPreset.for_settings(hashed).several_follow_lead == 0.0
    assert RetrievalPreset.for_settings(model).several_follow_lead == SEVERAL_FOLLOW_LEAD_WITH_A_MODEL > 0.0
    assert RetrievalPreset().several_follow_lead == 0.0
