"""The reference's own Streamable HTTP, relayed by a proxy that rewrites its answers as allowed_rewrites_proxy does.

    streamable_proxy.py PORT [--only NAME,NAME | --break NAME] -- SERVER ARGV...

SERVER ARGV starts an MCP server on Streamable HTTP at 127.0.0.1, with `INNER_PORT` where its port goes (the
proxy picks a free one). The proxy listens on 127.0.0.1:PORT and relays every request (POST, GET, DELETE; its
headers, session id and bearer token included) to the server and every answer back: a JSON body whole, an SSE
stream event by event as it arrives. Each JSON-RPC answer (in a body or in an event's data) to a request of the
same POST is rewritten by `allowed_rewrites_proxy.from_server`: the allowed rewrites, or one breaker. So the
breakers reach the gate over the transport the reference serves, SSE framing and sessions included, where
allowed_rewrites_proxy.py `--http` serves upstream's (one JSON answer per POST).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from allowed_rewrites_proxy import ENVELOPE_REWRITES, REWRITES, Pending, from_server, to_server

INNER = "INNER_PORT"
START_SECONDS = 60.0
ANSWER_WAIT_SECONDS = 900.0  # as upstream_http.py: a request never answered frees its thread by then
# Hop-by-hop headers and the ones each side's HTTP stack sets itself: never copied from one side to the other.
OWN_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "te", "trailer", "upgrade",
               "date", "server"}


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rewritten(data: bytes, pending: Pending, breaker: str | None, chosen: set[str]) -> bytes:
    """`data` (a JSON-RPC message or batch) with each answer to a pending request rewritten; as it was otherwise."""
    try:
        parsed = json.loads(data)
    except ValueError:
        return data
    messages = parsed if isinstance(parsed, list) else [parsed]
    changed = [isinstance(m, dict) and from_server(m, pending, False, breaker, chosen) for m in messages]
    return json.dumps(parsed).encode("utf-8") if any(changed) else data


def relay_events(answer: http.client.HTTPResponse, write: Any, pending: Pending, breaker: str | None,
                 chosen: set[str]) -> None:
    """Relay an SSE stream event by event (each written as it ends), rewriting each event's data."""
    event: list[bytes] = []
    for line in iter(answer.readline, b""):
        if line.strip(b"\r\n"):
            event.append(line)
            continue
        data = [part[5:].removeprefix(b" ").rstrip(b"\r\n") for part in event if part.startswith(b"data:")]
        if data:
            ending = b"\r\n" if event[0].endswith(b"\r\n") else b"\n"
            event = [part for part in event if not part.startswith(b"data:")]
            event.append(b"data: " + rewritten(b"\n".join(data), pending, breaker, chosen) + ending)
        write(b"".join(event) + line)
        event = []
    if event:
        write(b"".join(event))


def serve(port: int, inner: int, breaker: str | None, chosen: set[str]) -> ThreadingHTTPServer:
    """Listen on 127.0.0.1:`port`, relaying to the server on `inner`."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def relay(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            pending: Pending = {}
            if self.command == "POST":
                try:
                    parsed = json.loads(body)
                except ValueError:
                    parsed = None
                for message in parsed if isinstance(parsed, list) else [parsed]:
                    if isinstance(message, dict):
                        to_server(message, pending, False)
            upstream = http.client.HTTPConnection("127.0.0.1", inner, timeout=ANSWER_WAIT_SECONDS)
            try:
                upstream.request(self.command, self.path, body=body or None,
                                 headers={k: v for k, v in self.headers.items() if k.lower() not in OWN_HEADERS})
                answer = upstream.getresponse()
                self.send_response(answer.status)
                for key, value in answer.getheaders():
                    if key.lower() not in OWN_HEADERS:
                        self.send_header(key, value)
                if (answer.getheader("content-type") or "").startswith("text/event-stream"):
                    self.send_header("transfer-encoding", "chunked")
                    self.end_headers()

                    def chunk(data: bytes) -> None:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                        self.wfile.flush()

                    relay_events(answer, chunk, pending, breaker, chosen)
                    self.wfile.write(b"0\r\n\r\n")
                else:
                    data = answer.read()
                    if (answer.getheader("content-type") or "").startswith("application/json"):
                        data = rewritten(data, pending, breaker, chosen)
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
            finally:
                upstream.close()

        do_POST = do_GET = do_DELETE = relay

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    """Start the server on a free port, relay PORT to it until it exits, then exit with its status."""
    port, argv = int(sys.argv[1]), sys.argv[2:]
    chosen, breaker = set(REWRITES) | set(ENVELOPE_REWRITES), None
    if argv[:1] == ["--only"]:
        chosen, argv = set(argv[1].split(",")), argv[2:]
    elif argv[:1] == ["--break"]:
        breaker, argv = argv[1], argv[2:]
    argv = argv[1:] if argv[:1] == ["--"] else argv
    inner = free_port()
    child = subprocess.Popen([part.replace(INNER, str(inner)) for part in argv])
    # Stopped, the relay stops its server too (an HTTP server, unlike a stdio one, outlives its parent's pipes).
    def stop(*_: Any) -> None:
        child.terminate()
        os._exit(1)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stop)
    deadline = time.monotonic() + START_SECONDS
    while child.poll() is None and time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", inner)) == 0:
                break
        time.sleep(0.05)
    else:
        child.kill()
        sys.exit(f"the server did not listen on 127.0.0.1:{inner} within {START_SECONDS:g}s")
    serve(port, inner, breaker, chosen)
    os._exit(child.wait())  # the server ended: so does the relay, with its status


if __name__ == "__main__":
    main()
