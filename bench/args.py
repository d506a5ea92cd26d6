"""The options every benchmark takes, the same way: ``--out DIR`` (always a folder; the file name
is the bench's own), ``--home``, ``--repeat`` and ``--no-progress``; and ``--embedding`` for the
benchmarks that ingest and query (:func:`add_embedding`)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from bench.env import RESULTS_DIR
from memforest.backends.st_model import read_model_dir
from memforest.db.model_identity import model_dir_label
from memforest.errors import ConfigurationError


def bench_parser(prog: str, description: str | None, *, repeat: int = 1) -> argparse.ArgumentParser:
    """An argument parser for ``python -m bench.<prog>`` with the shared options already added."""
    parser = argparse.ArgumentParser(
        prog=f"python -m bench.{prog}",
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    shared = parser.add_argument_group("shared by every benchmark")
    shared.add_argument(
        "--out",
        type=_folder,
        default=RESULTS_DIR,
        metavar="DIR",
        help="folder for the result JSON (and PNG); the file name is the bench's (default: bench/results)",
    )
    shared.add_argument(
        "--home", type=Path, default=None, help="MEMFOREST_HOME for the embedded database (default: a temp dir)"
    )
    shared.add_argument("--repeat", type=int, default=repeat, help=f"repetitions of the measurement ({repeat})")
    shared.add_argument("--no-progress", action="store_true", help="no progress bars")
    return parser


def _folder(value: str) -> Path:
    path = Path(value)
    if path.suffix.lower() in {".json", ".png", ".md"} or path.is_file():
        raise argparse.ArgumentTypeError(f"--out takes a folder, not a file: {value}")
    return path


def single_run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """For a bench that measures once: refuse ``--repeat`` other than 1 (a clear error, exit 2)."""
    if args.repeat != 1:
        parser.error(f"{parser.prog} measures once; --repeat must be 1 (got {args.repeat})")


SIMULATION_TIMING = ("ttft_ms", "tpot_ms", "max_num_seqs", "prefill_ms_per_token", "decode_slowdown_per_seq")


def add_simulation_timing(group: argparse._ActionsContainer, presets: list[str]) -> None:
    """The simulated server's ``--preset`` and its timing overrides (each defaults to the preset's)."""
    group.add_argument("--preset", choices=presets, default="4b", help="calibrated model/GPU preset (ADR 0017)")
    group.add_argument("--ttft-ms", type=float, default=None, help="fixed overhead per request (preset)")
    group.add_argument("--tpot-ms", type=float, default=None, help="ms per output token, one sequence (preset)")
    group.add_argument("--max-num-seqs", type=int, default=None, help="sequences served at once; more queue (preset)")
    group.add_argument("--prefill-ms-per-token", type=float, default=None, help="per uncached prompt token (preset)")
    group.add_argument("--decode-slowdown-per-seq", type=float, default=None, help="tpot growth per sequence (preset)")


def simulation_timing(args: argparse.Namespace) -> dict[str, Any]:
    """The timing overrides given on the command line (the rest come from the preset)."""
    return {key: getattr(args, key) for key in SIMULATION_TIMING if getattr(args, key) is not None}


EMBEDDING_HELP = (
    "the embedder: hashed (built in), local:PATH (a sentence-transformers model directory, run as "
    "MEMFOREST_EMBEDDING__BACKEND=local runs it) or http:URL (an OpenAI-compatible /v1/embeddings server; "
    "model and dimension from MEMFOREST_EMBEDDING__MODEL and __DIM) (default: hashed)"
)


def add_embedding(parser: argparse.ArgumentParser) -> None:
    """``--embedding hashed|local:PATH|http:URL``, recorded in the result's arguments."""
    parser.add_argument(
        "--embedding", type=embedding_spec, default="hashed", metavar="hashed|local:PATH|http:URL", help=EMBEDDING_HELP
    )


def embedding_spec(value: str) -> str:
    kind, _, rest = value.partition(":")
    if value == "hashed" or (kind in ("local", "http") and rest):
        return value
    raise argparse.ArgumentTypeError(f"--embedding takes hashed, local:PATH or http:URL, not {value!r}")


def embedding_overrides(spec: str, dim: int | None = None) -> dict[str, Any]:
    """The ``embedding`` settings section ``spec`` stands for, with ``dim`` (``--embed-dim``) when
    given (empty for hashed without ``dim``: the settings' own). A local model's dimension is read
    from its directory; a ``dim`` that differs from it is refused."""
    kind, _, rest = spec.partition(":")
    section: dict[str, Any] = {} if dim is None else {"dim": dim}
    if kind == "local":
        try:
            model_dim = read_model_dir(rest).dim
        except ConfigurationError as exc:
            raise SystemExit(f"--embedding {spec}: {exc}") from exc
        if dim is not None and dim != model_dim:
            raise SystemExit(f"--embed-dim {dim}: the model in {rest} gives {model_dim}-dimensional vectors")
        section = {"backend": "local", "local_path": rest, "dim": model_dim}
    elif kind == "http":
        section = {"backend": "http", "base_url": rest, **section}
    return {"embedding": section} if section else {}


def embedding_label(spec: str, *, cells: str | None = None) -> str:
    """A short name of the embedder for result file names: ``hashed``, the local model's directory
    name (at the shipped ``MEMFOREST_EMBEDDING__LOCAL_QUANTIZE=auto``; another value after it:
    ``-int8``, ``-bf16``, ``-float`` for ``none``), or
    ``http``; ``-cells-from-facts`` after it when cell vectors come from facts (``cells``, else
    ``MEMFOREST_EMBEDDING__CELL_VECTORS``)."""
    kind, _, rest = spec.partition(":")
    label = kind
    if kind == "local":
        quantized = os.environ.get("MEMFOREST_EMBEDDING__LOCAL_QUANTIZE", "auto").lower()
        suffix = {"auto": "", "none": "-float"}.get(quantized, f"-{quantized}")
        label = model_dir_label(Path(rest)).replace("_", "-").lower() + suffix
    cells = (cells or os.environ.get("MEMFOREST_EMBEDDING__CELL_VECTORS", "text")).lower()
    return label + ("" if cells == "text" else "-cells-from-facts")
