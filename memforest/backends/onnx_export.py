"""Export a sentence-transformers model's Transformer module to ONNX, once, for the ONNX runtime of
the ``local`` embedding backend (ADR 0042), and quantise an ONNX file's weights to int8 (ADR 0058).
Export needs torch, transformers and onnx; files are written atomically into a cache folder, never
into the model's directory."""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memforest.errors import ConfigurationError

__all__ = ["INPUT_NAMES", "INT8_FILE", "INT8_MIXED_FILE", "down_projections", "export_onnx", "quantize_int8"]

log = logging.getLogger(__name__)

INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")
_OPSET = 17
# the int8 copy's file names its options (per channel, 7-bit range): other options make another file
INT8_FILE = "model-int8-pc-r7.onnx"
# the same with every down projection (the feed-forward output) left in float (ADR 0078)
INT8_MIXED_FILE = "model-int8-pc-r7-down-f32.onnx"


@contextmanager
def _written_atomically(target: Path, what: str) -> Iterator[str]:
    """A temporary path beside ``target`` to write to; moved onto ``target`` when the block ends,
    removed (and the error raised as a :class:`ConfigurationError` naming ``what``) when it fails."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".partial-", suffix=".onnx", dir=target.parent)
    os.close(fd)
    try:
        yield tmp
        os.replace(tmp, target)
    except Exception as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ConfigurationError(f"cannot {what}: {exc}") from exc


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
    log.info("exporting %s to ONNX at %s (once)", model_dir, target)
    with _written_atomically(target, f"export {model_dir} to ONNX") as tmp, torch.no_grad():
        torch.onnx.export(
            _Hidden(), sample, tmp, input_names=names, output_names=["last_hidden_state"],
            dynamic_axes=axes, opset_version=_OPSET, dynamo=False,
        )  # fmt: skip
    return target


def down_projections(model: Any) -> list[str]:
    """The names of ``model``'s MatMul nodes whose weight (an initializer) maps a wider input to a
    narrower output: in a BERT-style encoder, each layer's feed-forward output projection."""
    from onnx import numpy_helper

    shapes = {w.name: numpy_helper.to_array(w).shape for w in model.graph.initializer}
    return [
        node.name
        for node in model.graph.node
        if node.op_type == "MatMul" and len(shape := shapes.get(node.input[1], ())) == 2 and shape[0] > shape[1]
    ]


def quantize_int8(source: Path, target: Path, *, float_down_projections: bool = False) -> Path:
    """Write ``source`` with its weights quantised to int8 and its activations quantised as they run
    (dynamic quantisation), per output channel and in 7 bits (``reduce_range``): of the variants
    tried, the one whose vectors stay closest to the model's (ADR 0058); with
    ``float_down_projections`` the :func:`down_projections` stay in float (closer vectors, less
    saved; ADR 0078). Returns ``target``."""
    try:
        import onnx
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:
        raise ConfigurationError(
            "int8 quantisation needs onnx and onnxruntime: pip install 'memforest[local-embed]'"
        ) from exc
    log.info("quantising %s to int8 at %s (once)", source, target)
    with _written_atomically(target, f"quantise {source} to int8") as tmp:
        excluded = down_projections(onnx.load(str(source))) if float_down_projections else []
        quantize_dynamic(
            str(source), tmp, weight_type=QuantType.QInt8, per_channel=True, reduce_range=True,
            nodes_to_exclude=excluded, extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
        )  # fmt: skip
    return target
