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
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from anyio.from_thread import BlockingPortal

from cruxgate.conformance.target import reaper
from cruxgate.conformance.target.deadline import NO_DEADLINE, Deadline, Probe
from cruxgate.conformance.target.output_tail import OutputTail
from cruxgate.conformance.target.wire_clock import WireClock
from cruxgate.conformance.target.workspace import TAIL_CHARS


class ServerFailure(AssertionError):
    """The server crashed, hung, broke the protocol or answered something unreadable."""

    def __init__(self, message: str, stderr_tail: str = "") -> None:
        tail_text = f"\n--- server stderr (tail) ---\n{stderr_tail}" if stderr_tail else "\n(server stderr was empty)"
        text = message + tail_text
        super().__init__(text)
        self.stderr_tail = stderr_tail
        # what went wrong, for the fuzz checks (conformance/fuzz/calls.py) to judge without parsing text:
        # start | hang | closed | oversized | rpc_error (then rpc_code) | unreadable | malformed | invalid_output
        # | deadline (the run's deadline for the target cut the wait).
        # (A stray line on stdout is no failure: it is a WireDefect, kept for the wire scenario.)
        self.kind = "start"
        self.rpc_code: int | None = None

    def tagged(self, kind: str, rpc_code: int | None = None) -> ServerFailure:
        """This failure with its kind (and JSON-RPC error code) set."""
        self.kind, self.rpc_code = kind, rpc_code
        return self


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

    kind: str    # "not_json" | "not_utf8" | "notification_reply" | "not_jsonrpc"
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def wire_defect(exc: Exception) -> WireDefect:
    """Classify what the client could not parse: a non-JSON line, a reply with id null, or other JSON.

    `exc` is the pydantic error of validating one stdout line as a JSON-RPC message, as the runner's stdio
    transport (conformance/fuzz/stdio_transport.py, which validates the line's bytes) or the SDK's (which
    validates text) hands it to the message handler.
    """
    from cruxgate.conformance.target.stdio_transport import NotUtf8

    if isinstance(exc, NotUtf8):
        return WireDefect("not_utf8", f"a line that is not valid UTF-8: {exc.detail}")
    errors = exc.errors() if hasattr(exc, "errors") else []
    if any(error.get("type") == "json_invalid" for error in errors):
        line = next((error.get("input") for error in errors if error.get("type") == "json_invalid"), "")
        if isinstance(line, (bytes, bytearray)):
            line = bytes(line[:800]).decode("utf-8", errors="replace")
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
                 timeouts: dict[str, float], defect_sink: list[WireDefect] | None = None,
                 deadline: Deadline = NO_DEADLINE, headers: Callable[[], dict[str, str]] | None = None) -> None:
        self.portal = portal
        self.transport = transport
        self.argv, self.url, self.cwd = argv, url, cwd
        self.env = {**os.environ, **(env or {})}
        # The server's own mark (under its workspace's): the reaper finds every process of its tree by it.
        self.mark = reaper.new_mark(self.env.get(reaper.MARK))
        self.env[reaper.MARK] = self.mark
        self.output: OutputTail | None = None  # stderr (and, over HTTP, stdout), bounded; made at the start
        self.timeouts = timeouts
        self.deadline = deadline
        self.exit_status: int | None = None  # the server exited while connected (stdio)
        self.exit_note = ""
        self.client: Any = None
        self.wire_clock = WireClock()  # each request's time on the wire, stamped by the transport (the SLO harness)
        self.server_info: dict[str, Any] | None = None
        self.defects: list[WireDefect] = []
        self.defect_sink = defect_sink  # the session's list, for the wire scenario
        self.headers = headers  # HTTP headers for every request, made once the server listens (a token it wrote)
        self._http_headers: dict[str, str] = {}
        self.oversized: Exception | None = None  # the transport refused a message over its size cap
        self.not_utf8: str | None = None  # HTTP: where the body of the last answer stopped being UTF-8
        self.refused = ""  # HTTP: the last 401/403 the server answered
        self.broken = False
        self._process: subprocess.Popen[bytes] | None = None
        self._ready = threading.Event()
        self._stop: anyio.Event | None = None
        self._future: Any = None
        self._tools: list[dict[str, Any]] | None = None
        self.exit_probe: Probe | None = None  # the exit rule's probe on a fresh server (lifecycle.Environment sets it)

    # ------------------------------------------------------------ lifecycle

    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr (and, over HTTP, stdout)."""
        return self.output.text(TAIL_CHARS) if self.output is not None else ""

    def fail(self, message: str) -> ServerFailure:
        """A ServerFailure with this server's stderr tail."""
        return ServerFailure(message, self.stderr_tail())

    def open(self) -> Connection:
        """Start the server (unless it is a fixed URL) and complete the MCP handshake, or raise ServerFailure."""
        from cruxgate.conformance.target.stdio_transport import load_sdk

        load_sdk()  # before the start timeout's clock: the runner's own imports are not the server's start
        if self.deadline.passed():
            raise self.fail(f"{self.deadline.why()} before the server started: {self._what()}"
                            ).tagged("deadline")
        start, self._start_cut = self.deadline.bound(self.timeouts["start"])
        self._start_wait = start
        if self.argv:
            self.output = OutputTail()
        if self.transport == "http" and self.argv:
            self._spawn_http(start)
        if self.transport == "http" and self.headers is not None:
            try:
                self._http_headers = self.headers()
            except Exception as exc:  # noqa: BLE001 - a profile problem (its secret file never came) fails the start
                self.close()
                raise self.fail(f"server started but its HTTP headers could not be made: {exc}") from None
        self._future = self.portal.start_task_soon(self._hold)
        try:
            self._handshake(start)
        except ServerFailure:
            raise  # closed already
        except BaseException:  # interrupted (Ctrl-C, SIGTERM) while starting: stop what was started
            self.close()
            raise
        return self

    def _handshake(self, start: float) -> None:
        """Wait for the handshake and the first tools/list, or raise ServerFailure (closed)."""
        deadline = time.monotonic() + start + 10  # the task enforces `start`; this is a backstop
        # Lines on stdout that are not JSON-RPC never fail a start by themselves (a server may log a line and then
        # answer; the wire scenario reports it). A server that writes only such lines times out, and its failure
        # says what it wrote.
        while not self._ready.wait(0.05):
            if self.deadline.passed() and not self._future.done():
                self._start_cut = True  # the pace rule ended the waits (another server was too slow)
                self.close()
                raise self._handshake_timeout(start)
            if self._future.done():
                exc = self._future.exception()
                self.close()
                if isinstance(exc, TimeoutError):
                    raise self._handshake_timeout(start)
                raise self.fail(f"server failed to start or to complete the MCP handshake: {self._what()}"
                                f"{self._defects_seen()}{self._refusal()}\n{_describe(exc)}")
            if time.monotonic() > deadline:
                self.close()
                raise self._handshake_timeout(start)
        # a server that exits (or stops answering) right after `initialize` did not start either; its first
        # tools/list tells (and is cached for the scenarios), so the runner can fail a dead target's scenarios at once.
        try:
            self.list_tools()
        except ServerFailure as exc:
            if exc.kind == "rpc_error":
                return  # it answers: the scenarios judge that answer
            self.close()
            raise self.fail(f"server failed its first request after the MCP handshake: {self._what()}: "
                            f"{str(exc).splitlines()[0]}").tagged("deadline" if exc.kind == "deadline" else "start"
                                                                  ) from None

    def _handshake_timeout(self, start: float) -> ServerFailure:
        if self._start_cut:
            return self.fail(f"{self.deadline.why()} during the MCP handshake ({start:.1f}s after the "
                             f"start): {self._what()}{self._defects_seen()}").tagged("deadline")
        return self.fail(f"server did not complete the MCP handshake within {start:g}s: {self._what()}"
                         f"{self._defects_seen()}")

    def _what(self) -> str:
        return " ".join(self.argv) if self.argv else str(self.url)

    def _refusal(self) -> str:
        """Why an HTTP server refused the handshake, when it said so with its status ('' otherwise)."""
        if not self.refused:
            return ""
        hint = " (a running server: give its token with --server-token-file or $CRUXGATE_SERVER_TOKEN)" \
            if self.argv is None else ""
        return f": it answered {self.refused}{hint}"

    def _defects_seen(self) -> str:
        """What a failed start wrote to stdout that is not JSON-RPC ('' when nothing): the likely reason."""
        if not self.defects:
            return ""
        return (f" (meanwhile it wrote {len(self.defects)} line(s) to stdout that are not JSON-RPC messages; "
                f"the first: {self.defects[0]})")

    def _spawn_http(self, start: float) -> None:
        assert self.argv is not None and self.output is not None  # only a server the runner starts is spawned
        self._process = subprocess.Popen(self.argv, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                                         stdout=self.output.fileno(), stderr=self.output.fileno(),
                                         start_new_session=True)
        self.output.started()
        reaper.track(self._process.pid, self.mark)  # reaped even when the run is interrupted or killed with SIGTERM
        host, port = _host_port(self.url or "")
        deadline = time.monotonic() + start
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                self.close()
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
        from mcp import Client

        from cruxgate.conformance.target.stdio_transport import (
            stdio_transport,  # loads the SDK: only when a server starts
        )

        self._stop = anyio.Event()
        server: Any = self.url  # stdio: the runner's own transport (below)
        stdio = self.transport == "stdio"
        try:
            with anyio.CancelScope(deadline=anyio.current_time() + self._start_wait) as scope:
                client_kwargs: dict[str, Any] = {"mode": "legacy", "message_handler": self._on_message,
                                                 # The SDK's own limit backs ours up; ours fires first and says "hangs".
                                                 "read_timeout_seconds": self.timeouts["call"] + 5}
                if stdio:
                    # the runner's own stdio transport (linear reads, a size cap, a tracked process tree);
                    # the SDK's re-joins its buffer per 64 KB chunk: one 50 MB answer cost it ~35 s of CPU.
                    assert self.output is not None
                    server = stdio_transport(list(self.argv or ()), cwd=self.cwd, env=self.env,
                                             stderr=self.output.fileno(), on_oversize=self._on_oversize,
                                             on_exit=self._on_exit, clock=self.wire_clock)
                http_client: Any = contextlib.nullcontext()
                if not stdio:
                    from mcp.client.streamable_http import streamable_http_client

                    from cruxgate.conformance.target.http_client import utf8_checked_client

                    http_client = utf8_checked_client(self._http_headers, self._on_not_utf8, self._on_refused,
                                                      self.wire_clock)
                    server = streamable_http_client(str(self.url), http_client=http_client)
                async with http_client, Client(server, **client_kwargs) as client:
                    scope.deadline = math.inf
                    self.client = client
                    info = client.server_info
                    self.server_info = info.model_dump(mode="json", exclude_none=True) if info is not None else None
                    self._ready.set()
                    await self._stop.wait()
            if scope.cancelled_caught and not self._ready.is_set():
                raise TimeoutError("handshake timed out")
        finally:
            if self.output is not None:
                self.output.started()  # the server has its copy (or never started): the pipe ends with it

    def _on_oversize(self, exc: Exception) -> None:
        self.oversized = exc

    def _on_not_utf8(self, where: str) -> None:
        self.not_utf8 = where

    def _on_refused(self, status: str) -> None:
        self.refused = status

    def _on_exit(self, status: int, left: int) -> None:
        self.exit_status = status
        if left:
            self.exit_note = (f"; {left} process(es) it left running, holding its stdout open, were stopped "
                              "(the process the runner started is the server)")

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            # A line the client could not read as a JSON-RPC message. It is kept as a wire defect for the
            # wire scenario to judge; the SDK skips the line, so every other scenario still gets its verdict.
            self.defects.append(wire_defect(message))
            if self.defect_sink is not None:
                self.defect_sink.append(self.defects[-1])

    def close(self) -> None:
        """Stop the client session and the server process; bounded waits only."""
        if self._future is not None and not self._ready.is_set() and not self._future.done():
            self._future.cancel()  # still in the handshake, so nothing waits on _stop; cancel, do not wait
        if self._future is not None and self._stop is not None and not self._future.done():
            with contextlib.suppress(Exception):  # the loop may already be gone at interpreter exit
                self.portal.call(self._stop.set)
        if self._future is not None:
            try:
                self._future.result(timeout=15)
            except BaseException:  # noqa: BLE001 - whatever ended the session, closing must go on
                self._future.cancel()
        if self._process is not None:
            if self._process.poll() is None:  # its tree while its pid is still ours (not yet waited for)
                reaper.stop_tree(self._process.pid, self.mark, grace=5)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._process.wait(timeout=5)
            reaper.stop_tree(None, self.mark, grace=0.5)
            if self._process.poll() is not None:
                reaper.untrack(self._process.pid)
        if self.output is not None:
            self.output.close()

    # ---------------------------------------------------------------- calls

    def _run(self, what: str, coroutine_fn: Any, *args: Any, listing: bool = False,
             call: tuple[str, dict[str, Any]] | None = None, probe: bool = False) -> Any:
        """One request, bounded (`call`: the tools/call's tool and arguments, for the exit rule; `probe`: the
        exit rule's own probe, which is not counted as one more exit)."""
        from mcp import MCPError

        from cruxgate.conformance.target.stdio_transport import UNDECODABLE_CODE, UNDECODABLE_PREFIX

        timeout, cut = self.deadline.bound(self.timeouts["call"])

        async def bounded() -> Any:
            with anyio.fail_after(timeout):
                result = await coroutine_fn(*args)
            # The SDK hands unparsable stdout lines to message_handler in a spawned task: let it run.
            for _ in range(3):
                await anyio.sleep(0)
            return result

        if self.broken:
            raise self.fail(f"{what}: the server is no longer usable after an earlier failure").tagged("closed")
        if cut and timeout <= 0:
            raise self.fail(f"{what}: not sent: {self.deadline.why()}").tagged("deadline")
        began = time.monotonic()
        self.not_utf8 = None
        try:
            future = self.portal.start_task_soon(bounded)
            try:
                result = self._wait(future)
            except BaseException:
                future.cancel()  # an interrupted run must not leave the call running (the loop waits for it)
                raise
        except TimeoutError:
            self.broken = True
            cut = cut or self.deadline.passed()  # the pace rule may end the waits while this one is under way
            if cut:
                raise self.fail(f"{what}: {self.deadline.why()} while waiting for the answer "
                                f"({timeout:.1f}s into the call; the server had not answered)").tagged("deadline"
                                                                                                      ) from None
            self._check_utf8(what)
            too_slow = self.deadline.note_wait(time.monotonic() - began, listing)
            if too_slow:
                raise self.fail(f"{what}: no answer within {timeout:g}s; {too_slow}; the scenarios after this one "
                                "are not run").tagged("deadline") from None
            raise self.fail(f"{what}: no answer within {timeout:g}s (the server hangs)").tagged("hang") from None
        except MCPError as exc:
            code = getattr(exc, "code", None)
            closed = code == -32000 and "closed" in str(exc).lower()
            if closed:
                self._check_utf8(what)  # not answered: no wait for the pace rule
            else:
                self._settle(what, began, listing)
            if code == UNDECODABLE_CODE and str(exc).startswith(UNDECODABLE_PREFIX):
                raise self.fail(f"{what}: {str(exc).removeprefix('cruxgate: ')} (MCP: JSON-RPC messages MUST be "
                                "UTF-8 encoded)").tagged("unreadable") from None
            if closed:
                self.broken = True
                if self.output is not None:  # the server is gone: its last stderr lines are on their way, read them
                    self.output.wait_for_end(1.0)
                if self.oversized is not None:
                    raise self.fail(f"{what}: {self.oversized}").tagged("oversized") from None
                status = f" with status {self.exit_status}{self.exit_note}" if self.exit_status is not None else ""
                how = f"the server crashed or exited{status}"
                every = None if call is None or probe else self.deadline.note_exit(*call, how, self._probe)
                if every:
                    raise self.fail(f"{what}: the connection closed without an answer ({how}); {every}; the "
                                    "scenarios after this one are not run").tagged("deadline") from None
                raise self.fail(f"{what}: the connection closed without an answer ({how})").tagged("closed") from None
            raise self.fail(f"{what}: answered with a JSON-RPC error {code}: {exc} (a tool failure must be a "
                            "tool result with isError and a registry code)").tagged("rpc_error", code) from None
        except RuntimeError as exc:  # mostly the SDK's check of structuredContent against the tool's outputSchema
            self._settle(what, began, listing)
            text = str(exc).lower()
            invalid = "structured content" in text or "invalid schema for tool" in text
            raise self.fail(f"{what}: {exc}").tagged("invalid_output" if invalid else "unreadable") from None
        except Exception as exc:  # noqa: BLE001 - pydantic validation of a malformed result, transport errors
            self.broken = True
            self._settle(what, began, listing)
            raise self.fail(f"{what}: unreadable answer: {_describe(exc)[:600]}").tagged("unreadable") from None
        self._settle(what, began, listing)
        return result

    def _probe(self) -> tuple[str | None, str | None]:
        """The exit rule's probe through `exit_probe`, set by whoever can start a fresh server; without one, as for
        a server that lists no health_check."""
        return self.exit_probe() if self.exit_probe is not None else (None, None)

    def _wait(self, future: Any) -> Any:
        """The request's result; TimeoutError at its own timeout, or as soon as the run's deadline has passed (the
        pace rule may end the waits while this request is under way, answered by a server prepared ahead)."""
        while True:
            try:
                return future.result(timeout=0.1)
            except TimeoutError:
                if future.done() or self.deadline.passed():
                    raise

    def _check_utf8(self, what: str) -> None:
        """Fail the request whose answer (over HTTP) was not UTF-8, whatever the SDK made of it."""
        if self.not_utf8 is not None:
            raise self.fail(f"{what}: the answer is not valid UTF-8: {self.not_utf8} (MCP: JSON-RPC messages MUST "
                            "be UTF-8 encoded)").tagged("unreadable")

    def _settle(self, what: str, began: float, listing: bool) -> None:
        """An answered request: fail it when its answer was not UTF-8, or when it ends the run's waits on the target
        (the pace rule)."""
        self._check_utf8(what)
        waited = time.monotonic() - began
        too_slow = self.deadline.note_wait(waited, listing)
        if too_slow:
            raise self.fail(f"{what}: answered after {waited:.1f}s; {too_slow}; the scenarios after this one are "
                            "not run").tagged("deadline")

    def call_tool(self, name: str, arguments: dict[str, Any], probe: bool = False) -> Response:
        """tools/call `name` and read its payload (`probe`: the exit rule's probe)."""
        result = self._run(f"tools/call {name}", self.client.call_tool, name, arguments, call=(name, arguments),
                           probe=probe)
        try:
            return to_response(result)
        except ServerFailure as exc:
            raise self.fail(f"tools/call {name}: {exc.args[0].splitlines()[0]}").tagged("malformed") from None

    def list_tools(self, refresh: bool = False) -> list[dict[str, Any]]:
        """Every tool tools/list answers (all pages), as plain dicts; cached per connection unless `refresh`."""
        if self._tools is None or refresh:  # refresh: the known-good call for a server without health_check
            async def all_pages() -> list[Any]:
                tools, cursor = [], None
                while True:
                    page = await self.client.list_tools(cursor=cursor)
                    tools.extend(page.tools)
                    cursor = page.next_cursor
                    if not cursor:
                        return tools

            listed = self._run("tools/list", all_pages, listing=True)
            self._tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in listed]
        return self._tools


def _host_port(url: str) -> tuple[str, int]:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or (443 if parts.scheme == "https" else 80)
