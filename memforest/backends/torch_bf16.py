"""bfloat16 weights for the ``local`` embedding backend's batches (``embedding.local_quantize`` ``bf16``,
or ``auto`` on a CPU with bfloat16 units): a plain model directory's Transformer run by torch with
its weights cast to bfloat16, behind the two methods of an ONNX Runtime session that
:class:`~memforest.backends.onnx_embed.OnnxEmbedder` calls (``get_inputs`` and ``run``), so its
texts are tokenised, batched, scheduled and pooled exactly as the ONNX model's are. On a CPU with
bfloat16 units (AVX-512 BF16, AMX) a token costs about half the float model's CPU; the vectors are
the model's to about 1e-4 in cosine, not equal (ADR 0112), and are used only when a probe batch
shows it for the model at hand (ADR 0113)."""

from __future__ import annotations

import inspect
import logging
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from memforest.errors import ConfigurationError

__all__ = ["MIN_AGREEMENT", "Bf16Session", "bf16_batches", "cpu_has_bfloat16_units"]

log = logging.getLogger(__name__)

# what a BERT-like Transformer's forward may take, in the names OnnxEmbedder feeds
_FEEDS = ("input_ids", "attention_mask", "token_type_ids")
# the least cosine between a probe text's bfloat16 vector and its float one for bfloat16 to be used:
# MiniLM's lowest over 800 conversation texts is 0.9998 (ADR 0112)
MIN_AGREEMENT = 0.999
# texts of the lengths and kinds the write path embeds: facts, two-turn cells, summaries
PROBE_TEXTS = (
    "Dana adopted a rescue greyhound named Biscuit last spring.",
    "I switched dentists in March because the old one moved across town.",
    "ok",
    "Thanks! See you on Friday at the climbing gym, and bring the spare harness if you still have it.",
    "Raj: We finally sold the old van. Mina: Oh wow, after all those road trips? What are you driving now?",
    "Summary: planning a surprise party; the venue changed twice; the budget is 400 euros; "
    "three friends are helping with food, music and decorations over the next two weekends.",
    "2023-05-07 the quarterly report is due",
    "Le train pour Lyon part à 8 h 15.",
)

UnitRows = Callable[[Sequence[str], Any], Any]  # (texts, session) -> one unit-norm row per text


class _Input(NamedTuple):
    name: str


class Bf16Session:
    """The model of ``model_dir`` in bfloat16, run one batch per call on the caller's thread.

    Once the model has loaded, torch's own operator threads are set to one for the process: the
    embedder's batch workers, one per core, are the parallelism (as with the one-thread ONNX
    sessions), and torch's pool would otherwise take every core for each batch. Anything else that
    runs torch in the process (the ``torch`` runtime) then runs on one thread too, and a question
    runs on one core, not on every core as with the ONNX runtime. Calls from several threads at
    once are safe: the model runs in inference mode and holds no state between calls."""

    def __init__(self, model_dir: Path) -> None:
        try:
            import torch
            import transformers
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ConfigurationError(
                "bfloat16 weights need torch and transformers: pip install 'memforest[local-embed]'"
            ) from exc
        # loaded straight into bfloat16, so no float32 copy is held on the way (``torch_dtype``
        # before transformers 4.56)
        dtype_arg = "dtype" if _version(transformers.__version__) >= (4, 56) else "torch_dtype"
        try:
            loaded = transformers.AutoModel.from_pretrained(
                str(model_dir), local_files_only=True, **{dtype_arg: torch.bfloat16}
            )
            model: Any = loaded.to(torch.bfloat16).eval()
            accepted = inspect.signature(model.forward).parameters
            inputs = [_Input(name) for name in _FEEDS if name in accepted]
            if {i.name for i in inputs} < {"input_ids", "attention_mask"}:
                raise ValueError("its forward takes no input_ids and attention_mask by name")
            with torch.inference_mode():  # one small batch: a model that loads but cannot run fails here
                probe = torch.ones((1, 2), dtype=torch.int64)
                model(**{i.name: probe if i.name != "token_type_ids" else probe * 0 for i in inputs})
        except Exception as exc:  # a corrupt weight file, sizes that do not fit, another architecture
            raise ConfigurationError(f"cannot run {model_dir} in bfloat16: {exc}") from exc
        torch.set_num_threads(1)
        self._torch: Any = torch
        self._model = model
        self._inputs = inputs

    def get_inputs(self) -> list[_Input]:
        """The inputs the model takes, by name (as ``onnxruntime.InferenceSession.get_inputs``)."""
        return list(self._inputs)

    def run(self, _outputs: None, feeds: dict[str, npt.NDArray[np.int64]]) -> list[npt.NDArray[np.float32]]:
        """The last hidden state of one batch, in float32 (as an ONNX session's first output)."""
        torch = self._torch
        with torch.inference_mode():
            out = self._model(**{name: torch.from_numpy(value) for name, value in feeds.items()})
        return [out.last_hidden_state.float().numpy()]


def bf16_batches(model_dir: Path, *, float_session: Any, unit_rows: UnitRows, required: bool) -> Bf16Session | None:
    """The model in bfloat16 for the embedder's batches, or None to keep them on the float model.

    ``required`` (``local_quantize = bf16``): a model that cannot run in bfloat16, or whose probe
    vectors differ from the float model's by more than :data:`MIN_AGREEMENT`, is refused
    (ConfigurationError). Otherwise (``auto``) bfloat16 is used only on a CPU with bfloat16 units
    and under the same two conditions; each reason to keep float is logged once. ``unit_rows``
    embeds texts as one batch on a session, in unit-norm rows (the embedder's own code);
    ``float_session`` is the float model's session it compares with."""
    if not required and not cpu_has_bfloat16_units():
        log.info("embedding batches run on the float model: this CPU has no bfloat16 units torch reports")
        return None
    if required and not cpu_has_bfloat16_units():
        log.warning("this CPU has no bfloat16 units: bfloat16 weights may cost more CPU than float ones")
    try:
        session = Bf16Session(model_dir)
    except ConfigurationError as exc:
        if required:
            raise
        log.info("embedding batches run on the float model: %s", exc)
        return None
    reference = unit_rows(PROBE_TEXTS, float_session)
    agreement = float(np.min(np.sum(unit_rows(PROBE_TEXTS, session) * reference, axis=1)))
    if agreement >= MIN_AGREEMENT:
        log.info("embedding batches run in bfloat16 (probe cosine to the float model >= %.5f)", agreement)
        return session
    message = f"{model_dir} in bfloat16 gives vectors unlike its own (probe cosine {agreement:.4f} < {MIN_AGREEMENT})"
    if required:
        raise ConfigurationError(f"{message}; set MEMFOREST_EMBEDDING__LOCAL_QUANTIZE=none")
    log.warning("%s; embedding batches run on the float model", message)
    return None


def cpu_has_bfloat16_units() -> bool:
    """Whether torch is installed and reports AVX-512 BF16 or AMX on this CPU (False when it cannot tell)."""
    try:
        import torch
    except ImportError:
        return False
    probes = [getattr(torch.cpu, name, None) for name in ("_is_avx512_bf16_supported", "_is_amx_tile_supported")]
    return any(probe() for probe in probes if probe is not None)


def _version(text: str) -> tuple[int, ...]:
    """The leading numbers of a version string ("4.56.0.dev0" -> (4, 56, 0))."""
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])
