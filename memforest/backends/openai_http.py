"""OpenAI-compatible HTTP backends (a vLLM server in production): chat with JSON schema, embeddings.

Both classes share one retry loop (:func:`_call_with_retries`): exponential backoff with full
jitter on 408/429/5xx, timeouts, connection errors and unusable output; ``Retry-After`` is
honoured on 429 (capped by ``backoff_max_s``). Other 4xx fail at once. httpx errors never
leave this module: callers only see :class:`ModelBackendError` / :class:`ModelOutputError`.

Notes on vLLM:

* ``response_format={"type": "json_schema", ...}`` selects guided decoding on the server.
* ``usage.prompt_tokens_details.cached_tokens`` is only reported when the server runs with
  ``--enable-prompt-tokens-details``; otherwise cached tokens are recorded as 0.
"""

from __future__ import annotations

import asyncio
import email.utils
import functools
import json
import math
import random
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

import httpx
from pydantic import BaseModel, ValidationError

from memforest import tracing
from memforest.backends.base import MODEL_OBSERVERS, ModelT, UsageLedger
from memforest.backends.http_slots import ClientSlots
from memforest.backends.raw_http import ModelClient
from memforest.errors import ModelBackendError, ModelOutputError
from memforest.settings import EmbeddingSettings, LLMSettings

T = TypeVar("T")

_RETRYABLE_STATUS = frozenset({408, 425, 429})
_FENCE_RE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)
_THINK_RE = re.compile(r"^\s*<think>.*?</think>\s*", re.DOTALL)
_DEFAULT_BACKOFF_BASE_S = 0.5
_DEFAULT_BACKOFF_MAX_S = 20.0


class _TransientError(Exception):
    """One attempt failed in a way worth retrying (HTTP 408/429/5xx, timeout, connection)."""

    def __init__(self, message: str, *, retry_after_s: float | None = None, reason: str = "transient") -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s
        self.reason = reason  # metric label: http_429, http_5xx, timeout, connection, ...


class _BadOutputError(Exception):
    """One attempt got an answer that could not be parsed or validated (retried)."""


@dataclass(frozen=True, slots=True)
class _RetryPolicy:
    """How many attempts, and how long to back off between them."""

    max_attempts: int
    backoff_base_s: float
    backoff_max_s: float

    def delay(self, retry_index: int, rng: random.Random, retry_after_s: float | None) -> float:
        """Seconds to sleep before retry number ``retry_index`` (0-based): full jitter, or Retry-After."""
        if retry_after_s is not None:
            return max(0.0, min(retry_after_s, self.backoff_max_s))
        ceiling = min(self.backoff_max_s, self.backoff_base_s * (2.0**retry_index))
        return rng.uniform(0.0, ceiling)


@dataclass(slots=True)
class _Outcome(Generic[T]):
    """A successful call: its value, how many retries it took, and summed request time."""

    value: T
    retries: int
    latency_s: float


def _account(
    ledger: UsageLedger | None,
    stage: str,
    backend: str,
    *,
    failures: int = 0,
    retries: int,
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
    cached_prompt_tokens: int = 0,
    latency_s: float,
) -> None:
    """Record one finished call in the job's ledger (when there is one) and tell the process-wide observers."""
    if ledger is not None:
        ledger.record(
            stage,
            failures=failures,
            retries=retries,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            cached_prompt_tokens=cached_prompt_tokens,
            latency_s=latency_s,
        )
    for observer in MODEL_OBSERVERS:
        observer.call_finished(
            stage,
            backend,
            ok=failures == 0,
            latency_s=latency_s,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
        )


def _failed_attempt(stage: str, backend: str, exc: Exception) -> None:
    """Tell the observers one attempt failed, and why (a small fixed set of reasons)."""
    if isinstance(exc, _TransientError):
        reason = exc.reason
    elif isinstance(exc, _BadOutputError):
        reason = "invalid_output"
    else:
        reason = "fatal"
    for observer in MODEL_OBSERVERS:
        observer.attempt_failed(stage, backend, reason)


