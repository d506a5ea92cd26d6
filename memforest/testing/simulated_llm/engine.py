"""The SIMULATED server's GPU: a block prefix cache, one prefill queue, a continuous decode batch,
and the server-side accounting of all of it (a simulation of vLLM's scheduling, not a model).

* :class:`PrefixCache`: prompts are cut into blocks of ``prefix_block_tokens`` tokens; a block is
  identified by the hash of everything up to its end (as vLLM's automatic prefix caching does), so a
  request hits the longest run of leading blocks some earlier request already computed.
* :class:`Engine`: prefill takes ``prefill_ms_per_token`` per uncached token, one request at a time
  in arrival order (prefill is compute-bound: two prefills do not overlap for free); decode is
  processor sharing: every sequence in the batch gets one token per
  ``decode_ms_per_token(n)`` where ``n`` sequences decode at once, so a larger batch gives more
  tokens per second overall and fewer per sequence. Completion times are recomputed whenever a
  sequence joins or leaves, with one timer on the event loop.
* :class:`ServerClock`: busy time (at least one request holding a sequence slot), the integral of
  the number of requests holding slots (busy overlap = that integral / busy time) and queue wait.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from memforest.testing.simulated_llm.config import SimulationConfig

_DONE_EPS_TOKENS = 1e-3


class PrefixCache:
    """An LRU set of prompt-prefix blocks; :meth:`lookup` answers how many leading tokens were cached."""

    def __init__(self, block_tokens: int, capacity_blocks: int) -> None:
        self.block_tokens = block_tokens
        self.capacity = capacity_blocks
        self._blocks: OrderedDict[bytes, None] = OrderedDict()

    def _block_keys(self, tokens: list[str]) -> list[bytes]:
        keys: list[bytes] = []
        running = hashlib.blake2b(digest_size=16)
        full = len(tokens) - len(tokens) % self.block_tokens
        for start in range(0, full, self.block_tokens):
            running.update("\x1f".join(tokens[start : start + self.block_tokens]).encode())
            running.update(b"\x1e")
            keys.append(running.copy().digest())
        return keys

    def lookup(self, tokens: list[str]) -> int:
        """Cached leading tokens of ``tokens`` (whole blocks, at most all but one token); then
        remembers every full block of ``tokens``."""
        keys = self._block_keys(tokens)
        hit = 0
        for key in keys:
            if key not in self._blocks:
                break
            hit += 1
        for key in keys:
            self._blocks[key] = None
            self._blocks.move_to_end(key)
        while len(self._blocks) > self.capacity:
            self._blocks.popitem(last=False)
        return max(0, min(hit * self.block_tokens, len(tokens) - 1))

    def clear(self) -> None:
        """Forget every block (vLLM's ``/reset_prefix_cache``)."""
        self._blocks.clear()


@dataclass
class ServerClock:
    """Server-side time accounting: busy seconds, sequence-seconds and queue wait."""

    holding: int = 0
    busy_s: float = 0.0
    sequence_s: float = 0.0
    queue_wait_s: float = 0.0
    prefill_wait_s: float = 0.0
    prefill_s: float = 0.0
    decode_s: float = 0.0
    _last: float = field(default_factory=time.monotonic)

    def _advance(self) -> None:
        now = time.monotonic()
        if self.holding:
            self.busy_s += now - self._last
            self.sequence_s += self.holding * (now - self._last)
        self._last = now

    def enter(self) -> None:
        """A request took a sequence slot."""
        self._advance()
        self.holding += 1

    def leave(self) -> None:
        """A request gave its slot back."""
        self._advance()
        self.holding -= 1

    def snapshot(self) -> dict[str, float]:
        """The totals so far (seconds)."""
        self._advance()
        return {
            "busy_s": self.busy_s,
            "sequence_s": self.sequence_s,
            "queue_wait_s": self.queue_wait_s,
            "prefill_wait_s": self.prefill_wait_s,
            "prefill_s": self.prefill_s,
            "decode_s": self.decode_s,
        }


class _Sequence:
    __slots__ = ("done", "remaining")

    def __init__(self, tokens: float, done: asyncio.Future[None]) -> None:
        self.remaining = tokens
        self.done = done


class Engine:
    """Prefill queue and continuous decode batch of one simulated GPU (lives on the server's loop)."""

    def __init__(self, config: SimulationConfig, clock: ServerClock) -> None:
        self.config = config
        self.clock = clock
        self._prefill_free_at = 0.0
        self._batch: list[_Sequence] = []
        self._last = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self.max_batch = 0

    async def prefill(self, uncached_tokens: int) -> None:
        """Wait for the prefill unit, then spend ``uncached_tokens`` worth of prefill on it."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        start = max(now, self._prefill_free_at)
        cost = uncached_tokens * self.config.prefill_ms_per_token / 1000.0
        self._prefill_free_at = start + cost
        self.clock.prefill_wait_s += start - now
        self.clock.prefill_s += cost
        if self._prefill_free_at > now:
            await asyncio.sleep(self._prefill_free_at - now)

    async def decode(self, tokens: int) -> None:
        """Decode ``tokens`` output tokens inside the shared batch."""
        if tokens <= 0 or self.config.tpot_ms <= 0:
            return  # decode is free in this configuration
        loop = asyncio.get_running_loop()
        started = loop.time()
        self._advance(loop.time())
        sequence = _Sequence(float(tokens), loop.create_future())
        self._batch.append(sequence)
        self.max_batch = max(self.max_batch, len(self._batch))
        self._reschedule(loop)
        try:
            await sequence.done
        finally:
            if sequence in self._batch:  # cancelled (client left): drop it from the batch
                self._advance(loop.time())
                self._batch.remove(sequence)
                self._reschedule(loop)
            self.clock.decode_s += loop.time() - started

    def _advance(self, now: float) -> None:
        if self._batch:
            decoded = (now - self._last) * 1000.0 / self.config.decode_ms_per_token(len(self._batch))
            for sequence in self._batch:
                sequence.remaining -= decoded
        self._last = now

    def _reschedule(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._batch:
            first = min(sequence.remaining for sequence in self._batch)
            delay = max(0.0, first) * self.config.decode_ms_per_token(len(self._batch)) / 1000.0
            self._timer = loop.call_later(delay, self._on_timer, loop)

    def _on_timer(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        self._advance(loop.time())
        finished = [sequence for sequence in self._batch if sequence.remaining <= _DONE_EPS_TOKENS]
        for sequence in finished:
            self._batch.remove(sequence)
            if not sequence.done.done():
                sequence.done.set_result(None)
        self._reschedule(loop)
