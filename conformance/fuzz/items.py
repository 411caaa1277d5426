"""The fuzz phase as pytest items: `fuzz[TOOL]` for each tool the target lists, after the scenarios.

Collecting needs the target's tools/list, so with --fuzz the fuzz session's server starts at collection
(once; the items reuse it). A target that does not start gets one failing item, `fuzz[tools/list]`, and
is dead for every scenario too (see conformance/lifecycle.py).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from cruxgate.conformance.checks.judge import FINDING
from cruxgate.conformance.fuzz import options as fuzz_options
from cruxgate.conformance.fuzz.database import EXAMPLES, ExampleDatabase
from cruxgate.conformance.fuzz.engine import PHASES, Outcome, explore, gates
from cruxgate.conformance.fuzz.report import finding_record, render, rerun_line
from cruxgate.conformance.fuzz.session import FuzzSession
from cruxgate.conformance.runner.collect import (
    STRICT_KEY,
    TOOL_RULES_KEY,
    USAGE_ERROR_KEY,
    CruxgateWarning,
    deferred_usage_errors,
    ensure_target,
    lifecycle_for,
)
from cruxgate.conformance.spec.loader import DEFAULT_FIXTURE, SpecError, load_documents, tool_rules
from cruxgate.conformance.spec.model import Basis, ToolRule
from cruxgate.conformance.target.wire import ServerFailure
from cruxgate.conformance.target.workspace import WorkspaceError

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr  # what Item.repr_failure returns; pytest does not re-export it

SESSION_KEY = pytest.StashKey["FuzzSession | Exception"]()
OUTCOMES_KEY = pytest.StashKey[dict[str, Outcome]]()  # nodeid -> Outcome
SEED_KEY = pytest.StashKey[int]()
START_ITEM = "fuzz[tools/list]"
REQUIREMENT = {"id": "FUZZ", "title": "Schema-driven fuzzing: every answer to generated arguments passes the FZ checks",
               "source": "docs/conformance.md > The fuzz phase (each FZ check names its basis)", "level": "MUST",
               "coverage": "fuzz"}


class FuzzWarning(CruxgateWarning):
    """A fuzz finding on a basis that does not gate: reported, not failing (unless --strict)."""


def fuzz_session(config: pytest.Config) -> FuzzSession | Exception:
    """The session's fuzz environment and server, started once; the failure when it cannot start."""
    if SESSION_KEY not in config.stash:
        ensure_target(config)
        try:
            config.stash[SESSION_KEY] = FuzzSession(lifecycle_for(config), config.getoption("target") or "stdio",
                                                    config.getoption("fuzz_call_timeout"),
                                                    config.getoption("fuzz_fixture"), START_ITEM, _rules(config))
        except (ServerFailure, WorkspaceError) as exc:
            config.stash[SESSION_KEY] = exc
    return config.stash[SESSION_KEY]


def _rules(config: pytest.Config) -> dict[str, ToolRule]:
    """The tools the spec's documents define (the scenarios' collection read them already, unless deselected)."""
    if TOOL_RULES_KEY not in config.stash:
        try:
            config.stash[TOOL_RULES_KEY] = tool_rules(load_documents(config.getoption("spec_dir", None)))
        except SpecError as exc:
            raise pytest.UsageError(f"cruxgate: the spec does not load: {exc}") from None
    return config.stash[TOOL_RULES_KEY]


def failing(config: pytest.Config) -> Callable[[Basis], bool]:
    """Which findings fail an item: those whose basis gates; under pytest's --strict, every one."""
    if config.stash.get(STRICT_KEY, False):
        return lambda basis: True
    return gates


def replay_options(config: pytest.Config) -> dict[str, Any]:
    """The run's options a replay command repeats."""
    names = ("target", "target_profile", "server_cmd", "server_url", "server_token_file", "fixtures_dir")
    options = {name: config.getoption(name, None) for name in names}
    fixture = config.getoption("fuzz_fixture")
    options["fuzz_fixture"] = fixture if fixture != DEFAULT_FIXTURE else None
    timeout = config.getoption("fuzz_call_timeout")
    options["fuzz_call_timeout"] = timeout if timeout != fuzz_options.CALL_TIMEOUT else None
    return options


def phases(config: pytest.Config) -> tuple[str, ...]:
    """--fuzz-phases, checked."""
    chosen = tuple(p.strip() for p in str(config.getoption("fuzz_phases")).split(",") if p.strip())
    unknown = set(chosen) - set(PHASES)
    if unknown or not chosen:
        got = config.getoption("fuzz_phases")
        raise pytest.UsageError(f"--fuzz-phases: use coverage, fuzzing or both (got {got!r})")
    return chosen


