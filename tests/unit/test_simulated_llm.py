"""The SIMULATED OpenAI-compatible server: schema-valid deterministic outputs, queueing, stats."""

from __future__ import annotations

import asyncio
import hashlib
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
    PRESETS,
    SimulationConfig,
    generate_json_output,
    preset_config,
    run_server_in_thread,
    simulated_embedding,
)
from memforest.testing.simulated_llm.engine import Engine, PrefixCache, ServerClock

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
    config = SimulationConfig(ttft_ms=1, tpot_ms=0.01, embed_dim=48, model_name="sim-model", prefix_block_tokens=1)
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
            # the whole prompt was seen: all but the last token come from the prefix cache
            assert second["usage"]["prompt_tokens_details"]["cached_tokens"] == first["usage"]["prompt_tokens"] - 1

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


# ------------------------------------------------------------------ the vLLM-like timing model


def test_prefix_cache_hits_whole_leading_blocks() -> None:
    cache = PrefixCache(block_tokens=4, capacity_blocks=100)
    first = [f"t{i}" for i in range(10)]  # two full blocks and a tail
    assert cache.lookup(first) == 0
    assert cache.lookup(first) == 8  # the two full blocks; the tail is never cached
    changed = [*first[:5], "other", *first[6:]]
    assert cache.lookup(changed) == 4  # the first block still matches, the second does not
    assert cache.lookup(["x", *first]) == 0  # same words shifted: another prefix
    cache.clear()
    assert cache.lookup(first) == 0


def test_presets_are_calibrated_and_distinct() -> None:
    small, moe = preset_config("4b"), preset_config("30b-a3b")
    assert set(PRESETS) == {"4b", "30b-a3b"}
    assert small.preset == "4b" and moe.max_num_seqs == 256
    assert moe.decode_ms_per_token(32) / moe.decode_ms_per_token(1) == pytest.approx(2.43, abs=0.05)
    assert small.decode_ms_per_token(64) / small.decode_ms_per_token(1) == pytest.approx(2.0, abs=0.05)
    assert preset_config("4b", max_num_seqs=8).max_num_seqs == 8
    with pytest.raises(ValueError, match="unknown preset"):
        preset_config("70b")
    with pytest.raises(ValueError, match="tpot_ms"):
        SimulationConfig(tpot_ms=-1)


async def test_decode_slows_with_batch_size_and_gains_throughput() -> None:
    config = SimulationConfig(ttft_ms=0, tpot_ms=10.0, decode_slowdown_per_seq=0.5, prefill_ms_per_token=0)
    engine = Engine(config, ServerClock())
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await engine.decode(20)
    alone = loop.time() - t0
    t0 = loop.time()
    await asyncio.gather(*(engine.decode(20) for _ in range(8)))
    together = loop.time() - t0
    assert alone >= 0.2 * 0.98  # 20 tokens at 10 ms
    assert together >= 20 * 10.0 * (1 + 0.5 * 7) / 1000 * 0.98  # 900 ms: 45 ms per token at 8 sequences
    assert together > 2.5 * alone  # each sequence is much slower in a batch of eight ...
    assert 8 * 20 / together > 20 / alone  # ... while the server makes more tokens per second
    assert engine.max_batch == 8


async def _wall_at(url: str, requests: int, concurrency: int) -> float:
    gate = asyncio.Semaphore(concurrency)
    long_user = " ".join(f"word{i}" for i in range(60))

    async def one(client: httpx.AsyncClient, i: int) -> None:
        async with gate:
            r = await client.post("/chat/completions", json=_chat_body(f"{i} {long_user}", max_tokens=20))
            assert r.json()["usage"]["completion_tokens"] == 20

    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        await asyncio.gather(*(one(client, i) for i in range(requests)))
        return loop.time() - t0


async def test_doubling_concurrency_past_saturation_does_not_halve_wall_time() -> None:
    # 200 ms per request alone: long enough that a loaded machine's scheduling noise stays small
    config = SimulationConfig(
        ttft_ms=0, tpot_ms=10.0, decode_slowdown_per_seq=0.1, prefill_ms_per_token=0.0, max_num_seqs=4
    )
    with run_server_in_thread(config) as url:
        # the least of two runs each: a shared machine's stalls only ever add time (one inflated run
        # of ``four`` once made ``eight`` look 0.67x of it)
        one = min([await _wall_at(url, 4, 1) for _ in range(2)])
        two = min([await _wall_at(url, 4, 2) for _ in range(2)])
        four = min([await _wall_at(url, 16, 4) for _ in range(2)])
        eight = min([await _wall_at(url, 16, 8) for _ in range(2)])
        stats = (await httpx.AsyncClient().get(url.removesuffix("/v1") + "/stats")).json()
    assert two < 0.75 * one  # below saturation, more concurrency pays
    assert eight > 0.7 * four  # past max_num_seqs=4 the extra requests only queue (halving would be 0.5)
    assert stats["max_concurrent_seen"] == 4
    assert stats["time"]["queue_wait_s"] > 0
    assert stats["time"]["sequence_s"] / stats["time"]["busy_s"] <= 4.0 + 1e-6


