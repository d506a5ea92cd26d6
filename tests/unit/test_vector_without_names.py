"""With a real embedding model the question's vector is the mean of the question's and of the
question without its names (ADR 0068); the hashed embedder reads the question as asked, so its
answers do not change."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from types import SimpleNamespace

import numpy as np

from memforest.retrieval.preset import NAMES_WEIGHT_WITH_A_MODEL, RetrievalPreset
from memforest.retrieval.question import Question, without_names
from memforest.retrieval.service import _embed_asked, _embedded_texts
from memforest.settings import Settings


def test_names_inside_a_sentence_are_said_as_pronouns() -> None:
    assert without_names("What did Oskarine carve recently?") == "What did they carve recently?"
    assert without_names("What do Oskarine's goats eat?") == "What do their goats eat?"
    assert without_names("Did Tavio and Brela meet? Brela said so.") == "Did they and they meet? Brela said so."


def test_first_words_acronyms_and_lowercase_words_stay() -> None:
    for text in ("Oskarine went kayaking.", "What NASA-style kites did I fly?", "where do you live now?"):
        assert without_names(text) == text


def test_calendar_words_and_titles_are_no_names() -> None:
    assert without_names("What did Brela bake on Monday in May?") == "What did they bake on Monday in May?"
    assert without_names("Did Tavio call Dr Osk in March?") == "Did they call Dr they in March?"


def test_capitalised_words_written_together_stay_as_written() -> None:
    assert without_names("Did Oskarine like Moon Harbor Tales?") == "Did they like Moon Harbor Tales?"
    assert without_names('Why did "The Quiet Kiln" move Tavio?') == 'Why did "The Quiet Kiln" move they?'
    styled = "Which Glass Valley-style kites did Brela fly?"
    assert without_names(styled) == "Which Glass Valley-style kites did they fly?"
    assert without_names("Did Tavio meet Brela Osk in Varnholt?") == "Did they meet Brela Osk in they?"


def test_a_possessive_ends_a_run() -> None:
    assert without_names("Did Tavio's Brela sing?") == "Did their they sing?"
    assert without_names("Did Dr Osk Varn call?") == "Did Dr Osk Varn call?"


def test_the_deployment_preset_reads_names_only_with_the_hashed_embedder() -> None:
    assert RetrievalPreset.for_settings(Settings()).names_weight == 1.0
    model = Settings.model_validate({"embedding": {"backend": "local", "local_path": "/models/x", "dim": 384}})
    assert RetrievalPreset.for_settings(model).names_weight == NAMES_WEIGHT_WITH_A_MODEL
    assert 0.0 < NAMES_WEIGHT_WITH_A_MODEL < 1.0
    assert RetrievalPreset.for_settings(model, names_weight=1.0).names_weight == 1.0


def test_the_embedded_texts_follow_the_preset() -> None:
    q = Question.parse("What maps has Tavio drawn?", now=datetime(2024, 1, 1, tzinfo=UTC), has_as_of=False)
    assert _embedded_texts(q, 1.0) == ["What maps has Tavio drawn?"]
    assert _embedded_texts(q, 0.5) == ["What maps has Tavio drawn?", "What maps has they drawn?"]
    nameless = Question.parse("what maps did I draw?", now=datetime(2024, 1, 1, tzinfo=UTC), has_as_of=False)
    assert _embedded_texts(nameless, 0.5) == ["what maps did I draw?"]


class _Unit:
    """An embedder whose vectors are one-hot by call position (enough to check the mean)."""

    async def embed(self, texts: Sequence[str], **_: object) -> list[list[float]]:
        return [[1.0 if i == j else 0.0 for j in range(4)] for i in range(len(texts))]


async def test_the_question_vector_is_the_unit_mean_of_both_texts() -> None:
    backends = SimpleNamespace(embedder=_Unit())
    q = Question.parse("What maps has Tavio drawn?", now=datetime(2024, 1, 1, tzinfo=UTC), has_as_of=False)
    as_asked = await _embed_asked(backends, None, q, 1.0)
    mean = await _embed_asked(backends, None, q, 0.5)
    assert as_asked.tolist() == [[1.0, 0.0, 0.0, 0.0]]
    assert mean.shape == (1, 4)
    assert np.allclose(mean[0], [2**-0.5, 2**-0.5, 0.0, 0.0])


async def test_the_weight_leans_the_mean_toward_the_question_as_asked() -> None:
    backends = SimpleNamespace(embedder=_Unit())
    q = Question.parse("Which kites did Brela mend?", now=datetime(2024, 1, 1, tzinfo=UTC), has_as_of=False)
    leaned = await _embed_asked(backends, None, q, 0.75)
    assert np.allclose(leaned[0], np.array([3.0, 1.0, 0.0, 0.0]) / 10**0.5)
    with_event = Question.parse(
        "What did Brela mend after the storm?", now=datetime(2024, 1, 1, tzinfo=UTC), has_as_of=False
    )
    vecs = await _embed_asked(backends, None, with_event, 0.75)
    assert vecs.shape == (2, 4)  # the question's leaned vector, then the event's as embedded
    assert np.allclose(vecs[0], np.array([3.0, 0.0, 1.0, 0.0]) / 10**0.5)
    assert vecs[1].tolist() == [0.0, 1.0, 0.0, 0.0]
