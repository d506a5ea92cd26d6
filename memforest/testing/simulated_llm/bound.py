"""The SIMULATED server's own lower bound on the time any client needs for a given amount of chat
work, by the simulation's own timing model (:mod:`.engine`), and the accounting window it is
computed over.

A window counts the chat work the server did since it was opened: requests, uncached prompt tokens
(the prefill the prefix cache did not save) and completion tokens. Served as fast as this server
can serve them, that work takes at least

* ``prefill_bound_s``: every uncached token through the one prefill unit
  (``prefill_ms_per_token`` each, prefills never overlap), and
* ``slot_bound_s``: the slot-seconds the requests need, spread over all ``max_num_seqs`` slots:
  ``ttft_ms`` per request, its prefill, and its completion decoded in a full batch
  (``decode_ms_per_token(max_num_seqs)`` per token: the batch size with the most tokens per second),

so ``lower_bound_s = max(prefill_bound_s, slot_bound_s)``. Nothing of the clients' structure
(which call waits for which) enters: it is the physical limit of the work, not of a schedule, and
a client's efficiency is ``lower_bound_s`` over its wall time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from memforest.testing.simulated_llm.config import SimulationConfig


def lower_bound(
    config: SimulationConfig, requests: int, uncached_tokens: int, completion_tokens: int
) -> dict[str, float]:
    """The seconds the server needs at least for this chat work (see the module docstring)."""
    slots = config.max_num_seqs
    prefill_s = uncached_tokens * config.prefill_ms_per_token / 1000.0
    decode_slot_s = completion_tokens * config.decode_ms_per_token(slots) / 1000.0
    overhead_slot_s = requests * config.ttft_ms / 1000.0
    slot_s = (overhead_slot_s + prefill_s + decode_slot_s) / slots
    return {"lower_bound_s": max(prefill_s, slot_s), "prefill_bound_s": prefill_s, "slot_bound_s": slot_s}


@dataclass
class WorkWindow:
    """Chat work counted since :meth:`reopen` (or since the server started)."""

    requests: int = 0
    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    opened: float = field(default_factory=time.monotonic)

    def count(self, prompt_tokens: int, cached_tokens: int, completion_tokens: int) -> None:
        """One chat request served."""
        self.requests += 1
        self.prompt_tokens += prompt_tokens
        self.cached_tokens += cached_tokens
        self.completion_tokens += completion_tokens

    def report(self, config: SimulationConfig) -> dict[str, Any]:
        """The window's work, its length in seconds and the server's lower bound for that work."""
        uncached = self.prompt_tokens - self.cached_tokens
        return {
            "requests": self.requests,
            "prompt_tokens": self.prompt_tokens,
            "cached_tokens": self.cached_tokens,
            "uncached_tokens": uncached,
            "completion_tokens": self.completion_tokens,
            "window_s": time.monotonic() - self.opened,
            "max_num_seqs": config.max_num_seqs,
            **lower_bound(config, self.requests, uncached, self.completion_tokens),
        }

    def reopen(self) -> None:
        """Start counting afresh."""
        self.requests = self.prompt_tokens = self.cached_tokens = self.completion_tokens = 0
        self.opened = time.monotonic()
