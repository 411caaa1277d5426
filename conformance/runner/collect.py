"""Collecting spec/ into pytest items: one item per scenario (named by its id), run against the target."""

from __future__ import annotations

import contextlib
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cruxgate.conformance.checks.judge import FINDING, NOT_JUDGED, Judge
from cruxgate.conformance.report import results_json
from cruxgate.conformance.report.transcript import Transcript
from cruxgate.conformance.runner.scenario import ScenarioRun
from cruxgate.conformance.spec import paths
from cruxgate.conformance.spec.loader import DEFAULT_FIXTURE, SpecError, load_documents, scenarios, tool_rules
from cruxgate.conformance.spec.model import (
    JSONRPC_NOTIFICATION,
    MCP_STDIO,
    WIRE_SCENARIO_ID,
    ListTools,
    Requirement,
    Scenario,
    StepFailed,
    ToolRule,
)
from cruxgate.conformance.target.deadline import DEFAULT_SECONDS
from cruxgate.conformance.target.lifecycle import FAIL_FAST_PREFIX, Lifecycle
from cruxgate.conformance.target.names import NameMap
from cruxgate.conformance.target.profile import BUDGET_KEY, ProfileError, Target, resolve
from cruxgate.conformance.target.wire import ServerFailure
from cruxgate.conformance.target.workspace import WorkspaceError

TARGET_KEY = pytest.StashKey[Target]()
LIFECYCLE_KEY = pytest.StashKey[Lifecycle]()
TOOL_RULES_KEY = pytest.StashKey[dict[str, ToolRule]]()
STRICT_KEY = pytest.StashKey[bool]()
USAGE_ERROR_KEY = pytest.StashKey[str]()
CAUSES_KEY = pytest.StashKey[dict[str, str]]()  # first line of a preparation or start failure -> first scenario
SCENARIO = "cruxgate_scenario"  # user property: the scenario id (marks the reports of scenario items)
BLOCKED = "cruxgate_blocked"  # user property: the missing tool that blocked the scenario
SUITE_ANCHOR = "suite.yaml"


def _sets_budget(scenario: Scenario) -> bool:
    """Whether the scenario (or a restart step of it) sets a payload budget."""
    section, _, name = BUDGET_KEY.partition(".")
    configs = [scenario.config, *(getattr(step, "config", None) or {} for step in scenario.steps)]
    return any(name in (config.get(section) or {}) for config in configs if isinstance(config, dict))


class CruxgateWarning(UserWarning):
    """A check that did not hold on a basis that does not gate (a SHOULD, an MCP convention, a reading)."""


def lifecycle_for(config: pytest.Config) -> Lifecycle:
    """The session's lifecycle, created on the first scenario that needs a server."""
    if LIFECYCLE_KEY not in config.stash:
        fixtures = config.getoption("fixtures_dir", None)
        folder = Path(fixtures) if fixtures else paths.fixtures_dir()
        seconds = config.getoption("target_deadline")
        config.stash[LIFECYCLE_KEY] = Lifecycle(config.stash[TARGET_KEY], folder, DEFAULT_FIXTURE,
                                                DEFAULT_SECONDS if seconds is None else seconds)
    return config.stash[LIFECYCLE_KEY]


def is_suite_anchor(file_path: Path) -> bool:
    """Whether `file_path` is conformance/suite.yaml (the file `pytest conformance/` collects the spec from)."""
    return file_path.name == SUITE_ANCHOR and file_path.parent.resolve() == Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def deferred_usage_errors(config: pytest.Config) -> Iterator[None]:
    """Keep a usage error met while collecting for `raise_deferred_usage_error` (after collection).

    pytest turns an exception raised by a collector into a collection error with the runner's frames
    (exit status 2); a bad option deserves its message alone and the usage-error status 4.
    """
    try:
        yield
    except pytest.UsageError as exc:
        config.stash.setdefault(USAGE_ERROR_KEY, str(exc))


def raise_deferred_usage_error(config: pytest.Config) -> None:
    """Stop the run with the usage error a collector met, if any."""
    message = config.stash.get(USAGE_ERROR_KEY, None)
    if message is not None:
        raise pytest.UsageError(message)


