"""Where a LangGraph item lives in MemForest: a namespace and key become a forest and a session id.

By default the namespace's first label names the forest and the remaining labels and the key,
each percent-encoded, make the session id ``lg:<label>:<label>:<key>``; with a fixed forest the
whole namespace goes into the session id. (The separator is a colon, not a slash: a session id is a
path segment of the API, and a slash there, even encoded, would not reach the route.) Sessions
whose id does not start with ``lg:`` belong to other clients of the forest and are never read as
items. A namespace exists while it holds an item, as in LangGraph's PostgreSQL store.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from langgraph.store.base import InvalidNamespaceError, MatchCondition

SESSION_PREFIX = "lg:"
SEPARATOR = ":"  # percent-encoding turns every colon inside a label or key into %3A
MAX_SESSION_ID_CHARS = 200


@dataclass(frozen=True, slots=True)
class Layout:
    """The mapping of namespaces to forests: ``forest`` None means the first label names it."""

    forest: str | None = None

    def address(self, namespace: tuple[str, ...], key: str) -> tuple[str, str]:
        """The forest and session id of the item ``key`` in ``namespace``."""
        if self.forest is None:
            if not namespace:
                raise InvalidNamespaceError("the namespace needs a first label: it names the forest")
            forest, path = namespace[0], namespace[1:]
        else:
            forest, path = self.forest, namespace
        session_id = SESSION_PREFIX + SEPARATOR.join(quote(part, safe="") for part in (*path, key))
        if len(session_id) > MAX_SESSION_ID_CHARS:
            raise InvalidNamespaceError(
                f"namespace and key are {len(session_id)} characters encoded; at most {MAX_SESSION_ID_CHARS} fit"
            )
        return forest, session_id

    def item_of(self, forest: str, session_id: str) -> tuple[tuple[str, ...], str] | None:
        """The namespace and key stored as ``session_id`` in ``forest``, None for another client's session."""
        if not session_id.startswith(SESSION_PREFIX):
            return None
        *path, key = (unquote(part) for part in session_id[len(SESSION_PREFIX) :].split(SEPARATOR))
        namespace = tuple(path) if self.forest is not None else (forest, *path)
        return namespace, key

    def forest_of_prefix(self, prefix: tuple[str, ...]) -> str | None:
        """The one forest a namespace prefix can live in, None when it may be any forest."""
        if self.forest is not None:
            return self.forest
        return prefix[0] if prefix else None


def under(namespace: tuple[str, ...], prefix: tuple[str, ...]) -> bool:
    """Whether ``namespace`` starts with ``prefix``."""
    return namespace[: len(prefix)] == prefix


def matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """LangGraph's namespace condition: ``prefix`` or ``suffix`` labels, ``*`` matching any one label."""
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    window = namespace[: len(path)] if condition.match_type == "prefix" else namespace[len(namespace) - len(path) :]
    return all(want in ("*", got) for want, got in zip(path, window, strict=True))


COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    "$gt": lambda a, b: a > b,
    "$gte": lambda a, b: a >= b,
    "$lt": lambda a, b: a < b,
    "$lte": lambda a, b: a <= b,
}


def value_matches(value: Any, wanted: Any) -> bool:
    """LangGraph's search filter, as its stores read it: a dict of operators (``$eq``, ``$ne``,
    ``$gt``, ``$gte``, ``$lt``, ``$lte``; the order ones compare numbers) applies them all; another
    dict matches the fields it names, recursively; a list matches element by element; anything
    else by equality. An unknown operator is a ValueError."""
    if isinstance(wanted, dict):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator_holds(value, op, operand) for op, operand in wanted.items())
        return isinstance(value, dict) and all(value_matches(value.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(wanted)
            and all(value_matches(v, w) for v, w in zip(value, wanted, strict=True))
        )
    return bool(value == wanted)


def _operator_holds(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(value == operand)
    if op == "$ne":
        return bool(value != operand)
    compare = COMPARISONS.get(op)
    if compare is None:
        raise ValueError(f"unsupported filter operator {op!r} (use $eq, $ne, $gt, $gte, $lt or $lte)")
    try:
        return compare(float(value), float(operand))
    except (TypeError, ValueError):  # no number to compare (absent, or not numeric)
        return False
