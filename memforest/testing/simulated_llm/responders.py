"""What the SIMULATED server answers: schema-valid JSON, plain text and embeddings made from the prompt.

Every output is deterministic in (seed, messages, schema) and copied from the prompt text; it carries
no model quality whatsoever.
"""

from __future__ import annotations

import math
import random
import re
import uuid
from collections import Counter
from functools import lru_cache
from typing import Any

import numpy as np

from memforest.testing.simulated_llm.prompt import TextSource, digest, last_user_text

_TOKEN_RE = re.compile(r"\w+", re.UNICODE)
_DATE_NAMES = frozenset({"valid_from", "valid_to", "after", "before", "since", "until", "date", "day"})
_SHORT_NAMES = frozenset(
    {"entity", "entities", "name", "names", "speaker", "subject", "object", "keyword", "keywords",
     "label", "labels", "tag", "tags", "topic", "topics", "title", "kind", "type", "category",
     "predicate", "relation", "attribute", "person", "people", "place", "places"}
)  # fmt: skip
_MAX_DEPTH = 8


class SchemaFiller:
    """Builds one instance of a JSON schema (pydantic ``model_json_schema()`` style)."""

    def __init__(self, root: dict[str, Any], source: TextSource, rng: random.Random) -> None:
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
        if not isinstance(max_len, int):
            # a model writes a sentence-sized string; it does not paste a 20 KB run-on "sentence" of
            # its input back (which would overrun max_tokens and come back truncated, invalid JSON)
            max_len = MAX_STRING_CHARS
        if len(value) > max_len:
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


MAX_STRING_CHARS = 400  # longest string the simulation writes where the schema sets no maxLength


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
    rng = random.Random(digest({"seed": seed, "messages": messages, "schema": schema}))
    return SchemaFiller(schema, TextSource(last_user_text(messages)), rng).fill(schema)


def generate_text_output(messages: list[dict[str, str]], seed: int = 0) -> str:
    """The plain-text answer: one sentence of the last user message, marked ``(simulated)``."""
    rng = random.Random(digest({"seed": seed, "messages": messages}))
    return f"(simulated) {TextSource(last_user_text(messages)).sentence(rng)}"


@lru_cache(maxsize=65_536)
def _token_vector(token: str, dim: int, seed: int) -> np.ndarray[Any, np.dtype[np.float64]]:
    rng = np.random.default_rng(digest({"t": token, "s": seed}))
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
