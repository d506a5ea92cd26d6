"""The SIMULATED OpenAI-compatible server: routes, request parsing, and a background-thread runner.

It answers ``/v1/chat/completions`` and ``/v1/embeddings`` with outputs from
:mod:`~memforest.testing.simulated_llm.responders`, timed and failed by
:mod:`~memforest.testing.simulated_llm.latency`. A simulation for tests and benchmarks, not a model.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from memforest.testing.simulated_llm.config import SimulationConfig
from memforest.testing.simulated_llm.latency import SimulationState, error_response
from memforest.testing.simulated_llm.prompt import count_tokens, digest, prompt_token_list
from memforest.testing.simulated_llm.responders import (
    generate_json_output,
    generate_text_output,
    simulated_embedding,
)


def _message_text(content: Any) -> str:
    """The text of a message's content: a string, or the joined text of OpenAI content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def _requested_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema the request asks for (``response_format`` or vLLM's ``guided_json``), or None."""
    response_format = body.get("response_format")
    if isinstance(response_format, dict):
        if response_format.get("type") == "json_schema":
            spec = response_format.get("json_schema") or {}
            schema = spec.get("schema") if isinstance(spec, dict) else None
            return schema if isinstance(schema, dict) else {}
        if response_format.get("type") == "json_object":
            return {"type": "object", "properties": {"text": {"type": "string"}}}
    guided = body.get("guided_json")  # vLLM's extra parameter
    return guided if isinstance(guided, dict) else None


def _broken_json(valid: str) -> str:
    """A cut of ``valid`` that does not parse (the "invalid_json" failure)."""
    cut = valid[: max(1, len(valid) // 2)]
    try:
        json.loads(cut)
    except json.JSONDecodeError:
        return cut
    return "{" + cut


def create_app(config: SimulationConfig) -> FastAPI:
    """The SIMULATED OpenAI-compatible server as a FastAPI app (see :mod:`memforest.testing.simulated_llm`)."""
    app = FastAPI(title="MemForest SIMULATED LLM server", version="sim")
    state = SimulationState(config)
    app.state.simulation = state

    @app.get("/health")
    async def health() -> Response:
        return PlainTextResponse("ok (simulation)")

    @app.get("/stats")
    async def stats() -> dict[str, Any]:
        return state.snapshot()

    @app.post("/stats/window")
    async def stats_window() -> dict[str, Any]:
        """The chat work since the previous call and the server's lower bound for it (:mod:`.bound`);
        then a new window starts."""
        report = state.window.report(config)
        state.window.reopen()
        return report

    @app.post("/reset_prefix_cache")
    async def reset_prefix_cache() -> Response:
        state.prefix_cache.clear()  # the name and effect of vLLM's endpoint
        return PlainTextResponse("ok (simulation)")

    @app.get("/v1/models")
    async def models() -> Response:
        data = [{"id": config.model_name, "object": "model", "owned_by": "memforest-simulation"}]
        return state.finish("models", JSONResponse({"object": "list", "data": data}))

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> Response:
        return state.finish("chat", await _chat(request))

    @app.post("/v1/embeddings")
    async def embeddings(request: Request) -> Response:
        return state.finish("embeddings", await _embeddings(request))

    async def _chat(request: Request) -> Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return error_response(400, "request body is not JSON")
        raw_messages = body.get("messages") if isinstance(body, dict) else None
        if not isinstance(raw_messages, list) or not raw_messages:
            return error_response(400, "messages must be a non-empty list")
        if body.get("stream"):
            return error_response(400, "streaming is not supported by the simulation")
        messages = [
            {"role": str(m.get("role", "user")), "content": _message_text(m.get("content"))}
            for m in raw_messages
            if isinstance(m, dict)
        ]
        action = state.next_action()
        failed = await state.inject_failure(request, action)
        if failed is not None:
            return failed

        schema = _requested_schema(body)
        if schema is not None:
            try:
                content = json.dumps(generate_json_output(schema, messages, config.seed), ensure_ascii=False)
            except (ValueError, KeyError, TypeError) as exc:
                return error_response(400, f"unsupported json schema: {exc}")
        else:
            content = generate_text_output(messages, config.seed)
        finish_reason = "stop"
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        tokens = content.split()
        if isinstance(limit, int) and limit > 0 and len(tokens) > limit:
            content, finish_reason = " ".join(tokens[:limit]), "length"
        completion_tokens = max(1, count_tokens(content))
        tokens = prompt_token_list(messages)
        prompt_tokens = len(tokens)

        async with state.sequence_slot():
            cached = state.prefix_lookup(tokens)
            await state.serve_chat(prompt_tokens, cached, completion_tokens)
        state.prompt_tokens += prompt_tokens
        state.cached_tokens += cached
        state.completion_tokens += completion_tokens
        state.window.count(prompt_tokens, cached, completion_tokens)
        if action == "invalid_json":
            state.injected[action] += 1
            content = _broken_json(content)
        return JSONResponse(
            {
                "id": f"chatcmpl-sim-{digest(messages):016x}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": config.model_name,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": finish_reason,
                        "logprobs": None,
                    }
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                    "prompt_tokens_details": {"cached_tokens": cached},
                },
            }
        )

    async def _embeddings(request: Request) -> Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return error_response(400, "request body is not JSON")
        raw = body.get("input") if isinstance(body, dict) else None
        inputs = [raw] if isinstance(raw, str) else raw
        if not isinstance(inputs, list) or not inputs or not all(isinstance(t, str) for t in inputs):
            return error_response(400, "input must be a string or a non-empty list of strings")
        dim = body.get("dimensions") or config.embed_dim
        if not isinstance(dim, int) or dim < 1:
            return error_response(400, "dimensions must be a positive integer")
        action = state.next_action()
        failed = await state.inject_failure(request, action)
        if failed is not None:
            return failed
        async with state.sequence_slot():
            await asyncio.sleep(config.embed_latency_ms / 1000.0)
        if action == "invalid_json":
            state.injected[action] += 1
            return PlainTextResponse('{"object": "list", "data": [', media_type="application/json")
        data = [
            {"object": "embedding", "index": i, "embedding": simulated_embedding(text, dim, config.seed)}
            for i, text in enumerate(inputs)
        ]
        tokens = sum(count_tokens(t) for t in inputs)
        state.prompt_tokens += tokens
        return JSONResponse(
            {
                "object": "list",
                "data": data,
                "model": config.model_name,
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
        )

    return app


@contextlib.contextmanager
def run_server_in_thread(
    config: SimulationConfig, host: str = "127.0.0.1", port: int = 0, *, startup_timeout_s: float = 10.0
) -> Iterator[str]:
    """Serve the SIMULATED server from a background thread; yields ``http://HOST:PORT/v1``.

    ``port=0`` picks a free port (the socket is bound here, so there is no race). The server is
    stopped and the thread joined on exit.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    bound_port = int(sock.getsockname()[1])
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(config),
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="simulated-llm", daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_timeout_s
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("simulated LLM server thread exited during startup")
            if time.monotonic() > deadline:
                raise RuntimeError(f"simulated LLM server did not start within {startup_timeout_s} s")
            time.sleep(0.01)
        url_host = f"[{host}]" if family == socket.AF_INET6 else host
        yield f"http://{url_host}:{bound_port}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