def excluded_checks(config: pytest.Config) -> frozenset[str]:
    """--fuzz-exclude-checks, checked against the registry."""
    from cruxgate.conformance.fuzz.checks import FUZZ_CHECKS

    chosen = frozenset(c.strip().upper() for c in str(config.getoption("fuzz_exclude_checks")).split(",") if c.strip())
    unknown = chosen - set(FUZZ_CHECKS)
    if unknown:
        raise pytest.UsageError(f"--fuzz-exclude-checks: unknown check(s) {', '.join(sorted(unknown))}; "
                                f"known: {', '.join(FUZZ_CHECKS)}")
    return chosen


def output_dir(config: pytest.Config) -> Path:
    """--fuzz-out, relative to where pytest was started."""
    return config.invocation_params.dir / str(config.getoption("fuzz_out"))


class FuzzFile(pytest.File):
    """conformance/suite.yaml once more, with --fuzz: stands for the fuzz items of every listed tool."""

    def collect(self) -> Iterator[pytest.Item]:
        with deferred_usage_errors(self.config):
            session = fuzz_session(self.config)
        if USAGE_ERROR_KEY in self.config.stash:
            return
        if isinstance(session, Exception):
            yield FuzzItem.from_parent(self, name=START_ITEM, tool=None)
            return
        for name in session.tools:
            yield FuzzItem.from_parent(self, name=f"fuzz[{name}]", tool=name)


class FuzzItem(pytest.Item):
    """Fuzz one tool: generated arguments, every answer judged by the FZ checks, findings shrunk."""

    def __init__(self, *, tool: str | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tool = tool
        self.outcome: Outcome | None = None
        tools = [tool] if tool else []
        self.scenario = {"id": self.name, "title": f"{tool or 'the target'} under schema-driven fuzzing",
                         "source": REQUIREMENT["source"], "level": "MUST", "coverage": "fuzz", "tools": tools}
        self.requirement = dict(REQUIREMENT)
        self.add_marker(pytest.mark.fuzz)
        if tool:
            self.add_marker(pytest.mark.tool(tool, name=tool))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.name}: {self.scenario['title']}"

    def runtest(self) -> None:
        session = fuzz_session(self.config)
        if isinstance(session, Exception):
            raise session
        tool = session.tools[self.tool]
        out = output_dir(self.config)
        database, target = ExampleDatabase(out), ensure_target(self.config).name
        self.outcome = explore(tool, session.caller(), failing(self.config), self.config.getoption("fuzz_examples"),
                               self.config.stash[SEED_KEY], database.examples(target, tool.name), phases(self.config),
                               excluded_checks(self.config))
        if self.outcome.lost is None:
            database.record(target, tool.name, [finding.arguments for finding in self.outcome.findings])
        self.config.stash.setdefault(OUTCOMES_KEY, {})[self.nodeid] = self.outcome
        # Every finding as a scenario records one (conformance/checks/judge.py): the reports read them alike.
        for finding in [*self.outcome.findings, *self.outcome.warnings.values()]:
            self.user_properties.append((FINDING, json.dumps(finding_record(finding, self.name), sort_keys=True)))
        for finding in self.outcome.warnings.values():
            # Attributed to the item, not to this line of the runner.
            warnings.warn_explicit(FuzzWarning(f"{self.name} " + render(finding, out, replay_options(self.config))),
                                   FuzzWarning, str(self.path), 0)
        if self.outcome.findings or self.outcome.lost is not None:
            raise FuzzFailed(self.outcome)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | TerminalRepr:
        exc = excinfo.value
        if isinstance(exc, (ServerFailure, WorkspaceError)):
            return f"{self.name} [MUST] the fuzz phase could not start the target: {exc}"
        if not isinstance(exc, FuzzFailed):
            return super().repr_failure(excinfo, style)
        outcome, out = exc.outcome, output_dir(self.config)
        options = replay_options(self.config)
        lines = [f"{self.name}: {len(outcome.findings)} finding(s) in {outcome.calls} calls "
                 f"({outcome.seconds:.1f} s, seed {self.config.stash[SEED_KEY]})"]
        if outcome.lost is not None:
            lines.append(f"the server could not be started again after a call, so fuzzing stopped: {outcome.lost}")
        for finding in outcome.findings:
            lines += ["", render(finding, out, options)]
        lines += ["", "rerun:  " + rerun_line(self.name, self.config.stash[SEED_KEY], options),
                  f"        (the example database {out / EXAMPLES} tries these arguments first)"]
        return "\n".join(lines)


class FuzzFailed(AssertionError):
    """Findings that fail the item (or a lost target) of one tool."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(f"{len(outcome.findings)} finding(s) on {outcome.tool}")
        self.outcome = outcome

