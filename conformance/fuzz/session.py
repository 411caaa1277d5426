"""The fuzz session: one environment of its own (the default fixture, default config), the canary beside its
workspace, and each tool the target lists with its advertised schema and the spec's schemas.

The pytest items and `cruxgate fuzz replay` both work through it. Its environment is never shared with
the scenarios: a fuzz run may reindex, sync or crash the server. Schemas and arguments are in our names
(a profile's `names` maps the advertised schemas back, as the surface lint does).
"""

from __future__ import annotations

import dataclasses
import tempfile
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from hypothesis.strategies import SearchStrategy

from cruxgate.conformance.fuzz.calls import Caller
from cruxgate.conformance.fuzz.checks import Context
from cruxgate.conformance.fuzz.odd_values import SYSTEM_MARKERS, outside_files
from cruxgate.conformance.fuzz.strategies import arguments_for
from cruxgate.conformance.fuzz.validity import Judge
from cruxgate.conformance.spec.model import ToolRule
from cruxgate.conformance.spec.schemas import schema as spec_schema
from cruxgate.conformance.surface.lint import load_expected_inputs
from cruxgate.conformance.target.deadline import KNOWN_GOOD
from cruxgate.conformance.target.lifecycle import Environment, Lifecycle
from cruxgate.conformance.target.names import NameMap


@dataclass
class Tool:
    """One listed tool and what the fuzz phase draws and judges with."""

    name: str
    advertised: dict[str, Any] | None
    spec_input: dict[str, Any] | None
    spec_output: dict[str, Any] | None
    rule: ToolRule | None = None  # the document that defines the tool, when the spec does

    @cached_property
    def judge(self) -> Judge:
        """Validity of an argument set against both input schemas."""
        return Judge(self.advertised, self.spec_input)

    @cached_property
    def strategy(self) -> SearchStrategy[dict[str, Any]]:
        """The hypothesis strategy of argument sets."""
        return arguments_for(self.advertised, self.spec_input)

    @property
    def context(self) -> Context:
        """What the checks need beyond one observation."""
        return Context(output_schema=self.spec_output, output_basis=self.rule.output if self.rule else None)


def _spec_output(tool: str) -> dict[str, Any] | None:
    try:
        return spec_schema(f"{tool}.output")
    except Exception:  # noqa: BLE001 - the spec has no output schema for a tool of the target's own
        return None


class FuzzSession:
    """A started server on a private environment, ready for fuzz calls to every tool it lists."""

    def __init__(self, runner: Lifecycle, transport: str, call_timeout: float, default_fixture: str,
                 origin: str, rules: dict[str, ToolRule] | None = None) -> None:
        self.transport = transport
        self.environment = Environment(runner, default_fixture, {}, False)
        self.environment.origin = origin
        target = self.environment.target
        self.environment.target = dataclasses.replace(target, timeouts={**target.timeouts, "call": call_timeout})
        workspace = self.environment.workspace
        if workspace is not None:
            self.outside = str(workspace.root)
            self.markers = outside_files(workspace.root)
        else:  # a running server (--server-url): no folder of ours lies outside its workspace
            self.outside, self.markers = tempfile.gettempdir(), SYSTEM_MARKERS
        listed = NameMap(target.names).tools(self.environment.server(transport).list_tools())
        inputs, rules = load_expected_inputs(), rules or {}
        self.tools = {entry["name"]: Tool(entry["name"], entry.get("inputSchema"), inputs.get(entry["name"]),
                                          _spec_output(entry["name"]), rules.get(entry["name"]))
                      for entry in listed if entry.get("name")}

    def caller(self) -> Caller:
        """A Caller over this session's environment; the known-good call is health_check when listed."""
        known_good = KNOWN_GOOD if KNOWN_GOOD[0] in self.tools else None
        return Caller(self.environment, self.transport, self.outside, known_good, self.markers)

    def close(self) -> None:
        """Stop the server and delete the workspace."""
        self.environment.close()