async def _call_with_retries(
    attempt: Callable[[], Awaitable[T]],
    *,
    policy: _RetryPolicy,
    rng: random.Random,
    what: str,
    stage: str,
    ledger: UsageLedger | None,
    backend: str = "",
) -> _Outcome[T]:
    """Run ``attempt`` until it succeeds or ``policy.max_attempts`` is spent.

    ``attempt`` raises :class:`_TransientError` / :class:`_BadOutputError` for retryable
    failures and :class:`ModelBackendError` for final ones. Latency sums the attempts' own time
    (including any wait for a client concurrency slot), not the backoff sleeps. A final failure
    is recorded in ``ledger`` here (``calls=1, failures=1``); success is recorded by the caller,
    which knows the token usage.
    """
    latency = 0.0
    last: Exception | None = None
    for index in range(policy.max_attempts):
        started = time.perf_counter()
        try:
            value = await attempt()
        except (_TransientError, _BadOutputError) as exc:
            latency += time.perf_counter() - started
            last = exc
            _failed_attempt(stage, backend, exc)
            if index + 1 >= policy.max_attempts:
                break
            retry_after = exc.retry_after_s if isinstance(exc, _TransientError) else None
            await asyncio.sleep(policy.delay(index, rng, retry_after))
            continue
        except ModelBackendError as exc:
            latency += time.perf_counter() - started
            _failed_attempt(stage, backend, exc)
            _account(ledger, stage, backend, failures=1, retries=index, latency_s=latency)
            raise
        latency += time.perf_counter() - started
        return _Outcome(value=value, retries=index, latency_s=latency)

    _account(ledger, stage, backend, failures=1, retries=policy.max_attempts - 1, latency_s=latency)
    message = f"{what} failed after {policy.max_attempts} attempt(s): {last}"
    if isinstance(last, _BadOutputError):
        raise ModelOutputError(message) from last
    raise ModelBackendError(message) from last


def _parse_retry_after(value: str | None) -> float | None:
    """``Retry-After`` as seconds (delta-seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    if math.isnan(seconds) or math.isinf(seconds):
        return None
    return max(0.0, seconds)


@functools.cache
def _json_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of an output model, built once per model (pydantic rebuilds it per call)."""
    return schema.model_json_schema()


def _strip_wrapping(content: str) -> str:
    """Remove a leading ``<think>…</think>`` block and Markdown code fences around JSON."""
    content = _THINK_RE.sub("", content, count=1)
    match = _FENCE_RE.match(content)
    return match.group(1) if match else content.strip()


