"""Export a sentence-transformers model's Transformer module to ONNX, once, for the ONNX runtime of
the ``local`` embedding backend (ADR 0042). Needs torch, transformers and onnx; the file is written
atomically into a cache folder, never into the model's directory."""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from memforest.errors import ConfigurationError

__all__ = ["INPUT_NAMES", "export_onnx"]

log = logging.getLogger(__name__)

INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")
_OPSET = 17


def _modules() -> tuple[Any, Any]:
    try:
        import torch
        from transformers import AutoModel
    except ImportError as exc:
        raise ConfigurationError(
            "the model directory has no ONNX file and exporting one needs torch, transformers and onnx "
            "(pip install 'memforest[local-embed]'), or set MEMFOREST_EMBEDDING__LOCAL_RUNTIME=torch"
        ) from exc
    return torch, AutoModel


def export_onnx(model_dir: Path, target: Path) -> Path:
    """Write ``model_dir``'s transformer as ONNX to ``target`` (inputs :data:`INPUT_NAMES` that the
    model takes, output ``last_hidden_state``, batch and sequence axes dynamic); returns ``target``."""
    torch, auto_model = _modules()
    model = auto_model.from_pretrained(str(model_dir))
    model.eval()
    takes_types = getattr(model.config, "type_vocab_size", 0) > 0
    names = list(INPUT_NAMES if takes_types else INPUT_NAMES[:2])

    class _Hidden(torch.nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.inner = model

        def forward(self, *inputs: Any) -> Any:
            return self.inner(**dict(zip(names, inputs, strict=True))).last_hidden_state

    sample = tuple(torch.ones((2, 8), dtype=torch.long) for _ in names)
    axes = {n: {0: "batch", 1: "sequence"} for n in [*names, "last_hidden_state"]}
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".export-", suffix=".onnx", dir=target.parent)
    os.close(fd)
    log.info("exporting %s to ONNX at %s (once)", model_dir, target)
    try:
        with torch.no_grad():
            torch.onnx.export(
                _Hidden(), sample, tmp, input_names=names, output_names=["last_hidden_state"],
                dynamic_axes=axes, opset_version=_OPSET, dynamo=False,
            )  # fmt: skip
        os.replace(tmp, target)
    except Exception as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ConfigurationError(f"cannot export {model_dir} to ONNX: {exc}") from exc
    return target
