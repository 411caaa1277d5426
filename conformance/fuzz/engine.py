"""Hypothesis over one tool: draw argument sets, call, run every check; failing findings are raised and shrunk.

A finding that fails the item (its basis gates: a document MUST or the registry; under `--strict`, any)
raises an exception whose class is its check's own, so hypothesis tells distinct bugs apart and shrinks
each to its minimal arguments. Any other finding is a warning: it is kept (the smallest example seen per
check) without raising, so it does not cut the exploration short.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings

from cruxgate.conformance.fuzz import coverage
from cruxgate.conformance.fuzz.calls import Caller, Observation, TargetLost
from cruxgate.conformance.fuzz.checks import FuzzCheck, run_checks
from cruxgate.conformance.fuzz.session import Tool
from cruxgate.conformance.fuzz.validity import Validity
from cruxgate.conformance.spec.model import Basis

ANSWER_EXCERPT = 600


@dataclass
class Finding:
    """One check that broke, on the arguments that broke it."""

    check: FuzzCheck
    basis: Basis  # the check's basis for this tool
    message: str
    tool: str
    arguments: dict[str, Any]
    validity: Validity
    answer: str
    signature: str = ""
    stderr: str = ""
    flaky: bool = False

    @classmethod
    def of(cls, check: FuzzCheck, basis: Basis, message: str, observation: Observation) -> Finding:
        """A finding from an observation (the answer cut to an excerpt)."""
        return cls(check, basis, message, observation.tool, observation.arguments, observation.validity,
                   observation.excerpt(ANSWER_EXCERPT), check.signature(observation), observation.stderr_tail())

    def size(self) -> int:
        """How big the arguments are: the smaller, the better a finding reads."""
        return len(json.dumps(self.arguments, default=str))


class FindingRaised(AssertionError):
    """Raised in the hypothesis test for a gating finding; one subclass per signature (check id, kind)."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(f"{finding.check.id}: {finding.message}")
        self.finding = finding


_RAISED: dict[str, type[FindingRaised]] = {}


def raised_class(signature: str) -> type[FindingRaised]:
    """The exception class of one kind of bug (hypothesis tells bugs apart by exception type and origin)."""
    if signature not in _RAISED:
        name = f"Finding_{signature.split(':')[0].replace('-', '_')}_{len(_RAISED)}"
        _RAISED[signature] = type(name, (FindingRaised,), {"__module__": __name__})
    return _RAISED[signature]


@dataclass
class Outcome:
    """What fuzzing one tool came to."""

    tool: str
    budget: int
    replayed: int = 0  # saved failing examples tried first
    calls: int = 0
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)  # failing the item, shrunk by hypothesis
    warnings: dict[str, Finding] = field(default_factory=dict)  # check id -> smallest example seen
    lost: TargetLost | None = None


PHASES = ("coverage", "fuzzing")


def gates(basis: Basis) -> bool:
    """The gate's default: a finding fails its item when its basis gates (a document MUST, the registry)."""
    return basis.gates


def explore(tool: Tool, caller: Caller, fails: Callable[[Basis], bool], budget: int, fuzz_seed: int,
            saved: Sequence[dict[str, Any]] = (), phases: tuple[str, ...] = PHASES,
            excluded: frozenset[str] = frozenset()) -> Outcome:
    """The saved failing examples, the coverage cases, then `budget` generated examples, shrinking what fails.

    `fails(basis)`: whether a finding on that basis fails the item (`gates`; under --strict, every finding).
    """
    outcome = Outcome(tool.name, budget, replayed=len(saved))
    context = tool.context

    def test(arguments: dict[str, Any]) -> None:
        observation = caller.observe(tool.name, arguments, tool.judge(arguments))
        outcome.calls += 1
        first: Finding | None = None
        for check, message in run_checks(observation, context, excluded):
            finding = Finding.of(check, check.basis_in(context), message, observation)
            if fails(finding.basis):
                first = first or finding
            elif check.id not in outcome.warnings or finding.size() < outcome.warnings[check.id].size():
                outcome.warnings[check.id] = finding
        if first is not None:
            raise raised_class(first.signature)(first)

    started = time.monotonic()
    try:
        outcome.findings = _run_cases(list(saved), test)
        if "coverage" in phases:
            outcome.findings = _distinct(outcome.findings + _run_cases(coverage.cases(tool.advertised, tool.spec_input),
                                                                       test))
        if "fuzzing" in phases:
            outcome.findings = _distinct(outcome.findings + _fuzz(tool, test, budget, fuzz_seed))
    except TargetLost as exc:
        outcome.lost = exc
    finally:
        outcome.seconds = time.monotonic() - started
    return outcome


Test = Callable[[dict[str, Any]], None]  # one call with its checks; raises FindingRaised


def _run_cases(cases: list[dict[str, Any]], test: Test) -> list[Finding]:
    """Run fixed cases (saved failures, coverage cases): each is minimal already, so none is shrunk."""
    found = []
    for case in cases:
        try:
            test(case)
        except FindingRaised as exc:
            found.append(exc.finding)
    return _distinct(found)


def _fuzz(tool: Tool, test: Test, budget: int, fuzz_seed: int) -> list[Finding]:
    """Hypothesis: `budget` generated examples; gating findings come back shrunk."""
    # No hypothesis database: ours keeps the shrunk arguments themselves (conformance/fuzz/database.py).
    configured = settings(
        database=None, max_examples=budget, deadline=None, derandomize=False, report_multiple_bugs=True,
        suppress_health_check=list(HealthCheck), print_blob=False, verbosity=Verbosity.quiet,
        phases=(Phase.generate, Phase.target, Phase.shrink))
    generated = given(tool.strategy)(test)
    run = cast(Callable[[], None], seed(fuzz_seed)(configured(generated)))
    try:
        run()
    except TargetLost:
        raise
    except BaseException as exc:
        found = list(_findings(exc, flaky=False))
        if not found:
            raise
        return found
    return []


def _findings(exc: BaseException, flaky: bool) -> Any:
    """Every Finding inside `exc` (hypothesis groups several, and wraps one that did not replay as Flaky)."""
    if isinstance(exc, FindingRaised):
        exc.finding.flaky = flaky
        yield exc.finding
    elif isinstance(exc, BaseExceptionGroup):
        flaky = flaky or "Flaky" in type(exc).__name__
        for inner in exc.exceptions:
            yield from _findings(inner, flaky)


def _distinct(found: list[Finding]) -> list[Finding]:
    """One finding per signature (check and kind of bug), with the smallest arguments."""
    best: dict[str, Finding] = {}
    for finding in found:
        if finding.signature not in best or finding.size() < best[finding.signature].size():
            best[finding.signature] = finding
    return sorted(best.values(), key=lambda f: (f.check.id, f.size()))
