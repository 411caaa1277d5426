"""Executing one scenario on a lease: the context its steps run in (servers, workspace, captures, judge)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

import pytest

from cruxgate.conformance.checks.judge import ExpectationFailed, Judge, canonical_numbers, resolve
from cruxgate.conformance.report.transcript import Transcript
from cruxgate.conformance.spec.model import Check, Expect, Scenario, run_steps
from cruxgate.conformance.target.lifecycle import Lease
from cruxgate.conformance.target.names import NameMap
from cruxgate.conformance.target.wire import Connection, Response
from cruxgate.conformance.target.workspace import Workspace


class ScenarioRun:
    """The state of one scenario being executed: its lease, transport, captures and findings."""

    def __init__(self, lease: Lease, transport: str, judge: Judge, transcript: Transcript | None = None) -> None:
        self.lease = lease
        self.transport = transport
        self.judge_ = judge
        self.transcript = transcript or Transcript()
        self.captures: dict[str, Any] = {}
        self.names = NameMap(lease.target.names)

    def run(self, scenario: Scenario) -> None:
        """Run the scenario's steps from where the lease's preparation stopped."""
        run_steps(scenario.steps, self, start=self.lease.first_step, on_step=self._at)

    def _at(self, index: int) -> None:
        self.judge_.step = index

    # ------------------------------------------------------------- StepContext

    def server(self, transport: str | None) -> Connection:
        """The server over `transport` (default: the scenario's)."""
        return self.lease.server(transport or self.transport)

    def workspace(self) -> Workspace:
        """The lease's workspace (skips the scenario against a running server)."""
        return self.lease.workspace()

    def restart(self, config: dict[str, Any] | None, prewarm: bool) -> None:
        """Restart the servers, optionally with another config or without prewarm."""
        self.lease.restart(config, prewarm)

    def call(self, tool: str, args: dict[str, Any], transport: str | None) -> Response:
        """Call a tool with the target's argument names; the answer in our field names, numbers canonical."""
        with self.transcript.call(self.judge_.step, "tools/call", tool, args, transport or self.transport) as record:
            response = self.server(transport).call_tool(self.names.tool(tool), self.names.arguments(tool, args))
            response.payload = canonical_numbers(self.names.fields(tool, response.payload))
            self.transcript.answered(record, response.payload, response.is_error)
        return response

    def list_tools(self, transport: str | None) -> list[dict[str, Any]]:
        """tools/list asked now (a step observes the answer of its moment, never a cached one), in our names."""
        with self.transcript.call(self.judge_.step, "tools/list", None, None, transport or self.transport) as record:
            tools = self.names.tools(self.server(transport).list_tools(refresh=True))
            self.transcript.answered(record, {"tools": tools}, False)
        return tools

    def judge(self, expect: Expect, response: Any) -> None:
        """Judge one answer against an expect block."""
        self.judge_.answer(expect, response, self.captures)

    def judge_listing(self, expect: Expect, listing: dict[str, Any]) -> None:
        """Judge a tools/list listing: its checks and schema, no tool outcome to weigh."""
        response = Response(payload=listing, structured=None, text=None, is_error=False, raw=listing)
        self.judge_.answer(expect, response, self.captures, outcome=False)

    def capture(self, spec: Mapping[str, str], payload: Any) -> None:
        """Store each `name: JMESPath` of a capture block."""
        for name, expression in spec.items():
            self.captures[name] = resolve(expression, payload, self.captures)

    def fail(self, message: str) -> NoReturn:
        """Fail the step with `message`."""
        raise ExpectationFailed(message)

    def compare(self, check: Check) -> None:
        """Run a named check over the captures."""
        self.judge_.run_check(check, None, self.captures, self.captures)

    def skip(self, reason: str) -> None:
        """Skip the scenario with `reason`."""
        pytest.skip(reason)

