"""SIMULATED OpenAI-compatible model server: latency, queueing and failures, no model at all.

This is a *simulation* for tests and throughput benchmarks of the HTTP path. It answers
``/v1/chat/completions`` with JSON that is valid for the requested schema and made
deterministically from the prompt text (sentences of the last user message, ``[n]`` markers,
ISO dates), and ``/v1/embeddings`` with deterministic unit vectors. Its outputs carry no
model quality whatsoever; numbers measured against it describe the client and the pipeline,
never a language model.

What it simulates (a model of vLLM's scheduling on one GPU, see :mod:`.engine`):

* continuous batching: at most ``max_num_seqs`` requests hold a sequence slot, the rest queue;
* prefill: ``prefill_ms_per_token`` per UNCACHED prompt token, one prefill at a time; a prefix
  cache over blocks of ``prefix_block_tokens`` tokens (as vLLM's automatic prefix caching) lets a
  prompt that starts like an earlier one skip that share, reported as
  ``prompt_tokens_details.cached_tokens``; ``POST /reset_prefix_cache`` empties it;
* decode: ``tpot_ms * (1 + decode_slowdown_per_seq * (n - 1))`` per output token while ``n``
  sequences decode together, so tokens per second grow with the batch and each sequence slows;
* a fixed ``ttft_ms`` per request (scheduling, HTTP, detokenising);
* the server's own accounting at ``/stats``: busy time, sequence-seconds (busy overlap), queue
  wait, prompt / cached / completion tokens;
* ``POST /stats/window``: the chat work since the previous call and the server's own lower bound for
  it (:mod:`.bound`: that work served at ``max_num_seqs`` by this timing model), then a new window;
* token usage: whitespace tokens (an approximation of a real tokenizer; documented, not exact);
* failures: ``fail_plan`` scripts the first requests (chat and embeddings share one cursor).

Calibration (``PRESETS`` in :mod:`.config`; reasoning in docs/adr/0017-throughput-simulator.md).
No source found publishes vLLM serving figures for exactly Qwen3-4B or Qwen3-30B-A3B on one H100,
so the presets use the nearest published figures and say so:

* ``30b-a3b``: Luminal's inference report for Qwen/Qwen3.5-35B-A3B-FP8 on 1xH100
  (https://www.luminal.com/report/qwen-qwen3-5-35b-a3b-fp8-1xh100, a 3B-active MoE served by
  vLLM): 5.8 ms inter-token latency for one user (chatbot: 1,024 in / 256 out), 172.5 tok/s per
  user, and 41 % scaling efficiency at 32 concurrent users, i.e. per-token time x2.44 at 32
  sequences: ``tpot_ms=5.8``, ``decode_slowdown_per_seq=(2.44-1)/31=0.046``. Prefill
  ``0.04 ms/token`` (25k tokens/s) is an estimate (3B active parameters, ~6 GFLOP per token, MoE
  kernels well below dense efficiency), not a published figure.
* ``4b``: no published single-H100 vLLM figure for a 4B dense model was found; the decode time
  (``tpot_ms=5.5``) is set by the same memory-bandwidth argument (8 GB of BF16 weights per step on
  3.35 TB/s is 2.4 ms, plus the overheads that make the 3B-active MoE above 5.8 ms), the batch
  slowdown (``0.016``: per-token time x2 at 64 sequences) is set lower than the MoE's because a
  small dense model stays memory-bound longer, and prefill ``0.025 ms/token`` (40k tokens/s) from
  ~8 GFLOP per token at ~40 % of the H100's dense BF16 peak. Qwen3-4B throughput reported on
  2x RTX 3090 with vLLM (~750 output tok/s per pair at 4k in / 1k out, FP16, r/LocalLLaMA
  "Qwen3 throughput benchmarks on 2x 3090") is consistent with an H100 being several times faster.
* both: ``max_num_seqs=256`` (vLLM's long-standing default), ``ttft_ms`` 15 / 20 ms of overhead.

Modules: :mod:`.config` (the knobs), :mod:`.prompt` (what is read from a prompt),
:mod:`.responders` (JSON, text and embedding answers), :mod:`.latency` (queueing, failures,
counters), :mod:`.server` (the FastAPI app and the background-thread runner).

Tests start it with :func:`run_server_in_thread`; throughput benchmarks with
:func:`run_server_in_process` (its own interpreter, as a real server); ``python -m
bench.simulated_llm`` runs it in the foreground.
"""

from memforest.testing.simulated_llm.config import FAIL_KINDS, PRESETS, SimulationConfig, preset_config
from memforest.testing.simulated_llm.process import run_server_in_process
from memforest.testing.simulated_llm.prompt import count_tokens
from memforest.testing.simulated_llm.responders import generate_json_output, simulated_embedding
from memforest.testing.simulated_llm.server import create_app, run_server_in_thread

__all__ = [
    "FAIL_KINDS",
    "PRESETS",
    "SimulationConfig",
    "count_tokens",
    "create_app",
    "generate_json_output",
    "preset_config",
    "run_server_in_process",
    "run_server_in_thread",
    "simulated_embedding",
]
