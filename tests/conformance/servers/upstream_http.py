"""The upstream server's HTTP transport, in front of a server that speaks newline-delimited JSON-RPC on stdio.

Its shape is read from the upstream server's source (crates/cruxe-mcp/src/http.rs at ba8f9a0d): one route,
`POST /`, taking one JSON-RPC message and answering it with one JSON body; no session id, no SSE, no GET
stream (405); a body that is not JSON gets 400 with an `invalid_input` error; `notifications/initialized`
gets a JSON-RPC answer with a null id (other notifications: method not found). allowed_rewrites_proxy.py
serves it with `--http PORT`, so the twin can be gated over HTTP with the same reshapes as over stdio.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NoReturn

ANSWER_WAIT_SECONDS = 900.0  # a request the stdio server never answers frees its thread by then


class Waiter:
    """One forwarded request waiting for its answer."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.answer: dict[str, Any] | None = None


def serve(port: int, child: subprocess.Popen[bytes], outgoing: Callable[[dict[str, Any]], None],
          incoming: Callable[[dict[str, Any]], None]) -> NoReturn:
    """Serve upstream's HTTP transport on 127.0.0.1:`port` in front of `child` until its stdout ends, then exit
    with its status. `outgoing` sees (and may rewrite) each message before the child does, `incoming` each answer."""
    assert child.stdin is not None and child.stdout is not None
    stdin, stdout = child.stdin, child.stdout
    write_lock = threading.Lock()
    waiting: dict[int, Waiter] = {}
    numbers = itertools.count(1)  # the child's ids: one client's ids may repeat another's

    def forward(message: dict[str, Any]) -> None:
        outgoing(message)
        with write_lock:
            stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            stdin.flush()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _send(self, status: int, body: dict[str, Any] | None = None) -> None:
            data = json.dumps(body).encode("utf-8") if body is not None else b""
            self.send_response(status)
            if body is not None:
                self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            if self.path != "/":
                self._send(404)
                return
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                message = json.loads(body)
                if not isinstance(message, dict) or not isinstance(message.get("method"), str):
                    raise ValueError("not one JSON-RPC request")
            except ValueError as error:
                self._send(400, {"error": {"code": "invalid_input", "message": f"Invalid JSON request body: {error}"}})
                return
            if "id" not in message:
                forward(message)
                if message["method"] == "notifications/initialized":
                    self._send(200, {"jsonrpc": "2.0", "id": None, "result": {}})
                else:
                    self._send(200, {"jsonrpc": "2.0", "id": None,
                                     "error": {"code": -32601, "message": f"Method not found: {message['method']}"}})
                return
            asked, number, waiter = message["id"], next(numbers), Waiter()
            waiting[number] = waiter
            message["id"] = number
            try:
                forward(message)
                answered = waiter.done.wait(ANSWER_WAIT_SECONDS)
            except OSError:  # the child is gone: this connection ends with the process
                answered = False
            finally:
                waiting.pop(number, None)
            if not answered or waiter.answer is None:
                self._send(504)
                return
            waiter.answer["id"] = asked
            self._send(200, waiter.answer)

        def do_GET(self) -> None:
            self._send(405 if self.path == "/" else 404)

        def do_DELETE(self) -> None:
            self._send(405 if self.path == "/" else 404)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    for line in stdout:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "method" in message:
            continue  # the child's own notifications and requests: upstream's HTTP transport relays none
        incoming(message)
        waiter = waiting.get(message.get("id"))  # type: ignore[arg-type]
        if waiter is not None:
            waiter.answer = message
            waiter.done.set()
    os._exit(child.wait())  # the child ended: so does the server, with its status
