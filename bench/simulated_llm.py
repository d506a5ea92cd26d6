"""Run the SIMULATED OpenAI-compatible LLM server in the foreground (for throughput benchmarks).

Example::

    python -m bench.simulated_llm --preset 4b --port 8001          # a Qwen3-4B-class model on one H100
    python -m bench.simulated_llm --preset 30b-a3b --max-num-seqs 64 --embed-dim 384

Point ``MEMFOREST_LLM__BASE_URL`` / ``MEMFOREST_EMBEDDING__BASE_URL`` at ``http://HOST:PORT/v1``.
Its answers are synthetic: it measures the client and the pipeline, never a model.
"""

from __future__ import annotations

import argparse
import random
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
    parser.add_argument(
        "--fail-rate",
        type=float,
        default=0.0,
        help="instead of --fail-plan: this share (0..1) of calls fail, drawn at random from --fail-kinds",
    )
    parser.add_argument("--fail-kinds", default="500,429,timeout,invalid_json", help="kinds drawn by --fail-rate")
    parser.add_argument("--fail-length", type=int, default=200_000, help="calls the --fail-rate plan covers")
    parser.add_argument("--log-level", default="warning")
    return parser


def random_fail_plan(rate: float, kinds: Sequence[str], length: int, seed: int) -> list[str]:
    """A fail plan of ``length`` calls where each fails with probability ``rate`` (kind drawn from ``kinds``)."""
    if not 0.0 <= rate <= 1.0:
        raise ValueError("the fail rate must be within 0..1")
    rng = random.Random(seed)
    return [rng.choice(kinds) if rng.random() < rate else "ok" for _ in range(length)]


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, print the simulation banner, serve until interrupted."""
    args = _parser().parse_args(argv)
    plan = [kind.strip() for kind in args.fail_plan.split(",") if kind.strip()]
    if args.fail_rate > 0:
        kinds = [kind.strip() for kind in args.fail_kinds.split(",") if kind.strip()]
        plan = random_fail_plan(args.fail_rate, kinds, args.fail_length, args.seed)
    config = preset_config(
        args.preset,
        **simulation_timing(args),
        embed_dim=args.embed_dim,
        embed_latency_ms=args.embed_latency_ms,
        fail_plan=plan,
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
    print(f"  fail plan: {sum(k != 'ok' for k in plan)} failures in the first {len(plan)} calls")
    print(f"  base_url: http://{args.host}:{args.port}/v1   stats: http://{args.host}:{args.port}/stats")
    print("=" * 78, flush=True)
    uvicorn.run(create_app(config), host=args.host, port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    main()
