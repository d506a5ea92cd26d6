"""Build the model backends the settings ask for (rule-based and hashed when no server is set)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from memforest.backends.base import ChatModel, Embedder, Extractor, Summarizer
from memforest.backends.embed_cache import CachingEmbedder
from memforest.backends.hashed import HashedEmbedder
from memforest.backends.llm import LLMExtractor, LLMSummarizer
from memforest.backends.local_embed import SentenceTransformerEmbedder
from memforest.backends.onnx_embed import OnnxEmbedder, UnsupportedModel
from memforest.backends.openai_http import OpenAIChatModel, OpenAIEmbedder
from memforest.backends.rule_based import RuleBasedExtractor
from memforest.backends.summarize import ExtractiveSummarizer
from memforest.errors import ConfigurationError
from memforest.settings import EmbeddingSettings, Settings

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Backends:
    """The model backends one process uses. ``chat`` is None with the rule-based default."""

    extractor: Extractor
    summarizer: Summarizer
    embedder: Embedder
    chat: ChatModel | None = None

    async def aclose(self) -> None:
        """Close HTTP clients, if any."""
        for backend in (self.chat, self.embedder):
            close = getattr(backend, "aclose", None)
            if close is not None:
                await close()

    def describe(self) -> dict[str, str]:
        """Backend names, for reports and export headers."""
        return {
            "extractor": self.extractor.name,
            "summarizer": self.summarizer.name,
            "embedder": self.embedder.name,
            "chat": self.chat.name if self.chat is not None else "none",
        }


def build_embedder(settings: Settings) -> Embedder:
    """The embedder named by ``settings.embedding.backend``; a model backend (local, http) sits
    behind the per-tenant cache of texts already embedded (ADR 0042; none when ``cache_entries`` is
    0), which also carries how inner tree nodes and cell leaves get their vectors (``node_vectors``,
    ADR 0058; ``cell_vectors``, ADR 0105)."""
    emb = settings.embedding
    if emb.backend == "hashed":
        hashed = HashedEmbedder(dim=emb.dim)
        node_vectors = "summary" if emb.node_vectors == "auto" else emb.node_vectors
        if node_vectors == "summary" and emb.cell_vectors == "text":
            return hashed
        return CachingEmbedder(hashed, max_entries=0, node_vectors=node_vectors, cell_vectors=emb.cell_vectors)
    model = _http_embedder(emb) if emb.backend == "http" else _local_embedder(settings)
    node_vectors = "children" if emb.node_vectors == "auto" else emb.node_vectors
    return CachingEmbedder(
        model, max_entries=emb.cache_entries, node_vectors=node_vectors, cell_vectors=emb.cell_vectors
    )


def _http_embedder(emb: EmbeddingSettings) -> Embedder:
    if not emb.base_url:
        raise ConfigurationError("MEMFOREST_EMBEDDING__BASE_URL is required with the http embedding backend")
    return OpenAIEmbedder(emb)


def onnx_cache_dir() -> Path:
    """Where ONNX exports of local models are kept: ``$XDG_CACHE_HOME/memforest/onnx`` (default
    ``~/.cache``), shared by every MemForest home on the machine (each export is named by the
    model's digest)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memforest" / "onnx"


# local_quantize values the torch runtime can honour, with the model's float weights: the int8
# copies and bfloat16 batches run only on the onnx runtime's batching
_FLOAT_ANYWHERE = ("none", "auto")


def _local_embedder(settings: Settings) -> Embedder:
    """The local model on the configured runtime; a model the ONNX runtime cannot run (not a plain
    Transformer + Pooling directory) runs on torch, with a warning."""
    emb = settings.embedding
    if not emb.local_path:
        raise ConfigurationError("MEMFOREST_EMBEDDING__LOCAL_PATH is required with the local embedding backend")
    local: Embedder
    if emb.local_runtime == "onnx" and Path(emb.local_path).expanduser().is_dir():
        try:
            local = OnnxEmbedder(emb.local_path, cache_dir=onnx_cache_dir(), quantize=emb.local_quantize)
        except UnsupportedModel as exc:
            if emb.local_quantize not in _FLOAT_ANYWHERE:
                raise ConfigurationError(
                    f"{exc}; MEMFOREST_EMBEDDING__LOCAL_QUANTIZE runs only a plain model on the onnx runtime"
                ) from exc
            log.warning("%s; running it on torch", exc)
            local = SentenceTransformerEmbedder(emb.local_path)
    elif emb.local_quantize not in _FLOAT_ANYWHERE:
        raise ConfigurationError("MEMFOREST_EMBEDDING__LOCAL_QUANTIZE needs the onnx runtime and a model directory")
    else:
        local = SentenceTransformerEmbedder(emb.local_path)
    if local.dim != emb.dim:
        raise ConfigurationError(f"local model produces {local.dim}-dim vectors but MEMFOREST_EMBEDDING__DIM={emb.dim}")
    return local


def build_backends(settings: Settings) -> Backends:
    """Extractor, summariser, embedder (and chat model) for these settings."""
    embedder = build_embedder(settings)
    max_chars = settings.pipeline.summary_max_chars
    if settings.llm.base_url:
        chat = OpenAIChatModel(settings.llm)
        return Backends(
            extractor=LLMExtractor(chat),
            summarizer=LLMSummarizer(chat, max_chars=max_chars),
            embedder=embedder,
            chat=chat,
        )
    return Backends(
        extractor=RuleBasedExtractor(processes=settings.pipeline.extract_processes),
        summarizer=ExtractiveSummarizer(max_chars=max_chars, processes=settings.pipeline.extract_processes),
        embedder=embedder,
    )
