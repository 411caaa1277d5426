"""Run the conformance runner as a user would (a pytest subprocess) against the fake server and the test spec."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

import conformance

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SERVER = HERE / "servers" / "fake_server.py"
SUITE = Path(conformance.__file__).resolve().parent / "suite.yaml"
SERVE = f"{{python}} {SERVER} serve --workspace {{workspace}}"
RUN_TIMEOUT = 120
# Plugins the runner does not need; skipping their imports saves ~0.8 s per runner process.
LEAN = ("-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:syrupy", "-p", "no:anyio")


@dataclass
class GateRun:
    """One finished runner invocation: exit code, output and its JSON results."""

    returncode: int
    output: str
    results: dict[str, Any] | None
    junit: ElementTree.Element | None
    report: str | None

    def outcomes(self, outcome: str) -> set[str]:
        """Scenario ids with the given JSON outcome."""
        return {r["id"] for r in (self.results or {}).get("scenarios", []) if r["outcome"] == outcome}

    def record(self, scenario_id: str) -> dict[str, Any]:
        """The JSON record of one scenario."""
        return next(r for r in self.results["scenarios"] if r["id"] == scenario_id)


def write_profile(directory: Path, relocatable: bool = True, **timeouts: float) -> Path:
    """The fake server's profile with its script path filled in (optionally indexing every workspace, other timeouts)."""
    text = (DATA / "profile.yaml").read_text(encoding="utf-8").replace("SERVER", str(SERVER))
    if not relocatable:
        text = text.replace("relocatable_index: true", "relocatable_index: false")
    if timeouts:
        text = text.replace("timeouts: {start: 20, call: 5, index: 20, hook: 20}",
                            "timeouts: " + json.dumps({"start": 20, "call": 5, "index": 20, "hook": 20, **timeouts}))
    path = directory / f"profile-{len(list(directory.glob('profile-*')))}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def run_gate(directory: Path, *args: str, flaw: str | None = None, tools: str | None = None,
             profile: Path | None = None, anchor: str | None = None) -> GateRun:
    """Run `pytest conformance/suite.yaml` with the test spec against the fake server (a flaw swapped in by --server-cmd)."""
    directory.mkdir(parents=True, exist_ok=True)
    profile = profile or write_profile(directory)
    out = directory / "out"
    out.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "pytest", anchor or str(SUITE), *LEAN, "-p", "no:cacheprovider", "-q", "-rs",
               "--spec-dir", str(DATA / "spec"), "--fixtures-dir", str(DATA / "fixtures"),
               "--target-profile", str(profile), "--conformance-json", str(out / "results.json"),
               "--junitxml", str(out / "junit.xml"), "--conformance-report", str(out / "report.md"), *args]
    if flaw or tools:
        command += ["--server-cmd", SERVE + (f" --flaw {flaw}" if flaw else "") + (f" --tools {tools}" if tools else "")]
    done = subprocess.run(command, cwd=directory, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    read = lambda name: (out / name).read_text(encoding="utf-8") if (out / name).exists() else None  # noqa: E731
    results = read("results.json")
    junit = read("junit.xml")
    return GateRun(done.returncode, done.stdout + done.stderr, json.loads(results) if results else None,
                   ElementTree.fromstring(junit) if junit else None, read("report.md"))


@pytest.fixture(scope="session")
def gate_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, GateRun]:
    """Every runner invocation the gate tests judge, run concurrently once (each is mostly waiting on servers)."""
    base = tmp_path_factory.mktemp("gate")
    short_call = write_profile(base, call=2)
    # Each flaw run covers every scenario but the hook and edit ones (private workspaces, proven by
    # the conforming runs); the other plans select only the scenarios their assertions read.
    flaw_scope = ("-k", "not HC-META-03 and not SC-SEARCH-06")
    plans: dict[str, dict[str, Any]] = {
        "conforming": {},
        "conforming_http": {"args": ("--target=http",), "profile": write_profile(base, relocatable=False)},
        "no_clamp_warning": {"flaw": "no_clamp_warning", "args": ("-k", "SEARCH-05 or SEARCH-01")},
        "strict": {"flaw": "no_clamp_warning", "args": ("--strict-levels", "-k", "SEARCH-05")},
        "lacking_tools": {"tools": "health_check,search_code", "args": ("-k", "SEARCH-01 or SEARCH-08 or SEARCH-09 or PERF")},
        "hang": {"flaw": "hang_on_bad_input", "profile": short_call, "args": ("-k", "SEARCH-04 or SEARCH-01")},
        "crash_on_start": {"flaw": "crash_on_start", "args": ("-k", "HC-META-01 or HC-META-02")},
        "garbage_stdout": {"flaw": "garbage_stdout", "args": ("-k", "HC-META-01 or SC-SEARCH-01")},
        "baseline": {"flaw": "reasons_when_off", "args": ("--baseline", str(DATA / "baseline.yaml"), "-k", "SEARCH-01 or SEARCH-02")},
    }
    for flaw in ("legacy_idle", "missing_metadata", "reasons_when_off", "compact_order", "bad_error_code",
                 "crash_on_bad_input"):
        plans[flaw] = {"flaw": flaw, "args": flaw_scope}
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(run_gate, base / name, *plan.get("args", ()), flaw=plan.get("flaw"),
                                     tools=plan.get("tools"), profile=plan.get("profile"))
                   for name, plan in plans.items()}
        return {name: future.result() for name, future in futures.items()}
