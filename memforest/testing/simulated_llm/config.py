"""Configuration of the SIMULATED OpenAI-compatible server (a simulation, not a model).

Two calibrated presets describe one H100 serving a model with vLLM (see
:mod:`memforest.testing.simulated_llm` for the figures and their sources):

* ``4b``: a Qwen3-4B-class dense model (BF16);
* ``30b-a3b``: a Qwen3-30B-A3B-class mixture of experts (about 3B active parameters).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

FAIL_KINDS = frozenset({"500", "429", "invalid_json", "timeout", "ok"})


@dataclass
class SimulationConfig:
    """Knobs of the simulated server (all latencies in milliseconds).

    A chat request holds one of ``max_num_seqs`` sequence slots (more requests queue) while it
    spends ``ttft_ms`` of fixed overhead, then its prefill (``prefill_ms_per_token`` per UNCACHED
    prompt token, one prefill at a time, first come first served), then its decode: every output
    token takes ``tpot_ms * (1 + decode_slowdown_per_seq * (n - 1))`` where ``n`` is the number of
    sequences decoding at that moment (continuous batching: they all advance together).
    """

    ttft_ms: float = 15.0  # fixed per-request overhead: scheduling, HTTP, detokenising
    tpot_ms: float = 5.5  # time per output token with one sequence decoding
    max_num_seqs: int = 256
    prefill_ms_per_token: float = 0.025
    decode_slowdown_per_seq: float = 0.016
    prefix_block_tokens: int = 16  # the prefix cache works on whole blocks, as vLLM's does
    prefix_cache_blocks: int = 1_000_000  # blocks remembered (LRU) by the prefix cache
    embed_dim: int = 384
    embed_latency_ms: float = 5.0
    fail_plan: list[str] = field(default_factory=list)
    model_name: str = "memforest-simulated-llm"
    seed: int = 0
    timeout_sleep_s: float = 30.0  # a "timeout" entry stalls this long (or until the client leaves)
    retry_after_s: float | None = None  # when set, 429 answers carry ``Retry-After``
    preset: str | None = None  # the preset these values came from, if any (reporting only)

    def __post_init__(self) -> None:
        unknown = [kind for kind in self.fail_plan if kind not in FAIL_KINDS]
        if unknown:
            raise ValueError(f"unknown fail_plan entries {unknown}; use {sorted(FAIL_KINDS)}")
        if self.max_num_seqs < 1:
            raise ValueError("max_num_seqs must be >= 1")
        if self.embed_dim < 1:
            raise ValueError("embed_dim must be >= 1")
        if self.prefix_block_tokens < 1 or self.prefix_cache_blocks < 0:
            raise ValueError("prefix_block_tokens must be >= 1 and prefix_cache_blocks >= 0")
        negative = [
            name
            for name in ("ttft_ms", "tpot_ms", "prefill_ms_per_token", "decode_slowdown_per_seq", "embed_latency_ms")
            if getattr(self, name) < 0
        ]
        if negative:
            raise ValueError(f"{', '.join(negative)} must be >= 0")

    def decode_ms_per_token(self, decoding: int) -> float:
        """Time per output token while ``decoding`` sequences decode together."""
        return self.tpot_ms * (1.0 + self.decode_slowdown_per_seq * max(0, decoding - 1))


# Calibrated to published single-H100 vLLM serving figures; the module docstring of
# memforest.testing.simulated_llm and docs/adr/0017-throughput-simulator.md give sources and reasoning.
PRESETS: dict[str, dict[str, Any]] = {
    "4b": {
        "ttft_ms": 15.0,
        "tpot_ms": 5.5,
        "max_num_seqs": 256,
        "prefill_ms_per_token": 0.025,
        "decode_slowdown_per_seq": 0.016,
    },
    "30b-a3b": {
        "ttft_ms": 20.0,
        "tpot_ms": 5.8,
        "max_num_seqs": 256,
        "prefill_ms_per_token": 0.04,
        "decode_slowdown_per_seq": 0.046,
    },
}


def preset_config(name: str, **overrides: Any) -> SimulationConfig:
    """The :class:`SimulationConfig` of preset ``name`` (``4b`` or ``30b-a3b``) with ``overrides``."""
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; use one of {sorted(PRESETS)}")
    base = SimulationConfig(**PRESETS[name], preset=name)
    return replace(base, **overrides) if overrides else base
