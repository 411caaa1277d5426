"""What every report says about a results document: the target, the verdict, counts, skip causes, warnings."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cruxgate.conformance.report.baseline import first_line
from cruxgate.conformance.spec.model import WIRE_SCENARIO_ID

OUTCOMES = ("passed", "warned", "failed", "expected-failure", "skipped", "informative")
EXECUTED = ("passed", "warned", "failed", "expected-failure")
LEVELS = ("MUST", "SHOULD", "MAY")
NOT_STRICT = "no (document MUSTs and the error registry fail; SHOULDs, MCP conventions and readings warn)"


def target_name(document: dict[str, Any]) -> str:
    """The target's profile name, as every report titles it."""
    return str(document.get("target_profile") or "(none)")


def server_label(document: dict[str, Any]) -> str | None:
    """`name version` from the server's serverInfo, or None when no server was started."""
    info = document.get("server_info")
    if not isinstance(info, dict):
        return None
    return f"{info.get('name', '?')} {info.get('version', '')}".strip()


@dataclass(frozen=True)
class Verdict:
    """PASS or FAIL, and why, in a few words."""

    passed: bool
    note: str

    @property
    def word(self) -> str:
        """PASS or FAIL."""
        return "PASS" if self.passed else "FAIL"


def verdict(document: dict[str, Any]) -> Verdict:
    """FAIL when a scenario failed or none executed (an all-skipped run judges nothing), else PASS."""
    records = document["scenarios"]
    failures = sum(1 for r in records if r["outcome"] == "failed")
    # the wire scenario alone judges no requirement: a run needs a scenario of the spec
    executed = sum(1 for r in records if r["outcome"] in EXECUTED and r["id"] != WIRE_SCENARIO_ID)
    if not executed:
        return Verdict(False, "no scenario of the spec was executed")
    return Verdict(failures == 0, f"{failures} failure(s)")


def counts_by_level(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """{level or "all": {outcome: count}} over OUTCOMES, levels in LEVELS order."""
    records = list(records)
    table = {level: {o: sum(1 for r in records if r["level"] == level and r["outcome"] == o) for o in OUTCOMES}
             for level in LEVELS}
    table["all"] = {o: sum(1 for r in records if r["outcome"] == o) for o in OUTCOMES}
    return table


def by_requirement(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records sorted by requirement, then scenario id."""
    return sorted(records, key=lambda r: (r.get("requirement") or "", r["id"]))


@dataclass(frozen=True)
class Cause:
    """One reason several scenarios did not run: its anchor, outcome, reason and the scenarios it covers."""

    anchor: str
    outcome: str
    reason: str
    scenarios: tuple[str, ...]


def causes(records: Iterable[dict[str, Any]]) -> list[Cause]:
    """Skipped and informative scenarios grouped by their reason, skipped first, the largest group first."""
    groups: dict[tuple[str, str], list[str]] = {}
    for record in records:
        if record["outcome"] in ("skipped", "informative"):
            groups.setdefault((record["outcome"], record.get("skip_reason") or "no reason given"), []).append(
                record["id"])
    ordered = sorted(groups.items(), key=lambda kv: (kv[0][0] != "skipped", -len(kv[1]), kv[0][1]))
    return [Cause(f"cause-{n}", outcome, reason, tuple(sorted(ids)))
            for n, ((outcome, reason), ids) in enumerate(ordered, start=1)]


def cause_of(found: list[Cause]) -> dict[str, Cause]:
    """Scenario id -> the cause it is grouped under."""
    return {sid: cause for cause in found for sid in cause.scenarios}


def warnings(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every finding of a scenario that passed with warnings (id, step, basis, message)."""
    return [finding for r in records if r["outcome"] == "warned" for finding in r.get("findings", [])]


def basis_label(basis: dict[str, Any]) -> str:
    """`kind LEVEL` of a finding's basis (a reading's level is `reading`: said once)."""
    return basis["kind"] if basis["kind"] == basis["level"] else f"{basis['kind']} {basis['level']}"


def bases(record: dict[str, Any]) -> list[str]:
    """The basis kinds of a record's findings (what a report filters on), sorted."""
    return sorted({finding["basis"]["kind"] for finding in record.get("findings", [])})


def summary_line(record: dict[str, Any]) -> str:
    """One line on a record: the failure's first line, the skip reason, or the baseline's reason."""
    if record["outcome"] == "expected-failure":
        return f"expected failure: {record.get('baseline_reason') or ''}".strip()
    if record["outcome"] == "failed":
        return first_line(record.get("failure_message") or "")
    if record["outcome"] in ("skipped", "informative"):
        return record.get("skip_reason") or ""
    if record["outcome"] == "warned":
        return f"{len(record.get('findings', []))} warning(s)"
    return ""
