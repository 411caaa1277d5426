"""MCP servers that break the transport itself, one way each, for the runner's dead-target and clean-up tests.

    hostile_server.py MODE [ignored arguments...]

Modes (stdio, newline-delimited JSON-RPC, no SDK import so each starts in milliseconds):

- silent: reads its input and never writes a byte
- exit_after_initialize: answers `initialize`, then exits
- garbage: answers every line with a line that is not JSON-RPC
- wrong_id: answers `initialize` with an id the client never sent
- huge_payload: a normal handshake and tools/list, then every tools/call answers a 50 MB payload

Extra arguments are ignored, so a target profile's placeholders ({workspace},
{config}) can follow the mode unchanged.
"""

from __future__ import annotations

import json
import sys
from typing import Any

HUGE_BYTES = 50 * 1024 * 1024
TOOLS = [{"name": "health_check", "description": "Report the index health.",
          "inputSchema": {"type": "object", "properties": {}}},
         {"name": "search_code", "description": "Search code by text.",
          "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}]


def write(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def initialize_result(params: dict[str, Any]) -> dict[str, Any]:
    return {"protocolVersion": params.get("protocolVersion"), "capabilities": {"tools": {}},
            "serverInfo": {"name": "hostile", "version": "0.0.1"}}


def serve(mode: str) -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        if mode == "silent":
            continue
        if mode == "garbage":
            sys.stdout.write("<<< not json-rpc >>>\n")
            sys.stdout.flush()
            continue
        message = json.loads(line)
        method, message_id, params = message.get("method"), message.get("id"), message.get("params") or {}
        if message_id is None:
            continue
        if method == "initialize":
            if mode == "wrong_id":
                write({"jsonrpc": "2.0", "id": f"not-{message_id}", "result": initialize_result(params)})
                continue
            write({"jsonrpc": "2.0", "id": message_id, "result": initialize_result(params)})
            if mode == "exit_after_initialize":
                sys.exit(0)
        elif method == "tools/list":
            write({"jsonrpc": "2.0", "id": message_id, "result": {"tools": TOOLS}})
        elif method == "tools/call":
            # A valid JSON object, so the verdict is about its size and shape, not about parsing.
            payload = {"results": [], "padding": "x" * HUGE_BYTES}
            write({"jsonrpc": "2.0", "id": message_id,
                   "result": {"content": [{"type": "text", "text": json.dumps(payload)}], "isError": False}})
        else:
            write({"jsonrpc": "2.0", "id": message_id, "result": {}})


if __name__ == "__main__":
    serve(sys.argv[1])
