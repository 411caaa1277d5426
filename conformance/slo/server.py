"""A target prepared and started by the conformance runner's own machinery, driven over MCP like a client."""

from __future__ import annotations

import functools
import json
import time
from pathlib import Path
from typing import Any

import anyio

from cruxgate.conformance.target.lifecycle import Environment, Lifecycle
from cruxgate.conformance.target.profile import Target
from cruxgate.conformance.target.wire import Connection, to_response


class ToolFailure(AssertionError):
    """A benchmarked call answered with a tool error: the figure would time the wrong path."""


class BenchServer:
    """One target serving one workspace (a fixture or the real corpus) over one transport."""

    def __init__(self, target: Target, transport: str, fixtures_dir: Path, fixture: str,
                 config: dict[str, Any] | None = None, deadline_seconds: float = 0) -> None:
        """Copy `fixture` from `fixtures_dir`, index it with the profile's index_command, start the server
        (with `config` written in the profile's format, when given)."""
        self.target, self.transport, self.corpus = target, transport, fixture
        self.source = fixtures_dir / fixture  # the corpus as copied: query sets are drawn from its text
        # No run deadline unless asked: a benchmark session times its own steps and may rightly run for longer.
        self.lifecycle = Lifecycle(target, fixtures_dir, fixture, deadline_seconds=deadline_seconds)
        try:
            # The environment is built directly, not leased for a scenario: the harness has no scenario, and
            # the constructor (copy, index, start on demand) is the part of the lifecycle that stays put while
            # its scenario API moves. git: the freshness check (SC-106) reads the VCS signal a real workspace has.
            self.environment = Environment(self.lifecycle, fixture, config or {}, True)
        except BaseException:
            self.lifecycle.close()  # its event-loop thread and temp dirs
            raise
        self._tools: set[str] | None = None
        self._floor_method: str | None = None

    @property
    def connection(self) -> Connection:
        """The live connection (started, or restarted after a failure, on demand)."""
        return self.environment.server(self.transport)

    def _bounded(self, fn: Any, *args: Any) -> Any:
        connection = self.connection
        timeout = self.target.timeouts["call"]

        async def run() -> Any:
            with anyio.fail_after(timeout):
                return await fn(*args)

        return connection.portal.call(run)

    def noop(self, _round: int = 0) -> float:
        """The no-op round trip every latency is read against: `ping`, else `tools/list` (see `floor_method`);
        returns its time on the wire (ms), like `call`."""
        connection = self.connection
        request = self._noop_request(connection, self.floor_method)  # before the clock: the first floor probes
        connection.wire_clock.begin()
        self._bounded(request)
        return connection.wire_clock.call_ms()

    @staticmethod
    def _noop_request(connection: Connection, method: str) -> Any:
        # Client.send_ping warns on every connection because protocol 2026-07-28 removes ping, and the SDK names
        # no successor. The runner's connections speak the handshake-era protocol (mode="legacy"), where ping is
        # the protocol's own no-op: the session sends that same request without the version-blind warning.
        if method == "ping":
            return connection.client.session.send_ping
        # bypass: a tools/list answered from the SDK's response cache would time no round trip at all.
        return functools.partial(connection.client.list_tools, cache_mode="bypass")

    @property
    def floor_method(self) -> str:
        """`ping` when the target answers it, else `tools/list` (a server may drop ping in newer protocol modes)."""
        if self._floor_method is None:
            try:
                self._bounded(self._noop_request(self.connection, "ping"))
                self._floor_method = "ping"
            except Exception:  # noqa: BLE001 - whatever way ping fails (error, timeout), the floor is tools/list
                self._floor_method = "tools/list"
        return self._floor_method

    def call(self, tool: str, arguments: dict[str, Any]) -> float:
        """tools/call until the payload is in hand; returns the call's time on the wire (ms).

        The wire time (the request's last byte written to the answer's last byte read, stamped by the
        runner's transport) is what a latency SLO judges; the caller times the whole call around it.
        A server that sends structuredContent has it parsed (and checked against the tool's outputSchema)
        by the SDK; one that sends only the JSON text is charged its json.loads here, so both forms' whole
        calls end at the same point.
        """
        connection = self.connection
        connection.wire_clock.begin()
        result = self._bounded(connection.client.call_tool, tool, arguments)
        wire_ms = connection.wire_clock.call_ms()
        if result.is_error:
            raise ToolFailure(f"{tool} {arguments} answered a tool error: {to_response(result).payload}")
        if result.structured_content is None:
            json.loads(next(item.text for item in result.content if item.type == "text"))
        return wire_ms

    def payload(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The payload of a successful call (structuredContent, else the text item's JSON)."""
        response = self.connection.call_tool(tool, arguments)
        if response.is_error:
            raise ToolFailure(f"{tool} {arguments} answered a tool error: {response.payload}")
        payload: dict[str, Any] = response.payload
        return payload

    def text_bytes(self, tool: str, arguments: dict[str, Any]) -> int:
        """UTF-8 bytes of the answer's JSON payload as the wire carries it in the text item."""
        response = self.connection.call_tool(tool, arguments)
        if response.is_error:
            raise ToolFailure(f"{tool} {arguments} answered a tool error: {response.payload}")
        return len((response.text or "").encode("utf-8"))

    def tools(self) -> set[str]:
        """The tool names tools/list answers."""
        if self._tools is None:
            self._tools = {tool["name"] for tool in self.connection.list_tools()}
        return self._tools

    def server_info(self) -> dict[str, Any] | None:
        """The serverInfo of the handshake."""
        return self.connection.server_info

    def can_restart(self) -> bool:
        """Whether the harness starts this server itself (not a --server-url one)."""
        return not self.target.fixed_url

    def restart(self) -> float:
        """Stop the server, start a fresh process (prewarm on) and return ms from spawn to handshake done."""
        self.environment.restart(None, prewarm=True)
        started = time.perf_counter()
        _ = self.connection
        return (time.perf_counter() - started) * 1000.0

    def wait_ready(self, timeout: float) -> None:
        """Wait until health_check stops saying `warming` (prewarm done), so warm figures are warm."""
        if "health_check" not in self.tools():
            return  # nothing says when prewarm is done: the warm-up rounds have to do
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.payload("health_check", {}).get("status")
            if status != "warming":
                return
            time.sleep(0.05)

    def close(self) -> None:
        """Stop the server and delete the workspace."""
        try:
            self.environment.close()  # not the lifecycle's to close: it closes only environments it leased
        finally:
            self.lifecycle.close()
