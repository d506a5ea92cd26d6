"""What a sentence-transformers model directory holds, read from its configuration files alone
(no model is loaded): its modules, pooling, output dimension and input length."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memforest.errors import ConfigurationError

__all__ = ["SentenceModelDir", "read_model_dir"]

_TRANSFORMER = "sentence_transformers.models.Transformer"
_POOLING = "sentence_transformers.models.Pooling"
_NORMALIZE = "sentence_transformers.models.Normalize"
_DENSE = "sentence_transformers.models.Dense"
_DEFAULT_MAX_SEQ = 512


@dataclass(frozen=True, slots=True)
class SentenceModelDir:
    """A model directory's structure. ``plain`` is True for Transformer, Pooling (mean or CLS) and
    an optional Normalize: the structure the ONNX runtime computes itself."""

    path: Path
    dim: int
    pooling: str  # "mean", "cls", "max" or "other"
    max_seq_length: int
    plain: bool


def _json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigurationError(f"cannot read {path}: {exc}") from exc
    if not isinstance(value, dict):
        raise ConfigurationError(f"{path} is not a JSON object")
    return value


_MODE_KEYS = {"pooling_mode_mean_tokens": "mean", "pooling_mode_cls_token": "cls", "pooling_mode_max_tokens": "max"}


def _pooling_mode(cfg: dict[str, Any]) -> str:
    """``mean``, ``cls`` or ``max`` when exactly that mode is on, else ``other``."""
    named = cfg.get("pooling_mode")
    if isinstance(named, str):
        return named if named in _MODE_KEYS.values() else "other"
    on = [k for k, v in cfg.items() if k.startswith("pooling_mode_") and v is True]
    return _MODE_KEYS.get(on[0], "other") if len(on) == 1 else "other"


def read_model_dir(path: str | Path) -> SentenceModelDir:
    """The structure of the sentence-transformers directory ``path`` (ConfigurationError when it is
    not one: no ``modules.json`` or no Pooling module)."""
    root = Path(path).expanduser()
    modules_file = root / "modules.json"
    if not modules_file.is_file():
        raise ConfigurationError(f"{root} is not a sentence-transformers model directory (no modules.json)")
    try:
        modules = json.loads(modules_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigurationError(f"cannot read {modules_file}: {exc}") from exc
    types = [str(m.get("type", "")) for m in modules]
    pooling_paths = [str(m.get("path", "")) for m in modules if m.get("type") == _POOLING]
    if not pooling_paths:
        raise ConfigurationError(f"{root} has no Pooling module")
    pooling_cfg = _json(root / pooling_paths[0] / "config.json")
    dim = int(pooling_cfg.get("word_embedding_dimension", 0))
    for m in modules:
        if m.get("type") == _DENSE:  # a projection after pooling sets the output dimension
            dim = int(_json(root / str(m.get("path", "")) / "config.json").get("out_features", 0))
    if dim <= 0:
        raise ConfigurationError(f"cannot tell the embedding dimension of {root}")
    st_cfg = root / "sentence_bert_config.json"
    max_seq = int(_json(st_cfg).get("max_seq_length") or _DEFAULT_MAX_SEQ) if st_cfg.is_file() else _DEFAULT_MAX_SEQ
    pooling = _pooling_mode(pooling_cfg)
    plain = (
        types[:2] == [_TRANSFORMER, _POOLING]
        and all(t == _NORMALIZE for t in types[2:])
        and pooling in ("mean", "cls")
        and (root / "tokenizer.json").is_file()
    )
    return SentenceModelDir(path=root, dim=dim, pooling=pooling, max_seq_length=max_seq, plain=plain)
