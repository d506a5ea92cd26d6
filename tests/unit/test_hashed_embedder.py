"""Hashed n-gram embedder, the text utilities under it, and local-embedder configuration errors."""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np
import pytest

from memforest.backends.base import Embedder, UsageLedger, embed_rows
from memforest.backends.hashed import HashedEmbedder
from memforest.backends.local_embed import SentenceTransformerEmbedder
from memforest.errors import ConfigurationError
from memforest.text.lexicon import STOPWORDS
from memforest.text.sentences import split_sentences
from memforest.text.stem import stem
from memforest.text.terms import content_terms, tokenize

# ---------------------------------------------------------------- text utilities


def test_tokenize_lowercases_keeps_numbers_and_unicode() -> None:
    assert tokenize("Bob’s café cost 3.50 in São Paulo, 2023!") == [
        "bob's",
        "café",
        "cost",
        "3.50",
        "in",
        "são",
        "paulo",
        "2023",
    ]
    assert tokenize("") == []
    assert tokenize("snake_case") == ["snake", "case"]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("hikes", "hike"),
        ("hiking", "hike"),
        ("hiked", "hike"),
        ("running", "run"),
        ("falling", "fall"),
        ("studies", "study"),
        ("movies", "movie"),
        ("boxes", "box"),
        ("watches", "watch"),
        ("houses", "house"),
        ("classes", "class"),
        ("visited", "visit"),
        ("planned", "plan"),
        ("bob's", "bob"),
        ("news", "news"),
        ("bus", "bus"),
        ("morning", "morning"),
        ("2023", "2023"),
        ("was", "was"),
    ],
)
def test_stem_is_light_and_conservative(word: str, expected: str) -> None:
    assert stem(word) == expected


def test_content_terms_drop_stopwords_and_stem() -> None:
    assert content_terms("I went hiking with my dogs and we loved it") == ["went", "hike", "dog", "love"]
    assert {"the", "and", "i'm"} <= STOPWORDS


def test_split_sentences_handles_abbreviations_decimals_ellipses() -> None:
    text = (
        "Dr. Smith paid $3.50 for it. Then he left! Wait... what? I live in the U.S. It is big. "
        "We met at 5 p.m. and e.g. talked. Well... Maybe not.\nAlice: hi there"
    )
    assert split_sentences(text) == [
        "Dr. Smith paid $3.50 for it.",
        "Then he left!",
        "Wait... what?",
        "I live in the U.S.",
        "It is big.",
        "We met at 5 p.m. and e.g. talked.",
        "Well...",
        "Maybe not.",
        "Alice: hi there",
    ]
    assert split_sentences("   ") == []
    assert split_sentences("No final punctuation") == ["No final punctuation"]


# ---------------------------------------------------------------- hashed embedder


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b))


def test_protocol_name_and_dim() -> None:
    emb = HashedEmbedder(128)
    assert isinstance(emb, Embedder)
    assert emb.name == "hashed-ngram-128"
    assert emb.dim == 128
    mat = emb.embed_sync(["hello world", "another text"])
    assert mat.shape == (2, 128)
    assert mat.dtype == np.float32


def test_deterministic_across_calls_and_instances() -> None:
    texts = ["Priya went to the chess club meetup on May 7.", "Tomas paints harbours."]
    a = HashedEmbedder(256).embed_sync(texts)
    b = HashedEmbedder(256).embed_sync(list(reversed(texts)))[::-1]
    assert np.array_equal(a, b)
    # batch composition does not matter
    c = HashedEmbedder(256).embed_sync(texts[:1])
    assert np.array_equal(a[0], c[0])


def test_unit_norm_and_zero_vector() -> None:
    emb = HashedEmbedder(64)
    mat = emb.embed_sync(["A perfectly normal sentence.", "", "the and of", "?!...", "x"])
    norms = np.linalg.norm(mat, axis=1)
    assert norms[0] == pytest.approx(1.0, abs=1e-5)
    assert norms[4] == pytest.approx(1.0, abs=1e-5)
    assert np.all(mat[1] == 0) and np.all(mat[2] == 0) and np.all(mat[3] == 0)
    assert emb.embed_sync([]).shape == (0, 64)


