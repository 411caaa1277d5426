"""Expected-failures baseline: known failures pass the gate, new ones and fixed ones do not.

A baseline file is a YAML list of ``{id: <scenario id>, reason: <text>}``.
A listed scenario that fails is reported as an expected failure (pytest's
xfail outcome, so the run stays green); an unlisted failure fails the run; a
listed scenario that passes fails the run with "stale baseline: remove the
entry <id>", so the file can only shrink. A listed id that matches no
collected scenario is a warning, not a failure: ``-k`` and other deselection
legitimately hide listed scenarios (see docs/gate.md).
"""

from __future__ import annotations

import warnings
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pluggy
import pytest
import yaml

EXPECTED_FAILURE = "expected-failure"
STALE_PREFIX = "stale baseline: remove the entry"
STALE = "stale"
BASELINE = "cruxgate_baseline"  # the report property naming what the baseline did: EXPECTED_FAILURE or STALE


def baseline_outcome(report: pytest.TestReport) -> str | None:
    """What the baseline made of a report (EXPECTED_FAILURE, STALE), or None where it did nothing."""
    return next((str(value) for name, value in report.user_properties if name == BASELINE), None)


class BaselineError(Exception):
    """A baseline file that cannot be used, with the reason."""


class BaselineWarning(UserWarning):
    """A baseline entry that names no collected scenario."""


def add_options(parser: pytest.Parser) -> None:
    """Add --baseline and --write-baseline (call from the main plugin's pytest_addoption)."""
    group = parser.getgroup("cruxgate")
    group.addoption(
        "--baseline",
        metavar="FILE",
        default=None,
        help="YAML list of {id, reason}: scenarios expected to fail; a listed one that passes fails the run.",
    )
    group.addoption(
        "--write-baseline",
        metavar="FILE",
        default=None,
        help="Write today's failing scenarios as a baseline file to start from.",
    )


def scenario_id(item: pytest.Item) -> str:
    """The spec scenario id an item runs (its scenario dict's id, else its name)."""
    scenario = getattr(item, "scenario", None)
    sid = scenario.get("id") if isinstance(scenario, dict) else None
    return sid if isinstance(sid, str) else item.name


def load_baseline(path: str | Path) -> dict[str, str]:
    """Read and validate a baseline file; return {scenario id: reason}."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc.strerror or exc}") from exc
    except yaml.YAMLError as exc:
        raise BaselineError(f"baseline {path} is not valid YAML: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, list):
        raise BaselineError(
            f"baseline {path}: expected a list of {{id, reason}} entries, got {type(data).__name__}"
        )
    entries: dict[str, str] = {}
    for index, entry in enumerate(data):
        where = f"baseline {path}, entry {index + 1}"
        if not isinstance(entry, dict):
            raise BaselineError(f"{where}: expected a mapping with id and reason, got {entry!r}")
        extra = sorted(set(entry) - {"id", "reason"})
        if extra:
            raise BaselineError(f"{where}: unknown key(s) {', '.join(map(str, extra))}")
        sid, reason = entry.get("id"), entry.get("reason")
        if not isinstance(sid, str) or not sid.strip():
            raise BaselineError(f"{where}: 'id' must be a non-empty string (a scenario id)")
        if not isinstance(reason, str) or not reason.strip():
            raise BaselineError(f"{where} ({sid}): 'reason' must be a non-empty string")
        if sid in entries:
            raise BaselineError(f"{where}: duplicate id {sid}")
        entries[sid] = reason.strip()
    return entries


def dump_baseline(failures: dict[str, str]) -> str:
    """Render {scenario id: reason} as baseline YAML, sorted by id."""
    entries = [{"id": sid, "reason": failures[sid]} for sid in sorted(failures)]
    header = "# cruxgate expected-failures baseline: remove entries as scenarios are fixed.\n"
    if not entries:
        return header + "[]\n"
    return header + yaml.safe_dump(entries, sort_keys=False, allow_unicode=True, width=1000)


def first_line(text: str) -> str:
    """The first non-empty line of `text`, stripped ("" when there is none)."""
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


class BaselinePlugin:
    """Applies --baseline to reports and records failures for --write-baseline."""

    def __init__(self, config: pytest.Config) -> None:
        baseline_path = config.getoption("baseline", None)
        self.write_path = config.getoption("write_baseline", None)
        self.entries: dict[str, str] = load_baseline(baseline_path) if baseline_path else {}
        self.failures: dict[str, str] = {}
        self.unmatched: list[str] = []

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        collected = {scenario_id(item) for item in items}
        self.unmatched = sorted(set(self.entries) - collected)
        for sid in self.unmatched:
            # stacklevel 1: the caller is pluggy's hook machinery, so the warning names this line
            warnings.warn(BaselineWarning(f"baseline entry {sid} matches no collected scenario"), stacklevel=1)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pluggy.Result[pytest.TestReport], None]:
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        sid = scenario_id(item)
        if report.failed:
            self.failures.setdefault(sid, first_line(report.longreprtext) or "failed")
        if sid not in self.entries or hasattr(report, "wasxfail"):
            return
        if report.failed:
            # pytest's xfail shape: junitxml, the terminal and the exit code all understand it.
            report.outcome = "skipped"
            report.wasxfail = f"{EXPECTED_FAILURE}: {self.entries[sid]}"
            # A report's own user properties (a copy of the item's): the reports read them, xdist carries them.
            report.user_properties.append((BASELINE, EXPECTED_FAILURE))
        elif report.when == "call" and report.passed:
            report.outcome = "failed"
            report.longrepr = f"{STALE_PREFIX} {sid} (it passes now; baseline reason was: {self.entries[sid]})"
            report.user_properties.append((BASELINE, STALE))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.write_path:
            Path(self.write_path).write_text(dump_baseline(self.failures), encoding="utf-8")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.unmatched:
            terminalreporter.write_sep("-", "cruxgate baseline: entries matching no collected scenario")
            for sid in self.unmatched:
                terminalreporter.write_line(f"  {sid}")
        if self.write_path:
            terminalreporter.write_line(
                f"cruxgate baseline: wrote {len(self.failures)} failing scenario(s) to {self.write_path}"
            )


def register(config: pytest.Config) -> None:
    """Register the baseline plugin when --baseline or --write-baseline is given."""
    if config.getoption("baseline", None) or config.getoption("write_baseline", None):
        try:
            plugin = BaselinePlugin(config)
        except BaselineError as exc:
            raise pytest.UsageError(str(exc)) from exc
        config.pluginmanager.register(plugin, "cruxgate-baseline")
