"""The fuzz phase's pytest options and hooks, registered by conformance/plugin.py (inert without --fuzz)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from cruxgate.conformance.fuzz import options as fuzz_options
from cruxgate.conformance.fuzz.database import write_findings

MARKER = "fuzz: a fuzz-phase item, one per tool the target lists (-m fuzz)"


def add_options(parser: pytest.Parser) -> None:
    """--fuzz and its settings, the fuzz option table (call from the main plugin's pytest_addoption)."""
    group = parser.getgroup("cruxgate")
    group.addoption("--fuzz", action="store_true", default=False,
                    help="add the fuzz phase: one item per listed tool (fuzz[TOOL]), after the scenarios")
    fuzz_options.OPTIONS.add_to_pytest(group)


def register(config: pytest.Config) -> None:
    """Register the fuzz hooks when --fuzz is given (call from the main plugin's pytest_configure)."""
    config.addinivalue_line("markers", MARKER)
    if config.getoption("fuzz", False):
        config.pluginmanager.register(FuzzPlugin(config), "cruxgate-fuzz")


class FuzzPlugin:
    """Collects the fuzz items, prints the seed and the summary, writes findings.json, closes the fuzz server."""

    def __init__(self, config: pytest.Config) -> None:
        from cruxgate.conformance.fuzz.items import SEED_KEY, excluded_checks, phases

        phases(config), excluded_checks(config)  # a bad value is a usage error now, not a failure of every item
        self.config = config
        chosen = config.getoption("fuzz_seed")
        config.stash[SEED_KEY] = chosen if chosen is not None else random.randrange(2**32)

    def pytest_report_header(self, config: pytest.Config) -> str:
        from cruxgate.conformance.fuzz.items import SEED_KEY

        seed = config.stash[SEED_KEY]
        return (f"cruxgate fuzz: {config.getoption('fuzz_examples')} examples per tool, seed {seed} "
                f"(--fuzz-seed {seed} repeats them), output in {config.getoption('fuzz_out')}")

    @pytest.hookimpl(trylast=True)  # after the scenarios' collector: the fuzz phase runs last
    def pytest_collect_file(self, parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
        from cruxgate.conformance.fuzz.items import FuzzFile
        from cruxgate.conformance.runner.collect import is_suite_anchor

        return FuzzFile.from_parent(parent, path=file_path) if is_suite_anchor(file_path) else None

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        from cruxgate.conformance.fuzz.items import FuzzItem

        items[:] = [i for i in items if not isinstance(i, FuzzItem)] + [i for i in items if isinstance(i, FuzzItem)]

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        outcomes = self._outcomes()
        if outcomes:
            write_findings(self._out(), self._records(outcomes))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        from cruxgate.conformance.fuzz.items import SEED_KEY
        from cruxgate.conformance.fuzz.report import summary_line

        outcomes = self._outcomes()
        if not outcomes:
            return
        terminalreporter.write_sep("-", f"cruxgate fuzz: seed {self.config.stash[SEED_KEY]}, "
                                        f"{self.config.getoption('fuzz_examples')} examples per tool")
        for nodeid, outcome in outcomes.items():
            terminalreporter.write_line(summary_line(nodeid.rsplit("::", 1)[-1], outcome))
        terminalreporter.write_line(f"findings and warnings: {self._out() / 'findings.json'}")

    @pytest.hookimpl(tryfirst=True)  # before the main plugin closes the lifecycle (and its event loop)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        from cruxgate.conformance.fuzz.items import SESSION_KEY
        from cruxgate.conformance.fuzz.session import FuzzSession

        session = config.stash.get(SESSION_KEY, None)
        if isinstance(session, FuzzSession):
            session.close()
        if SESSION_KEY in config.stash:
            del config.stash[SESSION_KEY]

    def _out(self) -> Path:
        from cruxgate.conformance.fuzz.items import output_dir

        return output_dir(self.config)

    def _outcomes(self) -> dict[str, Any]:
        from cruxgate.conformance.fuzz.items import OUTCOMES_KEY

        return self.config.stash.get(OUTCOMES_KEY, {})

    def _records(self, outcomes: dict[str, Any]) -> list[dict[str, Any]]:
        from cruxgate.conformance.fuzz.items import replay_options
        from cruxgate.conformance.fuzz.report import record

        options, out = replay_options(self.config), self._out()
        records = []
        for outcome in outcomes.values():
            records += [record(finding, True, out, options) for finding in outcome.findings]
            records += [record(finding, False, out, options) for finding in outcome.warnings.values()]
        return records
