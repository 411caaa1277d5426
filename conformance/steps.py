"""Executing one scenario's steps against its environment: call, compare, list_tools, edit, commit, reindex, restart, hook, wait."""

from __future__ import annotations

import json
import time
from typing import Any

import jmespath
import pytest

from conformance import expect
from conformance.lifecycle import Environment
from conformance.wire import Response

ACTIONS = ("call", "compare", "list_tools", "edit", "commit", "reindex", "restart", "hook", "wait")
# Steps that need no running server: those a scenario starts with run before its servers start.
WORKSPACE_STEPS = ("edit", "commit", "reindex", "restart", "hook")


class StepFailed(AssertionError):
    """A step that failed; carries its number and a one-line description for the report."""

    def __init__(self, index: int, description: str, cause: BaseException) -> None:
        super().__init__(f"step {index + 1} ({description}): {cause}")
        self.index, self.description, self.cause = index, description, cause


def action_of(step: dict[str, Any]) -> str:
    """The action a step performs."""
    return next(action for action in ACTIONS if action in step)


def describe(step: dict[str, Any], default_transport: str) -> str:
    """A short human description of a step."""
    action = action_of(step)
    if action == "call":
        args = json.dumps(step.get("args") or {}, ensure_ascii=False)
        return f"call {step['call']} {args[:200]} over {step.get('transport', default_transport)}"
    if action == "wait":
        return f"wait for {step['wait']['until']} via {step['wait']['call']}"
    if action == "compare":
        return f"compare {step['compare']['check']}"
    if action in ("commit", "hook"):
        return f"{action} {step[action]}"
    return action


def leading_count(steps: list[dict[str, Any]]) -> int:
    """How many steps at the start of a scenario change only the workspace (no server needed)."""
    count = 0
    while count < len(steps) and action_of(steps[count]) in WORKSPACE_STEPS:
        count += 1
    return count


def run_leading(environment: Environment, scenario: dict[str, Any]) -> None:
    """Apply a scenario's leading workspace steps and record (count, error) on the environment.

    They run before any server of the environment starts, so a server sees the state a hook
    produced from its first moment (a damaged segment must make prewarm fail).
    """
    steps = scenario.get("steps", [])
    count = leading_count(steps)
    try:
        ScenarioRun(environment, "").run(steps[:count])
    except BaseException as exc:  # a skip (pytest's outcome exceptions) is re-raised by the scenario too
        environment.leading = (count, exc)
        return
    environment.leading = (count, None)


class ScenarioRun:
    """The state of one scenario being executed: its environment, transport and captures."""

    def __init__(self, environment: Environment, transport: str) -> None:
        self.environment = environment
        self.transport = transport
        self.captures: dict[str, Any] = {}

    def run(self, steps: list[dict[str, Any]], start: int = 0) -> None:
        """Run the steps from `start` on, in order; the first failure stops the scenario."""
        for index, step in enumerate(steps[start:], start):
            try:
                getattr(self, "_" + action_of(step))(step)
            except (AssertionError, Exception) as exc:
                if isinstance(exc, pytest.skip.Exception):
                    raise
                raise StepFailed(index, describe(step, self.transport), exc) from exc

    # ---------------------------------------------------------------- steps

    def _server(self, transport: str | None):
        return self.environment.server(transport or self.transport)

    def _call(self, step: dict[str, Any]) -> None:
        response = self._server(step.get("transport")).call_tool(step["call"], step.get("args") or {})
        expect.check_answer(step.get("expect"), response, self.captures)
        expect.capture(step.get("capture"), response.payload, self.captures)

    def _compare(self, step: dict[str, Any]) -> None:
        expect.run_check(step["compare"], None, self.captures, self.captures)

    def _list_tools(self, step: dict[str, Any]) -> None:
        body = step["list_tools"] or {}
        payload = {"tools": self._server(body.get("transport")).list_tools()}
        response = Response(payload=payload, structured=None, text=None, is_error=False, raw=payload)
        expect.check_answer(body.get("expect"), response, self.captures, outcome=False)
        expect.capture(body.get("capture"), payload, self.captures)

    def _workspace(self):
        if self.environment.workspace is None:
            pytest.skip("the target is a running server (--server-url): the runner cannot change its workspace")
        return self.environment.workspace

    def _edit(self, step: dict[str, Any]) -> None:
        self._workspace().edit(step["edit"])

    def _commit(self, step: dict[str, Any]) -> None:
        self._workspace().commit(step["commit"])

    def _reindex(self, step: dict[str, Any]) -> None:
        self._workspace().index()

    def _hook(self, step: dict[str, Any]) -> None:
        self._workspace().hook(step["hook"])

    def _restart(self, step: dict[str, Any]) -> None:
        body = step["restart"] or {}
        self._workspace()
        prewarm = body.get("prewarm", True)
        if not prewarm and self.environment.target.no_prewarm_args is None:
            pytest.skip(f"target {self.environment.target.name} has no no-prewarm variant (no_prewarm_args)")
        self.environment.restart(body.get("config"), prewarm)

    def _wait(self, step: dict[str, Any]) -> None:
        body = step["wait"]
        interval = float(body.get("interval", 0.2))
        deadline = time.monotonic() + float(body["timeout"])
        last: Any = None
        while True:
            response = self._server(None).call_tool(body["call"], body.get("args") or {})
            last = response.payload
            if jmespath.search(body["until"], last):
                return
            if time.monotonic() >= deadline:
                raise expect.ExpectationFailed(
                    f"{body['until']!r} did not become true within {body['timeout']}s; last payload: "
                    f"{json.dumps(last, ensure_ascii=False)[:400]}"
                )
            time.sleep(interval)
