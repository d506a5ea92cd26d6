"""The parsed question: one definition of a term, three spellings of it, bounded analysis."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from memforest.errors import InputError
from memforest.retrieval.question import MAX_SEARCH_TERMS, Question
from memforest.retrieval.temporal.parse import QUESTION_NAMES
from memforest.retrieval.timecues import CUE_PREFIX_CHARS
from memforest.text.lexicon import STOPWORDS
from memforest.text.terms import content_terms, tokenize

NOW = datetime(2024, 6, 1, tzinfo=UTC)


def _parse(text: str) -> Question:
    return Question.parse(text, now=NOW, has_as_of=False)


def test_terms_are_the_words_that_are_not_stopwords() -> None:
    q = _parse("  Where did   Marguerite's cousin move after the Zürich job?  ")
    assert q.text == "Where did Marguerite's cousin move after the Zürich job?"
    assert q.search_terms == ("marguerites", "cousin", "move", "zrich", "job")
    assert q.entity_keys == tuple(sorted({"marguerite's", "cousin", "move", "zürich", "job"}))
    assert q.rerank_terms == tuple(content_terms(q.text))
    assert not STOPWORDS & set(q.search_terms + q.entity_keys + q.rerank_terms)


def test_search_terms_are_lexemes_once_each() -> None:
    q = _parse("kayak KAYAK kayak-trip 3.5 a b2 x")
    assert q.search_terms == ("kayak", "trip", "35", "b2")  # (repeats once, single letters out)
    assert len(set(q.search_terms)) == len(q.search_terms)


def test_time_cues_and_temporal_parse_are_read_once() -> None:
    q = _parse("Where did Priya live before the move to Oslo?")
    assert q.anchor_text == "the move to Oslo"
    assert q.cues_now.anchor_side == "before"
    assert q.temporal.operator == "before"
    later = q.cues(datetime(2030, 1, 1, tzinfo=UTC))
    assert later.anchor_text == q.anchor_text


def test_relative_times_resolve_against_each_forests_now_from_one_reading() -> None:
    q = _parse("Which gym did I go to last month?")
    june = q.cues(datetime(2024, 6, 20, tzinfo=UTC))
    march = q.cues(datetime(2023, 3, 10, tzinfo=UTC))
    assert (june.after, june.before) == (datetime(2024, 5, 1, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC))
    assert (march.after, march.before) == (datetime(2023, 2, 1, tzinfo=UTC), datetime(2023, 3, 1, tzinfo=UTC))
    assert q.cues(NOW) == q.cues_now


def test_a_question_keeps_a_bounded_number_of_candidate_subjects() -> None:
    names = " and ".join(f"Name{i}" for i in range(200))
    q = _parse(f"Where did Priya live before {names}?")
    assert len(q.temporal.names) == QUESTION_NAMES < 200  # (each is looked up in every forest read)
    assert q.temporal.names[0] == "Priya"


def test_an_empty_question_is_an_input_error() -> None:
    with pytest.raises(InputError, match="must not be empty"):
        _parse(" \n\t ")


def test_analysis_of_a_long_question_is_bounded() -> None:
    words = [f"w{i}x" for i in range(5000)]
    text = " ".join(words)  # ~30K characters, 5,000 distinct terms
    t0 = time.perf_counter()
    q = _parse(text)
    elapsed = time.perf_counter() - t0
    assert q.text == text  # (the whole text is embedded)
    assert len(q.search_terms) == MAX_SEARCH_TERMS
    assert q.search_terms == tuple(words[:MAX_SEARCH_TERMS])
    read = len(tokenize(text[:CUE_PREFIX_CHARS]))
    assert len(q.entity_keys) <= read < len(words)
    assert len(q.rerank_terms) <= read
    assert elapsed < 5.0  # (a generous bound: the point is that it does not grow with the text)


def _crafted() -> dict[str, str]:
    """Shapes that made the question's analysis quadratic (each 20,000 characters)."""
    triples = (a + b + c for a in "abcdefghijklmnopqrstuvwxyz" for b in "abcdefghij" for c in "abcdefghij")
    names = (f"A{a}{b}" for a in "abcdefghijklmnopqrstuvwxyz" for b in "abcdefghijklmnopqrstuvwxyz")
    return {
        "distinct-words": " ".join(triples)[:20_000],
        "between-without-and": ("between " * 2_500)[:20_000],
        "anchor-with-names": ("before x " + " x ".join(names))[:20_000],
        "when-with-names": ("When did " + " ".join(f"Name{i}" for i in range(4_000)))[:20_000],
    }


@pytest.mark.parametrize("shape", sorted(_crafted()))
def test_crafted_questions_are_analysed_in_bounded_time(shape: str) -> None:
    text = _crafted()[shape]
    t0 = time.perf_counter()
    q = _parse(text)
    assert time.perf_counter() - t0 < 2.0  # (a complexity guard: they took seconds before the bounds)
    assert len(q.search_terms) <= MAX_SEARCH_TERMS
