"""A dead or hostile target gets one clear verdict fast: the first scenario fails saying why, the others are not run.

Each hostile server of tests/conformance/servers/hostile_server.py is run against the test spec, with a 5 s
start timeout (the reference profile's is 30 s: the whole real suite against a server that never answers
takes about 36 s, docs/conformance.md). A line on stdout that is not JSON-RPC never fails a start by itself
(that line is the wire scenario's to judge); a server that writes nothing else never completes the handshake, and
its start failure says what it wrote.
"""

from __future__ import annotations

import functools
import sys
import time
from pathlib import Path

import pytest

from gate_harness import GateRun, run_gate, side_by_side, write_profile

HOSTILE = Path(__file__).resolve().parent / "servers" / "hostile_server.py"
START = 5
EXECUTABLE = {"HC-META-01", "HC-META-02", "HC-META-03", "HC-META-04", "SC-SEARCH-01", "SC-SEARCH-02", "SC-SEARCH-03",
              "SC-SEARCH-04", "SC-SEARCH-05", "SC-SEARCH-06", "SC-SEARCH-07", "SC-SEARCH-08", "MCP-WIRE-01"}
FIRST_WORDS = {
    "silent": f"server did not complete the MCP handshake within {START}s",
    "wrong_id": f"server did not complete the MCP handshake within {START}s",
    "exit_after_initialize": "server failed its first request after the MCP handshake",
    "garbage": f"server did not complete the MCP handshake within {START}s",
}


@pytest.fixture(scope="module")
def hostile_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[GateRun, float]]:
    """Each hostile server against the test spec (garbage also with --fuzz), timed, three at a time (four of the six
    runs mostly sit out the start timeout)."""
    base = tmp_path_factory.mktemp("hostile")
    profile = write_profile(base, start=START)

    def run(name: str, mode: str, *args: str) -> tuple[GateRun, float]:
        started = time.monotonic()
        done = run_gate(base / name, "--server-cmd", f"{sys.executable} {HOSTILE} {mode}", *args, profile=profile)
        return done, time.monotonic() - started

    plans: dict[str, tuple[str, ...]] = {mode: (mode,) for mode in FIRST_WORDS}
    plans["garbage_fuzz"] = ("garbage", "--fuzz", "--fuzz-out", str(base / "fuzz-out"), "--fuzz-fixture", "tiny")
    plans["huge_payload"] = ("huge_payload", "-k", "HC-META-01 or HC-META-04")
    return side_by_side({name: functools.partial(run, name, *plan) for name, plan in plans.items()}, workers=3)


@pytest.mark.parametrize("mode", sorted(FIRST_WORDS))
def test_a_dead_target_is_one_failure_naming_the_cause_and_the_rest_are_not_run(hostile_runs, mode):
    run, seconds = hostile_runs[mode]
    assert run.returncode == 1, run.output
    (first,) = run.outcomes("failed")
    assert FIRST_WORDS[mode] in run.record(first)["failure_message"].split("\n")[0]
    not_run = {sid: run.record(sid)["skip_reason"] for sid in EXECUTABLE - {first}}
    for sid, reason in not_run.items():
        assert reason == f"not run: target did not start; see {first}", (sid, reason)  # the pointer, not the cause
        assert run.record(sid)["duration"] < 2, (sid, run.record(sid)["duration"])
    assert run.output.count(FIRST_WORDS[mode]) < len(EXECUTABLE), run.output  # the cause is not repeated per item
    assert seconds < START + 45, seconds  # a generous bound: the machine is shared


def test_a_server_that_writes_only_garbage_says_so_in_its_start_failure(hostile_runs):
    run, _ = hostile_runs["garbage"]
    first = next(r["failure_message"] for r in run.results["scenarios"]
                 if r["outcome"] == "failed" and "target did not start" not in r["failure_message"])
    assert "line(s) to stdout that are not JSON-RPC messages; the first: not_json: a line that is not JSON: " \
           "'<<< not json-rpc >>>'" in first, first


def test_a_dead_target_fails_the_fuzz_collection_and_no_scenario_runs(hostile_runs):
    run, _ = hostile_runs["garbage_fuzz"]
    assert run.returncode == 1, run.output
    assert "fuzz[tools/list] [MUST] the fuzz phase could not start the target" in run.output
    assert not run.outcomes("failed") & EXECUTABLE  # the fuzz item owns the one failure
    reasons = [r["skip_reason"] for r in run.results["scenarios"] if r["id"] in EXECUTABLE]
    assert reasons and all(r.startswith("not run: target did not start; see fuzz[tools/list]") for r in reasons)


def test_a_50_mb_answer_is_refused_with_its_reason(hostile_runs):
    run, _ = hostile_runs["huge_payload"]
    assert run.outcomes("failed") == {"HC-META-01"}
    assert "over the runner's limit of 16,777,216 bytes" in run.record("HC-META-01")["failure_message"]
    assert run.outcomes("passed") == {"HC-META-04"}  # tools/list still answers
