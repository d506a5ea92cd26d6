"""Moved to :mod:`memforest.schemas.session`; this re-export keeps ``memforest.mcp.tools`` importing
until it imports from ``memforest.schemas`` (then delete this module)."""

from __future__ import annotations

from memforest.schemas.session import Limits, SessionModel

__all__ = ["Limits", "SessionModel"]
