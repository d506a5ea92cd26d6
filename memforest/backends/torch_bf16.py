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
    Calls from several threads at once are safe: the model runs in inference mode and holds no
    state between calls. :func:`bf16_batches` sets torch's operator threads to one once it accepts
    the session."""

    def __init__(self, model_dir: Path) -> None:
        try:
            import torch
            import transformers
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ConfigurationError(
                "bfloat16 weights need torch and transformers (pip install 'memforest[local-embed]'); "
                "or set MEMFOREST_EMBEDDING__LOCAL_QUANTIZE=none"
            ) from exc
        # loaded straight into bfloat16, so no float32 copy is held on the way (``torch_dtype``
        # before transformers 4.56)
        dtype_arg = "dtype" if _version(transformers.__version__) >= (4, 56) else "torch_dtype"
        # typed as Any: the keyword's name depends on the installed version, not on one stub
        dtype_kwargs: dict[str, Any] = {dtype_arg: torch.bfloat16}
        quiet = getattr(transformers.utils.logging, "disable_progress_bar", None)
        if quiet is not None:
            quiet()  # no "Loading weights" bar on a server's stderr at every start
        try:
            loaded = transformers.AutoModel.from_pretrained(str(model_dir), local_files_only=True, **dtype_kwargs)
            model: Any = loaded.to(torch.bfloat16).eval()
            accepted = inspect.signature(model.forward).parameters
            inputs = [_Input(name) for name in _FEEDS if name in accepted]
            if {i.name for i in inputs} < {"input_ids", "attention_mask"}:
                raise ValueError("its forward takes no input_ids and attention_mask by name")
            with torch.inference_mode():  # one small batch: a model that loads but cannot run fails here
                probe = torch.ones((1, 2), dtype=torch.int64)
                model(**{i.name: probe if i.name != "token_type_ids" else probe * 0 for i in inputs})
        except Exception as exc:  # a corrupt weight file, sizes that do not fit, another architecture
            raise _cannot_run(model_dir, exc) from exc
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
    vectors differ from the float model's by more than :data:`MIN_AGREEMENT`, is refused (one-line
    ConfigurationError). Otherwise (``auto``) bfloat16 is used only on a CPU with bfloat16 units
    and under the same two conditions, and nothing is refused: each reason to keep float (any
    error included) is logged. ``unit_rows`` embeds texts as one batch on a session, in unit-norm
    rows (the embedder's own code); ``float_session`` is the float model's session it compares
    with. Once a session is accepted, torch's operator threads are set to one for the process: the
    embedder's batch workers, one per core, are the parallelism, and torch's pool would otherwise
    take every core for each batch (anything else in the process that runs torch then runs on one
    thread too)."""
    units = cpu_has_bfloat16_units()
    if not units and not required:
        log.info("embedding batches run on the float model: no bfloat16 units on this CPU (or no torch)")
        return None
    if not units:
        log.warning("this CPU has no bfloat16 units: bfloat16 weights may cost more CPU than float ones")
    try:
        return _accepted(_agreeing(model_dir, float_session, unit_rows))
    except Exception as exc:  # a broken torch, a model it cannot run, a probe that fails or disagrees
        if required and isinstance(exc, ConfigurationError):
            raise
        if required:
            raise _cannot_run(model_dir, exc) from exc
        log.warning("embedding batches run on the float model: %s", _first_line(exc))  # auto never refuses a start
        return None


def _agreeing(model_dir: Path, float_session: Any, unit_rows: UnitRows) -> Bf16Session:
    """The bfloat16 session when its probe vectors agree with the float model's, else ConfigurationError."""
    session = Bf16Session(model_dir)
    reference = unit_rows(PROBE_TEXTS, float_session)
    agreement = float(np.min(np.sum(unit_rows(PROBE_TEXTS, session) * reference, axis=1)))
    if agreement < MIN_AGREEMENT:
        raise ConfigurationError(
            f"{model_dir} in bfloat16 gives vectors unlike its own (probe cosine {agreement:.4f} < "
            f"{MIN_AGREEMENT}); set MEMFOREST_EMBEDDING__LOCAL_QUANTIZE=none"
        )
    log.info("embedding batches run in bfloat16 (probe cosine to the float model >= %.5f)", agreement)
    return session


def _cannot_run(model_dir: Path, exc: BaseException) -> ConfigurationError:
    """The one-line refusal of a model that cannot run in bfloat16."""
    return ConfigurationError(
        f"cannot run {model_dir} in bfloat16: {_first_line(exc)}; set MEMFOREST_EMBEDDING__LOCAL_QUANTIZE=none"
    )


def _first_line(exc: BaseException) -> str:
    """An error's first line (a library's message may run to many), or its type when it has none."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _accepted(session: Bf16Session) -> Bf16Session:
    session._torch.set_num_threads(1)
    return session


def cpu_has_bfloat16_units() -> bool:
    """Whether this CPU has AVX-512 BF16 or AMX as torch reports them; False when torch is missing
    or fails to load, and without importing torch when Linux's CPU flags name neither."""
    flags = _cpu_flags()
    if flags is not None and not flags & {"avx512_bf16", "amx_bf16"}:
        return False
    try:
        import torch

        probes = [getattr(torch.cpu, name, None) for name in ("_is_avx512_bf16_supported", "_is_amx_tile_supported")]
        return any(probe() for probe in probes if probe is not None)
    except Exception:  # no torch, or one that cannot load (a missing library, another numpy)
        return False


def _cpu_flags() -> set[str] | None:
    """The first CPU's flags from ``/proc/cpuinfo`` (x86 Linux), None where there are none to read."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.partition(":")[2].split())
    except OSError:
        return None
    return None


def _version(text: str) -> tuple[int, ...]:
    """The leading numbers of a version string ("4.56.0.dev0" -> (4, 56, 0))."""
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])
