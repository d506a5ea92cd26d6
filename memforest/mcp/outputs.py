"""What the MCP tools' schemas say beyond their parameters: the output schema of each tool's
structured content, the item schemas of ``turns`` and ``messages`` (the wire models that check
them), ``additionalProperties: false``, and ``forest`` required where the transport has no default.

An output schema names the keys a tool's answer always has; clients validate structured content
against it, so it promises no more than the answer holds (other keys may come: the objects stay open).
"""

from __future__ import annotations

from typing import Any

from mcp.server.fastmcp.tools import Tool

from memforest.schemas.agent import Message
from memforest.schemas.history import FactHistory
from memforest.schemas.session import TurnModel

__all__ = ["OUTPUT_SCHEMAS", "finish_schemas"]

_STR = {"type": "string"}
_INT = {"type": "integer"}
_STR_OR_NULL = {"type": ["string", "null"]}
_OBJECTS = {"type": "array", "items": {"type": "object"}}


def _obj(required: dict[str, Any], description: str, **optional: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": required | optional,
        "required": list(required),
    }


_JOB = {"job_id": _STR, "state": {"type": "string", "enum": ["queued", "running", "succeeded", "failed"]}}

OUTPUT_SCHEMAS: dict[str, dict[str, Any]] = {
    "add_memory": _obj(
        {"job_id": _STR_OR_NULL},
        "The accepted session ({job_id, session_id, created}) or, when it finished within wait, the job "
        "({job_id, state, ...}); with messages also kept and skipped.",
        session_id=_STR, created={"type": "boolean"}, state=_JOB["state"], kept=_INT, skipped={"type": "object"},
    ),
    "search_memory": _obj(
        {"forest": _STR, "evidence": _OBJECTS},
        "Evidence items, best first: rank, kind, text, time, valid_from, valid_to, tree, score, session_id, "
        "turn_ids, fact_id, superseded.",
        query=_STR, mode_used=_STR,
    ),
    "get_context": _obj(
        {"context": _STR, "items": _INT, "tokens": _INT, "token_budget": _INT},
        "A ready-to-paste block of memory lines and its size.",
    ),
    "browse_tree": _obj(
        {"forest": _STR}, "The forest's trees (trees, next_cursor) or one node (node).",
        trees=_OBJECTS, next_cursor=_STR_OR_NULL, node={"type": "object"},
    ),
    "forget_session": {"type": "object", "description": "What the retraction removed and refreshed."},
    "update_memory": _obj(
        {"id": _STR, "text": _STR, "status": _STR}, "The correcting fact as GET .../facts/{id} shows it.",
        supersedes=_STR_OR_NULL,
    ),
    "delete_memory": _obj(
        {"fact_id": _STR, "forest": _STR}, "What the deletion removed.", facts_restored=_INT,
    ),
    "get_job": _obj(_JOB, "The job: state, progress, result, errors and usage.", kind=_STR, forest=_STR),
    "memory_history": FactHistory.model_json_schema(),
}  # fmt: skip

_ITEM_MODELS = {"turns": TurnModel, "messages": Message}


def _inline(model: type[Any], defs: dict[str, Any]) -> dict[str, Any]:
    """``model``'s JSON Schema with its definitions moved into ``defs`` (the tool schema's ``$defs``)."""
    schema: dict[str, Any] = model.model_json_schema(ref_template="#/$defs/{model}")
    defs.update(schema.pop("$defs", {}))
    return schema


def finish_schemas(tools: list[Tool], *, forest_required: bool) -> None:
    """Complete every tool's input schema: closed, typed items, ``forest`` required when
    ``forest_required``. (Output schemas are added as the tools are listed: ``OUTPUT_SCHEMAS``.)"""
    for tool in tools:
        params = tool.parameters
        params["additionalProperties"] = False
        props = params.get("properties", {})
        defs: dict[str, Any] = params.setdefault("$defs", {})
        for name, model in _ITEM_MODELS.items():
            if name in props:
                description = props[name].get("description")
                items = _inline(model, defs)
                props[name] = {"anyOf": [{"type": "array", "items": items}, {"type": "null"}], "default": None}
                props[name]["description"] = description
        if not defs:
            params.pop("$defs")
        if forest_required and "forest" in props:
            props["forest"] = {"type": "string", "minLength": 1, "description": props["forest"].get("description")}
            params["required"] = sorted({*params.get("required", []), "forest"})
