"""OpenAI-compatible HTTP backends against the SIMULATED server (real sockets, no model)."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, SecretStr, ValidationError, field_validator

from memforest.backends.base import ChatModel, Embedder, UsageLedger
from memforest.backends.openai_http import OpenAIChatModel, OpenAIEmbedder
from memforest.errors import ModelBackendError, ModelOutputError
from memforest.settings import EmbeddingSettings, LLMSettings, Settings
from memforest.testing.simulated_llm import SimulationConfig, run_server_in_thread, simulated_embedding

SYSTEM = "You extract durable facts from a conversation cell. Answer with JSON only."
USER = (
    "[0] Alice: I moved to Berlin on 2023-05-02 with my partner Bob.\n"
    "[1] Bob: We adopted a cat named Miso last spring.\n"
    "[2] Alice: My sister Carol visits us next week."
)


class Kind(StrEnum):
    fact = "fact"
    event = "event"
    preference = "preference"


class Item(BaseModel):
    text: str
    kind: Kind
    source_turns: list[int]
    valid_from: str | None
    entities: list[str]


class Extraction(BaseModel):
    items: list[Item]


@contextmanager
def sim(**overrides: Any) -> Iterator[str]:
    """A fast simulated server; yields its ``/v1`` base URL."""
    params: dict[str, Any] = {"ttft_ms": 2.0, "tpot_ms": 0.05, "embed_latency_ms": 1.0}
    params.update(overrides)
    with run_server_in_thread(SimulationConfig(**params)) as url:
        yield url


def stats(url: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(url.removesuffix("/v1") + "/stats").json()
    return data


def llm(url: str, **overrides: Any) -> OpenAIChatModel:
    params: dict[str, Any] = {
        "base_url": url,
        "backoff_base_s": 0.01,
        "backoff_max_s": 0.05,
        "max_attempts": 4,
        "timeout_s": 5.0,
        "concurrency": 8,
    }
    params.update(overrides)
    return OpenAIChatModel(LLMSettings(**params))


def embedder(url: str, **overrides: Any) -> OpenAIEmbedder:
    params: dict[str, Any] = {"backend": "http", "base_url": url, "dim": 384, "max_attempts": 4}
    params.update(overrides)
    return OpenAIEmbedder(EmbeddingSettings(**params), backoff_base_s=0.01, backoff_max_s=0.05)


async def test_protocols_are_implemented() -> None:
    with sim() as url:
        async with llm(url) as chat, embedder(url) as emb:
            assert isinstance(chat, ChatModel)
            assert isinstance(emb, Embedder)
            assert chat.name == "Qwen/Qwen3-4B-Instruct-2507"
            assert emb.dim == 384


async def test_chat_returns_validated_object() -> None:
    with sim() as url:
        ledger = UsageLedger()
        async with llm(url) as chat:
            result = await chat.complete_json(
                system=SYSTEM, user=USER, schema=Extraction, stage="extract", ledger=ledger
            )
            assert await chat.ping()
        assert isinstance(result, Extraction)
        assert 1 <= len(result.items) <= 3
        for item in result.items:
            assert set(item.source_turns) <= {0, 1, 2}
            assert item.text.strip()
        usage = ledger.as_dict()["extract"]
        assert usage["calls"] == 1 and usage["retries"] == 0 and usage["failures"] == 0
        assert int(usage["prompt_tokens"]) == len(SYSTEM.split()) + len(USER.split())
        assert int(usage["completion_tokens"]) > 0
        assert float(usage["latency_s"]) > 0


@pytest.mark.parametrize(
    "plan",
    [["500"], ["429"], ["invalid_json"], ["timeout"], ["500", "429", "invalid_json"]],
)
async def test_retries_then_success(plan: list[str]) -> None:
    with sim(fail_plan=plan, timeout_sleep_s=5.0) as url:
        ledger = UsageLedger()
        async with llm(url, timeout_s=0.5) as chat:
            result = await chat.complete_json(
                system=SYSTEM, user=USER, schema=Extraction, stage="extract", ledger=ledger
            )
        assert isinstance(result, Extraction)
        seen = stats(url)
        assert seen["requests_by_endpoint"]["chat"] == len(plan) + 1
        assert seen["fail_plan_remaining"] == 0
        usage = ledger.as_dict()["extract"]
        assert usage["retries"] == len(plan)
        assert usage["calls"] == 1 and usage["failures"] == 0


async def test_429_retry_after_is_honoured_but_capped() -> None:
    with sim(fail_plan=["429"], retry_after_s=30.0) as url:
        async with llm(url, backoff_max_s=0.05) as chat:
            started = time.perf_counter()
            await chat.complete_json(system=SYSTEM, user=USER, schema=Extraction, stage="extract")
            assert time.perf_counter() - started < 2.0  # 30 s Retry-After capped at backoff_max_s


async def test_exhausted_server_errors_raise_backend_error() -> None:
    with sim(fail_plan=["500", "429", "500"]) as url:
        ledger = UsageLedger()
        async with llm(url, max_attempts=3) as chat:
            with pytest.raises(ModelBackendError) as info:
                await chat.complete_json(system=SYSTEM, user=USER, schema=Extraction, stage="extract", ledger=ledger)
        assert not isinstance(info.value, ModelOutputError)
        assert "3 attempt" in str(info.value)
        assert stats(url)["requests_by_endpoint"]["chat"] == 3
        usage = ledger.as_dict()["extract"]
        assert usage["failures"] == 1 and usage["retries"] == 2


async def test_exhausted_bad_output_raises_output_error() -> None:
    with sim(fail_plan=["invalid_json"] * 2) as url:
        ledger = UsageLedger()
        async with llm(url, max_attempts=2) as chat:
            with pytest.raises(ModelOutputError):
                await chat.complete_json(system=SYSTEM, user=USER, schema=Extraction, stage="extract", ledger=ledger)
        assert ledger.as_dict()["extract"]["failures"] == 1


class Picky(BaseModel):
    """Valid JSON from the server never passes this model's own validation."""

    answer: str

    @field_validator("answer")
    @classmethod
    def _never(cls, value: str) -> str:
        raise ValueError("rejected on purpose")


