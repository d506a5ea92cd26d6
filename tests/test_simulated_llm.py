"""The SIMULATED OpenAI-compatible server: schema-valid deterministic outputs, queueing, stats."""

from __future__ import annotations

import asyncio
import json
import math
import re
import subprocess
import sys
from datetime import date, datetime
from enum import StrEnum
from typing import Any, Literal

import httpx
import pytest
from pydantic import BaseModel, Field

from memforest.testing.simulated_llm import (
    SimulationConfig,
    generate_json_output,
    run_server_in_thread,
    simulated_embedding,
)

USER = (
    "Session on 2024-03-10.\n"
    "[0] Alice: I started a new job at Siemens in Munich last month.\n"
    "[1] Bob: Congratulations! Do you still play the violin?\n"
    "[2] Alice: Yes, every Sunday with my friend Priya.\n"
    "[3] Bob: I am allergic to peanuts, by the way."
)


class Kind(StrEnum):
    fact = "fact"
    preference = "preference"
    event = "event"


class ExtractedItem(BaseModel):
    text: str
    kind: Kind
    source_turns: list[int]
    valid_from: str | None
    entities: list[str]


class ExtractionOutput(BaseModel):
    items: list[ExtractedItem]


class Child(BaseModel):
    label: Literal["a", "b"]
    score: float = Field(ge=0.2, le=0.4)
    flag: bool
    when: date | None = None


class Kitchen(BaseModel):
    """Exercises more of the JSON-schema surface."""

    title: str = Field(max_length=12)
    count: int = Field(ge=5, le=9)
    ratio: float
    child: Child
    maybe_child: Child | None
    children: list[Child] = Field(min_length=2, max_length=4)
    tags: dict[str, int]
    pair: tuple[int, str]
    created: datetime
    choices: list[int]
    after: str | None
    before: str | None


class Tree(BaseModel):
    name: str
    children: list[Tree]


def _messages(user: str, system: str = "Extract facts.") -> list[dict[str, str]]:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def _sentences(text: str) -> set[str]:
    clean = re.sub(r"\[\d+\]", " ", text)
    return {" ".join(s.split()) for s in re.split(r"(?<=[.!?])\s+|\n+", clean) if s.strip()}


@pytest.mark.parametrize("variant", range(25))
def test_extraction_like_output_validates_and_uses_the_cell(variant: int) -> None:
    user = USER + f"\n[4] Alice: Note number {variant}."
    raw = generate_json_output(ExtractionOutput.model_json_schema(), _messages(user))
    out = ExtractionOutput.model_validate(raw)
    assert 1 <= len(out.items) <= 3
    for item in out.items:
        assert item.text in _sentences(user)
        assert set(item.source_turns) <= {0, 1, 2, 3, 4}
        assert item.source_turns == sorted(set(item.source_turns))
        assert item.valid_from is None or date.fromisoformat(item.valid_from) == date(2024, 3, 10)
        for entity in item.entities:
            assert entity.lower() in user.lower()


def test_nullable_dates_take_both_values_across_inputs() -> None:
    seen: set[bool] = set()
    for i in range(30):
        raw = generate_json_output(ExtractionOutput.model_json_schema(), _messages(f"{USER} [5] x{i}."))
        seen.update(item["valid_from"] is None for item in raw["items"])
    assert seen == {True, False}


@pytest.mark.parametrize("variant", range(10))
def test_wider_schema_surface_validates(variant: int) -> None:
    raw = generate_json_output(Kitchen.model_json_schema(), _messages(f"{USER} v{variant}"), seed=variant)
    value = Kitchen.model_validate(raw)
    assert 5 <= value.count <= 9
    assert 2 <= len(value.children) <= 4
    assert set(value.choices) <= {0, 1, 2, 3}
    for text in (value.after, value.before):
        assert text is None or date.fromisoformat(text)


def test_recursive_schema_terminates() -> None:
    raw = generate_json_output(Tree.model_json_schema(), _messages(USER))
    Tree.model_validate(raw)


def test_no_markers_gives_small_ints() -> None:
    raw = generate_json_output(ExtractionOutput.model_json_schema(), _messages("Plain text without markers."))
    for item in ExtractionOutput.model_validate(raw).items:
        assert all(0 <= t <= 3 for t in item.source_turns)


def test_same_input_same_output_and_input_sensitivity() -> None:
    schema = ExtractionOutput.model_json_schema()
    first = generate_json_output(schema, _messages(USER))
    assert generate_json_output(schema, _messages(USER)) == first
    others = [generate_json_output(schema, _messages(USER + f" [9] v{i}.")) for i in range(5)]
    assert any(o != first for o in others)


def test_config_rejects_unknown_failures() -> None:
    with pytest.raises(ValueError, match="unknown fail_plan"):
        SimulationConfig(fail_plan=["boom"])


