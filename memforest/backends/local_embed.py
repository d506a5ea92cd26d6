"""The torch runtime of the ``local`` embedding backend: a sentence-transformers model directory
loaded by sentence-transformers itself (``memforest[local-embed]``). It runs any model structure;
the ONNX runtime (:mod:`memforest.backends.onnx_embed`, the default) runs the plain ones faster."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from memforest.backends.base import UsageLedger, embed_in_process
from memforest.db.model_identity import model_dir_label
from memforest.errors import ConfigurationError

__all__ = ["SentenceTransformerEmbedder"]


class SentenceTransformerEmbedder:
    """Embedder protocol over a sentence-transformers model loaded from a local path.

    Nothing is downloaded: ``path`` must be an existing model directory. Encoding runs in a
    worker thread (one encode at a time per instance); vectors are L2-normalised.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        device: str | None = None,
        batch_size: int = 64,
        name: str | None = None,
    ) -> None:
        model_path = Path(path).expanduser()
        if not model_path.exists():
            raise ConfigurationError(f"local embedding model path does not exist: {model_path}")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ConfigurationError(
                "the local embedding backend needs sentence-transformers: pip install 'memforest[local-embed]'"
            ) from exc
        try:
            try:
                self._model: Any = SentenceTransformer(str(model_path), device=device, local_files_only=True)
            except TypeError:  # older sentence-transformers without ``local_files_only``
                self._model = SentenceTransformer(str(model_path), device=device)
        except Exception as exc:
            raise ConfigurationError(f"cannot load local embedding model {model_path}: {exc}") from exc
        get_dim = getattr(self._model, "get_embedding_dimension", None) or getattr(
            self._model, "get_sentence_embedding_dimension", None
        )
        dim = get_dim() if get_dim is not None else None
        if not isinstance(dim, int) or dim <= 0:
            raise ConfigurationError(f"cannot tell the embedding dimension of {model_path}")
        self.dim: int = dim
        self.name: str = name or f"local:{model_dir_label(model_path)}"
        self.batch_size = batch_size
        self._lock = threading.Lock()

    def embed_sync(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Encode ``texts`` (blocking) into float32 rows of unit norm (zero rows stay zero)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            raw = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=False,
                show_progress_bar=False,
            )
        mat = np.asarray(raw, dtype=np.float32).reshape(len(texts), self.dim)
        norms = np.linalg.norm(mat, axis=1, keepdims=True)
        np.divide(mat, norms, out=mat, where=norms > 1e-12)
        mat[norms[:, 0] <= 1e-12] = 0.0
        return mat

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        """Embed ``texts`` in order in a worker thread; one ledger call per batch."""
        return await embed_in_process(self.embed_sync, texts, stage=stage, ledger=ledger, in_thread=True)
