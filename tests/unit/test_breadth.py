"""Which questions ask for several things (``retrieval.breadth``) and how the preset reranks them:
own sentences, invented names."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from memforest.retrieval.breadth import asks_for_several, fused_with_shift
from memforest.retrieval.preset import SEVERAL_SHIFT_WITH_A_MODEL, RetrievalPreset
from memforest.retrieval.question import Question
from memforest.settings import Settings

SEVERAL = [
    "Which harbours has Odile sailed to?",
    "What board games does Teodor own?",
    "What kinds of cheese did Odile bring to the fair?",
    "What are Teodor's favourite trails?",
    "What has Odile knitted for her nephews?",
    "Where have Teodor and his brother fished?",
    "What do Odile and Teodor have in common?",
    "Did Odile and Teodor both study chemistry?",
    "How many violins does Teodor repair in a week?",
    "What similar hobby do the two neighbours share?",
    "What regions of the coast did Odile paint?",
]

ONE = [
    "What did Odile name her boat?",
    "What motivates Teodor to run every morning?",
    "What is Odile's relationship status?",
    "Which harbour did Odile leave from in May?",
    "When did Teodor buy his bus pass?",
    "How does Odile feel about the process?",
    "What kind of cheese does Teodor like best?",
    "Why did Teodor's brother move house?",
    "What was this year's news about the class?",
]


@pytest.mark.parametrize("text", SEVERAL)
def test_a_question_for_a_set_or_its_size_asks_for_several(text: str) -> None:
    assert asks_for_several(text)


@pytest.mark.parametrize("text", ONE)
def test_a_question_for_one_thing_does_not(text: str) -> None:
    assert not asks_for_several(text)


def test_the_parsed_question_carries_it() -> None:
    now = datetime(2024, 5, 1, tzinfo=UTC)
    assert Question.parse(SEVERAL[0], now=now, has_as_of=False).several
    assert not Question.parse(ONE[0], now=now, has_as_of=False).several


@dataclass
class _Ranked:
    kind: str
    source_id: int
    score: float
    sim: float
    lexical: float
    start: datetime = datetime(2024, 5, 1, tzinfo=UTC)


def _pool() -> list[_Ranked]:
    """Best first by score: two items found by their words (high overlap, low similarity), two by
    their meaning (the reverse), one by neither."""
    return [
        _Ranked("fact", 1, 0.60, 0.30, 0.90),
        _Ranked("fact", 2, 0.58, 0.32, 0.85),
        _Ranked("cell", 3, 0.55, 0.40, 0.60),
        _Ranked("fact", 4, 0.50, 0.80, 0.05),
        _Ranked("fact", 5, 0.49, 0.78, 0.04),
    ]


def test_the_fusion_brings_up_the_items_the_shifted_order_ranks_first() -> None:
    pool = _pool()
    fused = fused_with_shift(pool, 0.3, 60)
    # shifted scores: 1 0.42, 2 0.421, 3 0.49, 4 0.725, 5 0.712 -> order 4 5 3 2 1; fused with 1 2 3 4 5
    # (k 60): 4 1/61+1/64, 1 1/61+1/65, 2 1/62+1/64, 3 2/63, 5 1/62+1/65
    assert [it.source_id for it in fused] == [4, 1, 2, 3, 5]
    assert [it.score for it in fused] == [0.50, 0.60, 0.58, 0.55, 0.49]  # (scores unchanged)


def test_no_shift_or_one_item_keeps_the_rerank_order() -> None:
    pool = _pool()
    assert fused_with_shift(pool, 0.0, 60) == pool
    assert fused_with_shift(pool[:1], 0.3, 60) == pool[:1]


def test_a_real_model_shifts_and_the_hashed_vectors_do_not() -> None:
    hashed = Settings(embedding={"backend": "hashed"})
    model = Settings(embedding={"backend": "local", "local_path": "/nowhere", "dim": 384})
    assert RetrievalPreset.for_settings(hashed).several_shift == 0.0
    assert RetrievalPreset.for_settings(model).several_shift == SEVERAL_SHIFT_WITH_A_MODEL > 0.0
