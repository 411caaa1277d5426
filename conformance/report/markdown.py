"""--conformance-report: a Markdown report, requirement x scenario x outcome, with counts by level, for one target."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from cruxgate.conformance.checks.judge import recorded_findings, recorded_not_judged
from cruxgate.conformance.report.baseline import EXPECTED_FAILURE, baseline_outcome, first_line
from cruxgate.conformance.spec.model import WIRE_SCENARIO_ID

OUTCOMES = ("passed", "warned", "failed", "expected-failure", "skipped", "informative")
_NOT_STRICT = "no (document MUSTs and the error registry fail; SHOULDs, MCP conventions and readings warn)"


def _cell(text: str, limit: int = 160) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


class ReportPlugin:
    """Records each scenario's outcome and writes the Markdown report at session end."""

    def __init__(self, config: pytest.Config, path: str, describe_target: Any) -> None:
        self.config = config
        self.path = Path(path)
        self.describe_target = describe_target
        self.rows: dict[str, dict[str, Any]] = {}
        self.strict = bool(config.getoption("strict", False))

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            scenario = getattr(item, "scenario", None)
            requirement = getattr(item, "requirement", None)
            if not isinstance(scenario, dict) or not isinstance(requirement, dict):
                continue
            self.rows[item.nodeid] = {"id": scenario["id"], "title": scenario["title"], "level": scenario["level"],
                                      "requirement": requirement["id"], "requirement_title": requirement["title"],
                                      "coverage": scenario["coverage"], "outcome": None, "detail": ""}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        row = self.rows.get(report.nodeid)
        if row is None:
            return
        if baseline_outcome(report) == EXPECTED_FAILURE:
            row["outcome"], row["detail"] = "expected-failure", str(report.wasxfail)
        elif report.failed:
            row["outcome"], row["detail"] = "failed", first_line(report.longreprtext)
        elif report.skipped and row["outcome"] in (None, "passed"):
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longreprtext
            reason = str(reason).removeprefix("Skipped: ")
            row["outcome"] = "informative" if reason.startswith("informative:") else "skipped"
            row["detail"] = reason
        elif report.when == "call" and report.passed and row["outcome"] is None:
            findings = recorded_findings(report.user_properties)
            row["outcome"] = "warned" if findings else "passed"
            row["findings"] = findings
            row["not_judged"] = recorded_not_judged(report.user_properties)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if any(row["outcome"] for row in self.rows.values()):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(self.render(), encoding="utf-8")

    def render(self) -> str:
        """The whole Markdown document."""
        rows = sorted((r for r in self.rows.values() if r["outcome"]), key=lambda r: (r["requirement"], r["id"]))
        target = self.describe_target()
        lines = ["# cruxgate conformance report", ""]
        lines += [f"- target: **{target['name']}** over **{target['transport']}**",
                  f"- server: {target.get('server') or 'unknown (no server was started)'}",
                  f"- strict: {'yes (warnings fail)' if self.strict else _NOT_STRICT}",
                  f"- generated: {datetime.now(UTC).isoformat(timespec='seconds')}", ""]
        failures = [r for r in rows if r["outcome"] == "failed"]
        executed = [r for r in rows if r["outcome"] in ("passed", "warned", "failed", "expected-failure")
                    and r["id"] != WIRE_SCENARIO_ID]
        verdict = "FAIL" if failures or not executed else "PASS"
        note = f"{len(failures)} failure(s)" if executed else "no scenario was executed"
        lines += [f"**Verdict: {verdict}** ({note})", "", "## Counts by level", ""]
        lines += ["| level | " + " | ".join(OUTCOMES) + " | total |", "|---" * (len(OUTCOMES) + 2) + "|"]
        for level in ("MUST", "SHOULD", "MAY"):
            counts = [sum(1 for r in rows if r["level"] == level and r["outcome"] == o) for o in OUTCOMES]
            lines.append(f"| {level} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |")
        totals = [sum(1 for r in rows if r["outcome"] == o) for o in OUTCOMES]
        lines += ["| all | " + " | ".join(map(str, totals)) + f" | {sum(totals)} |", ""]
        lines += ["## Requirements and scenarios", "", "| requirement | level | scenario | title | outcome | detail |",
                  "|---|---|---|---|---|---|"]
        for row in rows:
            lines.append(f"| {row['requirement']} | {row['level']} | {row['id']} | {_cell(row['title'], 80)} | "
                         f"{row['outcome']} | {_cell(row['detail'])} |")
        warned = [finding for row in rows for finding in row.get("findings", [])]
        if warned:
            lines += ["", "## Warnings", "", "Checks that did not hold on a basis that does not gate "
                      "(a SHOULD, an MCP convention or a reading of ours); `--strict` fails them.", "",
                      "| id | step | basis | message |", "|---|---|---|---|"]
            for finding in warned:
                basis = finding["basis"]
                step = finding["step"] if finding["step"] is not None else "-"  # the wire scenario's, a fuzz item's
                level = basis["kind"] if basis["kind"] == basis["level"] else f"{basis['kind']} {basis['level']}"
                lines.append(f"| {finding['id']} | {step} | {level}: "
                             f"{_cell(basis['ref'], 120)} | {_cell(finding['message'])} |")
        unjudged = [(row["id"], note) for row in rows for note in row.get("not_judged", [])]
        if unjudged:
            lines += ["", "## Not judged", "", "Checks marked `when_present` whose value the answer did not carry: "
                      "neither passed nor failed.", "", "| scenario | step | check | reason |", "|---|---|---|---|"]
            lines += [f"| {sid} | {note['step'] or '-'} | {note['check']} | {_cell(note['reason'])} |"
                      for sid, note in unjudged]
        return "\n".join(lines) + "\n"
