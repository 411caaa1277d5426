"""One MCP client connection to one server process, over stdio or Streamable HTTP, with a timeout on every wait.

The official SDK client is async; pytest items are not. A connection lives in
a task of a background event loop (an anyio blocking portal shared by the
session), so a server can be reused across scenarios while each call is made
synchronously from the item. Every failure to start, answer or parse raises
``ServerFailure`` carrying the tail of the server's stderr.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from anyio.from_thread import BlockingPortal

from conformance.workspace import tail


class ServerFailure(AssertionError):
    """The server crashed, hung, broke the protocol or answered something unreadable."""

    def __init__(self, message: str, stderr_tail: str = "") -> None:
        tail_text = f"\n--- server stderr (tail) ---\n{stderr_tail}" if stderr_tail else "\n(server stderr was empty)"
        text = message + tail_text
        super().__init__(text)
        self.stderr_tail = stderr_tail


@dataclass
class Response:
    """A tool answer: the payload the runner judges, plus the raw forms it came in."""

    payload: Any
    structured: Any
    text: str | None
    is_error: bool
    raw: dict[str, Any]


@dataclass(frozen=True)
class WireDefect:
    """Something on the server's stdout that is not a JSON-RPC message the client can take."""

    kind: str    # "not_json" | "notification_reply" | "not_jsonrpc"
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def wire_defect(exc: Exception) -> WireDefect:
    """Classify what the SDK could not parse: a non-JSON line, a reply with id null, or other JSON."""
    errors = exc.errors() if hasattr(exc, "errors") else []
    if any(error.get("type") == "json_invalid" for error in errors):
        line = next((error.get("input") for error in errors if error.get("type") == "json_invalid"), "")
        return WireDefect("not_json", f"a line that is not JSON: {str(line)[:200]!r}")
    if any(error.get("loc", ())[:2] in (("JSONRPCResponse", "id"), ("JSONRPCError", "id"))
           and error.get("input") is None for error in errors):
        return WireDefect("notification_reply", "a response with id null: a reply to a notification "
                          "(JSON-RPC forbids answering notifications/initialized or any other notification)")
    return WireDefect("not_jsonrpc", f"a JSON line that is not a JSON-RPC message: {_describe(exc)[:300]}")