def _client_slots(
    base_url: str | None,
    api_key: str | None,
    timeout_s: float,
    concurrency: int,
    what: str,
    transport: httpx.AsyncBaseTransport | None,
) -> ClientSlots[ModelClient]:
    """The backend's ``concurrency`` connection slots: base URL, bearer auth, timeout."""
    if not base_url:
        raise ModelBackendError(f"{what}: base_url is not configured")
    headers = {"Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    tls = httpx.create_ssl_context()  # one per backend: building it is most of a client's start-up cost

    def make_client(connections: int) -> ModelClient:
        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        try:
            return ModelClient(
                raw=transport is None, base_url=base_url, headers=headers, verify=tls, timeout=httpx.Timeout(timeout_s),
                limits=limits, transport=transport,
            )  # fmt: skip
        except httpx.LocalProtocolError as exc:  # a configured header that cannot be sent (named, its value not shown)
            raise ModelBackendError(f"{what}: {exc}") from exc

    return ClientSlots(make_client, concurrency, transport=transport)


async def _post_json(client: ModelClient, path: str, payload: dict[str, Any], what: str) -> Any:
    """POST ``payload``; classify the result. Returns the decoded JSON body of a 2xx answer."""
    try:
        response = await client.post_json(path, payload)
    except httpx.TimeoutException as exc:
        raise _TransientError(f"{what}: timed out ({type(exc).__name__})", reason="timeout") from exc
    except (httpx.UnsupportedProtocol, httpx.LocalProtocolError) as exc:  # its text may quote a header's value
        raise ModelBackendError(f"{what}: the request could not be sent ({type(exc).__name__})") from exc
    except httpx.TransportError as exc:
        raise _TransientError(f"{what}: connection error ({type(exc).__name__}: {exc})", reason="connection") from exc
    except httpx.HTTPError as exc:  # anything else httpx raises: not worth retrying
        raise ModelBackendError(f"{what}: {type(exc).__name__}: {exc}") from exc
    return _decode(response, what)


def _decode(response: httpx.Response, what: str) -> Any:
    status = response.status_code
    if status in _RETRYABLE_STATUS or status >= 500:
        retry_after = _parse_retry_after(response.headers.get("retry-after")) if status == 429 else None
        reason = "http_5xx" if status >= 500 else f"http_{status}"
        raise _TransientError(f"{what}: HTTP {status}: {_snippet(response)}", retry_after_s=retry_after, reason=reason)
    if status >= 400:
        raise ModelBackendError(f"{what}: HTTP {status}: {_snippet(response)}")
    try:
        return response.json()
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise _BadOutputError(f"{what}: response body is not JSON: {_snippet(response)}") from exc


def _snippet(response: httpx.Response, limit: int = 300) -> str:
    try:
        text = response.text
    except (UnicodeDecodeError, httpx.HTTPError):
        return "<undecodable body>"
    return text[:limit] + ("…" if len(text) > limit else "")


def _int_field(mapping: Any, *keys: str) -> int:
    """Follow ``keys`` through nested dicts; a missing / non-integer value counts as 0."""
    current = mapping
    for key in keys:
        if not isinstance(current, dict):
            return 0
        current = current.get(key)
    return current if isinstance(current, int) and not isinstance(current, bool) else 0


class _HTTPBackend:
    """What both HTTP backends share: the connection slots (the concurrency budget), lifecycle, probe."""

    name: str
    _slots: ClientSlots[ModelClient]
    _policy: _RetryPolicy
    _rng: random.Random

    async def _post(self, path: str, payload: dict[str, Any], what: str) -> Any:
        """POST within the concurrency budget (held per attempt, not during backoff)."""
        async with self._slots.slot() as client:
            return await _post_json(client, path, payload, what)

    async def _request(
        self,
        path: str,
        payload: dict[str, Any],
        what: str,
        parse: Callable[[Any], T],
        *,
        stage: str,
        ledger: UsageLedger | None,
    ) -> T:
        """POST ``payload`` and ``parse`` the answer, retrying per the policy (an unusable answer is
        retried too); then account the call with the token counts of the answer's ``usage`` (a count
        the server does not report is 0). A tracing span (``chat <model>`` / ``embeddings <model>``)
        carries the counts and the prompt-cache hit, never the texts."""

        async def attempt() -> tuple[T, Any]:
            body = await self._post(path, payload, what)
            return parse(body), body.get("usage") if isinstance(body, dict) else None

        operation = "chat" if path == "/chat/completions" else "embeddings"
        with tracing.model_span(operation, self.name, stage):
            outcome = await _call_with_retries(
                attempt, policy=self._policy, rng=self._rng, what=what, stage=stage, ledger=ledger, backend=self.name
            )
            value, usage = outcome.value
            prompt, completion = _int_field(usage, "prompt_tokens"), _int_field(usage, "completion_tokens")
            cached = _int_field(usage, "prompt_tokens_details", "cached_tokens")
            tracing.model_usage(prompt, completion, cached, outcome.retries)
        _account(
            ledger, stage, self.name, retries=outcome.retries, prompt_tokens=prompt, completion_tokens=completion,
            cached_prompt_tokens=cached, latency_s=outcome.latency_s,
        )  # fmt: skip
        return value

    async def ping(self) -> bool:
        """True when ``GET /models`` answers 2xx (never raises)."""
        try:
            async with self._slots.slot() as client:
                response = await client.get("/models")
        except httpx.HTTPError:
            return False
        return response.is_success

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self._slots.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


class OpenAIChatModel(_HTTPBackend):
    """``ChatModel`` over ``POST {base_url}/chat/completions`` with JSON-schema structured output."""

    def __init__(self, settings: LLMSettings, *, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.settings = settings
        self.name: str = settings.model
        api_key = settings.api_key.get_secret_value() if settings.api_key else None
        self._slots = _client_slots(
            settings.base_url, api_key, settings.timeout_s, settings.concurrency, "chat model", transport
        )
        self._policy = _RetryPolicy(settings.max_attempts, settings.backoff_base_s, settings.backoff_max_s)
        self._rng = random.Random()

    async def complete_json(
        self,
        *,
        system: str,
        user: str,
        schema: type[ModelT],
        stage: str,
        ledger: UsageLedger | None = None,
        max_tokens: int | None = None,
    ) -> ModelT:
        """Ask for an answer constrained to ``schema``; return it validated (retrying as configured)."""
        payload: dict[str, Any] = {
            "model": self.settings.model,
            "messages": [  # static system prompt first so the server's prefix cache can reuse it
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
            "temperature": self.settings.temperature,
            "max_tokens": max_tokens if max_tokens is not None else self.settings.max_tokens,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": schema.__name__,
                    "schema": _json_schema(schema),
                    "strict": True,
                },
            },
        }
        what = f"chat completion ({self.name}, stage {stage!r})"
        return await self._request(
            "/chat/completions", payload, what, lambda body: self._parse(body, schema, what), stage=stage, ledger=ledger
        )

    @staticmethod
    def _parse(body: Any, schema: type[ModelT], what: str) -> ModelT:
        try:
            choice = body["choices"][0]
            content = choice["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise _BadOutputError(f"{what}: malformed response (no choices[0].message.content)") from exc
        if not isinstance(content, str) or not content.strip():
            reason = choice.get("finish_reason") if isinstance(choice, dict) else None
            raise _BadOutputError(f"{what}: empty content (finish_reason={reason!r})")
        try:
            return schema.model_validate_json(_strip_wrapping(content))
        except ValidationError as exc:
            reason = choice.get("finish_reason") if isinstance(choice, dict) else None
            hint = " (output truncated: raise max_tokens)" if reason == "length" else ""
            errors = exc.errors()
            first = f"{errors[0]['type']} at {errors[0]['loc']}" if errors else "?"
            raise _BadOutputError(
                f"{what}: output does not match {schema.__name__}{hint}: {exc.error_count()} error(s), first: {first}"
            ) from exc


class OpenAIEmbedder(_HTTPBackend):
    """``Embedder`` over ``POST {base_url}/embeddings``: batched, bounded, L2-normalised, dim-checked.

    ``EmbeddingSettings`` has no backoff fields, so backoff comes from the keyword arguments
    (defaults 0.5 s base, 20 s cap); the attempt count is ``settings.max_attempts``.
    """

    def __init__(
        self,
        settings: EmbeddingSettings,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        backoff_base_s: float = _DEFAULT_BACKOFF_BASE_S,
        backoff_max_s: float = _DEFAULT_BACKOFF_MAX_S,
    ) -> None:
        self.settings = settings
        self.name: str = settings.model
        self.dim: int = settings.dim
        api_key = settings.api_key.get_secret_value() if settings.api_key else None
        self._slots = _client_slots(
            settings.base_url, api_key, settings.timeout_s, settings.concurrency, "embedder", transport
        )
        self._policy = _RetryPolicy(settings.max_attempts, backoff_base_s, backoff_max_s)
        self._rng = random.Random()

    async def embed(
        self, texts: Sequence[str], *, stage: str = "embed", ledger: UsageLedger | None = None
    ) -> list[list[float]]:
        """Embed ``texts`` in order (batches of ``batch_size`` run concurrently, bounded)."""
        size = self.settings.batch_size
        batches = [list(texts[i : i + size]) for i in range(0, len(texts), size)]
        results = await asyncio.gather(*(self._embed_batch(b, stage, ledger) for b in batches))
        return [vector for batch in results for vector in batch]

    async def _embed_batch(self, batch: list[str], stage: str, ledger: UsageLedger | None) -> list[list[float]]:
        payload = {"model": self.settings.model, "input": batch}
        what = f"embeddings ({self.name}, {len(batch)} input(s))"
        return await self._request(
            "/embeddings", payload, what, lambda body: self._parse(body, len(batch), what), stage=stage, ledger=ledger
        )

    def _parse(self, body: Any, expected: int, what: str) -> list[list[float]]:
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list) or len(data) != expected:
            got = len(data) if isinstance(data, list) else "no"
            raise _BadOutputError(f"{what}: expected {expected} embedding(s), got {got}")
        try:
            items = sorted(data, key=lambda item: int(item["index"]))
            raw = [item["embedding"] for item in items]
        except (KeyError, TypeError, ValueError) as exc:
            raise _BadOutputError(f"{what}: malformed data items (need index and embedding)") from exc
        if [int(item["index"]) for item in items] != list(range(expected)):
            raise _BadOutputError(f"{what}: embedding indices are not 0..{expected - 1}")
        vectors: list[list[float]] = []
        for vector in raw:
            if not isinstance(vector, list):
                raise _BadOutputError(f"{what}: embedding is not a list of floats (encoding_format?)")
            if len(vector) != self.dim:
                raise ModelBackendError(
                    f"{what}: server returned {len(vector)}-dimensional vectors but "
                    f"EmbeddingSettings.dim is {self.dim}; set MEMFOREST_EMBEDDING__DIM={len(vector)} "
                    "or serve a model with the configured dimension"
                )
            try:
                floats = [float(x) for x in vector]
            except (TypeError, ValueError) as exc:
                raise _BadOutputError(f"{what}: embedding has non-numeric values") from exc
            norm = math.sqrt(math.fsum(x * x for x in floats))
            if not math.isfinite(norm):
                raise _BadOutputError(f"{what}: embedding has non-finite values")
            vectors.append([x / norm for x in floats] if norm > 0 else floats)
        return vectors