def ensure_target(config: pytest.Config) -> Target:
    """Resolve the target from the options once (a bad profile is a usage error)."""
    if TARGET_KEY not in config.stash:
        try:
            target = resolve(config.getoption("target") or "stdio", config.getoption("target_profile"),
                             config.getoption("server_cmd"), config.getoption("server_url"),
                             config.getoption("server_token_file"))
        except ProfileError as exc:
            raise pytest.UsageError(f"cruxgate: {exc}") from None
        config.stash[TARGET_KEY] = target
        config.stash[results_json.TARGET_PROFILE_KEY] = target.name
    return config.stash[TARGET_KEY]


class SuiteFile(pytest.File):
    """conformance/suite.yaml: stands for every spec/*.yaml document (or --spec-dir)."""

    def collect(self) -> Iterator[pytest.Item]:
        with deferred_usage_errors(self.config):
            ensure_target(self.config)
            spec_dir = self.config.getoption("spec_dir", None)
            try:
                documents = load_documents(spec_dir)
            except SpecError as exc:
                raise pytest.UsageError(f"cruxgate: the spec does not load: {exc}") from None
            if not documents:  # the wire scenario alone judges no requirement: an empty spec is no run
                folder = spec_dir or paths.spec_dir()
                raise pytest.UsageError(f"cruxgate: no spec document (*.yaml) in {folder}: there is nothing to gate")
            self.config.stash[TOOL_RULES_KEY] = tool_rules(documents)
            for scenario in scenarios(documents):
                yield ScenarioItem.build(self, scenario)
            yield WireItem.build(self, WIRE_SCENARIO)


