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

Tests start it with :func:`run_server_in_thread`; ``python -m bench.simulated_llm`` runs it in
the foreground.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import math
import random
import re
import socket
import threading
import time
import uuid
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

import numpy as np
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

FAIL_KINDS = frozenset({"500", "429", "invalid_json", "timeout", "ok"})

_MARKER_RE = re.compile(r"\[(\d{1,4})\]")
_ISO_DATE_RE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'\-]*")
_TOKEN_RE = re.compile(r"\w+", re.UNICODE)
_STOPWORD_TEXT = (
    "i a an the and or but if then so we you he she it they my your our their me him her us them "
    "this that these those is are was were be been am do does did have has had to of in on at by "
    "for with from as not no yes oh ok okay hi hello hey well also just really very what when where "
    "who why how which user assistant"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
_DATE_NAMES = frozenset({"valid_from", "valid_to", "after", "before", "since", "until", "date", "day"})
_SHORT_NAMES = frozenset(
    {"entity", "entities", "name", "names", "speaker", "subject", "object", "keyword", "keywords",
     "label", "labels", "tag", "tags", "topic", "topics", "title", "kind", "type", "category",
     "predicate", "relation", "attribute", "person", "people", "place", "places"}
)  # fmt: skip
_MAX_DEPTH = 8


@dataclass
class SimulationConfig:
    """Knobs of the simulated server (all latencies in milliseconds)."""

    ttft_ms: float = 50.0
    tpot_ms: float = 10.0
    max_num_seqs: int = 64
    embed_dim: int = 384
    embed_latency_ms: float = 5.0
    fail_plan: list[str] = field(default_factory=list)
    model_name: str = "memforest-simulated-llm"
    seed: int = 0
    timeout_sleep_s: float = 30.0  # a "timeout" entry stalls this long (or until the client leaves)
    retry_after_s: float | None = None  # when set, 429 answers carry ``Retry-After``
    prefix_cache_entries: int = 4096  # distinct system prompts remembered for cached_tokens

    def __post_init__(self) -> None:
        unknown = [kind for kind in self.fail_plan if kind not in FAIL_KINDS]
        if unknown:
            raise ValueError(f"unknown fail_plan entries {unknown}; use {sorted(FAIL_KINDS)}")
        if self.max_num_seqs < 1:
            raise ValueError("max_num_seqs must be >= 1")
        if self.embed_dim < 1:
            raise ValueError("embed_dim must be >= 1")


# --------------------------------------------------------------------------- text source


class _TextSource:
    """Material taken from the last user message: sentences, short phrases, names, markers, dates."""

    def __init__(self, text: str) -> None:
        self.markers = sorted({int(m) for m in _MARKER_RE.findall(text)})
        self.dates = sorted(set(_ISO_DATE_RE.findall(text)))
        clean = _MARKER_RE.sub(" ", text)
        sentences = []
        for raw in _SENTENCE_SPLIT_RE.split(clean):
            sentence = " ".join(raw.split())
            if len(sentence.split()) >= 2:
                sentences.append(sentence)
        self.sentences = sentences or [" ".join(clean.split()) or "Nothing was said."]
        names: list[str] = []
        phrases: list[str] = []
        for sentence in self.sentences:
            tokens = sentence.split()
            for index, token in enumerate(tokens):
                word = token.strip(".,;:!?\"'()[]")
                if not _WORD_RE.fullmatch(word) or word.lower() in _STOPWORDS or len(word) < 3:
                    continue
                if token.endswith(":"):
                    continue  # a speaker label, not content
                if word[0].isupper() and index > 0:
                    names.append(word)
                phrases.append(_phrase_from(tokens, index))
        self.names = list(dict.fromkeys(names))
        self.phrases = list(dict.fromkeys(phrases)) or ["something"]

    def sentence(self, rng: random.Random) -> str:
        return rng.choice(self.sentences)

    def short(self, rng: random.Random) -> str:
        """A name from the text, or a 1-3 word phrase copied from one of its sentences."""
        if self.names and rng.random() < 0.7:
            chosen: str = rng.choice(self.names)
        else:
            chosen = rng.choice(self.phrases)
        return chosen

    def iso_date(self, rng: random.Random) -> str:
        if self.dates:
            chosen: str = rng.choice(self.dates)
            return chosen
        return (date(2023, 1, 1) + timedelta(days=rng.randrange(0, 731))).isoformat()


def _phrase_from(tokens: list[str], start: int) -> str:
    """Up to three consecutive tokens from ``start``, stopping at punctuation; edges stripped."""
    picked: list[str] = []
    for token in tokens[start : start + 3]:
        word = token.strip(".,;:!?\"'()[]")
        if not word or (picked and not token.startswith(word)):
            break
        picked.append(word)
        if word != token.rstrip("\"')]"):
            break  # the token carried punctuation: the phrase ends here
    return " ".join(picked)


# --------------------------------------------------------------------------- schema filler


class _SchemaFiller:
    """Builds one instance of a JSON schema (pydantic ``model_json_schema()`` style)."""

    def __init__(self, root: dict[str, Any], source: _TextSource, rng: random.Random) -> None:
        self.root = root
        self.source = source
        self.rng = rng

    def fill(self, schema: Any, name: str = "", depth: int = 0) -> Any:
        if not isinstance(schema, dict) or not schema:
            return self.source.sentence(self.rng)  # ``Any`` / ``True``: a string is valid
        if "$ref" in schema:
            return self.fill(self._resolve(str(schema["$ref"])), name, depth)
        if "const" in schema:
            return schema["const"]
        if schema.get("enum"):
            return self.rng.choice(list(schema["enum"]))
        for key in ("anyOf", "oneOf"):
            if schema.get(key):
                return self._fill_union(list(schema[key]), name, depth)
        if schema.get("allOf"):
            merged: dict[str, Any] = {}
            for part in schema["allOf"]:
                part = self._resolve(part["$ref"]) if isinstance(part, dict) and "$ref" in part else part
                if isinstance(part, dict):
                    merged.update(part)
            return self.fill(merged, name, depth)
        kind = schema.get("type")
        if isinstance(kind, list):
            return self._fill_union([{**schema, "type": k} for k in kind], name, depth)
        if kind is None:
            kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
        if kind == "object":
            return self._fill_object(schema, depth)
        if kind == "array":
            return self._fill_array(schema, name, depth)
        if kind == "string":
            return self._fill_string(schema, name)
        if kind == "integer":
            return self._fill_int(schema, name)
        if kind == "number":
            return self._fill_number(schema, name)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "null":
            return None
        return self.source.sentence(self.rng)

    def _resolve(self, ref: str) -> dict[str, Any]:
        if not ref.startswith("#/"):
            raise ValueError(f"only local $ref is supported, got {ref!r}")
        node: Any = self.root
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        if not isinstance(node, dict):
            raise ValueError(f"$ref {ref!r} does not point at a schema")
        return node

    def _fill_union(self, options: list[Any], name: str, depth: int) -> Any:
        non_null = [o for o in options if not (isinstance(o, dict) and o.get("type") == "null")]
        nullable = len(non_null) < len(options)
        if not non_null:
            return None
        if nullable:
            null_odds = 0.4 if _is_date_name(name) else 0.2
            if depth >= _MAX_DEPTH or self.rng.random() < null_odds:
                return None
        return self.fill(self.rng.choice(non_null), name, depth)

    def _fill_object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        properties = schema.get("properties") or {}
        result = {key: self.fill(sub, key, depth + 1) for key, sub in properties.items()}
        extra = schema.get("additionalProperties")
        if not properties and isinstance(extra, dict) and depth < _MAX_DEPTH:
            for _ in range(self.rng.randint(1, 2)):
                result[self.source.short(self.rng)] = self.fill(extra, "", depth + 1)
        return result

    def _fill_array(self, schema: dict[str, Any], name: str, depth: int) -> list[Any]:
        low = int(schema.get("minItems", 0))
        high = int(schema.get("maxItems", max(3, low)))
        prefix = schema.get("prefixItems")
        if isinstance(prefix, list) and prefix:
            return [self.fill(sub, name, depth + 1) for sub in prefix]
        target = low if depth >= _MAX_DEPTH else max(low, min(high, self.rng.randint(1, 3)))
        items = schema.get("items", {})
        item_schema = self._resolve(items["$ref"]) if isinstance(items, dict) and "$ref" in items else items
        if isinstance(item_schema, dict) and item_schema.get("type") == "integer" and self.source.markers:
            ints = self._marker_ints(item_schema, target, low)
            if ints is not None:
                return ints
        result: list[Any] = []
        for _ in range(target * 3):  # prefer distinct items, but never loop forever
            if len(result) >= target:
                break
            value = self.fill(items, name, depth + 1)
            if value not in result:
                result.append(value)
        while len(result) < target:
            result.append(self.fill(items, name, depth + 1))
        return result

    def _marker_ints(self, schema: dict[str, Any], count: int, minimum: int) -> list[int] | None:
        """Distinct ``[n]`` markers of the user message (valid for the item schema), sorted."""
        low, high = _int_bounds(schema)
        usable = [m for m in self.source.markers if low <= m <= high]
        count = min(count, len(usable))
        if not usable or count < minimum:
            return None
        return sorted(self.rng.sample(usable, count))

    def _fill_string(self, schema: dict[str, Any], name: str) -> str:
        fmt = schema.get("format")
        if fmt == "date" or (fmt is None and _is_date_name(name)):
            value = self.source.iso_date(self.rng)
        elif fmt == "date-time":
            value = f"{self.source.iso_date(self.rng)}T{self.rng.randrange(24):02d}:00:00Z"
        elif fmt == "time":
            value = f"{self.rng.randrange(24):02d}:00:00"
        elif fmt == "uuid":
            value = _uuid_from(self.rng)
        elif fmt in ("uri", "url"):
            value = f"https://example.invalid/{self.rng.randrange(10**6)}"
        elif fmt == "email":
            value = f"user{self.rng.randrange(1000)}@example.invalid"
        elif name.lower() in _SHORT_NAMES:
            value = self.source.short(self.rng)
        else:
            value = self.source.sentence(self.rng)
        max_len = schema.get("maxLength")
        if isinstance(max_len, int) and len(value) > max_len:
            value = value[:max_len]
        min_len = schema.get("minLength")
        if isinstance(min_len, int) and len(value) < min_len:
            value = value + "." * (min_len - len(value))
        return value

    def _fill_int(self, schema: dict[str, Any], name: str) -> int:
        low, high = _int_bounds(schema)
        if self.source.markers and name.lower() in {"turn", "source_turn", "choice", "index"}:
            usable = [m for m in self.source.markers if low <= m <= high]
            if usable:
                return self.rng.choice(usable)
        lo = max(low, 0) if low <= 3 else low
        hi = min(high, max(lo, 3))
        return self.rng.randint(lo, hi) if lo <= hi else low

    def _fill_number(self, schema: dict[str, Any], name: str) -> float:
        low = float(schema.get("minimum", schema.get("exclusiveMinimum", 0.0)))
        high = float(schema.get("maximum", schema.get("exclusiveMaximum", max(low + 1.0, 1.0))))
        value = round(self.rng.uniform(low, high), 3)
        if "exclusiveMinimum" in schema and value <= low:
            value = low + (high - low) / 2
        if "exclusiveMaximum" in schema and value >= high:
            value = low + (high - low) / 2
        return value


def _is_date_name(name: str) -> bool:
    lower = name.lower()
    return lower in _DATE_NAMES or lower.endswith(("_date", "_from", "_to", "_on", "_until", "_since"))


def _int_bounds(schema: dict[str, Any]) -> tuple[int, int]:
    low = schema.get("minimum")
    if low is None and "exclusiveMinimum" in schema:
        low = math.floor(schema["exclusiveMinimum"]) + 1
    high = schema.get("maximum")
    if high is None and "exclusiveMaximum" in schema:
        high = math.ceil(schema["exclusiveMaximum"]) - 1
    return (int(low) if low is not None else -(2**31), int(high) if high is not None else 2**31)


def _uuid_from(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def generate_json_output(schema: dict[str, Any], messages: list[dict[str, str]], seed: int = 0) -> Any:
    """A deterministic instance of ``schema`` built from ``messages`` (the same inputs, the same output)."""
    rng = random.Random(_digest({"seed": seed, "messages": messages, "schema": schema}))
    user_text = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
    return _SchemaFiller(schema, _TextSource(user_text), rng).fill(schema)


def _digest(value: Any) -> int:
    data = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big")


def count_tokens(text: str) -> int:
    """Whitespace tokens: the simulation's (documented) approximation of a tokenizer."""
    return len(text.split())


# --------------------------------------------------------------------------- embeddings


@lru_cache(maxsize=65_536)
def _token_vector(token: str, dim: int, seed: int) -> np.ndarray[Any, np.dtype[np.float64]]:
    rng = np.random.default_rng(_digest({"t": token, "s": seed}))
    vector: np.ndarray[Any, np.dtype[np.float64]] = rng.standard_normal(dim)
    return vector


def simulated_embedding(text: str, dim: int, seed: int = 0) -> list[float]:
    """A deterministic unit vector: hashed bag of words plus a whole-text component.

    Texts sharing words get positive cosine similarity, so retrieval over the simulation is not
    pure noise, but this is not a semantic embedding.
    """
    total = _token_vector("\x00" + text, dim, seed) * 0.5
    for token, count in Counter(t.lower() for t in _TOKEN_RE.findall(text)).items():
        total = total + _token_vector(token, dim, seed) * (1.0 + math.log(count))
    norm = float(np.linalg.norm(total))
    return [float(x) for x in (total / norm if norm > 0 else total)]


# --------------------------------------------------------------------------- server state


class _State:
    """Counters, the fail-plan cursor, the prefix cache and the sequence semaphore."""

    def __init__(self, config: SimulationConfig) -> None:
        self.config = config
        self.plan_cursor = 0
        self.requests: Counter[str] = Counter()
        self.by_status: Counter[str] = Counter()
        self.injected: Counter[str] = Counter()
        self.in_flight = 0
        self.max_concurrent = 0
        self.waiting = 0
        self.max_waiting = 0
        self.cache_queries = 0
        self.cache_hits = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.seen_prompts: OrderedDict[str, None] = OrderedDict()
        self._semaphore: asyncio.Semaphore | None = None

    @property
    def semaphore(self) -> asyncio.Semaphore:
        if self._semaphore is None:  # created on the server's own event loop
            self._semaphore = asyncio.Semaphore(self.config.max_num_seqs)
        return self._semaphore

    def next_action(self) -> str:
        if self.plan_cursor < len(self.config.fail_plan):
            action = self.config.fail_plan[self.plan_cursor]
            self.plan_cursor += 1
            return action
        return "ok"

    def prefix_lookup(self, system_prompt: str) -> bool:
        """Was this exact system prompt seen before? Remembers it either way (LRU)."""
        self.cache_queries += 1
        if system_prompt in self.seen_prompts:
            self.seen_prompts.move_to_end(system_prompt)
            self.cache_hits += 1
            return True
        self.seen_prompts[system_prompt] = None
        while len(self.seen_prompts) > self.config.prefix_cache_entries:
            self.seen_prompts.popitem(last=False)
        return False

    @contextlib.asynccontextmanager
    async def sequence_slot(self) -> AsyncIterator[None]:
        """Hold one of ``max_num_seqs`` slots; requests beyond that wait (queue) here."""
        self.waiting += 1
        self.max_waiting = max(self.max_waiting, self.waiting)
        try:
            await self.semaphore.acquire()
        finally:
            self.waiting -= 1
        self.in_flight += 1
        self.max_concurrent = max(self.max_concurrent, self.in_flight)
        try:
            yield
        finally:
            self.in_flight -= 1
            self.semaphore.release()

    def finish(self, endpoint: str, response: Response) -> Response:
        self.requests[endpoint] += 1
        self.by_status[str(response.status_code)] += 1
        return response

    def snapshot(self) -> dict[str, Any]:
        return {
            "simulation": True,
            "requests": sum(self.requests.values()),
            "requests_by_endpoint": dict(self.requests),
            "by_status": dict(self.by_status),
            "injected_failures": dict(self.injected),
            "fail_plan_remaining": len(self.config.fail_plan) - self.plan_cursor,
            "in_flight": self.in_flight,
            "max_concurrent_seen": self.max_concurrent,
            "max_waiting_seen": self.max_waiting,
            "prefix_cache": {"queries": self.cache_queries, "hits": self.cache_hits},
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    body = {"object": "error", "message": message, "type": "SimulatedError", "code": status}
    return JSONResponse(body, status_code=status, headers=headers)


def _message_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


async def _stall(request: Request, seconds: float) -> None:
    """Sleep ``seconds``, or less if the client hangs up first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await request.is_disconnected():
            return
        await asyncio.sleep(min(0.05, max(0.0, deadline - time.monotonic())))


def _requested_schema(body: dict[str, Any]) -> dict[str, Any] | None:
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
    cut = valid[: max(1, len(valid) // 2)]
    try:
        json.loads(cut)
    except json.JSONDecodeError:
        return cut
    return "{" + cut


def create_app(config: SimulationConfig) -> FastAPI:
    """The SIMULATED OpenAI-compatible server as a FastAPI app (see the module docstring)."""
    app = FastAPI(title="MemForest SIMULATED LLM server", version="sim")
    state = _State(config)
    app.state.simulation = state

    @app.get("/health")
    async def health() -> Response:
        return PlainTextResponse("ok (simulation)")

    @app.get("/stats")
    async def stats() -> dict[str, Any]:
        return state.snapshot()

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

    async def _failure(request: Request, action: str) -> Response | None:
        if action == "500":
            state.injected[action] += 1
            return _error(500, "simulated internal server error")
        if action == "429":
            state.injected[action] += 1
            headers = {"Retry-After": f"{config.retry_after_s:g}"} if config.retry_after_s is not None else None
            return _error(429, "simulated rate limit", headers)
        if action == "timeout":
            state.injected[action] += 1
            await _stall(request, config.timeout_sleep_s)
            return _error(504, "simulated stall ended")
        return None

    async def _chat(request: Request) -> Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return _error(400, "request body is not JSON")
        raw_messages = body.get("messages") if isinstance(body, dict) else None
        if not isinstance(raw_messages, list) or not raw_messages:
            return _error(400, "messages must be a non-empty list")
        if body.get("stream"):
            return _error(400, "streaming is not supported by the simulation")
        messages = [
            {"role": str(m.get("role", "user")), "content": _message_text(m.get("content"))}
            for m in raw_messages
            if isinstance(m, dict)
        ]
        action = state.next_action()
        failed = await _failure(request, action)
        if failed is not None:
            return failed

        schema = _requested_schema(body)
        if schema is not None:
            try:
                content = json.dumps(generate_json_output(schema, messages, config.seed), ensure_ascii=False)
            except (ValueError, KeyError, TypeError) as exc:
                return _error(400, f"unsupported json schema: {exc}")
        else:
            rng = random.Random(_digest({"seed": config.seed, "messages": messages}))
            user = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
            content = f"(simulated) {_TextSource(user).sentence(rng)}"
        finish_reason = "stop"
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        tokens = content.split()
        if isinstance(limit, int) and limit > 0 and len(tokens) > limit:
            content, finish_reason = " ".join(tokens[:limit]), "length"
        completion_tokens = max(1, count_tokens(content))
        prompt_tokens = sum(count_tokens(m["content"]) for m in messages)
        system = next((m["content"] for m in messages if m["role"] == "system"), None)

        async with state.sequence_slot():
            cached = 0
            if system is not None and state.prefix_lookup(system):
                cached = count_tokens(system)
            await asyncio.sleep((config.ttft_ms + config.tpot_ms * completion_tokens) / 1000.0)
        state.prompt_tokens += prompt_tokens
        state.completion_tokens += completion_tokens
        if action == "invalid_json":
            state.injected[action] += 1
            content = _broken_json(content)
        return JSONResponse(
            {
                "id": f"chatcmpl-sim-{_digest(messages):016x}",
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
            return _error(400, "request body is not JSON")
        raw = body.get("input") if isinstance(body, dict) else None
        inputs = [raw] if isinstance(raw, str) else raw
        if not isinstance(inputs, list) or not inputs or not all(isinstance(t, str) for t in inputs):
            return _error(400, "input must be a string or a non-empty list of strings")
        dim = body.get("dimensions") or config.embed_dim
        if not isinstance(dim, int) or dim < 1:
            return _error(400, "dimensions must be a positive integer")
        action = state.next_action()
        failed = await _failure(request, action)
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
