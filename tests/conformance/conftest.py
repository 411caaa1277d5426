"""The session's runner invocations, run once and concurrently, for the gate tests to judge."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from gate_harness import (
    DATA,
    LEAN,
    RUN_TIMEOUT,
    SERVE,
    SUITE,
    GateRun,
    RecipeRun,
    run_gate,
    run_recipe,
    write_profile,
)


@pytest.fixture(scope="session")
def gate_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, GateRun | RecipeRun]:
    """Every runner invocation the gate tests judge, run concurrently once (each is mostly waiting on servers)."""
    base = tmp_path_factory.mktemp("gate")
    short_call = write_profile(base, call=2)
    # Each flaw run covers every scenario but the hook and edit ones (private workspaces, proven by
    # the conforming runs) and, unless the flaw is about errors, the cross-transport one (an extra
    # HTTP server); the other plans select only the scenarios their assertions read.
    flaw_scope = ("-k", "not HC-META-03 and not SC-SEARCH-06 and not SC-SEARCH-07")
    error_flaw_scope = ("-k", "not HC-META-03 and not SC-SEARCH-06")
    plans: dict[str, dict[str, Any]] = {
        "conforming": {},
        # Over HTTP the shared-environment scenarios suffice (the private ones are proven over stdio).
        "conforming_http": {"args": ("--target=http", "-k", "not HC-META-03 and not SC-SEARCH-06"),
                            "profile": write_profile(base, relocatable=False)},
        "no_clamp_warning": {"flaw": "no_clamp_warning", "args": ("-k", "SEARCH-05 or SEARCH-01")},
        "strict": {"flaw": "no_clamp_warning", "args": ("--strict", "-k", "SEARCH-05")},
        "lacking_tools": {"tools": "health_check,search_code",
                          "args": ("-k", "SEARCH-01 or SEARCH-08 or SEARCH-09 or PERF")},
        "hang": {"flaw": "hang_on_bad_input", "profile": short_call, "args": ("-k", "SEARCH-04 or SEARCH-01")},
        "crash_on_start": {"flaw": "crash_on_start", "args": ("-k", "HC-META-01 or HC-META-02")},
        "garbage_stdout": {"flaw": "garbage_stdout", "args": ("-k", "HC-META-01 or SC-SEARCH-01 or MCP-WIRE")},
        "log_stdout": {"flaw": "log_stdout", "args": ("-k", "HC-META-01 or SC-SEARCH-01 or MCP-WIRE")},
        "notification_reply": {"flaw": "notification_reply", "args": ("-k", "HC-META-01 or SC-SEARCH-01 or MCP-WIRE")},
        "notification_reply_strict": {"flaw": "notification_reply",
                                      "args": ("--strict", "-k", "HC-META-01 or SC-SEARCH-01 or MCP-WIRE")},
        "broken_schema": {"flaw": "broken_schema", "args": ("-k", "HC-META-01 or HC-META-04")},
        "baseline": {"flaw": "reasons_when_off",
                     "args": ("--baseline", str(DATA / "baseline.yaml"), "-k", "SEARCH-01 or SEARCH-02")},
        # SC-SEARCH-05 (SHOULD) is listed but passes: a stale entry fails the run whatever the level.
        "stale_should": {"args": ("--baseline", str(DATA / "baseline-should.yaml"), "-k", "SEARCH-05")},
    }
    for flaw in ("legacy_idle", "missing_metadata", "reasons_when_off", "compact_order"):
        plans[flaw] = {"flaw": flaw, "args": flaw_scope}
    for flaw in ("bad_error_code", "crash_on_bad_input"):
        plans[flaw] = {"flaw": flaw, "args": error_flaw_scope}
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {"recipe": pool.submit(run_recipe, base / "recipe")}  # the slowest first
        futures |= {name: pool.submit(run_gate, base / name, *plan.get("args", ()), flaw=plan.get("flaw"),
                                      tools=plan.get("tools"), profile=plan.get("profile"))
                    for name, plan in plans.items()}
        return {name: future.result() for name, future in futures.items()}


# Shared-environment scenarios of the real spec (one server start each), a surface scenario the fake server
# fails in full, and scored search, which it does not claim (a skip cause). LS- calls locate_symbol, which
# the fake server lists only with --tools; without it they are blocked (another cause).
SUBSET = "RC-ENUMS-01 or AP-COMPACT-01 or RC-SURFACE-01 or FR-101-01 or SS-SCORES-01 or FR-107-01 or FR-106-01"


@pytest.fixture(scope="session")
def report_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Results, Markdown and HTML of the reference and of the fake server, and the site built from both."""
    base = tmp_path_factory.mktemp("report-pages")
    out: dict[str, Path] = {"base": base}
    # The fake server in its fast raw stdio form, with room to start on a loaded machine.
    profiles = {"reference": None, "fake": write_profile(base, start=60)}
    commands = []
    for name, profile in profiles.items():
        command = [sys.executable, "-m", "pytest", str(SUITE), *LEAN, "-p", "no:cacheprovider", "-q", "-k", SUBSET,
                   "--conformance-json", str(base / f"{name}.json"), "--conformance-report", str(base / f"{name}.md"),
                   "--conformance-html", str(base / f"{name}.html")]
        if profile is not None:
            command += ["--target-profile", str(profile), "--server-cmd", SERVE]
        commands.append(subprocess.Popen(command, cwd=base, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                         text=True))
    for name, process in zip(profiles, commands, strict=True):
        output, _ = process.communicate(timeout=RUN_TIMEOUT * 2)
        assert (base / f"{name}.json").is_file(), output
        out[name] = base / name
    # The reference's SLO figures as `cruxgate slo --report` writes them (a smoke run takes minutes: two
    # measurements through the same writer stand in for it).
    from cruxgate.conformance.slo.registry import REGISTRY, Measurement
    from cruxgate.conformance.slo.report import json_path, write

    slo = base / "reference-slo.md"
    write(slo, [Measurement(REGISTRY["SC-105"], value=2.6, p50=2.2, p95=2.6, floor_p95=2.0, samples=200,
                            corpus="polyglot"),
                Measurement(REGISTRY["SC-101"], value=27.1, samples=44, corpus="polyglot")],
          {"target": "cruxgate-reference (cruxgate-reference 0.1.0)", "target_profile": "cruxgate-reference"})
    out["slo"] = json_path(slo)
    site = base / "site"
    done = subprocess.run([sys.executable, "-m", "cruxgate", "report", str(base / "reference.json"),
                           str(base / "fake.json"), "--slo", str(out["slo"]), "-o", str(site)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out["site"] = site
    return out