class ScenarioItem(pytest.Item):
    """One spec scenario: skipped with a reason, or executed step by step against the target."""

    spec: Scenario
    transcript: Transcript | None = None  # the calls of its run, for the reports

    @classmethod
    def build(cls, parent: SuiteFile, scenario: Scenario) -> ScenarioItem:
        """An item with the markers `-m` reads."""
        item = cls.from_parent(parent, name=scenario.id)
        item.spec = scenario
        item.user_properties.append((SCENARIO, scenario.id))
        # Positional for plugins reading marker.args, keywords for `-m "tool(name='search_code')"`.
        item.add_marker(pytest.mark.document(scenario.document, name=scenario.document))
        item.add_marker(pytest.mark.requirement(scenario.requirement.id, id=scenario.requirement.id))
        item.add_marker(pytest.mark.level(scenario.level, name=scenario.level))
        item.add_marker(getattr(pytest.mark, scenario.level.lower()))
        item.add_marker(getattr(pytest.mark, scenario.coverage))
        for tool in scenario.tools:
            item.add_marker(pytest.mark.tool(tool, name=tool))
        return item

    @property
    def scenario(self) -> dict[str, Any]:
        """The scenario as the report plugins read it (the same fields any runner's items may carry)."""
        spec = self.spec
        return {"id": spec.id, "title": spec.title, "source": spec.source, "level": spec.level,
                "coverage": spec.coverage, "tools": list(spec.tools), "when": spec.when, "then": spec.then}

    @property
    def requirement(self) -> dict[str, Any]:
        """The scenario's requirement as the report plugins read it."""
        requirement = self.spec.requirement
        return {"id": requirement.id, "title": requirement.title, "source": requirement.source,
                "level": requirement.level, "coverage": requirement.coverage}

    @property
    def transport(self) -> str:
        """The transport(s) the scenario runs over, for the reports."""
        default = self.config.getoption("target") or "stdio"
        return "+".join(self.spec.transports) if self.spec.transports else default

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.name}: {self.spec.title}"

    def _skip_reason(self, target: Target, transport: str) -> str | None:
        spec = self.spec
        if spec.coverage == "informative":
            return f"informative: {spec.reason or 'not observable over the wire'}"
        if spec.coverage == "benchmark":
            # The benchmark harness is not part of the installed gate: cite the spec, which the wheel ships.
            return (f"benchmark: a performance figure of {spec.requirement.id} (spec/{spec.document}.yaml), "
                    "measured by the SLO benchmarks, not by a scenario")
        for needed in spec.used_transports(transport):
            if not target.supports(needed):
                return f"target {target.name} has no {needed} transport"
        missing_hooks = [hook for hook in spec.hooks if hook not in target.hooks]
        if missing_hooks:
            return f"target {target.name} has no hook {', '.join(missing_hooks)}"
        if target.budget_fixed and _sets_budget(spec):
            return (f"target {target.name} cannot set its payload budget ({target.budget_fixed}); the scenario needs "
                    f"a smaller one ({BUDGET_KEY}; reading R34)")
        if target.fixed_url and spec.mutates():
            return "target is a running server (--server-url): the runner cannot change its workspace or restart it"
        if target.fixed_url and spec.config:
            return ("target is a running server (--server-url): the scenario needs its own server config "
                    f"({', '.join(sorted(spec.config))}), and the runner cannot restart the server with it")
        rules = self.config.stash.get(TOOL_RULES_KEY, {})
        unclaimed = [tool for tool in spec.tools if tool in rules and rules[tool].group
                     and tool not in (target.tools or [])]
        if unclaimed:
            rule = rules[unclaimed[0]]
            return (f"target {target.name} does not claim the optional {rule.group} tool(s) {', '.join(unclaimed)} "
                    f"({rule.surface or rule.name} in the spec); list them under the profile's tools to gate them")
        return None

    def needs_environment(self) -> list[str]:
        """The transports this scenario will use (main first); none when it is skipped before any server."""
        transport = self.config.getoption("target") or "stdio"
        if self._skip_reason(self.config.stash[TARGET_KEY], transport) is not None:
            return []
        main = self.spec.main_transport(transport)
        return [main] + [t for t in self.spec.used_transports(transport) if t != main]

    def _blocked(self, target: Target, listed: set[str]) -> tuple[str, str] | None:
        """Why the scenario cannot run: a tool it needs is not listed (its surface scenario owns that failure)."""
        rules = self.config.stash.get(TOOL_RULES_KEY, {})
        for tool in self.spec.tools:
            if tool in listed:
                continue
            rule = rules.get(tool)
            if rule is not None and rule.surface == self.spec.id:
                continue  # the scenario that owns the tool's presence runs, and fails
            owner = f"; {rule.surface} fails for it" if rule is not None and rule.surface else ""
            kind = "mandatory" if rule is not None and not rule.group else "claimed" if rule is not None else "needed"
            return tool, f"blocked: target {target.name} does not list the {kind} tool {tool} (tools/list){owner}"
        return None

    def runtest(self) -> None:
        target = self.config.stash[TARGET_KEY]
        transport = self.config.getoption("target") or "stdio"
        reason = self._skip_reason(target, transport)
        if reason:
            pytest.skip(reason)
        judge = Judge(strict=self.config.stash.get(STRICT_KEY, False))
        runner = lifecycle_for(self.config)
        runner.check_deadline(self.name)  # past the run's deadline for the target: not run
        try:
            with self._one_verdict_per_cause():
                # A dead target fails before any workspace is prepared ("target did not start; see <first>").
                runner.fail_fast(self.needs_environment())
            with runner.lease(self.spec) as lease:
                main = self.spec.main_transport(transport)
                with self._one_verdict_per_cause():
                    listed = self._listed_tools(lease, main)
                blocked = self._blocked(target, listed)
                if blocked:
                    self.user_properties.append((BLOCKED, blocked[0]))
                    pytest.skip(blocked[1])
                if lease.error is not None:
                    raise lease.error
                self.transcript = Transcript()
                ScenarioRun(lease, main, judge, self.transcript).run(self.spec)
            judge.conclude(self.spec.basis)
        except Exception:
            runner.note_failure(self.name)
            raise
        finally:
            self._record(judge)
        for finding in judge.warnings():
            warnings.warn(CruxgateWarning(f"{self.name}: {finding.describe()}"), stacklevel=1)

    @contextlib.contextmanager
    def _one_verdict_per_cause(self) -> Iterator[None]:
        """A target that cannot be prepared or started fails once: the first scenario that meets the cause fails
        with it, every later one is not run (skipped, naming the cause and that scenario)."""
        try:
            yield
        except (ServerFailure, WorkspaceError) as exc:
            cause = (str(exc).splitlines() or [type(exc).__name__])[0]
            lifecycle = lifecycle_for(self.config)
            dead = [origin for transport, (origin, _) in lifecycle.dead.items() if transport not in lifecycle.started]
            if isinstance(exc, ServerFailure) and dead and self.name not in dead:
                # The scenario whose start made the target dead tells the cause (its first line, stderr tail)
                # once; an environment prepared ahead that failed the same way is not another verdict.
                pytest.skip(f"not run: {FAIL_FAST_PREFIX}{dead[0]}")
            first = self.config.stash.setdefault(CAUSES_KEY, {}).setdefault(cause, self.name)
            if first != self.name:
                pytest.skip(f"not run: {cause} (see {first})")
            raise

    def _listed_tools(self, lease: Any, transport: str) -> set[str]:
        """The tool names tools/list answers over `transport` (asked once per session)."""
        runner = lifecycle_for(self.config)
        listed = runner.tools.get(transport)
        if listed is None:
            server = lease.server(transport)
            if server.server_info is not None and results_json.SERVER_INFO_KEY not in self.config.stash:
                self.config.stash[results_json.SERVER_INFO_KEY] = server.server_info
            ours = NameMap(self.config.stash[TARGET_KEY].names).tools(server.list_tools())
            listed = runner.tools[transport] = {str(tool.get("name")) for tool in ours}
        return listed

    def _record(self, judge: Judge) -> None:
        for finding in judge.findings:
            self.user_properties.append((FINDING, json.dumps(finding.as_record(self.name), sort_keys=True)))
        for note in judge.not_judged:
            self.user_properties.append((NOT_JUDGED, json.dumps(note.as_record(), sort_keys=True)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        exc = excinfo.value
        if not isinstance(exc, (StepFailed, ServerFailure, WorkspaceError, AssertionError)):
            return str(super().repr_failure(excinfo, style))
        spec = self.spec
        where = "the runner (built in)" if spec is WIRE_SCENARIO else f"spec/{spec.document}.yaml"
        first, *rest = str(exc).splitlines() or ["failed"]
        lines = [f"{self.name} [{spec.level}] {first}", *rest, "",
                 f"scenario: {self.name}: {spec.title}",
                 f"spec:     {spec.requirement.id} in {where} (source: {spec.source})",
                 f"WHEN {spec.when}", f"THEN {spec.then}"]
        return "\n".join(lines)


WIRE_REQUIREMENT = Requirement(
    id="MCP-WIRE", title="The stdio wire carries only JSON-RPC messages", source="MCP specification > stdio transport",
    level="MUST", coverage="scenarios", document="mcp",
    statement="A server writes only valid JSON-RPC messages to stdout and never answers a notification.")
WIRE_SCENARIO = Scenario(
    id=WIRE_SCENARIO_ID, title="stdout holds only JSON-RPC answers to requests", source=WIRE_REQUIREMENT.source,
    level="MUST", when="the runner talks to the target over stdio for the whole run",
    then="no line on stdout is anything but a JSON-RPC message, and no notification gets a reply",
    coverage="executable", requirement=WIRE_REQUIREMENT, steps=(ListTools(),))
WIRE_BASES = {"notification_reply": JSONRPC_NOTIFICATION, "not_json": MCP_STDIO, "not_jsonrpc": MCP_STDIO}


class WireItem(ScenarioItem):
    """The one scenario that owns the wire's defects: it runs last and judges what every server wrote to stdout.

    Other scenarios never fail for a stray line or a reply to a notification: the client skips those lines
    and the session keeps them for this scenario, so one defect costs one verdict.
    """

    def runtest(self) -> None:
        transport = self.config.getoption("target") or "stdio"
        if transport != "stdio":
            pytest.skip(f"the wire scenario judges stdout; this run uses {transport}")
        runner = lifecycle_for(self.config)
        if not runner.tools:  # no server has run yet (-k selected this scenario alone): start one, talk to it once
            super().runtest()
        judge = Judge(strict=self.config.stash.get(STRICT_KEY, False))
        try:
            seen: set[tuple[str, str]] = set()
            for defect in runner.wire_defects:
                if (defect.kind, defect.detail) not in seen:
                    seen.add((defect.kind, defect.detail))
                    judge.breach(defect.kind, WIRE_BASES[defect.kind], f"the server wrote {defect.detail}")
        finally:
            self._record(judge)
        for finding in judge.warnings():
            warnings.warn(CruxgateWarning(f"{self.name}: {finding.describe()}"), stacklevel=1)
