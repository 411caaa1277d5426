"""--conformance-report: the results document as Markdown, for one target.

Counts by level, requirement x scenario x outcome, then every failure told in full (WHEN/THEN,
the failure, each finding with its basis, each call and what came back), the scenarios that did
not run grouped by cause, and the warnings with their ids.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from cruxgate.conformance.report import digest
from cruxgate.conformance.report.baseline import first_line

STORY = ("failed", "expected-failure")  # outcomes whose scenario gets its whole story


def _cell(text: str) -> str:
    """Text inside a table cell: pipes escaped, line breaks kept as <br>."""
    return text.replace("|", "\\|").replace("\r", "").replace("\n", "<br>")


def fence(text: str, language: str = "") -> list[str]:
    """`text` in a code fence longer than any run of backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    marks = "`" * max(3, longest + 1)
    return [f"{marks}{language}", text, marks]


def anchor(scenario_id: str) -> str:
    """The HTML id a scenario's story carries (also used by the HTML report)."""
    return "story-" + re.sub(r"[^A-Za-z0-9_-]", "-", scenario_id)


def call_heading(number: int, call: dict[str, Any]) -> str:
    """One line naming a call: its step, method, tool, transport, time and error."""
    parts = [f"call {number}"]
    if call.get("step") is not None:
        parts.append(f"step {call['step']}")
    parts.append(f"{call['method']} {call.get('tool') or ''}".strip() + f" over {call['transport']}")
    if "ms" in call:
        parts.append(f"{call['ms']:.1f} ms")
    if call.get("error_code"):
        parts.append(f"error {call['error_code']}")
    if call.get("is_error"):
        parts.append("isError")
    return " · ".join(parts)


def answer_caption(call: dict[str, Any]) -> str:
    """What the answer block holds: its size, and where it was cut."""
    size = call.get("answer_bytes", len(call["answer"].encode("utf-8")))
    if call.get("truncated"):
        shown = len(call["answer"].encode("utf-8"))
        return f"answer ({size:,} bytes; the first {shown:,} shown)"
    return f"answer ({size:,} bytes)"


def story(record: dict[str, Any]) -> list[str]:
    """A failing scenario in full: what the spec says, what broke and on which basis, every call and answer."""
    lines = [f'<a id="{anchor(record["id"])}"></a>', "", f"### {record['id']}: {record.get('title') or ''}", ""]
    requirement = record.get("requirement") or "-"
    if record.get("requirement_title"):
        requirement += f" ({record['requirement_title']})"
    lines += [f"- requirement: {requirement}, level {record.get('level') or '-'}",
              f"- source: {record.get('source') or '-'}",
              f"- transport: {record.get('transport') or '-'}, {record.get('duration', 0):.2f} s"]
    if record.get("when"):
        lines.append(f"- **WHEN** {record['when']}")
    if record.get("then"):
        lines.append(f"- **THEN** {record['then']}")
    if record["outcome"] == "expected-failure":
        lines.append(f"- expected failure (baseline): {record.get('baseline_reason') or ''}")
    lines += ["", "What broke:", "", *fence(record.get("failure_message") or "(no message)", "text"), ""]
    findings = record.get("findings", [])
    if findings:
        lines += ["The rules that did not hold:", ""]
        for finding in findings:
            step = f"step {finding['step']}, " if finding.get("step") is not None else ""
            lines.append(f"- `{finding['id']}` ({step}{finding['severity']}): {finding['message']}  ")
            lines.append(f"  basis: {digest.basis_label(finding['basis'])}: {finding['basis']['ref']}")
        lines.append("")
    calls = record.get("calls", [])
    if calls:
        dropped = record.get("calls_dropped", 0)
        lines += [f"Calls ({len(calls)}" + (f", the last of {len(calls) + dropped}" if dropped else "") + "):", ""]
        for number, call in enumerate(calls, start=1 + dropped):
            lines += [f"**{call_heading(number, call)}**", ""]
            if call.get("arguments") is not None:
                lines += ["arguments:", "",
                          *fence(json.dumps(call["arguments"], indent=2, ensure_ascii=False), "json"), ""]
            lines += [f"{answer_caption(call)}:", "", *fence(call["answer"], "json"), ""]
    else:
        lines += ["No call was made (the scenario failed before its first request).", ""]
    return lines


def render(document: dict[str, Any]) -> str:
    """The whole Markdown document."""
    records = digest.by_requirement(document["scenarios"])
    found = digest.causes(records)
    cause_of = digest.cause_of(found)
    verdict = digest.verdict(document)
    lines = ["# cruxgate conformance report", ""]
    lines += [f"- target: **{digest.target_name(document)}** over **{document.get('transport') or '-'}**",
              f"- server: {digest.server_label(document) or 'unknown (no server was started)'}",
              f"- strict: {'yes (warnings fail)' if document.get('strict') else digest.NOT_STRICT}",
              f"- started: {document.get('started_at', '-')}; report generated "
              f"{datetime.now(UTC).isoformat(timespec='seconds')}", ""]
    lines += [f"**Verdict: {verdict.word}** ({verdict.note})", "", "## Counts by level", ""]
    lines += ["| level | " + " | ".join(digest.OUTCOMES) + " | total |", "|---" * (len(digest.OUTCOMES) + 2) + "|"]
    for level, counts in digest.counts_by_level(records).items():
        lines.append(f"| {level} | " + " | ".join(str(counts[o]) for o in digest.OUTCOMES)
                     + f" | {sum(counts.values())} |")
    lines += ["", "## Requirements and scenarios", "", "| requirement | level | scenario | title | outcome | detail |",
              "|---|---|---|---|---|---|"]
    for record in records:
        if record["outcome"] in STORY:
            detail = f"{digest.summary_line(record)} ([the whole story](#{anchor(record['id'])}))"
        elif record["id"] in cause_of:
            cause = cause_of[record["id"]]
            detail = f"[{cause.anchor}](#{cause.anchor}): {first_line(cause.reason)}"
        else:
            detail = digest.summary_line(record)
        lines.append(f"| {record.get('requirement') or '-'} | {record.get('level') or '-'} | {record['id']} | "
                     f"{_cell(record.get('title') or '')} | {record['outcome']} | {_cell(detail)} |")
    stories = [record for record in records if record["outcome"] in STORY]
    if stories:
        lines += ["", "## Failures", ""]
        for record in stories:
            lines += story(record)
    if found:
        lines += ["", "## Not run, by cause", "",
                  "Scenarios that did not run against this target, grouped by the reason each gave.", ""]
        for cause in found:
            lines += [f'<a id="{cause.anchor}"></a>', "",
                      f"### {cause.anchor}: {cause.outcome}, {len(cause.scenarios)} scenario(s)", "",
                      *fence(cause.reason, "text"), "", ", ".join(cause.scenarios), ""]
    warned = digest.warnings(records)
    if warned:
        lines += ["", "## Warnings", "", "Checks that did not hold on a basis that does not gate "
                  "(a SHOULD, an MCP convention or a reading of ours); `--strict` fails them.", "",
                  "| id | step | basis | message |", "|---|---|---|---|"]
        for finding in warned:
            basis = finding["basis"]
            step = finding["step"] if finding["step"] is not None else "-"  # the wire scenario's, a fuzz item's
            lines.append(f"| {finding['id']} | {step} | {digest.basis_label(basis)}: {_cell(basis['ref'])} | "
                         f"{_cell(finding['message'])} |")
    return "\n".join(lines) + "\n"
