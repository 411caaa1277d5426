"""The typed step model: each kind parses itself; leading workspace steps run before any server starts."""

from __future__ import annotations

from typing import Any

import pytest

from cruxgate.conformance.spec.loader import build_scenario, build_step
from cruxgate.conformance.spec.model import DOCUMENT, STEP_KINDS, Basis, Requirement, StepFailed, run_leading

BASIS = Basis(DOCUMENT, "000 > Scenario: x", "MUST")
REQUIREMENT = Requirement("AP-X", "t", "000 > Requirement: x", "MUST", "s", "scenarios", "agent-protocol")


def scenario(*steps):
    return build_scenario(REQUIREMENT, {"id": "AP-X-01", "title": "t", "source": "000 > Scenario: x", "when": "w",
                                        "then": "t", "coverage": "executable", "steps": list(steps)})


class _Context:
    """A StepContext for the leading steps: a workspace of hooks; anything that needs a server fails the test."""

    transport = "stdio"

    def __init__(self, fail_on: str | None = None):
        self.fail_on = fail_on
        self.done: list[tuple[str, str]] = []
        self.captures: dict[str, Any] = {}

    def workspace(self):
        return self

    def hook(self, name):
        if name == self.fail_on:
            raise RuntimeError(f"hook {name} exited with status 1")
        self.done.append(("hook", name))

    def resolve(self, path):
        raise AssertionError("no edit expected")

    def call(self, tool, args, transport):
        raise AssertionError("no server may start during the leading steps")

    def server(self, transport):
        raise AssertionError("no server may start during the leading steps")

    def restart(self, config, prewarm):
        raise AssertionError("no server may restart during the leading steps")

    def list_tools(self, transport):
        raise AssertionError("no server may start during the leading steps")

    def judge(self, expect, response):
        raise AssertionError("nothing is judged during the leading steps")

    def judge_listing(self, expect, listing):
        raise AssertionError("nothing is judged during the leading steps")

    def capture(self, spec, payload):
        raise AssertionError("nothing is captured during the leading steps")

    def fail(self, message):
        raise AssertionError(message)

    def compare(self, check):
        raise AssertionError("nothing is compared during the leading steps")

    def skip(self, reason):
        raise AssertionError("no leading step skips here")


def test_every_step_kind_parses_from_its_yaml_key():
    steps: list[dict[str, Any]] = [
        {"call": "health_check", "args": {}, "capture": {"s": "status"}},
        {"compare": {"check": "equal", "a": "$s", "b": "$s"}},
        {"list_tools": {}}, {"edit": {"path": "a.py", "append": "x"}}, {"commit": "m"}, {"reindex": {}},
        {"restart": {"prewarm": False}}, {"hook": "corrupt_manifest"},
        {"wait": {"call": "health_check", "until": "status", "timeout": 1}},
        {"require": {"that": "$s", "reason": "r"}},
    ]
    built = [build_step(step, BASIS) for step in steps]
    assert [step.kind for step in built] == list(STEP_KINDS)
    assert [step.mutates for step in built] == [False, False, False, True, True, True, True, True, False, False]


class _Captured:
    def __init__(self, captures):
        self.captures = captures
        self.skipped: str | None = None

    def skip(self, reason):
        self.skipped = reason


@pytest.mark.parametrize(("captures", "skipped"), [({"t": True}, False), ({"t": False}, True), ({}, True)])
def test_require_skips_the_scenario_when_its_precondition_did_not_happen(captures, skipped):
    context = _Captured(captures)
    build_step({"require": {"that": "$t", "reason": "hybrid search did not run"}}, BASIS).run(context)  # type: ignore[arg-type]
    assert (context.skipped == "precondition not met: hybrid search did not run") is skipped


def test_leading_steps_stop_at_the_first_step_that_needs_a_server():
    spec = scenario({"hook": "corrupt_manifest"}, {"edit": {"path": "a", "append": "x"}}, {"call": "health_check"},
                    {"hook": "not_indexed"})
    assert spec.leading_steps() == 2 and spec.mutates()
    assert scenario({"call": "health_check"}, {"hook": "x"}).leading_steps() == 0


def test_leading_steps_run_without_a_server_and_a_failure_names_its_step():
    spec = scenario({"hook": "reindex_required"}, {"hook": "corrupt_manifest"}, {"call": "health_check"})
    context = _Context()
    run_leading(spec.steps[:spec.leading_steps()], context)
    assert context.done == [("hook", "reindex_required"), ("hook", "corrupt_manifest")]
    with pytest.raises(StepFailed) as info:
        run_leading(spec.steps[:spec.leading_steps()], _Context(fail_on="corrupt_manifest"))
    assert str(info.value).startswith("step 2 (hook corrupt_manifest): hook corrupt_manifest exited with status 1")


def test_a_check_basis_defaults_to_the_scenario_and_can_be_named():
    spec = scenario({"call": "search_code", "args": {"query": "x"}, "expect": {"checks": [
        {"check": "unique", "path": "results"},
        {"check": "unique", "path": "results", "basis": "reading R28"},
        {"check": "unique", "path": "results", "basis": "mcp: tools/call results"}]}})
    checks = spec.steps[0].expect.checks
    assert [(c.basis.kind, c.basis.gates) for c in checks] == [("document", True), ("reading", False), ("mcp", False)]
    assert checks[0].basis.ref == "000 > Scenario: x"
    assert (checks[1].basis.ref, checks[1].basis.level, checks[1].basis.reading) == ("R28", "reading", "R28")
