"""A target is only what its profile or command says: a bare --server-cmd borrows nothing; profiles rename tools."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gate_harness import DATA, LEAN, SERVE, SUITE, run_gate, side_by_side, write_profile

SELF_INDEXING = SERVE + " --index-on-start"


def bare_run(directory: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    """The gate with the test spec against a server given by its command alone (no profile)."""
    directory.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(SUITE), *LEAN, "-p", "no:cacheprovider", "-q", "-rs",
         "--spec-dir", str(DATA / "spec"), "--fixtures-dir", str(DATA / "fixtures"),
         "--conformance-json", str(directory / "results.json"), *args],
        cwd=directory, capture_output=True, text=True, timeout=120)
    results = json.loads((directory / "results.json").read_text(encoding="utf-8"))
    return done, {r["id"]: r for r in results["scenarios"]}


def test_a_server_given_by_its_command_alone_gets_no_index_command_hook_or_second_transport(tmp_path):
    done, records = bare_run(tmp_path, "--server-cmd", SELF_INDEXING, "-k", "HC-META or SC-SEARCH-01 or SC-SEARCH-07")
    assert done.returncode == 0, done.stdout + done.stderr
    assert {sid for sid, r in records.items() if r["outcome"] == "passed"} >= {"HC-META-01", "HC-META-04",
                                                                                "SC-SEARCH-01"}
    assert records["HC-META-03"]["skip_reason"].endswith("has no hook corrupt_manifest")
    assert records["SC-SEARCH-07"]["skip_reason"].endswith("has no http transport")  # no borrowed HTTP side
    assert not list(tmp_path.rglob(".cruxgate"))  # the reference's index command never ran


def test_a_profile_renames_a_tool_both_ways(tmp_path):
    profile = write_profile(tmp_path)
    profile.write_text(profile.read_text(encoding="utf-8") + "names: {search_code: {tool: code_search}}\n",
                       encoding="utf-8")
    renamed = SERVE + " --rename search_code=code_search"
    # With the profile's rename, and without it (then the same server lacks search_code): two independent runs.
    run, plain = side_by_side({
        "gate": lambda: run_gate(tmp_path / "gate", "--server-cmd", renamed, "-k", "SC-SEARCH-01 or HC-META-04",
                                 profile=profile),
        "plain": lambda: run_gate(tmp_path / "plain", "--server-cmd", renamed, "-k", "SC-SEARCH-01"),
    }).values()
    assert run.returncode == 0, run.output
    assert run.outcomes("passed") == {"SC-SEARCH-01", "HC-META-04"}
    # Without the profile's rename the scenario is blocked, not passed.
    assert plain.record("SC-SEARCH-01")["outcome"] == "skipped", plain.output