async def test_schema_mismatch_is_retried_then_output_error() -> None:
    with sim() as url:
        ledger = UsageLedger()
        async with llm(url, max_attempts=2) as chat:
            with pytest.raises(ModelOutputError, match="does not match Picky"):
                await chat.complete_json(system=SYSTEM, user=USER, schema=Picky, stage="s", ledger=ledger)
        assert stats(url)["requests_by_endpoint"]["chat"] == 2
        assert ledger.as_dict()["s"]["retries"] == 1


async def test_non_retryable_4xx_fails_at_once() -> None:
    with sim() as url:
        ledger = UsageLedger()
        async with llm(url.removesuffix("/v1") + "/nowhere") as chat:
            with pytest.raises(ModelBackendError, match="HTTP 404"):
                await chat.complete_json(system=SYSTEM, user=USER, schema=Extraction, stage="extract", ledger=ledger)
            assert not await chat.ping()
        usage = ledger.as_dict()["extract"]
        assert usage["failures"] == 1 and usage["retries"] == 0


async def test_connection_refused_is_backend_error() -> None:
    with sim() as url:
        pass  # server stopped: the port is now closed
    async with llm(url, max_attempts=2) as chat:
        assert not await chat.ping()
        with pytest.raises(ModelBackendError, match="connection error"):
            await chat.complete_json(system=SYSTEM, user=USER, schema=Extraction, stage="extract")


def test_missing_base_url_is_backend_error() -> None:
    with pytest.raises(ModelBackendError, match="base_url"):
        OpenAIChatModel(LLMSettings())
    with pytest.raises(ModelBackendError, match="base_url"):
        OpenAIEmbedder(EmbeddingSettings())


def test_api_key_with_a_control_character_is_a_configuration_error() -> None:
    for make in (LLMSettings, lambda **kw: EmbeddingSettings(backend="http", **kw)):
        with pytest.raises(ValidationError, match="control characters") as caught:
            make(base_url="http://127.0.0.1:9/v1", api_key=SecretStr("sk-secret\r\nX-Evil: 1"))
        assert "secret" not in str(caught.value) and "Evil" not in str(caught.value)
    with pytest.raises(ValidationError) as caught:
        Settings.model_validate({"llm": {"api_key": "sk-secret\n"}})
    assert "secret" not in str(caught.value)


async def test_bad_configured_header_is_a_backend_error_without_the_key() -> None:
    """A key that got past the settings (built without validation) fails the call as a
    ModelBackendError at once, not as an httpx error, and its message does not carry the key."""
    settings = LLMSettings.model_construct(
        base_url="http://127.0.0.1:9/v1", api_key=SecretStr("sk-secret\r\nX-Evil: 1"), max_attempts=3
    )
    ledger = UsageLedger()
    async with OpenAIChatModel(settings) as chat:
        with pytest.raises(ModelBackendError, match="invalid configured header Authorization") as caught:
            await chat.complete_json(system=SYSTEM, user=USER, schema=Extraction, stage="extract", ledger=ledger)
    assert "secret" not in str(caught.value) and "Evil" not in str(caught.value)
    usage = ledger.as_dict()["extract"]
    assert usage["failures"] == 1 and usage["retries"] == 0


async def test_usage_sums_and_prefix_cache() -> None:
    with sim(prefix_block_tokens=1) as url:
        ledger = UsageLedger()
        async with llm(url) as chat:
            await chat.complete_json(system=SYSTEM, user=USER, schema=Extraction, stage="extract", ledger=ledger)
            first_cached = ledger.as_dict()["extract"]["cached_prompt_tokens"]
            await chat.complete_json(
                system=SYSTEM,
                user=USER + " [3] Bob: Indeed.",
                schema=Extraction,
                stage="extract",
                ledger=ledger,
            )
            await chat.complete_json(
                system="A different instruction.", user=USER, schema=Extraction, stage="plan", ledger=ledger
            )
        usage = ledger.as_dict()
        seen = stats(url)
        assert first_cached == 0
        # the second prompt starts with the whole first one (system and user message)
        assert usage["extract"]["cached_prompt_tokens"] == len(SYSTEM.split()) + len(USER.split())
        assert usage["plan"]["cached_prompt_tokens"] == 0
        assert usage["extract"]["calls"] == 2
        total_prompt = sum(int(u["prompt_tokens"]) for u in usage.values())
        total_completion = sum(int(u["completion_tokens"]) for u in usage.values())
        assert total_prompt == seen["prompt_tokens"]
        assert total_completion == seen["completion_tokens"]
        assert seen["prefix_cache"] == {"queries": 3, "hits": 1}


