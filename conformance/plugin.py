"""The cruxgate pytest plugin (entry point `pytest11: cruxgate`): options, markers, collection and gating.

It stays inert in any pytest run that does not collect conformance/suite.yaml:
no profile is read and no server is started until the suite is collected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance import baseline, results_json
from conformance.collect import LIFECYCLE_KEY, TARGET_KEY, SuiteFile, is_suite_anchor, lifecycle_for
from conformance.fuzz import plugin as fuzz_plugin  # issue 17: the fuzz phase (--fuzz), its own options and hooks
from conformance.lifecycle import environment_key, mutates
from conformance.report import ReportPlugin

LEVELS = ("MUST", "SHOULD", "MAY")
MARKERS = (
    "document(name): the spec document a scenario belongs to (-m \"document(name='agent-protocol')\")",
    "requirement(id): the spec requirement a scenario checks (-m \"requirement(id='AP-EXPLAIN')\")",
    "level(name): the normative level, MUST | SHOULD | MAY (-m \"level(name='MUST')\", or -m must)",
    "tool(name): a tool the scenario calls, one marker per tool (-m \"tool(name='search_code')\")",
    "must: a MUST scenario", "should: a SHOULD scenario", "may: a MAY scenario",
    "executable: a scenario run over the wire", "hook: a scenario that needs a target hook",
    "benchmark: measured by a benchmark, reported not run", "informative: not observable over the wire, reported not run",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cruxgate", "cruxgate conformance gate")
    group.addoption("--target", choices=("stdio", "http"), default="stdio",
                    help="transport to reach the target over (default stdio; http starts it on a free loopback port)")
    group.addoption("--target-profile", metavar="FILE", default=None,
                    help="target profile YAML (schemas/target-profile.schema.json); default: the bundled reference")
    group.addoption("--server-cmd", metavar="CMD", default=None,
                    help="replace only the profile's launch command ({workspace}, {config}, {port} placeholders)")
    group.addoption("--server-url", metavar="URL", default=None,
                    help="gate a running Streamable HTTP server (with --target=http); workspace-changing scenarios skip")
    group.addoption("--spec-dir", metavar="DIR", default=None, help="spec documents to run (default: the bundled spec/)")
    group.addoption("--fixtures-dir", metavar="DIR", default=None,
                    help="fixture repositories (default: the bundled golden/fixtures/)")
    group.addoption("--conformance-report", metavar="FILE", default=None,
                    help="write a Markdown report: requirement x scenario x outcome, counts by level")
    group.addoption("--gate-levels", metavar="LEVELS", default="MUST",
                    help="comma-separated levels whose failures fail the run (default MUST; others are reported)")
    group.addoption("--strict-levels", action="store_true", default=False,
                    help="every level gates: same as --gate-levels MUST,SHOULD,MAY")
    baseline.add_options(parser)
    results_json.add_options(parser)
    fuzz_plugin.add_options(parser)


def gating_levels(config: pytest.Config) -> set[str]:
    """The levels whose failures fail the run."""
    if config.getoption("strict_levels"):
        return set(LEVELS)
    chosen = {level.strip().upper() for level in str(config.getoption("gate_levels")).split(",") if level.strip()}
    unknown = chosen - set(LEVELS)
    if unknown:
        raise pytest.UsageError(f"--gate-levels: unknown level(s) {', '.join(sorted(unknown))}; use MUST, SHOULD, MAY")
    return chosen


def pytest_configure(config: pytest.Config) -> None:
    for marker in MARKERS:
        config.addinivalue_line("markers", marker)
    # Registered first: among trylast hooks pluggy calls the earliest-registered first, so the
    # level gating settles the exit status before the JSON results record it.
    gate = GatePlugin(config)
    config.pluginmanager.register(gate, "cruxgate-gate")
    config.stash[results_json.TRANSPORT_KEY] = config.getoption("target")
    baseline.register(config)
    results_json.register(config)
    fuzz_plugin.register(config)
    report_path = config.getoption("conformance_report")
    if report_path and not hasattr(config, "workerinput"):
        config.pluginmanager.register(
            ReportPlugin(config, report_path, lambda: describe_target(config), gate.gating),
            "cruxgate-report")


def describe_target(config: pytest.Config) -> dict[str, Any]:
    """Name, transport and serverInfo of the target, for the reports."""
    target = config.stash.get(TARGET_KEY, None)
    info = config.stash.get(results_json.SERVER_INFO_KEY, None)
    return {"name": target.name if target else "(none)", "transport": config.getoption("target"),
            "server": f"{info.get('name')} {info.get('version', '')}".strip() if info else None}


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if is_suite_anchor(file_path):
        return SuiteFile.from_parent(parent, path=file_path)
    return None


LOOKAHEAD = 8  # items scanned for environments to prepare ahead


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """While a scenario runs, prepare the next ones' workspaces and servers (starting a server is the slow part)."""
    if not hasattr(item, "spec") or nextitem is None:
        return
    items = item.session.items
    position = items.index(item) if item in items else -1
    upcoming = []
    for later in items[position + 1:position + 1 + LOOKAHEAD]:
        transports = later.needs_environment() if hasattr(later, "needs_environment") else []
        if transports:
            upcoming.append((later.spec, transports))
    if upcoming:
        lifecycle_for(item.config).prefetch(upcoming, item.spec)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Group scenarios that can share a workspace and server, keeping the spec order otherwise."""
    scenario_items = [item for item in items if hasattr(item, "spec")]
    if not scenario_items:
        return
    groups: dict[str, list[pytest.Item]] = {}
    for item in scenario_items:
        key = item.nodeid if mutates(item.spec) else environment_key(item.spec, "")
        groups.setdefault(key, []).append(item)
    ordered = iter([item for group in groups.values() for item in group])
    items[:] = [next(ordered) if hasattr(item, "spec") else item for item in items]


class GatePlugin:
    """Decides which failures fail the run (by level) and says so in the terminal summary."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.gating = gating_levels(config)
        self.failures: dict[str, str | None] = {}  # nodeid -> level (None: not a scenario)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        scenario = getattr(item, "scenario", None)
        if isinstance(scenario, dict):
            item.user_properties.append(("cruxgate_level", scenario.get("level")))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed and not hasattr(report, "wasxfail"):
            levels = [value for name, value in report.user_properties if name == "cruxgate_level"]
            # A stale baseline entry gates at every level: the baseline file must only shrink.
            stale = getattr(report, "cruxgate_stale_baseline", False)
            self.failures[report.nodeid] = levels[0] if levels and not stale else None

    def quiet_failures(self) -> list[str]:
        """Failures at a level that does not gate."""
        return sorted(n for n, level in self.failures.items() if level is not None and level not in self.gating)

    @pytest.hookimpl(trylast=True)  # after plugins that OR the original status back in (syrupy)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if (self.failures and session.exitstatus == pytest.ExitCode.TESTS_FAILED
                and len(self.quiet_failures()) == len(self.failures)):
            session.exitstatus = pytest.ExitCode.OK

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        quiet = self.quiet_failures()
        if quiet:
            terminalreporter.write_sep("-", "cruxgate: failures below the gating levels (reported, not gating)")
            for nodeid in quiet:
                terminalreporter.write_line(f"  {self.failures[nodeid]}  {nodeid}")
            terminalreporter.write_line(
                f"  gating levels: {', '.join(sorted(self.gating))} (--strict-levels makes every level gate)")
        report = self.config.getoption("conformance_report", None)
        if report and TARGET_KEY in self.config.stash:
            terminalreporter.write_line(f"cruxgate: Markdown report written to {report}")


def pytest_unconfigure(config: pytest.Config) -> None:
    lifecycle = config.stash.get(LIFECYCLE_KEY, None)
    if lifecycle is not None:
        lifecycle.close()
        del config.stash[LIFECYCLE_KEY]
