"""Path parameters may hold a slash: an encoded one (``%2F``) stays inside its segment.

Forest names, session and turn ids come from clients, and entity names from text ("AC/DC"), so
any of them may contain ``/``. The ASGI server decodes the path before routing, which turns
``/v1/forests/a%2Fb/query`` into four segments and a 404. :class:`SegmentRoute` matches on the
request's raw path instead, where an encoded slash is still data (RFC 3986, section 2.2), and
decodes each parameter on its own. Every client of this project encodes a path parameter whole
(the Python client's ``quote(..., safe="")``, ``encodeURIComponent`` in TypeScript and the
browser), so such names round-trip; a proxy in front must pass ``%2F`` through undecoded (ADR 0049).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from fastapi.routing import APIRoute
from starlette.routing import Match
from starlette.types import Scope

__all__ = ["SegmentRoute"]

# Stands for an encoded slash while the route's pattern is matched. A lone surrogate: percent
# decoding (UTF-8, undecodable bytes replaced) never yields one, so it cannot come from a request.
_SLASH = "\udc2f"


def _path_keeping_encoded_slashes(scope: Scope) -> str | None:
    """``scope["path"]`` with each encoded slash of the raw path as :data:`_SLASH`; None when the raw
    path has none (or does not agree with the decoded path: then the decoded path is routed)."""
    raw = scope.get("raw_path")
    if not isinstance(raw, bytes | bytearray) or b"%2f" not in raw.lower():
        return None
    text = bytes(raw).split(b"?", 1)[0].decode("latin-1")  # (some test transports keep the query)
    parts = text.replace("%2f", "%2F").split("%2F")
    kept = _SLASH.join(unquote(p) for p in parts)
    path = str(scope["path"])
    if not path.endswith(kept.replace(_SLASH, "/")):
        return None
    return path[: len(path) - len(kept)] + kept  # (a root path the server put in front stays)


class SegmentRoute(APIRoute):
    """An :class:`~fastapi.routing.APIRoute` whose parameters may hold an encoded slash."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        path = _path_keeping_encoded_slashes(scope) if scope["type"] == "http" else None
        if path is None:
            return super().matches(scope)
        match, child = super().matches({**scope, "path": path})
        if match is not Match.NONE:
            params: dict[str, Any] = child["path_params"]
            child["path_params"] = {k: v.replace(_SLASH, "/") if isinstance(v, str) else v for k, v in params.items()}
        return match, child