def test_embedding_is_deterministic_unit_and_lexical() -> None:
    a = simulated_embedding("the cat sat on the mat", 64)
    assert a == simulated_embedding("the cat sat on the mat", 64)
    assert math.isclose(math.fsum(x * x for x in a), 1.0, rel_tol=1e-9)
    near = simulated_embedding("the cat sat on a mat", 64)
    far = simulated_embedding("quarterly revenue forecast", 64)
    cos_near = sum(x * y for x, y in zip(a, near, strict=True))
    cos_far = sum(x * y for x, y in zip(a, far, strict=True))
    assert cos_near > cos_far


def _chat_body(user: str, *, schema: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"model": "m", "messages": _messages(user), **extra}
    if schema is not None:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "ExtractionOutput", "schema": schema, "strict": True},
        }
    return body


async def test_http_surface_and_determinism() -> None:
    config = SimulationConfig(ttft_ms=1, tpot_ms=0.01, embed_dim=48, model_name="sim-model")
    with run_server_in_thread(config) as url:
        root = url.removesuffix("/v1")
        async with httpx.AsyncClient(base_url=url) as client:
            assert (await client.get(root + "/health")).status_code == 200
            models = (await client.get("/models")).json()
            assert models["data"][0]["id"] == "sim-model"

            body = _chat_body(USER, schema=ExtractionOutput.model_json_schema())
            first = (await client.post("/chat/completions", json=body)).json()
            second = (await client.post("/chat/completions", json=body)).json()
            content = first["choices"][0]["message"]["content"]
            assert content == second["choices"][0]["message"]["content"]
            ExtractionOutput.model_validate_json(content)
            assert first["usage"]["completion_tokens"] == len(content.split())
            assert first["usage"]["prompt_tokens_details"]["cached_tokens"] == 0
            assert second["usage"]["prompt_tokens_details"]["cached_tokens"] == 2

            plain = (await client.post("/chat/completions", json=_chat_body(USER))).json()
            assert plain["choices"][0]["message"]["content"].startswith("(simulated)")

            cut = (await client.post("/chat/completions", json=_chat_body(USER, schema={}, max_tokens=2))).json()
            assert cut["choices"][0]["finish_reason"] == "length"

            emb = (await client.post("/embeddings", json={"model": "m", "input": ["x y", "z"]})).json()
            assert [d["index"] for d in emb["data"]] == [0, 1]
            assert len(emb["data"][0]["embedding"]) == 48
            assert emb["usage"]["prompt_tokens"] == 3
            sized = (await client.post("/embeddings", json={"input": "x", "dimensions": 16})).json()
            assert len(sized["data"][0]["embedding"]) == 16

            bad = await client.post("/chat/completions", json={"messages": []})
            assert bad.status_code == 400

            stats = (await client.get(root + "/stats")).json()
        assert stats["simulation"] is True
        assert stats["requests_by_endpoint"] == {"models": 1, "chat": 5, "embeddings": 2}
        assert stats["by_status"] == {"200": 7, "400": 1}
        assert stats["prefix_cache"]["hits"] >= 1


async def test_server_queues_beyond_max_num_seqs() -> None:
    config = SimulationConfig(ttft_ms=40, tpot_ms=0, max_num_seqs=2)
    with run_server_in_thread(config) as url:
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            loop = asyncio.get_running_loop()
            started = loop.time()
            responses = await asyncio.gather(
                *(client.post("/chat/completions", json=_chat_body(f"hello {i}")) for i in range(6))
            )
            elapsed = loop.time() - started
            stats = (await client.get(url.removesuffix("/v1") + "/stats")).json()
    assert all(r.status_code == 200 for r in responses)
    assert stats["max_concurrent_seen"] == 2
    assert stats["max_waiting_seen"] >= 1
    assert elapsed >= 3 * 0.040 * 0.9  # six requests through two slots: three waves


async def test_fail_plan_statuses_and_invalid_json() -> None:
    config = SimulationConfig(ttft_ms=1, tpot_ms=0, fail_plan=["500", "429", "invalid_json", "ok"], retry_after_s=1)
    with run_server_in_thread(config) as url:
        async with httpx.AsyncClient(base_url=url) as client:
            body = _chat_body(USER, schema=ExtractionOutput.model_json_schema())
            r500 = await client.post("/chat/completions", json=body)
            r429 = await client.post("/chat/completions", json=body)
            broken = await client.post("/chat/completions", json=body)
            fine = await client.post("/chat/completions", json=body)
    assert r500.status_code == 500
    assert r429.status_code == 429 and r429.headers["retry-after"] == "1"
    with pytest.raises(json.JSONDecodeError):
        json.loads(broken.json()["choices"][0]["message"]["content"])
    ExtractionOutput.model_validate_json(fine.json()["choices"][0]["message"]["content"])


def test_bench_entry_point_help() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bench.simulated_llm", "--help"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert "SIMULATED" in result.stdout
    assert "--max-num-seqs" in result.stdout
