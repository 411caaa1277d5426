"""Collecting spec/ into pytest items: one item per scenario (named by its id), run against the target."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from conformance import paths, results_json
from conformance.lifecycle import Lifecycle, mutates
from conformance.spec_loader import DEFAULT_FIXTURE, SpecError, iter_scenarios, load_documents, scenario_level
from conformance.steps import ScenarioRun, StepFailed, leading_count, run_leading
from conformance.target import ProfileError, Target, resolve
from conformance.wire import ServerFailure
from conformance.workspace import WorkspaceError

TARGET_KEY = pytest.StashKey[Target]()
LIFECYCLE_KEY = pytest.StashKey[Lifecycle]()
SUITE_ANCHOR = "suite.yaml"


def lifecycle_for(config: pytest.Config) -> Lifecycle:
    """The session's lifecycle, created on the first scenario that needs a server."""
    if LIFECYCLE_KEY not in config.stash:
        fixtures = config.getoption("fixtures_dir", None)
        log_dir = Path(tempfile.mkdtemp(prefix="cruxgate-logs-"))
        config.stash[LIFECYCLE_KEY] = Lifecycle(config.stash[TARGET_KEY], Path(fixtures) if fixtures else paths.fixtures_dir(),
                                                log_dir, DEFAULT_FIXTURE, run_leading)
    return config.stash[LIFECYCLE_KEY]


def is_suite_anchor(file_path: Path) -> bool:
    """Whether `file_path` is conformance/suite.yaml (the file `pytest conformance/` collects the spec from)."""
    return file_path.name == SUITE_ANCHOR and file_path.parent.resolve() == Path(__file__).resolve().parent


def ensure_target(config: pytest.Config) -> Target:
    """Resolve the target from the options once (a bad profile is a usage error)."""
    if TARGET_KEY not in config.stash:
        try:
            target = resolve(config.getoption("target") or "stdio", config.getoption("target_profile"),
                             config.getoption("server_cmd"), config.getoption("server_url"))
        except ProfileError as exc:
            raise pytest.UsageError(f"cruxgate: {exc}") from None
        config.stash[TARGET_KEY] = target
        config.stash[results_json.TARGET_PROFILE_KEY] = target.name
    return config.stash[TARGET_KEY]


class SuiteFile(pytest.File):
    """conformance/suite.yaml: stands for every spec/*.yaml document (or --spec-dir)."""

    def collect(self) -> Iterator[pytest.Item]:
        ensure_target(self.config)
        spec_dir = self.config.getoption("spec_dir", None)
        try:
            documents = load_documents(spec_dir)
        except SpecError as exc:
            raise pytest.UsageError(f"cruxgate: the spec does not load: {exc}") from None
        covered: set[str] = set()
        for document, requirement, scenario in iter_scenarios(documents):
            covered.add(requirement["id"])
            yield ScenarioItem.build(self, document, requirement, scenario)
        for document in documents:
            for requirement in document["requirements"]:
                if requirement["id"] not in covered:
                    # A requirement with no scenario (informative or benchmark) is reported, never run.
                    yield ScenarioItem.build(self, document, requirement, _stand_in(requirement))


def _stand_in(requirement: dict[str, Any]) -> dict[str, Any]:
    return {"id": requirement["id"], "title": requirement["title"], "source": requirement["source"],
            "when": "-", "then": requirement["statement"], "coverage": requirement["coverage"],
            "reason": requirement.get("reason"), "benchmark": requirement.get("benchmark")}


