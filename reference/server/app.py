"""The MCP server on the SDK's low-level Server: tools/list with exact schemas, tools/call -> a CallToolResult."""

from __future__ import annotations

import contextlib
import sys
import traceback
from functools import partial
from typing import Any

import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server

from cruxgate import __version__
from cruxgate.reference.protocol.arguments import parse_arguments
from cruxgate.reference.protocol.encoding import to_json, to_json_bytes
from cruxgate.reference.protocol.errors import ToolError
from cruxgate.reference.protocol.input_schemas import tool_schemas
from cruxgate.reference.protocol.output_schemas import tool_output_schemas
from cruxgate.reference.protocol.safety import apply_safety_limit

from .runtime import Runtime
from .tools import QUERY_THREADS, TOOLS, ToolSpec

SERVER_NAME = "cruxgate-reference"
SERVER_VERSION = __version__  # serverInfo.version: the distribution's own


def _metadata_or_none(rt: Runtime) -> dict[str, Any] | None:
    """Metadata for an error payload; None if even the state cannot be read."""
    try:
        return rt.metadata()
    except Exception:  # noqa: BLE001 - the error envelope goes out without metadata rather than not at all
        return None


def _answer(rt: Runtime, name: str, spec: ToolSpec, params: Any) -> tuple[dict[str, Any], str]:
    """The tool's payload and the JSON that is sent, the safety limit applied (runs where the handler runs).

    A query that fails for a reason of its own is checked against the index: a damaged one is answered
    with index_incompatible (and reads as such from then on), anything else stays an internal error.
    """
    try:
        payload = spec.handler(rt, params)
    except ToolError:
        raise
    except Exception as exc:
        damaged = rt.damage_error(rt.snapshot(), exc) if spec.list_key else None
        if damaged is not None:
            raise damaged from exc
        raise
    encoded = spec.encode(payload)
    # The safety limit is measured on the very JSON that is sent; encoded again only when it cuts.
    if spec.list_key and len(encoded) > rt.config.max_response_bytes:
        payload = apply_safety_limit(payload, spec.list_key, rt.config.max_response_bytes, name)
        encoded = to_json_bytes(payload)
    return payload, encoded.decode("utf-8")


async def _off_the_loop(rt: Runtime, name: str, spec: ToolSpec, params: Any) -> tuple[dict[str, Any], str]:
    """Run a blocking tool in a worker thread; one with a deadline is answered when it passes, and abandoned.

    The event loop only waits here, so a slow call (a huge page, a damaged index) never holds the others:
    health_check and every other request keep being served meanwhile.
    """
    work = partial(_answer, rt, name, spec, params)
    if spec.deadline is None:
        return await anyio.to_thread.run_sync(work)
    with anyio.move_on_after(spec.deadline):
        return await anyio.to_thread.run_sync(work, abandon_on_cancel=True, limiter=_query_threads(rt))
    raise ToolError("internal_error", f"{name} did not finish within its {spec.deadline:g} s deadline",
                    {"deadline_seconds": spec.deadline,
                     "remediation": "narrow the call (a smaller limit, a more specific query) and retry"})


def _query_threads(rt: Runtime) -> anyio.CapacityLimiter:
    """The worker threads the runtime's query tools share (made in the event loop, on first use): abandoned
    calls that still run hold only these, never the threads everything else uses."""
    if rt.query_threads is None:
        rt.query_threads = anyio.CapacityLimiter(QUERY_THREADS)
    limiter: anyio.CapacityLimiter = rt.query_threads
    return limiter


async def dispatch(rt: Runtime, name: str, arguments: Any) -> tuple[dict[str, Any], str, bool]:
    """Run one tool call -> (its payload, the payload's JSON, isError); every failure becomes the envelope."""
    try:
        spec = TOOLS.get(name)
        if spec is None:
            raise ToolError("invalid_input", f"unknown tool {name!r}", {"field": "name", "tools": sorted(TOOLS)})
        params = parse_arguments(name, arguments)
        if spec.blocking:
            return (*await _off_the_loop(rt, name, spec, params), False)
        return (*_answer(rt, name, spec, params), False)
    except ToolError as exc:
        payload = exc.envelope(_metadata_or_none(rt))
    except Exception as exc:  # noqa: BLE001 - a bug must not take the server down: report it as internal_error
        traceback.print_exc(file=sys.stderr)
        error = ToolError("internal_error", f"{name} failed: {type(exc).__name__}: {exc}")
        payload = error.envelope(_metadata_or_none(rt))
    return payload, to_json(payload), True


def call_result(payload: dict[str, Any], text: str, is_error: bool) -> dict[str, Any]:
    """The payload as `structuredContent` and, the same object, as the JSON of the only text item.

    Every tool advertises an outputSchema, and MCP then requires structured results that conform to it;
    the text item is what MCP asks for older clients, and `text` is the very JSON the safety limit
    measured. Errors carry the envelope both ways too (the outputSchema covers it). Built as the
    CallToolResult's wire mapping, not the pydantic model, which the SDK would dump to this very mapping
    first (SDK `HandlerResult` allows both).
    """
    return {"content": [{"type": "text", "text": text}], "structuredContent": payload, "isError": is_error}


def tool_list() -> list[types.Tool]:
    """Every tool with its exact input schema and its output schema (success payload or error envelope)."""
    inputs, outputs = tool_schemas(), tool_output_schemas()
    return [types.Tool(name=name, description=spec.description, input_schema=inputs[name],
                       output_schema=outputs[name]) for name, spec in TOOLS.items()]


def build_server(rt: Runtime) -> Server[Any]:
    """The low-level server wired to the runtime; prewarm starts once the handshake is accepted."""
    tools = tool_list()
    for name in TOOLS:  # compile validators now, not on the first call
        with contextlib.suppress(ToolError):
            parse_arguments(name, {})

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        rt.prewarm.start()
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        rt.prewarm.start()
        return call_result(*await dispatch(rt, params.name, params.arguments))

    server: Server[Any] = Server(SERVER_NAME, version=SERVER_VERSION, on_list_tools=list_tools,
                                 get_tool_input_schema=lambda name: tool_schemas().get(name))
    # The generic registration, where on_call_tool would go: call_tool answers with the result's wire
    # mapping, which the SDK's HandlerResult allows and on_call_tool's annotation (the model only) does not.
    server.add_request_handler("tools/call", types.CallToolRequestParams, call_tool)

    async def initialized(ctx: Any, params: Any) -> None:
        rt.prewarm.start()

    server.add_notification_handler("notifications/initialized", types.NotificationParams, initialized)
    return server
