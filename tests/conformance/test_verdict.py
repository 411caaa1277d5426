"""The run's verdict on a server that is not a code-search server: red, with one failure per missing tool."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gate_harness import LEAN, SERVER, SUITE

MANDATORY_SURFACE = {f"RC-SURFACE-0{n}" for n in range(1, 7)}


def run(directory: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    """The bundled spec against a server that lists no tool at all (the fake server with --tools none)."""
    out = directory / "results.json"
    command = [sys.executable, "-m", "pytest", str(SUITE), *LEAN, "-p", "no:cacheprovider", "-q", "-rs",
               "--server-cmd", f"{{python}} {SERVER} serve --raw --tools none --workspace {{workspace}}",
               "--conformance-json", str(out), *args]
    done = subprocess.run(command, cwd=directory, capture_output=True, text=True, timeout=600)
    return done, json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def toolless(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], dict]:
    return run(tmp_path_factory.mktemp("toolless"), "-m", "not hook")


def test_a_server_without_the_protocols_tools_is_red(toolless):
    done, results = toolless
    assert done.returncode == 1, done.stdout[-2000:]
    outcomes = {r["id"]: r["outcome"] for r in results["scenarios"]}
    assert {sid for sid, outcome in outcomes.items() if outcome == "failed"} == MANDATORY_SURFACE
    assert outcomes["RC-SURFACE-07"] == outcomes["RC-SURFACE-08"] == "skipped"  # scored search is not claimed


def test_the_scenarios_needing_a_missing_tool_are_blocked_by_its_surface_scenario(toolless):
    _, results = toolless
    record = next(r for r in results["scenarios"] if r["id"] == "AP-EXPLAIN-01")
    assert record["outcome"] == "skipped"
    assert record["skip_reason"].startswith("blocked: target server-cmd: {python} ")
    assert ("does not list the mandatory tool search_code (tools/list); RC-SURFACE-01 fails for it"
            in record["skip_reason"])


def test_skip_lines_name_the_scenario_and_blocked_scenarios_are_grouped_per_missing_tool(toolless):
    done, results = toolless
    skips = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skips and all(re.match(r"SKIPPED \[1\] [A-Z][A-Za-z0-9-]*: ", line) for line in skips), skips
    assert "SKIPPED [1] AP-EXPLAIN-01: blocked: target server-cmd: " in done.stdout
    section = done.stdout.split("scenario(s) blocked by a tool the target does not list (tools/list)")[1]
    grouped = {line.split(":")[0].strip(): line.split(": ", 1)[1].split(", ")
               for line in section.splitlines() if line.startswith("  ") and ": " in line}
    blocked = {r["id"] for r in results["scenarios"] if (r["skip_reason"] or "").startswith("blocked: ")}
    assert {sid for scenarios in grouped.values() for sid in scenarios} == blocked
    assert "AP-EXPLAIN-01" in grouped["search_code"]


def test_reports_name_the_target_by_its_command_and_server_info_never_the_reference(toolless):
    _, results = toolless
    assert results["target_profile"].startswith("server-cmd: {python} ")
    assert results["server_info"]["name"] == "fake-code-search"
    assert not any("cruxgate-reference" in (r["skip_reason"] or "") for r in results["scenarios"])


EXIT_PROBE = """
import pytest
from pathlib import Path

@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session, exitstatus):
    Path("exit_probe.txt").write_text(f"{int(exitstatus)} {int(session.exitstatus)}")
"""


def test_a_run_in_which_no_scenario_executed_is_not_green(tmp_path):
    # A plugin that reads the status first, from the hook's own argument, sees the verdict too:
    # it is settled before any pytest_sessionfinish, whatever the plugins' order.
    (tmp_path / "exit_probe.py").write_text(EXIT_PROBE, encoding="utf-8")
    done, results = run(tmp_path, "-k", "RC-SURFACE-07 or AP-EXPLAIN-01", "-p", "exit_probe")
    assert {r["outcome"] for r in results["scenarios"]} == {"skipped"}
    assert done.returncode == 1 and results["exit_status"] == 1
    assert (tmp_path / "exit_probe.txt").read_text(encoding="utf-8") == "1 1"
    assert "no scenario of the spec was executed against the target" in done.stdout


@pytest.mark.parametrize("folder", ["missing", "empty"])
def test_an_empty_or_missing_spec_folder_is_red(tmp_path, folder):
    spec = tmp_path / folder
    if folder == "empty":
        spec.mkdir()
    done = subprocess.run([sys.executable, "-m", "pytest", str(SUITE), *LEAN, "-p", "no:cacheprovider", "-q",
                           "--spec-dir", str(spec)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0, done.stdout[-2000:]
    assert "no spec document (*.yaml)" in done.stdout + done.stderr
    assert "passed" not in done.stdout


def test_the_wire_scenario_alone_is_not_a_run(tmp_path):
    done, results = run(tmp_path, "-k", "MCP-WIRE-01")
    assert {r["id"]: r["outcome"] for r in results["scenarios"]} == {"MCP-WIRE-01": "passed"}
    assert done.returncode == 1 and results["exit_status"] == 1
    assert "no scenario of the spec was executed against the target" in done.stdout
