"""With a real embedding model the question's vector is read without its names (ADR 0068); the
hashed embedder reads the question as asked, so its answers do not change."""

from __future__ import annotations

from datetime import UTC, datetime

from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.question import Question, without_names
from memforest.retrieval.service import _embedded_texts
from memforest.settings import Settings


def test_names_inside_a_sentence_are_said_as_pronouns() -> None:
    assert without_names("What did Melanie paint recently?") == "What did they paint recently?"
    assert without_names("What do Melanie's kids like?") == "What do their kids like?"
    assert without_names("Did Jon and Gina meet? Gina said so.") == "Did they and they meet? Gina said so."


def test_first_words_acronyms_and_lowercase_words_stay() -> None:
    for text in ("Melanie went camping.", "What LGBTQ+ events did I attend?", "where do you live now?"):
        assert without_names(text) == text


def test_the_deployment_preset_reads_names_only_with_the_hashed_embedder() -> None:
    assert RetrievalPreset.for_settings(Settings()).vector_names is True
    model = Settings.model_validate({"embedding": {"backend": "local", "local_path": "/models/x", "dim": 384}})
    assert RetrievalPreset.for_settings(model).vector_names is False
    assert RetrievalPreset.for_settings(model, vector_names=True).vector_names is True


def test_the_embedded_texts_follow_the_preset() -> None:
    q = Question.parse("What books has Melanie read?", now=datetime(2024, 1, 1, tzinfo=UTC), has_as_of=False)
    assert _embedded_texts(q, True) == ["What books has Melanie read?"]
    assert _embedded_texts(q, False) == ["What books has they read?"]