def free_port() -> int:
    """A free loopback TCP port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _describe(exc: BaseException) -> str:
    """One readable line per leaf exception (task groups wrap them)."""
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(inner) for inner in exc.exceptions)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def to_response(result: Any) -> Response:
    """Read a CallToolResult: payload = structuredContent, else the JSON of the first text item."""
    raw = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    structured = raw.get("structuredContent")
    texts = [item.get("text") for item in raw.get("content") or [] if item.get("type") == "text"]
    text = texts[0] if texts else None
    payload = structured
    if payload is None:
        if text is None:
            raise ServerFailure("malformed payload: no structuredContent and no text content item: "
                                f"{json.dumps(raw)[:300]}")
        try:
            payload = json.loads(text)
        except ValueError as exc:
            raise ServerFailure(f"malformed payload: the first text item is not JSON ({exc}): {text[:300]!r}") from None
    if not isinstance(payload, dict):
        raise ServerFailure(f"malformed payload: expected a JSON object, got {json.dumps(payload)[:300]}")
    return Response(payload=payload, structured=structured, text=text, is_error=bool(raw.get("isError")), raw=raw)


class Connection:
    """A started server plus an initialized MCP client session to it."""

    def __init__(self, portal: BlockingPortal, transport: str, *, argv: list[str] | None = None,
                 url: str | None = None, cwd: Path | None = None, env: dict[str, str] | None = None,
                 log_path: Path, timeouts: dict[str, float], defect_sink: list[WireDefect] | None = None) -> None:
        self.portal = portal
        self.transport = transport
        self.argv, self.url, self.cwd = argv, url, cwd
        self.env = {**os.environ, **(env or {})}
        self.log_path = log_path
        self.timeouts = timeouts
        self.client: Any = None
        self.server_info: dict[str, Any] | None = None
        self.defects: list[WireDefect] = []
        self.defect_sink = defect_sink  # the session's list, for the wire scenario
        self.broken = False
        self._process: subprocess.Popen[bytes] | None = None
        self._ready = threading.Event()
        self._stop: anyio.Event | None = None
        self._future: Any = None
        self._tools: list[dict[str, Any]] | None = None

    # ------------------------------------------------------------ lifecycle

    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr (and, over HTTP, stdout)."""
        try:
            return tail(self.log_path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            return ""

    def fail(self, message: str) -> ServerFailure:
        """A ServerFailure with this server's stderr tail."""
        return ServerFailure(message, self.stderr_tail())

    def open(self) -> Connection:
        """Start the server (unless it is a fixed URL) and complete the MCP handshake, or raise ServerFailure."""
        start = self.timeouts["start"]
        if self.transport == "http" and self.argv:
            self._spawn_http(start)
        self._future = self.portal.start_task_soon(self._hold)
        deadline = time.monotonic() + start + 10  # the task enforces `start`; this is a backstop
        while not self._ready.wait(0.05):
            if self._future.done():
                exc = self._future.exception()
                self.close()
                if isinstance(exc, TimeoutError):
                    raise self.fail(f"server did not complete the MCP handshake within {start:g}s: {self._what()}")
                raise self.fail(f"server failed to start or to complete the MCP handshake: {self._what()}\n"
                                f"{_describe(exc)}")
            if time.monotonic() > deadline:
                self.close()
                raise self.fail(f"server did not complete the MCP handshake within {start:g}s: {self._what()}")
        return self

    def _what(self) -> str:
        return " ".join(self.argv) if self.argv else str(self.url)

    def _spawn_http(self, start: float) -> None:
        assert self.argv is not None  # only a server the runner starts is spawned
        with self.log_path.open("wb") as log:
            self._process = subprocess.Popen(self.argv, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                                             stdout=log, stderr=log, start_new_session=True)
        host, port = _host_port(self.url or "")
        deadline = time.monotonic() + start
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise self.fail(f"server exited with status {self._process.returncode} before listening: "
                                f"{self._what()}")
            with socket.socket() as sock:
                sock.settimeout(0.5)
                if sock.connect_ex((host, port)) == 0:
                    return
            time.sleep(0.05)
        self.close()
        raise self.fail(f"server did not listen on {host}:{port} within {start:g}s: {self._what()}")

    async def _hold(self) -> None:
        """Own the client session for the connection's lifetime (task groups must exit where they entered)."""
        from mcp import Client, StdioServerParameters

        self._stop = anyio.Event()
        if self.transport == "stdio":
            assert self.argv is not None  # a stdio target is always a command
            server: Any = StdioServerParameters(command=self.argv[0], args=self.argv[1:], cwd=self.cwd, env=self.env)
        else:
            server = self.url
        errlog = self.log_path.open("w", encoding="utf-8") if self.transport == "stdio" else None
        try:
            with anyio.CancelScope(deadline=anyio.current_time() + self.timeouts["start"]) as scope:
                client_kwargs: dict[str, Any] = {"mode": "legacy", "message_handler": self._on_message,
                                                 # The SDK's own limit backs ours up; ours fires first and says "hangs".
                                                 "read_timeout_seconds": self.timeouts["call"] + 5}
                if errlog is not None:
                    from mcp.client.stdio import stdio_client

                    server = stdio_client(server, errlog=errlog)
                async with Client(server, **client_kwargs) as client:
                    scope.deadline = math.inf
                    self.client = client
                    info = client.server_info
                    self.server_info = info.model_dump(mode="json", exclude_none=True) if info is not None else None
                    self._ready.set()
                    await self._stop.wait()
            if scope.cancelled_caught and not self._ready.is_set():
                raise TimeoutError("handshake timed out")
        finally:
            if errlog is not None:
                errlog.close()

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            # A line the client could not read as a JSON-RPC message. It is kept as a wire defect for the
            # wire scenario to judge; the SDK skips the line, so every other scenario still gets its verdict.
            self.defects.append(wire_defect(message))
            if self.defect_sink is not None:
                self.defect_sink.append(self.defects[-1])

    def close(self) -> None:
        """Stop the client session and the server process; bounded waits only."""
        if self._future is not None and self._stop is not None and not self._future.done():
            with contextlib.suppress(Exception):  # the loop may already be gone at interpreter exit
                self.portal.call(self._stop.set)
        if self._future is not None:
            try:
                self._future.result(timeout=15)
            except BaseException:  # noqa: BLE001 - whatever ended the session, closing must go on
                self._future.cancel()
        if self._process is not None and self._process.poll() is None:
            try:
                os.killpg(self._process.pid, signal.SIGTERM)
                self._process.wait(timeout=5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self._process.pid, signal.SIGKILL)
                self._process.wait(timeout=5)

    # ---------------------------------------------------------------- calls

    def _run(self, what: str, coroutine_fn: Any, *args: Any) -> Any:
        from mcp import MCPError

        timeout = self.timeouts["call"]

        async def bounded() -> Any:
            with anyio.fail_after(timeout):
                result = await coroutine_fn(*args)
            # The SDK hands unparsable stdout lines to message_handler in a spawned task: let it run.
            for _ in range(3):
                await anyio.sleep(0)
            return result

        if self.broken:
            raise self.fail(f"{what}: the server is no longer usable after an earlier failure")
        try:
            result = self.portal.call(bounded)
        except TimeoutError:
            self.broken = True
            raise self.fail(f"{what}: no answer within {timeout:g}s (the server hangs)") from None
        except MCPError as exc:
            code = getattr(exc, "code", None)
            if code == -32000 and "closed" in str(exc).lower():
                self.broken = True
                raise self.fail(f"{what}: the connection closed without an answer "
                                "(the server crashed or exited)") from None
            raise self.fail(f"{what}: answered with a JSON-RPC error {code}: {exc} (a tool failure must be a "
                            "tool result with isError and a registry code)") from None
        except RuntimeError as exc:
            raise self.fail(f"{what}: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - pydantic validation of a malformed result, transport errors
            self.broken = True
            raise self.fail(f"{what}: unreadable answer: {_describe(exc)[:600]}") from None
        return result

    def call_tool(self, name: str, arguments: dict[str, Any]) -> Response:
        """tools/call `name` and read its payload."""
        result = self._run(f"tools/call {name}", self.client.call_tool, name, arguments)
        try:
            return to_response(result)
        except ServerFailure as exc:
            raise self.fail(f"tools/call {name}: {exc.args[0].splitlines()[0]}") from None

    def list_tools(self) -> list[dict[str, Any]]:
        """Every tool tools/list answers (all pages), as plain dicts; cached per connection."""
        if self._tools is None:
            async def all_pages() -> list[Any]:
                tools, cursor = [], None
                while True:
                    page = await self.client.list_tools(cursor=cursor)
                    tools.extend(page.tools)
                    cursor = page.next_cursor
                    if not cursor:
                        return tools

            listed = self._run("tools/list", all_pages)
            self._tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in listed]
        return self._tools


def _host_port(url: str) -> tuple[str, int]:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or (443 if parts.scheme == "https" else 80)
