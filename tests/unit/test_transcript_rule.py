"""Which OpenAI chat messages become turns (``MessagesIn.transcript``, docs/agents.md), and the
request models' refusal of fields they do not declare."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from memforest.schemas import KeyIn, QueryIn, TenantIn
from memforest.schemas.agent import FilteredQueryIn, MessagesIn, MultiQueryIn, QueryFilter
from memforest.schemas.requests import ForestIn

#: A transcript as the OpenAI SDK and agent frameworks produce it.
TRANSCRIPT: list[dict[str, Any]] = [
    {"role": "system", "content": "You are a travel assistant."},
    {"role": "developer", "content": [{"type": "text", "text": "Answer briefly."}]},
    {"role": "user", "name": "Dana", "content": "What is the weather in Porto? I fly there on Friday."},
    {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Porto"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "Porto: 21 C, sunny."},
    {"role": "tool", "tool_call_id": "call_9", "content": [{"type": "text", "text": "unmatched result"}]},
    {"role": "tool", "tool_call_id": "call_1", "name": "weather_api", "content": "named result"},
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "Here is my boarding pass."},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA", "detail": "low"}},
        ],
    },
    {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}]},
    {"role": "assistant", "content": "It will be sunny in Porto.", "annotations": [], "audio": None},
    {"role": "function", "name": "lookup", "content": "older-style function result"},
    {"role": "user", "content": "   "},
]


def test_the_documented_rule_keeps_skips_and_counts() -> None:
    t = MessagesIn.model_validate({"messages": TRANSCRIPT}).transcript()
    assert [(turn["speaker"], turn["role"], turn["text"]) for turn in t.turns] == [
        ("Dana", "user", "What is the weather in Porto? I fly there on Friday."),
        ("get_weather", "tool", "Porto: 21 C, sunny."),
        ("tool", "tool", "unmatched result"),
        ("weather_api", "tool", "named result"),
        ("user", "user", "Here is my boarding pass."),
        ("assistant", "assistant", "It will be sunny in Porto."),
        ("lookup", "function", "older-style function result"),
    ]
    assert t.skipped == {"system_prompt": 2, "tool_calls_only": 1, "no_text": 2}
    assert len(t.turns) + sum(t.skipped.values()) == len(TRANSCRIPT)


def test_an_assistant_message_with_text_and_tool_calls_keeps_its_text() -> None:
    msg = {
        "role": "assistant",
        "content": "Let me check.",
        "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
    }
    t = MessagesIn.model_validate({"messages": [msg]}).transcript()
    assert t.turns == [{"speaker": "assistant", "role": "assistant", "text": "Let me check."}] and t.skipped == {}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"messages": [{"role": "user", "content": "x", "speaker": "Bob"}]}, "speaker"),
        ({"messages": [{"role": "user", "content": "x"}], "user_id": "u1"}, "user_id"),
        ({"messages": [{"role": "robot", "content": "x"}]}, "role"),
    ],
)
def test_messages_refuse_unknown_fields_and_roles(body: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as info:
        MessagesIn.model_validate(body)
    assert field in {str(p) for p in info.value.errors()[0]["loc"]}


@pytest.mark.parametrize(
    ("model", "body", "field"),
    [
        (TenantIn, {"name": "acme", "plan": "pro"}, "plan"),
        (KeyIn, {"scopes": ["read"], "expires": "never"}, "expires"),
        (ForestIn, {"name": "f", "fanout": 8}, "fanout"),
        (QueryIn, {"query": "q", "user_id": "u1"}, "user_id"),
        (FilteredQueryIn, {"query": "q", "topk": 5}, "topk"),
        (MultiQueryIn, {"query": "q", "forests": ["a"], "user_id": "u1"}, "user_id"),
        (QueryFilter, {"speaker": ["Dana"]}, "speaker"),
    ],
)
def test_request_models_refuse_unknown_fields(model: type[Any], body: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as info:
        model.model_validate(body)
    first = info.value.errors()[0]
    assert first["type"] == "extra_forbidden" and first["loc"] == (field,)


def test_metadata_stays_free_form() -> None:
    body = MessagesIn.model_validate({"messages": [{"role": "user", "content": "x"}], "metadata": {"any": {"k": 1}}})
    assert body.metadata == {"any": {"k": 1}}
    assert QueryFilter.model_validate({"metadata": {"whatever": True}}).metadata == {"whatever": True}
