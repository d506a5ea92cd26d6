"""The FastMCP server MemForest runs: its own name and version in ``serverInfo``, tools that refuse
an argument they do not declare, every argument error as one line, and output schemas listed with
the tools."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import ContentBlock
from mcp.types import Tool as MCPTool
from pydantic import ValidationError

from memforest import __version__
from memforest.mcp.outputs import OUTPUT_SCHEMAS

__all__ = ["StrictFastMCP", "one_line"]


def one_line(text: str, limit: int = 500) -> str:
    """``text`` on one line (whitespace runs become one space), at most ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _invalid_arguments(exc: ValidationError) -> str:
    """A pydantic error of a tool's arguments as ``invalid-input: <argument>: <message>``."""
    errors = exc.errors()
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"]) or "arguments"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return one_line(f"invalid-input: {where}: {first['msg']}{more}")


class StrictFastMCP(FastMCP[Any]):
    """FastMCP with MemForest's name and version, strict arguments and one-line errors."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._mcp_server.version = __version__  # else serverInfo.version is the MCP SDK's

    async def list_tools(self) -> list[MCPTool]:
        """The tools, each with the output schema of its structured content."""
        listed = await super().list_tools()
        return [t.model_copy(update={"outputSchema": OUTPUT_SCHEMAS.get(t.name)}) for t in listed]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Sequence[ContentBlock] | dict[str, Any]:
        """Refuse undeclared arguments (FastMCP's argument models would drop them) and turn argument
        validation errors into one line naming the argument."""
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            declared = tool.parameters.get("properties", {})
            unknown = sorted(set(arguments or {}) - set(declared))
            if unknown:
                takes = ", ".join(declared)
                raise ToolError(
                    f"invalid-input: {unknown[0]}: {name} has no argument {unknown[0]!r} (it takes {takes})"
                )
        try:
            return await super().call_tool(name, arguments)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(_invalid_arguments(cause)) from None
            raise ToolError(one_line(str(exc))) from None
