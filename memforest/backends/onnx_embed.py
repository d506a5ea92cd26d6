"""The ONNX Runtime path of the ``local`` embedding backend (the default, ADR 0042): the model's
tokenizer (``tokenizers``) and its Transformer run by ONNX Runtime, pooled and normalised here as
sentence-transformers does for a Transformer + Pooling (mean or CLS) + Normalize model.

The ONNX file is the model directory's own (``onnx/model.onnx`` or ``model.onnx``) or one exported
from its weights once into a cache folder (:mod:`memforest.backends.onnx_export`). With bfloat16
weights (``quantize="bf16"``, or ``"auto"`` on a CPU with bfloat16 units) torch runs the batches instead,
behind the same two session calls (:mod:`memforest.backends.torch_bf16`), batched and pooled the
same way, while questions stay on the float ONNX model (ADR 0113).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from memforest.backends.base import UsageLedger, embed_in_process
from memforest.backends.onnx_export import INT8_FILE, INT8_MIXED_FILE, export_onnx, quantize_int8
from memforest.backends.st_model import SentenceModelDir, read_model_dir
from memforest.backends.torch_bf16 import bf16_batches
from memforest.db.model_identity import local_model_identity, model_dir_label
from memforest.errors import ConfigurationError

__all__ = ["OnnxEmbedder", "UnsupportedModel", "onnx_file"]

Matrix = npt.NDArray[np.float32]
OnnxQuantize = Literal["none", "int8", "int8-mixed"]
Quantize = Literal["auto", "none", "int8", "int8-mixed", "bf16"]

log = logging.getLogger(__name__)


SMALL_CALL = 4  # calls of at most this many texts (questions) run on their own session
# threads that wait for a bigger call's batches (the batch workers compute them): more than the
# ingest jobs of a process embed at once, so no call waits for a thread (ADR 0098)
CALL_THREADS = 64


def _session(ort: Any, model_file: Path, threads: int) -> Any:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    # no busy-waiting between operators: the event loop and the database share these cores
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(model_file), options, providers=["CPUExecutionProvider"])


def _unit_norm(rows: Matrix) -> Matrix:
    """``rows`` scaled in place to unit norm (zero rows stay zero)."""
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    np.divide(rows, norms, out=rows, where=norms > 1e-12)
    return rows


def _cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


class UnsupportedModel(ConfigurationError):
    """A model directory whose structure the ONNX runtime does not compute (the torch runtime can)."""


def onnx_file(info: SentenceModelDir, cache_dir: Path, quantize: OnnxQuantize = "none") -> Path:
    """The directory's own ONNX file, else the cached export (made now when missing); with ``int8``
    (``int8-mixed``: the down projections in float), a cached int8 copy of that file (made now when
    missing)."""
    folder = cache_dir / f"{model_dir_label(info.path)}-{local_model_identity(info.path).rsplit('@', 1)[-1]}"
    source = next((f for f in (info.path / "onnx" / "model.onnx", info.path / "model.onnx") if f.is_file()), None)
    if source is None:
        cached = folder / "model.onnx"
        source = cached if cached.is_file() else export_onnx(info.path, cached)
    if quantize == "none":
        return source
    mixed = quantize == "int8-mixed"
    quantized = folder / (INT8_MIXED_FILE if mixed else INT8_FILE)
    return quantized if quantized.is_file() else quantize_int8(source, quantized, float_down_projections=mixed)


class OnnxEmbedder:
    """Embedder protocol over ONNX Runtime for a plain sentence-transformers directory (see
    :class:`~memforest.backends.st_model.SentenceModelDir`). Encoding runs in a worker thread, texts
    tokenised once and sorted by token count into batches of ``batch_size`` (small batches of
    similar length cost the least CPU a token, ADR 0058). A call's batches run side by side on a
    one-thread session, one per core (``threads``; 0: one per core): a batch this small computes
    faster on one thread than split over several, and calls from concurrent jobs share the same
    workers. A small call (at most ``SMALL_CALL`` texts: a question) runs on its own session over
    every core when it is free, else on the one-thread session: it never waits behind a batch.
    ``quantize="int8"`` runs an int8 copy of the model (:func:`onnx_file`): less CPU, vectors close
    to the model's but not equal, so its :attr:`name` ends in ``+int8``. ``"bf16"`` runs the batches
    with the model's weights in bfloat16 on torch (:func:`~memforest.backends.torch_bf16.bf16_batches`),
    refused unless their vectors agree with the float model's; questions stay on the float ONNX
    sessions, which are faster for a few short texts. ``"auto"`` does the same on a CPU with
    bfloat16 units when torch can run the model and the vectors agree, else runs the float model
    (:attr:`runtime` says which). Either way the vectors are the model's to about 1e-4 in cosine, and
    the database records the model's own identity (ADR 0113); :attr:`name` ends in ``+bf16`` while
    batches run in bfloat16, so health reports show it."""

    def __init__(
        self, path: str | Path, *, cache_dir: Path, batch_size: int = 8, threads: int = 0, quantize: Quantize = "none"
    ) -> None:
        info = read_model_dir(path)
        if not info.plain:
            raise UnsupportedModel(
                f"{info.path} is not a Transformer + mean/CLS Pooling (+ Normalize) model with a tokenizer.json; "
                "the ONNX runtime cannot run it (MEMFOREST_EMBEDDING__LOCAL_RUNTIME=torch can)"
            )
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ConfigurationError(
                "the ONNX runtime of the local backend needs onnxruntime and tokenizers: "
                "pip install 'memforest[local-embed]'"
            ) from exc
        self._tokenizer: Any = Tokenizer.from_file(str(info.path / "tokenizer.json"))
        self._tokenizer.enable_truncation(info.max_seq_length)
        self._tokenizer.no_padding()
        self._pooling = info.pooling
        self.dim: int = info.dim
        self.batch_size = batch_size
        model_file = onnx_file(info, cache_dir, quantize if quantize in ("int8", "int8-mixed") else "none")
        self._session: Any = _session(ort, model_file, threads)  # small calls, ``threads`` threads
        self._spill_session: Any = _session(ort, model_file, 1)  # a small call while another holds ``_session``
        self._batch_session: Any = self._spill_session  # batches, run by several workers at once
        self._inputs: dict[Any, list[str]] = {}  # each session's input names, read at its first batch
        if quantize in ("auto", "bf16"):
            bf16 = bf16_batches(
                info.path, float_session=self._spill_session, unit_rows=self._unit_rows, required=quantize == "bf16"
            )
            self._batch_session = self._batch_session if bf16 is None else bf16
        in_bf16 = self._batch_session is not self._spill_session
        # what runs the batches: float, int8, int8-mixed or bf16 (questions: float unless int8*)
        self.runtime: str = "bf16" if in_bf16 else quantize if quantize in ("int8", "int8-mixed") else "float"
        self.name: str = f"local:{model_dir_label(info.path)}" + ("" if self.runtime == "float" else f"+{self.runtime}")
        self._workers = ThreadPoolExecutor(threads or _cores(), thread_name_prefix="onnx-embed")
        # the calls' own threads, never the event loop's default executor: ingest calls that wait
        # for the batch workers would fill it (min(32, cores + 4) threads), and a question, or any
        # other ``to_thread`` of the process, would queue behind them (ADR 0098)
        self._questions = ThreadPoolExecutor(threads or _cores(), thread_name_prefix="onnx-question")
        self._calls = ThreadPoolExecutor(CALL_THREADS, thread_name_prefix="onnx-call")
        self._lock = threading.Lock()  # held while a small call uses ``_session``

    def _encode_batch(self, encodings: list[Any], session: Any) -> Matrix:
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, enc in enumerate(encodings):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        names = self._inputs.get(session)
        if names is None:
            names = self._inputs[session] = [i.name for i in session.get_inputs()]
        hidden = session.run(None, {name: feeds[name] for name in names})[0]
        if self._pooling == "cls":
            return np.asarray(hidden[:, 0, :], dtype=np.float32)
        weights = mask[:, :, None].astype(np.float32)
        summed: Matrix = (np.asarray(hidden, dtype=np.float32) * weights).sum(axis=1)
        counts: Matrix = np.maximum(weights.sum(axis=1), np.float32(1e-9))
        pooled: Matrix = summed / counts
        return pooled

    def _unit_rows(self, texts: Sequence[str], session: Any) -> Matrix:
        """``texts`` as one padded batch on ``session``, each row of unit norm (to compare runtimes)."""
        return _unit_norm(self._encode_batch(self._tokenizer.encode_batch(list(texts)), session))

    def embed_sync(self, texts: Sequence[str]) -> Matrix:
        """Encode ``texts`` (blocking) into float32 rows of unit norm (zero rows stay zero)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if len(texts) <= SMALL_CALL:
            self._encode_small(texts, out)
        else:
            self._encode_sorted(texts, out)
        return _unit_norm(out)

    def _encode_small(self, texts: Sequence[str], out: Matrix) -> None:
        """A small call (a question) on every core when no other small call holds that session, else
        on the one-thread session: it never waits."""
        if not texts:
            return
        encodings = self._tokenizer.encode_batch(list(texts))
        if self._lock.acquire(blocking=False):
            try:
                out[:] = self._encode_batch(encodings, self._session)
            finally:
                self._lock.release()
            return
        out[:] = self._encode_batch(encodings, self._spill_session)

    def _encode_sorted(self, texts: Sequence[str], out: Matrix) -> None:
        """Fill ``out`` (unnormalised) with batches of ``batch_size`` texts of similar token count,
        run by the workers side by side."""
        encodings = self._tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        if log.isEnabledFor(logging.DEBUG):  # what reaches the model: texts, tokens, batches
            tokens = sum(len(e.ids) for e in encodings)
            log.debug("onnx embed: %d texts, %d tokens, batches of %d", len(texts), tokens, self.batch_size)
        batches = [order[start : start + self.batch_size] for start in range(0, len(order), self.batch_size)]
        done = self._workers.map(
            lambda rows: self._encode_batch([encodings[i] for i in rows], self._batch_session), batches
        )
        for rows, vectors in zip(batches, done, strict=True):
            out[rows] = vectors

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        """Embed ``texts`` in order in a thread of this embedder's own (a question's on a thread no
        ingest call holds); one ledger call per batch."""
        executor = self._questions if len(texts) <= SMALL_CALL else self._calls
        return await embed_in_process(
            self.embed_sync, texts, stage=stage, ledger=ledger, in_thread=True, executor=executor
        )

    async def aclose(self) -> None:
        """Let the embedder's threads end (a call still running finishes; later calls fail)."""
        for pool in (self._workers, self._questions, self._calls):
            pool.shutdown(wait=False)