def test_similar_sentences_are_closer_than_unrelated() -> None:
    emb = HashedEmbedder(384)
    a, b, c, d = emb.embed_sync(
        [
            "I went hiking in the mountains with my dog last weekend.",
            "Last weekend I hiked in the mountains with my dogs.",
            "The quarterly tax report is due on Friday.",
            "I wnet hikng in the mountians",
        ]
    )
    assert _cos(a, b) > 0.6
    assert _cos(a, b) > _cos(a, c) + 0.4
    # character n-grams let a typo-ridden paraphrase stay closer than an unrelated text
    assert _cos(a, d) > _cos(c, d)


async def test_async_embed_returns_lists_and_records_ledger() -> None:
    emb = HashedEmbedder(32)
    ledger = UsageLedger()
    out = await emb.embed(["one", "two three"], ledger=ledger)
    assert len(out) == 2 and all(len(v) == 32 for v in out)
    assert isinstance(out[0][0], float)
    assert np.allclose(np.asarray(out), emb.embed_sync(["one", "two three"]))
    big = await emb.embed([f"sentence number {i}" for i in range(600)], stage="embed_facts", ledger=ledger)
    assert len(big) == 600
    stages = ledger.as_dict()
    assert stages["embed"]["calls"] == 1 and stages["embed"]["prompt_tokens"] == 0
    assert stages["embed_facts"]["calls"] == 1
    assert await emb.embed([], ledger=ledger) == []


class _ListsOnly:
    """An embedder with ``embed`` only (as a model server's client is): its vectors are lists."""

    name = "lists-only"

    def __init__(self, inner: HashedEmbedder) -> None:
        self.inner = inner

    async def embed(
        self, texts: list[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        return await self.inner.embed(texts, stage=stage, ledger=ledger)


async def test_embed_rows_are_the_float32_values_of_embed() -> None:
    emb = HashedEmbedder(48)
    texts = ["Ravi moved to Tallinn in spring.", "", "the the", "Mina adopted a grey cat named Pebble."]
    want = [np.asarray(v, dtype=np.float32) for v in await emb.embed(texts)]
    ledger = UsageLedger()
    for embedder in (emb, _ListsOnly(emb)):
        got = await embed_rows(embedder, texts, stage="embed_rows", ledger=ledger)
        assert len(got) == len(texts)
        for g, w in zip(got, want, strict=True):
            assert g.dtype == np.float32 and g.shape == (48,)
            assert g.tobytes() == w.tobytes()  # bit for bit, zero rows included
    assert ledger.as_dict()["embed_rows"]["calls"] == 2  # one call per batch, either way
    assert await embed_rows(emb, [], stage="embed_rows", ledger=ledger) == []
    assert ledger.as_dict()["embed_rows"]["calls"] == 2


def test_throughput_10k_short_sentences() -> None:
    rng = random.Random(7)
    vocab = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(3000)]
    texts = [" ".join(rng.choice(vocab) for _ in range(10)) + "." for _ in range(10_000)]
    emb = HashedEmbedder(384)
    t0 = time.perf_counter()
    mat = emb.embed_sync(texts)
    elapsed = time.perf_counter() - t0
    print(f"hashed embedder: 10k sentences in {elapsed:.3f}s")
    assert mat.shape == (10_000, 384)
    assert elapsed < 20.0  # very loose: the target (< 2 s on one core) is reported, not enforced


# ---------------------------------------------------------------- local embedder errors


def test_local_embedder_missing_path_is_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="does not exist"):
        SentenceTransformerEmbedder(tmp_path / "no-such-model")


def test_local_embedder_unusable_model_is_configuration_error(tmp_path: Path) -> None:
    # Either sentence-transformers is missing, or the (empty) directory is not a model.
    with pytest.raises(ConfigurationError):
        SentenceTransformerEmbedder(tmp_path)
