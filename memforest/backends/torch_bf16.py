"""bfloat16 weights for the ``local`` embedding backend (``embedding.local_quantize = bf16``): a plain
model directory's Transformer run by torch with its weights cast to bfloat16, behind the two methods
of an ONNX Runtime session that :class:`~memforest.backends.onnx_embed.OnnxEmbedder` calls
(``get_inputs`` and ``run``), so its texts are tokenised, batched, scheduled and pooled exactly as
the ONNX model's are. On a CPU with bfloat16 units (AVX-512 BF16, AMX) a token costs about half the
float model's CPU; the vectors are the model's to about 1e-4 in cosine, not equal (ADR 0112)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from memforest.errors import ConfigurationError

__all__ = ["Bf16Session"]

# what a BERT-like Transformer's forward may take, in the names OnnxEmbedder feeds
_FEEDS = ("input_ids", "attention_mask", "token_type_ids")


class _Input(NamedTuple):
    name: str


class Bf16Session:
    """The model of ``model_dir`` in bfloat16, run one batch per call on the caller's thread.

    torch's own operator threads are set to one for the process: the embedder's batch workers, one
    per core, are the parallelism (as with the one-thread ONNX sessions), and torch's pool would
    otherwise take every core for each batch. Calls from several threads at once are safe: the
    model runs in inference mode and holds no state between calls."""

    def __init__(self, model_dir: Path) -> None:
        try:
            import torch
            from transformers import AutoModel
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ConfigurationError(
                "bfloat16 weights need torch and transformers: pip install 'memforest[local-embed]'"
            ) from exc
        torch.set_num_threads(1)
        try:
            model = AutoModel.from_pretrained(str(model_dir), local_files_only=True).to(torch.bfloat16)
        except (OSError, ValueError) as exc:
            raise ConfigurationError(f"cannot load {model_dir} in bfloat16: {exc}") from exc
        self._torch: Any = torch
        self._model: Any = model.eval()
        accepted = inspect.signature(self._model.forward).parameters
        self._inputs = [_Input(name) for name in _FEEDS if name in accepted]

    def get_inputs(self) -> list[_Input]:
        """The inputs the model takes, by name (as ``onnxruntime.InferenceSession.get_inputs``)."""
        return list(self._inputs)

    def run(self, _outputs: None, feeds: dict[str, npt.NDArray[np.int64]]) -> list[npt.NDArray[np.float32]]:
        """The last hidden state of one batch, in float32 (as an ONNX session's first output)."""
        torch = self._torch
        with torch.inference_mode():
            out = self._model(**{name: torch.from_numpy(value) for name, value in feeds.items()})
        return [out.last_hidden_state.float().numpy()]
