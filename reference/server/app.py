"""The MCP server on the SDK's low-level Server: tools/list with exact schemas, tools/call -> CallToolResult."""

from __future__ import annotations

import sys
import traceback
from typing import Any

import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server

from reference.protocol.arguments import tool_schemas, validate_arguments
from reference.protocol.encoding import to_json
from reference.protocol.errors import ToolError

from .runtime import Runtime
from .tools import TOOLS

SERVER_NAME = "cruxgate-reference"
SERVER_VERSION = "0.1.0"


def _metadata_or_none(rt: Runtime) -> dict[str, Any] | None:
    """Metadata for an error payload; None if even the state cannot be read."""
    try:
        return rt.metadata()
    except Exception:
        return None


async def dispatch(rt: Runtime, name: str, arguments: Any) -> tuple[dict[str, Any], bool]:
    """Run one tool call; every failure becomes the canonical envelope, never an exception."""
    try:
        spec = TOOLS.get(name)
        if spec is None:
            raise ToolError("invalid_input", f"unknown tool {name!r}", {"field": "name", "tools": sorted(TOOLS)})
        args = validate_arguments(name, arguments)
        if spec.blocking:
            payload = await anyio.to_thread.run_sync(spec.handler, rt, args)
        else:
            payload = spec.handler(rt, args)
        return payload, False
    except ToolError as exc:
        return exc.envelope(_metadata_or_none(rt)), True
    except Exception as exc:  # a bug must not take the server down: report it as internal_error
        traceback.print_exc(file=sys.stderr)
        error = ToolError("internal_error", f"{name} failed: {type(exc).__name__}: {exc}")
        return error.envelope(_metadata_or_none(rt)), True


def call_result(payload: dict[str, Any], is_error: bool) -> types.CallToolResult:
    """The payload as structuredContent and, identically, as the JSON of the first text item."""
    return types.CallToolResult(content=[types.TextContent(type="text", text=to_json(payload))],
                                structured_content=payload, is_error=is_error)


def tool_list() -> list[types.Tool]:
    """Every tool with its exact input schema."""
    schemas = tool_schemas()
    return [types.Tool(name=name, description=spec.description, input_schema=schemas[name])
            for name, spec in TOOLS.items()]


def build_server(rt: Runtime) -> Server[Any]:
    """The low-level server wired to the runtime; prewarm starts once the handshake is accepted."""
    tools = tool_list()
    for name in TOOLS:  # compile validators now, not on the first call
        try:
            validate_arguments(name, {})
        except ToolError:
            pass

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        rt.prewarm.start()
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        rt.prewarm.start()
        payload, is_error = await dispatch(rt, params.name, params.arguments)
        return call_result(payload, is_error)

    server: Server[Any] = Server(SERVER_NAME, version=SERVER_VERSION, on_list_tools=list_tools,
                                 on_call_tool=call_tool,
                                 get_tool_input_schema=lambda name: tool_schemas().get(name))

    async def initialized(ctx: Any, params: Any) -> None:
        rt.prewarm.start()

    server.add_notification_handler("notifications/initialized", types.NotificationParams, initialized)
    return server
