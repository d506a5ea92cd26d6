"""SIMULATED OpenAI-compatible model server: latency, queueing and failures, no model at all.

This is a *simulation* for tests and throughput benchmarks of the HTTP path. It answers
``/v1/chat/completions`` with JSON that is valid for the requested schema and made
deterministically from the prompt text (sentences of the last user message, ``[n]`` markers,
ISO dates), and ``/v1/embeddings`` with deterministic unit vectors. Its outputs carry no
model quality whatsoever; numbers measured against it describe the client and the pipeline,
never a language model.

What it simulates:

* latency: ``ttft_ms + tpot_ms * completion_tokens`` per chat request (``embed_latency_ms``
  per embeddings request), spent inside a semaphore of ``max_num_seqs`` so that excess
  requests queue, as on a vLLM server;
* token usage: whitespace tokens (an approximation of a real tokenizer; documented, not exact);
  ``prompt_tokens_details.cached_tokens`` counts the system message's tokens when that exact
  system prompt was seen before (a stand-in for vLLM's automatic prefix cache);
* failures: ``fail_plan`` scripts the first requests (chat and embeddings share one cursor).

Modules: :mod:`.config` (the knobs), :mod:`.prompt` (what is read from a prompt),
:mod:`.responders` (JSON, text and embedding answers), :mod:`.latency` (queueing, failures,
counters), :mod:`.server` (the FastAPI app and the background-thread runner).

Tests start it with :func:`run_server_in_thread`; ``python -m bench.simulated_llm`` runs it in
the foreground.
"""

from memforest.testing.simulated_llm.config import FAIL_KINDS, SimulationConfig
from memforest.testing.simulated_llm.prompt import count_tokens
from memforest.testing.simulated_llm.responders import generate_json_output, simulated_embedding
from memforest.testing.simulated_llm.server import create_app, run_server_in_thread

__all__ = [
    "FAIL_KINDS",
    "SimulationConfig",
    "count_tokens",
    "create_app",
    "generate_json_output",
    "run_server_in_thread",
    "simulated_embedding",
]
