"""The identity of an embedding model, read from the settings and a local model's files (ADR 0042).

``hashed-ngram-<dim>``; ``http:<model>``; ``local:<directory name>@<digest>``, the digest over the
model's configuration files and the size and first MiB of each weight file, so two fine-tunes in
directories of the same name differ, and moving the directory changes nothing; ``+int8`` or
``+int8-mixed`` after it when the model runs with int8 weights (``embedding.local_quantize``), whose
vectors are not the model's. bfloat16 batches (``bf16``, ``auto``) keep the model's identity: they
run only when their vectors agree with the float model's to 0.999 in cosine (ADR 0113), and a
recorded ``+bf16`` (ADR 0112's identity of them) is the same model (:func:`same_model`). No model is loaded and
no database is reached, so the embedding backends name their model without importing the migration
machinery.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from memforest.settings import EmbeddingSettings

__all__ = ["GENERIC_DIR_NAMES", "embedding_identity", "local_model_identity", "model_dir_label", "same_model"]

_CONFIG_FILES = ("config.json", "modules.json", "sentence_bert_config.json", "tokenizer.json", "1_Pooling/config.json")
_WEIGHT_SUFFIXES = (".safetensors", ".bin", ".onnx")
_HEAD_BYTES = 1 << 20
# directory names that say nothing about the model (a packaged model's ``model/``): the parent names it
GENERIC_DIR_NAMES = frozenset({"model", "models", "onnx", "snapshot", "files"})


def model_dir_label(path: Path) -> str:
    """A readable name of a model directory: its own name, or its parent's when its own is generic."""
    resolved = path.expanduser().resolve()
    if resolved.name.lower() in GENERIC_DIR_NAMES and resolved.parent.name:
        return resolved.parent.name
    return resolved.name


def local_model_identity(path: str | Path) -> str:
    """``local:<label>@<digest>`` of a local model directory (a name that is not a directory: ``local:<name>``)."""
    root = Path(path).expanduser()
    if not root.is_dir():
        return f"local:{path}"
    digest = hashlib.blake2b(digest_size=8)
    for name in _CONFIG_FILES:
        file = root / name
        if file.is_file():
            digest.update(name.encode())
            digest.update(file.read_bytes())
    for file in sorted(p for p in root.rglob("*") if p.suffix in _WEIGHT_SUFFIXES and p.is_file()):
        if file.parent.name == "onnx" or file.suffix == ".onnx":
            continue  # an exported copy of the same weights; the runtime does not change the vectors
        digest.update(str(file.stat().st_size).encode())
        with file.open("rb") as fh:
            digest.update(fh.read(_HEAD_BYTES))
    return f"local:{model_dir_label(root)}@{digest.hexdigest()}"


def embedding_identity(emb: EmbeddingSettings) -> str:
    """The identity of the model these settings embed with (see the module docstring)."""
    if emb.backend == "hashed":
        return f"hashed-ngram-{emb.dim}"
    if emb.backend == "http":
        return f"http:{emb.model}"
    int8 = emb.local_quantize in ("int8", "int8-mixed")  # other vectors than the model's
    return local_model_identity(emb.local_path or "") + (f"+{emb.local_quantize}" if int8 else "")


def same_model(recorded: str, configured: str) -> bool:
    """Whether vectors recorded under ``recorded`` are the ``configured`` model's (``+bf16``, how
    bfloat16 batches were recorded before ADR 0113, is the model itself)."""
    return _own(recorded) == _own(configured)


def _own(identity: str) -> str:
    return identity.removesuffix("+bf16") if identity.startswith("local:") else identity
