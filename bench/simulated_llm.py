"""Run the SIMULATED OpenAI-compatible LLM server in the foreground (for throughput benchmarks).

Example::

    python -m bench.simulated_llm --preset 4b --port 8001          # a Qwen3-4B-class model on one H100
    python -m bench.simulated_llm --preset 30b-a3b --max-num-seqs 64 --embed-dim 384

Point ``MEMFOREST_LLM__BASE_URL`` / ``MEMFOREST_EMBEDDING__BASE_URL`` at ``http://HOST:PORT/v1``.
Its answers are synthetic: it measures the client and the pipeline, never a model.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import uvicorn

from bench.args import add_simulation_timing, simulation_timing
from memforest.testing.simulated_llm import FAIL_KINDS, PRESETS, create_app, preset_config


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.simulated_llm",
        description="SIMULATED OpenAI-compatible LLM server (latency/queueing/failure simulation, no model).",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    add_simulation_timing(parser, sorted(PRESETS))
    parser.add_argument("--embed-dim", type=int, default=384)
    parser.add_argument("--embed-latency-ms", type=float, default=5.0)
    parser.add_argument("--model-name", default="memforest-simulated-llm")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--fail-plan",
        default="",
        help=f"comma-separated script for the first requests, each one of {sorted(FAIL_KINDS)}",
    )
    parser.add_argument("--timeout-sleep-s", type=float, default=30.0, help="stall length of 'timeout'")
    parser.add_argument("--log-level", default="warning")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, print the simulation banner, serve until interrupted."""
    args = _parser().parse_args(argv)
    config = preset_config(
        args.preset,
        **simulation_timing(args),
        embed_dim=args.embed_dim,
        embed_latency_ms=args.embed_latency_ms,
        fail_plan=[kind.strip() for kind in args.fail_plan.split(",") if kind.strip()],
        model_name=args.model_name,
        seed=args.seed,
        timeout_sleep_s=args.timeout_sleep_s,
    )
    print("=" * 78)
    print("  MemForest SIMULATED LLM server -- a latency simulation, NOT a language model.")
    print("  Outputs are synthetic JSON built from the prompt text; use for throughput only.")
    print(
        f"  preset={config.preset}  ttft={config.ttft_ms} ms  tpot={config.tpot_ms} ms "
        f"(+{config.decode_slowdown_per_seq:g} per extra sequence)  prefill={config.prefill_ms_per_token} ms/token  "
        f"max_num_seqs={config.max_num_seqs}  embed_dim={config.embed_dim}"
    )
    print(f"  base_url: http://{args.host}:{args.port}/v1   stats: http://{args.host}:{args.port}/stats")
    print("=" * 78, flush=True)
    uvicorn.run(create_app(config), host=args.host, port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    main()