class ScenarioItem(pytest.Item):
    """One spec scenario: skipped with a reason, or executed step by step against the target."""

    scenario: dict[str, Any]
    requirement: dict[str, Any]

    @classmethod
    def build(cls, parent: SuiteFile, document: dict[str, Any], requirement: dict[str, Any],
              scenario: dict[str, Any]) -> "ScenarioItem":
        """An item with the attributes and markers the gate plugins and `-m` read."""
        level = scenario_level(requirement, scenario)
        item = cls.from_parent(parent, name=scenario["id"])
        item.spec = scenario
        item.document_name = document["document"]
        item.scenario = {"id": scenario["id"], "title": scenario["title"], "source": scenario["source"],
                         "level": level, "coverage": scenario["coverage"], "tools": list(scenario.get("tools", []))}
        item.requirement = {key: requirement[key] for key in ("id", "title", "source", "level", "coverage")}
        if scenario.get("transports"):
            item.transport = "+".join(scenario["transports"])
        # Positional for plugins reading marker.args, keywords for `-m "tool(name='search_code')"`.
        item.add_marker(pytest.mark.document(document["document"], name=document["document"]))
        item.add_marker(pytest.mark.requirement(requirement["id"], id=requirement["id"]))
        item.add_marker(pytest.mark.level(level, name=level))
        item.add_marker(getattr(pytest.mark, level.lower()))
        item.add_marker(getattr(pytest.mark, scenario["coverage"]))
        for tool in scenario.get("tools", []):
            item.add_marker(pytest.mark.tool(tool, name=tool))
        return item

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.name}: {self.scenario['title']}"

    def _skip_reason(self, target: Target, transport: str) -> str | None:
        spec = self.spec
        if spec["coverage"] == "informative":
            return f"informative: {spec.get('reason') or 'not observable over the wire'}"
        if spec["coverage"] == "benchmark":
            return f"benchmark: measured by {spec.get('benchmark') or 'benchmarks/'}, not by a scenario"
        for needed in self.transports(transport):
            if not target.supports(needed):
                return f"target {target.name} has no {needed} transport"
        missing_hooks = [hook for hook in spec.get("hooks", []) if hook not in target.hooks]
        if missing_hooks:
            return f"target {target.name} has no hook {', '.join(missing_hooks)}"
        if target.fixed_url and mutates(spec):
            return "target is a running server (--server-url): the runner cannot change its workspace or restart it"
        if target.tools is not None:
            missing = [tool for tool in spec.get("tools", []) if tool not in target.tools]
            if missing:
                return f"target {target.name} does not claim tool {', '.join(missing)}"
        return None

    def transports(self, default: str) -> list[str]:
        """Every transport the scenario uses."""
        used = list(self.spec.get("transports") or [])
        for step in self.spec.get("steps", []):
            body = step.get("list_tools") if "list_tools" in step else step
            chosen = (body or {}).get("transport") if isinstance(body, dict) else None
            if chosen and chosen not in used:
                used.append(chosen)
        return used or [default]

    def main_transport(self, default: str) -> str:
        """The transport unmarked steps use: the first of a cross-transport scenario's, else the run's."""
        return self.transports(default)[0] if self.spec.get("transports") else default

    def needs_environment(self) -> list[str]:
        """The transports this scenario will use (main first); none when it is skipped before any server."""
        transport = self.config.getoption("target") or "stdio"
        if self._skip_reason(self.config.stash[TARGET_KEY], transport) is not None:
            return []
        main = self.main_transport(transport)
        return [main] + [t for t in self.transports(transport) if t != main]

    def runtest(self) -> None:
        target = self.config.stash[TARGET_KEY]
        transport = self.config.getoption("target") or "stdio"
        reason = self._skip_reason(target, transport)
        if reason:
            pytest.skip(reason)
        runner = lifecycle_for(self.config)
        runner.fail_fast(self.needs_environment())  # issue 17: a dead target fails before any workspace is prepared
        environment, private = runner.acquire(self.spec)
        steps = self.spec.get("steps", [])
        try:
            main = self.main_transport(transport)
            listed = runner.tools.get(main)
            if listed is None:
                server = environment.server(main)
                if server.server_info is not None and results_json.SERVER_INFO_KEY not in self.config.stash:
                    self.config.stash[results_json.SERVER_INFO_KEY] = server.server_info
                listed = runner.tools[main] = {tool.get("name") for tool in server.list_tools()}
            missing = [tool for tool in self.spec.get("tools", []) if tool not in listed]
            if missing:
                pytest.skip(f"target {target.name} does not list tool {', '.join(missing)} (tools/list)")
            start = 0
            if private:
                if environment.leading is None:
                    if environment.servers and leading_count(steps):
                        environment.stop_servers()  # its servers must start after the leading steps
                    run_leading(environment, self.spec)
                start, error = environment.leading
                if error is not None:
                    raise error
            ScenarioRun(environment, main).run(steps, start)
        finally:
            if private:
                environment.close()

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        exc = excinfo.value
        if not isinstance(exc, (StepFailed, ServerFailure, WorkspaceError, AssertionError)):
            return super().repr_failure(excinfo, style)
        spec = self.spec
        first, *rest = str(exc).splitlines() or ["failed"]
        lines = [f"{self.name} [{self.scenario['level']}] {first}", *rest, "",
                 f"scenario: {self.name}: {spec['title']}", f"source:   {spec['source']}",
                 f"WHEN {spec['when']}", f"THEN {spec['then']}"]
        return "\n".join(lines)
