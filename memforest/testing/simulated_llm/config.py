"""Configuration of the SIMULATED OpenAI-compatible server (a simulation, not a model)."""

from __future__ import annotations

from dataclasses import dataclass, field

FAIL_KINDS = frozenset({"500", "429", "invalid_json", "timeout", "ok"})


@dataclass
class SimulationConfig:
    """Knobs of the simulated server (all latencies in milliseconds)."""

    ttft_ms: float = 50.0
    tpot_ms: float = 10.0
    max_num_seqs: int = 64
    embed_dim: int = 384
    embed_latency_ms: float = 5.0
    fail_plan: list[str] = field(default_factory=list)
    model_name: str = "memforest-simulated-llm"
    seed: int = 0
    timeout_sleep_s: float = 30.0  # a "timeout" entry stalls this long (or until the client leaves)
    retry_after_s: float | None = None  # when set, 429 answers carry ``Retry-After``
    prefix_cache_entries: int = 4096  # distinct system prompts remembered for cached_tokens

    def __post_init__(self) -> None:
        unknown = [kind for kind in self.fail_plan if kind not in FAIL_KINDS]
        if unknown:
            raise ValueError(f"unknown fail_plan entries {unknown}; use {sorted(FAIL_KINDS)}")
        if self.max_num_seqs < 1:
            raise ValueError("max_num_seqs must be >= 1")
        if self.embed_dim < 1:
            raise ValueError("embed_dim must be >= 1")
