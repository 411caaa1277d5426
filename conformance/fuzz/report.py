"""How fuzz results read: a finding as text (failure or warning), as a findings.json record, and the summary table."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from cruxgate.conformance.checks import judge
from cruxgate.conformance.fuzz.database import arguments_reference
from cruxgate.conformance.fuzz.engine import Finding, Outcome
from cruxgate.conformance.fuzz.replay import REPLAY_OPTIONS, command_line
from cruxgate.conformance.spec.paths import SUITE_PACKAGE


def replay_line(finding: Finding, out: Path, options: dict[str, Any]) -> str:
    """The one-line command that replays the finding's call."""
    return command_line(finding.tool, arguments_reference(out, finding.tool, finding.arguments), options)


def heading(finding: Finding) -> str:
    """`FZ-ID [severity: kind LEVEL] title`: what broke and on what footing."""
    basis = finding.basis
    return f"{finding.check.id} [{basis.severity}: {basis.kind} {basis.level}] {finding.check.title}"


def _arguments(finding: Finding, limit: int = 300) -> str:
    text = json.dumps(finding.arguments, ensure_ascii=True)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text):,} characters)"


def render(finding: Finding, out: Path, options: dict[str, Any]) -> str:
    """A finding as the lines a failure or a warning shows."""
    lines = [heading(finding),
             f"  call:   {finding.tool} {_arguments(finding)}",
             f"  input:  {finding.validity.describe()}",
             f"  found:  {finding.message}",
             f"  answer: {finding.answer}",
             f"  basis:  {finding.basis}",
             f"  replay: {replay_line(finding, out, options)}"]
    if finding.stderr:
        lines += ["  server stderr (tail):", *("    " + line for line in finding.stderr.splitlines())]
    if finding.flaky:
        lines.insert(1, "  (flaky: the minimal example did not fail again when replayed)")
    return "\n".join(lines)


def as_finding(finding: Finding) -> judge.Finding:
    """The gate's Finding (conformance/expect.py) of a fuzz finding: check id, basis, message with the call."""
    message = f"{finding.message} (call: {finding.tool} {_arguments(finding, 200)}; {finding.validity.describe()})"
    return judge.Finding(finding.check.id, finding.basis, message)


def finding_record(finding: Finding, item: str) -> dict[str, Any]:
    """The `cruxgate_finding` user property of a fuzz finding: the shape of every scenario finding."""
    return as_finding(finding).as_record(item)


def record(finding: Finding, failing: bool, out: Path, options: dict[str, Any]) -> dict[str, Any]:
    """A finding as a findings.json record (`failing`: it failed its item)."""
    check, basis = finding.check, finding.basis
    return {"tool": finding.tool, "check": check.id, "title": check.title, "severity": basis.severity,
            "basis": {"kind": basis.kind, "ref": basis.ref, "level": basis.level}, "failing": failing,
            "arguments": finding.arguments, "input": finding.validity.describe(), "message": finding.message,
            "answer": finding.answer, "stderr": finding.stderr, "flaky": finding.flaky,
            "replay": replay_line(finding, out, options)}


def summary_line(name: str, outcome: Outcome) -> str:
    """One row of the terminal summary: tool, calls, time, verdict."""
    verdict = "ok"
    if outcome.lost is not None:
        verdict = "target lost: " + str(outcome.lost).splitlines()[0][:120]
    elif outcome.findings:
        verdict = f"{len(outcome.findings)} finding(s): " + ", ".join(f.check.id for f in outcome.findings)
    if outcome.warnings:
        verdict += f"; {len(outcome.warnings)} warning(s): " + ", ".join(sorted(outcome.warnings))
    saved = f" ({outcome.replayed} from the database)" if outcome.replayed else ""
    return f"{name:28} {outcome.calls:6} calls {outcome.seconds:7.1f} s   {verdict}{saved}"


def rerun_line(item: str, fuzz_seed: int, options: dict[str, Any]) -> str:
    """The pytest line that runs one fuzz item again with the same seed and target."""
    words = ["pytest", "--pyargs", SUITE_PACKAGE, "--fuzz", "--fuzz-seed", str(fuzz_seed), "-k", item]
    for name in REPLAY_OPTIONS:
        value = options.get(name)
        if value is not None and not (name == "target" and value == "stdio"):
            words += ["--" + name.replace("_", "-"), str(value)]
    return " ".join(shlex.quote(word) for word in words)
