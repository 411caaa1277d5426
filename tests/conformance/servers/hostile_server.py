"""MCP servers that break the transport itself, one way each, for the runner's dead-target and clean-up tests.

    hostile_server.py MODE [ignored arguments...]
    hostile_server.py MODE --port PORT [--sse] [ignored arguments...]

Modes (stdio, newline-delimited JSON-RPC, no SDK import so each starts in milliseconds; with --port, the same
answers over Streamable HTTP at http://127.0.0.1:PORT/mcp, each as the JSON body of its POST, or with --sse as
one SSE event; meant for the modes whose answers are the point, such as invalid_utf8):

- silent: reads its input and never writes a byte
- exit_after_initialize: answers `initialize`, then exits
- garbage: answers every line with a line that is not JSON-RPC
- wrong_id: answers `initialize` with an id the client never sent
- huge_payload: a normal handshake and tools/list, then every tools/call answers a 50 MB payload
- invalid_utf8: a normal handshake and tools/list, then every tools/call answer holds a byte that is not UTF-8
- slow: every answer comes SLOW_SECONDS (20 s; HOSTILE_DELAY overrides) after its request
- no_answer: a normal handshake and tools/list, then no tools/call is ever answered (the server stays up)
- orphan: forks a child that calls setsid() and sleeps an hour holding stdout open; the server itself answers the
  handshake and tools/list, then exits on its first tools/call
- crash_on_search: a normal handshake, tools/list and health_check, then exits on every search_code call (a
  server that crashes on some calls only, as one that does not know an argument does)
- stderr_flood: writes HOSTILE_FLOOD_MB (default 256) MB to stderr as fast as it can from its start, answers the
  handshake and tools/list meanwhile, and exits on its first tools/call once the flood is written

Extra arguments are ignored, so a target profile's placeholders ({workspace},
{config}) can follow the mode unchanged.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import Any

HUGE_BYTES = 50 * 1024 * 1024
SLOW_SECONDS = float(os.environ.get("HOSTILE_DELAY", "20"))
FLOOD_BYTES = int(float(os.environ.get("HOSTILE_FLOOD_MB", "256")) * 1024 * 1024)
TOOLS = [{"name": "health_check", "description": "Report the index health.",
          "inputSchema": {"type": "object", "properties": {}}},
         {"name": "search_code", "description": "Search code by text.",
          "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}]


def to_stdout(data: bytes) -> None:
    """One message on stdout."""
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.buffer.flush()


SINK = threading.local()  # where write() sends a message: stdout, or the HTTP answer being made in this thread


def write(message: dict[str, Any], raw: bytes = b"") -> None:
    """One message out; `raw` replaces the text payload's marker with bytes that may be invalid UTF-8."""
    data = json.dumps(message).encode("utf-8")
    if raw:
        data = data.replace(b"RAW", raw)
    getattr(SINK, "send", to_stdout)(data)


def flood() -> None:
    """Write FLOOD_BYTES to stderr in 1 MB chunks, as fast as the reader takes them."""
    chunk = b"E" * 1023 + b"\n"
    block = chunk * 1024
    with open(sys.stderr.fileno(), "wb", closefd=False) as err:
        for _ in range(FLOOD_BYTES // len(block)):
            err.write(block)
            err.flush()
        err.write(b"FLOOD-END\n")


def orphan() -> None:
    """Fork a child in a session of its own that outlives this process, holding stdout (and stdin) open."""
    if os.fork() == 0:
        os.setsid()
        time.sleep(3600)
        os._exit(0)


def initialize_result(params: dict[str, Any]) -> dict[str, Any]:
    return {"protocolVersion": params.get("protocolVersion"), "capabilities": {"tools": {}},
            "serverInfo": {"name": "hostile", "version": "0.0.1"}}


def serve(mode: str) -> None:
    if mode == "orphan":
        orphan()
    flooding = threading.Thread(target=flood, daemon=True)
    if mode == "stderr_flood":
        flooding.start()
    for line in sys.stdin:
        if not line.strip():
            continue
        if mode == "silent":
            continue
        if mode == "garbage":
            sys.stdout.write("<<< not json-rpc >>>\n")
            sys.stdout.flush()
            continue
        answer(mode, json.loads(line), flooding)


def answer(mode: str, message: dict[str, Any], flooding: threading.Thread) -> None:
    """Answer one JSON-RPC message the way `mode` does (nothing for a notification)."""
    method, message_id, params = message.get("method"), message.get("id"), message.get("params") or {}
    if message_id is None:
        return
    if mode == "slow":
        time.sleep(SLOW_SECONDS)
    if method == "initialize":
        if mode == "wrong_id":
            write({"jsonrpc": "2.0", "id": f"not-{message_id}", "result": initialize_result(params)})
            return
        write({"jsonrpc": "2.0", "id": message_id, "result": initialize_result(params)})
        if mode == "exit_after_initialize":
            sys.exit(0)
    elif method == "tools/list":
        write({"jsonrpc": "2.0", "id": message_id, "result": {"tools": TOOLS}})
    elif method == "tools/call" and mode == "no_answer":
        return
    elif method == "tools/call" and mode == "orphan":
        sys.exit(3)
    elif method == "tools/call" and mode == "crash_on_search" and params.get("name") == "search_code":
        sys.exit(6)
    elif method == "tools/call" and mode == "crash_on_search":
        health = {"status": "ready", "metadata": {}}
        write({"jsonrpc": "2.0", "id": message_id,
               "result": {"content": [{"type": "text", "text": json.dumps(health)}], "isError": False}})
    elif method == "tools/call" and mode == "stderr_flood":
        flooding.join()
        sys.exit(4)
    elif method == "tools/call" and mode == "invalid_utf8":
        # Latin-1 where UTF-8 is due: a JSON-RPC answer with its id, unreadable as UTF-8.
        listing: dict[str, Any] = {"results": [{"path": "RAW.py"}]}
        write({"jsonrpc": "2.0", "id": message_id,
               "result": {"content": [{"type": "text", "text": json.dumps(listing)}], "isError": False}},
              raw=b"caf\xe9")
    elif method == "tools/call" and mode == "slow":
        write({"jsonrpc": "2.0", "id": message_id,
               "result": {"content": [{"type": "text", "text": json.dumps({"results": []})}], "isError": False}})
    elif method == "tools/call":
        # A valid JSON object, so the verdict is about its size and shape, not about parsing.
        payload = {"results": [], "padding": "x" * HUGE_BYTES}
        write({"jsonrpc": "2.0", "id": message_id,
               "result": {"content": [{"type": "text", "text": json.dumps(payload)}], "isError": False}})
    else:
        write({"jsonrpc": "2.0", "id": message_id, "result": {}})


def serve_http(mode: str, port: int, sse: bool) -> None:
    """The same answers over Streamable HTTP (no sessions): each request's answer is its POST's body."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    idle = threading.Thread(target=lambda: None)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            message = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
            sent: list[bytes] = []
            SINK.send = sent.append
            answer(mode, message, idle)
            if not sent:
                self.send_response(202)
                self.end_headers()
                return
            body = b"event: message\ndata: " + sent[0] + b"\n\n" if sse else sent[0]
            self.send_response(200)
            self.send_header("content-type", "text/event-stream" if sse else "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            self.send_response(405)
            self.end_headers()

        def do_DELETE(self) -> None:
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    if "--port" in sys.argv:
        serve_http(sys.argv[1], int(sys.argv[sys.argv.index("--port") + 1]), "--sse" in sys.argv)
    else:
        serve(sys.argv[1])