async def test_concurrency_is_bounded_by_settings() -> None:
    with sim(ttft_ms=30.0, max_num_seqs=64) as url:
        async with llm(url, concurrency=3) as chat:
            results = await asyncio.gather(
                *(
                    chat.complete_json(system=SYSTEM, user=f"{USER} [3] Dave: call {i}.", schema=Extraction, stage="x")
                    for i in range(12)
                )
            )
        assert len(results) == 12
        seen = stats(url)
        assert 1 < seen["max_concurrent_seen"] <= 3
        assert seen["requests_by_endpoint"]["chat"] == 12


async def test_max_tokens_truncation_is_output_error() -> None:
    with sim() as url:
        async with llm(url, max_attempts=1) as chat:
            with pytest.raises(ModelOutputError, match="truncated"):
                await chat.complete_json(system=SYSTEM, user=USER, schema=Extraction, stage="x", max_tokens=3)


async def test_fenced_json_and_retry_after_with_mock_transport() -> None:
    """Edge cases a real vLLM rarely produces, checked with a scripted transport."""
    calls: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        if len(calls) == 1:
            return httpx.Response(429, headers={"Retry-After": "0"}, json={"error": "slow down"})
        content = '```json\n{"items": []}\n```'
        return httpx.Response(
            200,
            json={
                "choices": [{"message": {"content": content}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 7, "completion_tokens": 3},
            },
        )

    ledger = UsageLedger()
    settings = LLMSettings(base_url="http://sim.invalid/v1", api_key=SecretStr("k"), backoff_base_s=5.0)
    async with OpenAIChatModel(settings, transport=httpx.MockTransport(handler)) as chat:
        started = time.perf_counter()
        result = await chat.complete_json(system="s", user="u", schema=Extraction, stage="x", ledger=ledger)
        assert time.perf_counter() - started < 1.0  # Retry-After: 0 beats the 5 s backoff base
    assert result == Extraction(items=[])
    assert calls[0].url.path == "/v1/chat/completions"
    assert calls[0].headers["authorization"] == "Bearer k"
    body = httpx.Response(200, content=calls[0].content).json()
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["response_format"]["json_schema"]["name"] == "Extraction"
    assert body["response_format"]["json_schema"]["strict"] is True
    assert ledger.as_dict()["x"]["cached_prompt_tokens"] == 0
    assert ledger.as_dict()["x"]["retries"] == 1


# --------------------------------------------------------------------------- embeddings


async def test_embeddings_order_norm_and_usage() -> None:
    texts = [f"memory number {i} about topic {i % 3}" for i in range(7)]
    with sim() as url:
        ledger = UsageLedger()
        async with embedder(url, batch_size=3) as emb:
            vectors = await emb.embed(texts, ledger=ledger)
            assert await emb.embed([]) == []
        assert stats(url)["requests_by_endpoint"]["embeddings"] == 3
    assert len(vectors) == len(texts)
    for text, vector in zip(texts, vectors, strict=True):
        assert len(vector) == 384
        assert math.isclose(math.fsum(x * x for x in vector), 1.0, rel_tol=1e-9)
        expected = simulated_embedding(text, 384)
        assert max(abs(a - b) for a, b in zip(vector, expected, strict=True)) < 1e-9
    usage = ledger.as_dict()["embed"]
    assert usage["calls"] == 3
    assert usage["prompt_tokens"] == sum(len(t.split()) for t in texts)


async def test_embedding_dim_mismatch_raises() -> None:
    with sim(embed_dim=256) as url:
        ledger = UsageLedger()
        async with embedder(url, dim=384) as emb:
            with pytest.raises(ModelBackendError, match=r"256.*384"):
                await emb.embed(["hello world"], stage="index", ledger=ledger)
        assert stats(url)["requests_by_endpoint"]["embeddings"] == 1  # not retried
        assert ledger.as_dict()["index"]["failures"] == 1


async def test_embedding_retries() -> None:
    with sim(fail_plan=["500", "invalid_json", "429"]) as url:
        ledger = UsageLedger()
        async with embedder(url) as emb:
            vectors = await emb.embed(["a b c"], ledger=ledger)
        assert len(vectors) == 1
        assert ledger.as_dict()["embed"]["retries"] == 3
        assert stats(url)["requests_by_endpoint"]["embeddings"] == 4


async def test_embedding_exhaustion() -> None:
    with sim(fail_plan=["500", "500"]) as url:
        async with embedder(url, max_attempts=2) as emb:
            with pytest.raises(ModelBackendError):
                await emb.embed(["a"])