async def test_prefix_cache_hits_cut_prefill_time() -> None:
    config = SimulationConfig(ttft_ms=0, tpot_ms=0.0, prefill_ms_per_token=2.0, prefix_block_tokens=16)
    system = " ".join(f"rule{i}" for i in range(320))
    body = {"model": "m", "messages": _messages("hello there", system), "max_tokens": 1}
    other = {"model": "m", "messages": _messages("another question", system), "max_tokens": 1}
    with run_server_in_thread(config) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            loop = asyncio.get_running_loop()
            t0 = loop.time()
            cold = (await client.post("/chat/completions", json=body)).json()
            cold_s = loop.time() - t0
            t0 = loop.time()
            warm = (await client.post("/chat/completions", json=other)).json()
            warm_s = loop.time() - t0
            stats = (await client.get(url.removesuffix("/v1") + "/stats")).json()
            assert (await client.post(url.removesuffix("/v1") + "/reset_prefix_cache")).status_code == 200
            again = (await client.post("/chat/completions", json=other)).json()
    assert cold["usage"]["prompt_tokens_details"]["cached_tokens"] == 0
    assert warm["usage"]["prompt_tokens_details"]["cached_tokens"] == 320  # 20 whole blocks of the system prompt
    assert cold_s > 0.6  # 322 uncached tokens at 2 ms
    assert cold_s - warm_s > 0.5  # the warm request prefills 2 tokens, not 322
    assert stats["cached_tokens"] == 320
    assert stats["time"]["prefill_s"] == pytest.approx((322 + 2) * 0.002, rel=0.01)
    assert again["usage"]["prompt_tokens_details"]["cached_tokens"] == 0  # the cache was reset


# ------------------------------------------------------------------ a fixed request set, pinned

_PIN_SYSTEM = " ".join(f"Rule {i}: keep facts short, cite the [n] turns, use ISO dates." for i in range(12))
_PIN_SPEAKERS = ("Alice", "Bob", "Priya", "Marco")


def _pin_transcript(user: int, turns: int) -> str:
    lines = [f"Session of user {user} on 2024-0{1 + user % 9}-1{user % 10}."]
    for turn in range(turns):
        speaker = _PIN_SPEAKERS[(user + turn) % len(_PIN_SPEAKERS)]
        lines.append(
            f"[{turn}] {speaker}: I moved to Lisbon in {2015 + turn % 9} and met {_PIN_SPEAKERS[turn % 4]} "
            f"at the Museum of Art; we talked about violin lessons number {user * 7 + turn}!"
        )
    return "\n".join(lines)


def _pin_bodies() -> list[dict[str, Any]]:
    """Extraction-like prompts sharing a system prefix, follow-ups with assistant turns, a role
    swap, plain text and a truncated answer: the shapes of the bench's traffic."""
    schemas: list[dict[str, Any] | None] = [
        ExtractionOutput.model_json_schema(),
        Kitchen.model_json_schema(),
        None,
    ]
    bodies: list[dict[str, Any]] = []
    for user in range(6):
        transcript = _pin_transcript(user, 4 + user * 3)
        for index, schema in enumerate(schemas):
            messages = [{"role": "system", "content": _PIN_SYSTEM}, {"role": "user", "content": transcript}]
            if index == 1:
                messages += [{"role": "assistant", "content": "Noted."}, {"role": "user", "content": "Summarise."}]
            bodies.append(_chat_body("", schema=schema) | {"messages": messages})
        swapped = [{"role": "user", "content": _PIN_SYSTEM}, {"role": "system", "content": transcript}]
        bodies.append({"model": "m", "messages": swapped, "max_tokens": 3})
    return bodies


async def test_fixed_request_set_accounting_and_outputs_are_pinned() -> None:
    """The server's accounting (token counts, cached prefix tokens, lower bound) and its outputs for
    a fixed request set: a change meant to make the simulation cheaper must leave these as they are."""
    from memforest.testing.simulated_llm.server import create_app

    app = create_app(SimulationConfig(ttft_ms=0, tpot_ms=0, prefill_ms_per_token=0, prefix_block_tokens=16))
    per_request: list[tuple[int, int, int, str, str]] = []
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        for body in _pin_bodies():
            reply = (await client.post("/v1/chat/completions", json=body)).json()
            usage = reply["usage"]
            choice = reply["choices"][0]
            per_request.append(
                (
                    usage["prompt_tokens"],
                    usage["prompt_tokens_details"]["cached_tokens"],
                    usage["completion_tokens"],
                    choice["finish_reason"],
                    choice["message"]["content"],
                )
            )
    report = app.state.simulation.window.report(preset_config("4b"))
    tokens = [(p, c, n) for p, c, n, _, _ in per_request]
    contents = hashlib.sha256(json.dumps([r[3:] for r in per_request]).encode()).hexdigest()[:16]
    assert (report["requests"], report["prompt_tokens"], report["cached_tokens"]) == PINNED_TOTALS
    assert report["completion_tokens"] == PINNED_TOTALS_COMPLETION
    assert round(report["lower_bound_s"], 9) == PINNED_LOWER_BOUND_S
    assert hashlib.sha256(json.dumps(tokens).encode()).hexdigest()[:16] == PINNED_TOKENS_DIGEST
    assert contents == PINNED_CONTENTS_DIGEST


PINNED_TOTALS = (24, 9960, 6336)  # requests, prompt tokens, cached prompt tokens
PINNED_TOTALS_COMPLETION = 962
PINNED_LOWER_BOUND_S = 0.106753438  # preset 4b
PINNED_TOKENS_DIGEST = "855a3b3a034ccc86"  # every request's (prompt, cached, completion) tokens
PINNED_CONTENTS_DIGEST = "4aa716258f43dd03"  # every request's finish reason and content


def test_prompt_token_list_tags_every_whitespace_token_with_its_role() -> None:
    from memforest.testing.simulated_llm.prompt import prompt_token_list

    messages = [
        {"role": "system", "content": "Keep\tit  short.\n[0] Alice: hi\x1fthere"},
        {"role": "user", "content": "   "},
        {"role": "odd\x1frole", "content": "a b"},
        {"role": "user", "content": "x"},
    ]
    expected = [f"{m['role']}\x1d{token}" for m in messages for token in m["content"].split()]
    assert prompt_token_list(messages) == expected
    assert len(expected) == 10
