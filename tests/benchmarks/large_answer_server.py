"""An MCP server over stdio whose one tool answers a large outline at once, for the SLO harness's wire timing.

    large_answer_server.py [ignored arguments...]

Newline-delimited JSON-RPC, no SDK import: initialize, ping, tools/list (one tool, `get_file_outline`, with an
outputSchema the client checks structuredContent against) and tools/call. The answer is built once at start, so
the server's own time per call is a write; the client's (parsing ~2 MB twice, checking every symbol against the
schema) is what a harness timing whole calls would charge the server.
"""

from __future__ import annotations

import json
import sys

SYMBOL = {"type": "object", "required": ["name", "kind", "line"],
          "properties": {"name": {"type": "string"}, "kind": {"type": "string"}, "line": {"type": "integer"}}}
OUTPUT_SCHEMA = {"type": "object", "required": ["symbols"],
                 "properties": {"symbols": {"type": "array", "items": SYMBOL}}}
TOOL = {"name": "get_file_outline", "description": "The symbols of one file.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        "outputSchema": OUTPUT_SCHEMA}
PAYLOAD = {"symbols": [{"name": f"symbol_{n}", "kind": "function", "line": n} for n in range(20_000)]}
CALL_RESULT = {"content": [{"type": "text", "text": json.dumps(PAYLOAD)}], "structuredContent": PAYLOAD,
               "isError": False}


def reply(message_id: object, result: dict) -> None:
    """One answer on stdout."""
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message_id, "result": result}) + "\n")
    sys.stdout.flush()


def main() -> None:
    """Answer requests until stdin closes."""
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, message_id, params = message.get("method"), message.get("id"), message.get("params") or {}
        if message_id is None:
            continue  # notifications need no answer
        if method == "initialize":
            reply(message_id, {"protocolVersion": params.get("protocolVersion"), "capabilities": {"tools": {}},
                               "serverInfo": {"name": "large-answer", "version": "0.0.1"}})
        elif method == "tools/list":
            reply(message_id, {"tools": [TOOL]})
        elif method == "tools/call":
            reply(message_id, CALL_RESULT)
        else:  # ping
            reply(message_id, {})


if __name__ == "__main__":
    main()
