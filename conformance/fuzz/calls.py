"""One fuzz call observed: the tool's answer (or why there is none), and whether a known-good call still answers after.

Everything goes through the runner's Connection (the SDK client): a crash or hang breaks the connection,
and the environment starts a fresh server for the next call. A line on stdout that is not JSON-RPC breaks
nothing (the connection keeps it as a WireDefect); the ones written during a call are the call's. Arguments
and answers are in our names; a target profile's `names` maps them on the wire, as for the scenarios.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from cruxgate.conformance.fuzz.odd_values import substitute
from cruxgate.conformance.fuzz.validity import Validity
from cruxgate.conformance.target.lifecycle import Environment
from cruxgate.conformance.target.names import NameMap
from cruxgate.conformance.target.wire import Connection, Response, ServerFailure, WireDefect

# Failures after which the server is gone or unusable; a known-good call is not tried then.
FATAL = ("hang", "closed", "unreadable", "oversized")


class TargetLost(BaseException):
    """The server cannot be (re)started: fuzzing this tool cannot go on.

    A BaseException, so hypothesis does not take it for a finding and shrink it.
    """

    def __init__(self, failure: ServerFailure) -> None:
        super().__init__(str(failure))
        self.failure = failure


@dataclass
class Observation:
    """One call and what came back."""

    tool: str
    arguments: dict[str, Any]  # as generated ({outside} not yet substituted): what a report shows
    validity: Validity
    response: Response | None = None
    failure: ServerFailure | None = None
    recovery: ServerFailure | None = None  # the known-good call after this one failed so
    elapsed: float = 0.0
    markers: tuple[str, ...] = ()  # text no answer may carry (file content from outside the workspace)
    defects: tuple[WireDefect, ...] = ()  # what the server wrote to stdout during the call that is not JSON-RPC

    def answer_text(self) -> str:
        """Every byte of the answer a client saw, as text (for marker searches and reports)."""
        if self.response is not None:
            return json.dumps(self.response.raw, ensure_ascii=False)
        return str(self.failure) if self.failure is not None else ""

    def excerpt(self, limit: int = 600) -> str:
        """The payload (or why there is none), cut to `limit` characters, for a report."""
        if self.response is not None:
            text = json.dumps(self.response.payload, ensure_ascii=False)
        else:
            text = "no tool result: " + (str(self.failure).splitlines() or [""])[0]
        return text if len(text) <= limit else text[:limit] + f"... ({len(text):,} characters)"

    def stderr_tail(self, lines: int = 8) -> str:
        """The last lines the server wrote to stderr, when the call failed."""
        tail = self.failure.stderr_tail if self.failure is not None else ""
        return "\n".join(tail.splitlines()[-lines:])

    def error_code(self) -> str | None:
        """The error envelope's code, if the answer is one."""
        payload = self.response.payload if self.response is not None else None
        error = payload.get("error") if isinstance(payload, dict) else None
        code = error.get("code") if isinstance(error, dict) else None
        return code if isinstance(code, str) else None


@dataclass
class Caller:
    """Makes fuzz calls to one tool over one transport of an environment."""

    environment: Environment
    transport: str
    outside: str  # the folder holding the workspace: OUTSIDE in a value becomes it
    known_good: tuple[str, dict[str, Any]] | None  # a call that must keep answering (None: tools/list)
    markers: tuple[str, ...] = ()

    def connection(self) -> Connection:
        """The live server, started again after a crash; TargetLost when it cannot start (or the deadline passed)."""
        try:
            return self.environment.server(self.transport)
        except ServerFailure as exc:
            raise TargetLost(exc) from None

    def observe(self, tool: str, arguments: dict[str, Any], validity: Validity) -> Observation:
        """Call `tool` with `arguments`, then the known-good call unless the server is gone."""
        observation = Observation(tool, arguments, validity, markers=self.markers)
        connection = self.connection()
        names = NameMap(self.environment.target.names)
        seen = len(connection.defects)
        started = time.monotonic()
        try:
            response = connection.call_tool(tool, names.arguments(tool, substitute(arguments, self.outside)))
            response.payload = names.fields(tool, response.payload)
            observation.response = response
        except ServerFailure as exc:
            if exc.kind == "deadline":
                raise TargetLost(exc) from None  # the run's deadline for the target: no verdict on this input
            observation.failure = exc
        observation.elapsed = time.monotonic() - started
        if observation.failure is None or observation.failure.kind not in FATAL:
            observation.recovery = self._known_good(connection, names)
        observation.defects = tuple(connection.defects[seen:])
        return observation

    def _known_good(self, connection: Connection, names: NameMap) -> ServerFailure | None:
        try:
            if self.known_good is None:
                connection.list_tools(refresh=True)
            else:
                tool, arguments = self.known_good
                connection.call_tool(tool, names.arguments(tool, arguments))
        except ServerFailure as exc:
            if exc.kind in FATAL:
                return exc
        return None
