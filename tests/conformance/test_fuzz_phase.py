"""The fuzz phase end to end: the reference passes a short pass, and each broken fixture server is caught with the
minimal input, a replay command and a findings.json record; the example database replays a finding first. A
finding on a basis that gates fails its item; the others warn (outcome warned), and pytest's --strict fails them.

Every run is a pytest subprocess (as a user runs it), all started at once in the module fixture (two at a
time: they mostly wait on servers). Budget: well under a minute on two cores.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gate_harness import DATA, LEAN, SUITE

SERVER = Path(__file__).resolve().parent / "servers" / "fuzz_server.py"
SERVE = f"{{python}} {SERVER} serve --workspace {{workspace}}"
TOOLS = {"search_code", "get_file_outline", "health_check"}
REFERENCE_TOOLS = 10


@dataclass
class FuzzRun:
    """One finished fuzz run: exit code, output, findings.json and the item outcomes."""

    returncode: int
    output: str
    findings: list[dict[str, Any]]
    out: Path

    def finding(self, tool: str, check: str) -> dict[str, Any]:
        """The findings.json record of one check on one tool."""
        return next(f for f in self.findings if f["tool"] == tool and f["check"] == check)

    def failed(self) -> set[str]:
        """Names of the fuzz items that failed."""
        return {line.split("::")[1].split(" ")[0] for line in self.output.splitlines() if line.startswith("FAILED ")}

    def results(self) -> dict[str, dict[str, Any]]:
        """The --conformance-json records by item id (the runs that write one)."""
        document = json.loads((self.out / "results.json").read_text(encoding="utf-8"))
        return {record["id"]: record for record in document["scenarios"]}


def fuzz(directory: Path, *args: str, flaw: str | None = None, reference: bool = False, out: Path | None = None,
         via_cli: bool = False, report: bool = False) -> FuzzRun:
    """Run the fuzz phase (pytest, or `cruxgate fuzz`) against the fixture server, or against the reference."""
    directory.mkdir(parents=True, exist_ok=True)
    out = out or directory / "out"
    options = ["--fuzz-out", str(out), *args]
    reports = ["--conformance-json", str(out / "results.json"), "--conformance-report", str(out / "report.md")] \
        if report else []
    if not reference:
        profile = directory / "profile.yaml"
        profile.write_text((DATA / "fuzz-profile.yaml").read_text(encoding="utf-8").replace("SERVER", str(SERVER)),
                           encoding="utf-8")
        options += ["--target-profile", str(profile), "--fixtures-dir", str(DATA / "fixtures"),
                    "--fuzz-fixture", "tiny",
                    "--spec-dir", str(DATA / "spec")]  # the small spec: collecting the real one costs ~2 s
        if flaw:
            options += ["--server-cmd", f"{SERVE} --flaw {flaw}"]
    if via_cli:
        command = [sys.executable, "-m", "cruxgate.cli", "fuzz", *options, "--", *LEAN, "-p", "no:cacheprovider",
                   *reports]
    else:
        command = [sys.executable, "-m", "pytest", str(SUITE), *LEAN, "-p", "no:cacheprovider", "-q", "--fuzz",
                   "-m", "fuzz", *options, *reports]
    done = subprocess.run(command, cwd=directory, capture_output=True, text=True, timeout=180)
    path = out / "findings.json"
    findings = json.loads(path.read_text(encoding="utf-8"))["findings"] if path.exists() else []
    return FuzzRun(done.returncode, done.stdout + done.stderr, findings, out)


def replay(directory: Path, line: str) -> subprocess.CompletedProcess[str]:
    """Run a finding's replay line (`cruxgate fuzz replay ...`) as the module cruxgate.cli."""
    import shlex

    words = shlex.split(line)
    assert words[:3] == ["cruxgate", "fuzz", "replay"]
    return subprocess.run([sys.executable, "-m", "cruxgate.cli", *words[1:]], cwd=directory, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every fuzz run the tests judge, run once, two at a time (the database runs need the first one's output)."""
    base = tmp_path_factory.mktemp("fuzz")
    seed = ("--fuzz-seed", "17")

    def crash_then_database() -> dict[str, Any]:
        crash = fuzz(base / "crash", *seed, "--fuzz-examples", "30", flaw="crash_on_empty_string")
        # Fuzzing phase only, one generated example (the simplest, {"query": "0"}): only the database has the crash.
        again = fuzz(base / "again", "--fuzz-seed", "99", "--fuzz-examples", "1", "--fuzz-phases", "fuzzing",
                     "-k", "search_code", flaw="crash_on_empty_string", out=crash.out)
        line = crash.finding("search_code", "FZ-ALIVE")["replay"]
        return {"crash": crash, "again": again, "replay": replay(base / "crash", line)}

    flaws = "leak_outside,no_is_error,breaks_output_schema,log_stdout"
    with ThreadPoolExecutor(max_workers=2) as pool:
        reference = pool.submit(fuzz, base / "reference", *seed, "--fuzz-examples", "10", reference=True)
        chained = pool.submit(crash_then_database)
        leak = pool.submit(fuzz, base / "leak", *seed, "--fuzz-examples", "20", flaw=flaws, via_cli=True,
                           report=True)
        strict = pool.submit(fuzz, base / "strict", "--fuzz-phases", "coverage", "--tool", "get_file_outline",
                             "--strict", flaw="leak_outside", via_cli=True)
        return {"reference": reference.result(), "leak": leak.result(), "strict": strict.result(), **chained.result()}


def test_the_reference_passes_a_short_fuzz_pass(runs):
    # Its two bugs the fuzz phase found (find_references: a symbol_id of 2**63, a name of ~50,000 characters)
    # are fixed: not a finding, not a warning.
    run = runs["reference"]
    assert f"{REFERENCE_TOOLS} passed" in run.output, run.output
    assert run.findings == [], run.findings


def test_a_crash_on_an_empty_string_is_caught_with_the_minimal_input(runs):
    run = runs["crash"]
    assert run.returncode == 1, run.output
    assert run.failed() == {"fuzz[search_code]"}  # the server's other tools pass: no false positive
    assert [(f["tool"], f["check"]) for f in run.findings] == [("search_code", "FZ-ALIVE")]
    finding = run.finding("search_code", "FZ-ALIVE")
    assert finding["arguments"] == {"query": ""}
    assert finding["basis"]["kind"] == "document" and finding["basis"]["level"] == "MUST"
    assert finding["severity"] == "error" and finding["failing"] is True
    assert "fuzz server: crashing on an empty query" in finding["stderr"]
    assert "FZ-ALIVE [error: document MUST] The server neither dies nor hangs on a call" in run.output
    assert 'call:   search_code {"query": ""}' in run.output
    assert "replay: cruxgate fuzz replay search_code '{\"query\":\"\"}'" in run.output
    assert "rerun:  pytest --pyargs cruxgate.conformance --fuzz --fuzz-seed 17 -k 'fuzz[search_code]'" in run.output


def test_the_replay_command_reproduces_the_finding(runs):
    done = runs["replay"]
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'call:   search_code {"query": ""}' in done.stdout
    assert "FAIL FZ-ALIVE [document MUST]" in done.stdout
    assert "ok   FZ-CONTAINED" in done.stdout


def test_a_rerun_tries_the_failing_example_from_the_database_first(runs):
    saved = json.loads((runs["crash"].out / "examples.json").read_text(encoding="utf-8"))
    assert saved == {"fuzz-target": {"search_code": [{"query": ""}]}}
    again = runs["again"]
    assert again.returncode == 1, again.output
    assert again.finding("search_code", "FZ-ALIVE")["arguments"] == {"query": ""}
    assert "(1 from the database)" in again.output


def test_mcp_rules_warn_and_every_finding_reaches_the_reports(runs):
    run = runs["leak"]  # run through `cruxgate fuzz`
    # A leak, a broken outputSchema, a missing isError and a log line on stdout rest on MCP rules: warnings.
    assert run.returncode == 0, run.output
    assert run.failed() == set()
    assert run.finding("health_check", "FZ-OUTPUT-ADVERTISED")["arguments"] == {}  # its outputSchema is broken
    leak = run.finding("get_file_outline", "FZ-CONTAINED")
    assert leak["arguments"]["path"] in ("/etc/passwd", "../cruxgate-canary.py")
    assert leak["basis"]["kind"] == "mcp" and not leak["failing"]
    warnings = {f["tool"] for f in run.findings if f["check"] == "FZ-ISERROR"}
    assert warnings == TOOLS - {"health_check"}  # its errors break its outputSchema first (the SDK checks them)
    assert all(not f["failing"] and f["severity"] == "warning" for f in run.findings)
    assert "FuzzWarning: fuzz[search_code] FZ-ISERROR [warning: mcp SHOULD]" in run.output
    assert "PytestAssertRewriteWarning" not in run.output  # `cruxgate fuzz` imports nothing pytest loads as a plugin
    # A log line on stdout breaks nothing: the call is answered, the defect is a finding of its own.
    wire = run.finding("search_code", "FZ-WIRE")
    assert "*" in wire["arguments"]["query"] and "'DEBUG fuzz server: a wildcard query'" in wire["message"]
    assert not any(f["check"] in ("FZ-ALIVE", "FZ-READABLE") for f in run.findings)
    # The JSON results and the Markdown report carry them as they carry a scenario's warnings.
    records = run.results()
    assert {records[f"fuzz[{tool}]"]["outcome"] for tool in TOOLS} == {"warned"}
    finding = next(f for f in records["fuzz[get_file_outline]"]["findings"] if f["check"] == "FZ-CONTAINED")
    assert finding["id"] == "fuzz[get_file_outline]/FZ-CONTAINED" and finding["severity"] == "warning"
    assert finding["basis"]["kind"] == "mcp" and finding["step"] is None
    report = (run.out / "report.md").read_text(encoding="utf-8")
    assert "| fuzz[get_file_outline]/FZ-CONTAINED | - | mcp MUST:" in report


def test_under_strict_a_warning_fails_its_item_and_is_shrunk(runs):
    run = runs["strict"]  # cruxgate fuzz --strict: pytest's own --strict
    assert run.returncode == 1, run.output
    assert run.failed() == {"fuzz[get_file_outline]"}
    leak = run.finding("get_file_outline", "FZ-CONTAINED")
    assert leak["failing"] and leak["severity"] == "warning"  # its basis does not gate; --strict fails it
