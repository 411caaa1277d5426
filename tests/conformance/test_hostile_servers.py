"""The gate survives any server: each hostile server of tests/conformance/servers/hostile_server.py gets its verdict
and leaves no process and no temp folder behind.

Timeouts are short (call 10 s, so a request is slow from 5 s on and a slow streak ends the run at 10 s: the `slow`
server answers after 2 s, inside it, and the run's deadline is 12 s; `slow_paced` answers after 7 s and meets the
pace rule), so the whole module takes about a minute on an idle machine; run_gate's subprocess timeout (2 minutes)
bounds each run. The time a verdict
takes at the default settings, against the whole bundled spec, is measured by benchmarks/test_hostile_verdicts.py.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from gate_harness import GateRun, run_gate, side_by_side, write_profile
from hostile_watch import Watched, watch

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="scans the process table in /proc")

HOSTILE = Path(__file__).resolve().parent / "servers" / "hostile_server.py"
START, CALL = 20, 10  # the start only has to never trip on a loaded machine
SLOW_AFTER = "5"  # the pace rule's threshold at CALL, as it words it
DELAY = 2
DEADLINE = 12
FLOOD_MB = 64
EXECUTABLE = {"HC-META-01", "HC-META-02", "HC-META-03", "HC-META-04", "SC-SEARCH-01", "SC-SEARCH-02", "SC-SEARCH-03",
              "SC-SEARCH-04", "SC-SEARCH-05", "SC-SEARCH-06", "SC-SEARCH-07", "SC-SEARCH-08", "MCP-WIRE-01"}
PLANS: dict[str, tuple[str, dict[str, str], tuple[str, ...]]] = {
    "invalid_utf8": ("invalid_utf8", {}, ()),
    "invalid_utf8_http": ("invalid_utf8 --port {port}", {}, ("--target=http",)),
    "invalid_utf8_http_sse": ("invalid_utf8 --port {port} --sse", {}, ("--target=http",)),
    "slow": ("slow", {"HOSTILE_DELAY": str(DELAY)}, ("--target-deadline", str(DEADLINE))),
    "slow_paced": ("slow", {"HOSTILE_DELAY": "7"}, ()),
    "no_answer": ("no_answer", {}, ()),
    "orphan": ("orphan", {}, ()),
    "crash_on_search": ("crash_on_search", {}, ()),
    "stderr_flood": ("stderr_flood", {"HOSTILE_FLOOD_MB": str(FLOOD_MB)}, ("-k", "HC-META-01 or HC-META-04")),
}
WAITING = ("no_answer", "slow_paced")  # idle most of their ~25 s: two requests in a row wait 7-10 s each


@dataclass
class HostileRun(Watched[GateRun]):
    """One gate run against a hostile server, watched."""

    def failures(self) -> dict[str, str]:
        """{scenario id: failure message} of the failed scenarios."""
        return {r["id"]: r["failure_message"] for r in (self.run.results or {}).get("scenarios", [])
                if r["outcome"] == "failed"}

    def outcomes(self) -> dict[str, tuple[str, str]]:
        """{scenario id: (outcome, skip reason)} of the scenarios the test spec executes."""
        return {r["id"]: (r["outcome"], r["skip_reason"] or "") for r in self.run.results["scenarios"]
                if r["id"] in EXECUTABLE}


def run_hostile(base: Path, name: str, profile: Path) -> HostileRun:
    """The test spec against hostile server `name` (PLANS), watched."""
    mode, env, args = PLANS[name]
    watched = watch(base / name, lambda tagged_env: run_gate(
        base / name / "run", "--server-cmd", f"{sys.executable} {HOSTILE} {mode}", *args, profile=profile,
        env={**tagged_env, **env}))
    return HostileRun(**vars(watched))


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, HostileRun]:
    """Each hostile server of PLANS against the test spec: the runs that mostly wait out a delay or a timeout start
    first, on two of three workers, while the third takes the busy runs in turn."""
    base = tmp_path_factory.mktemp("hostile-servers")
    profile = write_profile(base, start=START, call=CALL)
    order = [*WAITING, *(name for name in PLANS if name not in WAITING)]
    return side_by_side({name: functools.partial(run_hostile, base, name, profile) for name in order},
                        workers=len(WAITING) + 1)


@pytest.mark.parametrize("name", sorted(PLANS))
def test_a_hostile_server_gets_its_verdict_and_leaves_nothing_behind(hostile, name):
    found = hostile[name]
    assert found.run.returncode == 1, found.run.output
    assert found.run.results is not None and found.failures(), found.run.output
    assert not found.processes_left, found.processes_left
    assert not found.temp_left, found.temp_left


@pytest.mark.parametrize(("name", "where"), [("invalid_utf8", "-byte line: "),
                                             ("invalid_utf8_http", " of the application/json body: "),
                                             ("invalid_utf8_http_sse", " of the text/event-stream body: ")])
def test_an_answer_that_is_not_utf8_fails_its_call_at_once_with_that_reason(hostile, name, where):
    found = hostile[name]
    # tools/list answers in UTF-8 (HC-META-04 passes, and over stdio no line was a stray one: MCP-WIRE-01 passes;
    # over HTTP it is not run); SC-SEARCH-08 needs a tool this server does not list (skipped, blocked).
    assert set(found.failures()) == EXECUTABLE - {"HC-META-04", "MCP-WIRE-01", "SC-SEARCH-08"}
    for scenario, message in found.failures().items():
        first = message.splitlines()[0]
        assert "the answer is not valid UTF-8: byte 0xe9 at offset" in first and where in first, (scenario, first)
        # at once: a call that waited out its timeout would say "no answer within 10s"
        assert "MUST be UTF-8 encoded" in first and "no answer" not in first, (scenario, first)


def test_a_server_slower_than_the_deadline_gets_one_deadline_failure_and_the_rest_not_run(hostile):
    found = hostile["slow"]
    deadline = f"the run's deadline for the target (--target-deadline {DEADLINE}s)"
    cut = [scenario for scenario, message in found.failures().items() if deadline in message.splitlines()[0]]
    assert len(cut) == 1, found.failures()  # the others failed on their answers, before the deadline
    not_run = f"not run: {deadline} passed; see {cut[0]}"
    outcomes = found.outcomes()
    for scenario, (outcome, reason) in outcomes.items():
        assert outcome in ("failed", "passed") or reason == not_run, (scenario, outcome, reason)
    assert sum(reason == not_run for _, reason in outcomes.values()) >= 5, outcomes


@pytest.mark.parametrize(("name", "count", "wait"), [("slow_paced", 2, 7.0), ("no_answer", 2, 10.0)])
def test_a_server_that_keeps_answering_late_or_never_gets_one_pace_failure_and_the_rest_not_run(hostile, name, count,
                                                                                               wait):
    found = hostile[name]
    pace = f"the server does not answer within {SLOW_AFTER}s: "
    cut = [scenario for scenario, message in found.failures().items() if pace in message.splitlines()[0]]
    assert len(cut) == 1, found.failures()
    first = found.failures()[cut[0]].splitlines()[0]
    assert "the scenarios after this one are not run" in first, first
    streak = re.search(r"(\d+) requests in a row took ([0-9.s, ]+) \(", first)
    assert streak is not None, first
    waits = [float(text.removesuffix("s")) for text in streak[2].split(", ")]
    # each wait as measured: the server's delay (or the call timeout), plus what a loaded machine adds
    assert int(streak[1]) == len(waits) == count and all(wait <= seen < wait + 3 for seen in waits), first
    not_run = f"not run: {pace}"
    outcomes = found.outcomes()
    for scenario, (outcome, reason) in outcomes.items():
        assert outcome in ("failed", "passed") or (reason.startswith(not_run) and reason.endswith(f"; see {cut[0]}")), \
            (scenario, outcome, reason)
    # with no rule, every one of these would have waited on the server: at most the first three did
    assert sum(reason.startswith(not_run) for _, reason in outcomes.values()) >= len(EXECUTABLE) - 5, outcomes


def test_a_child_that_holds_stdout_after_its_server_exits_is_stopped(hostile):
    found = hostile["orphan"]
    assert found.failures()
    for scenario, message in found.failures().items():
        first = message.splitlines()[0]
        assert "the connection closed without an answer (the server crashed or exited with status 3; 1 process(es) " \
               "it left running, holding its stdout open, were stopped" in first, (scenario, first)
    # after 3 calls it exited on, and a probe it exited on too, the server exits on every call: one failure says so,
    # the rest are not run
    every = ("the server exits even on a call it has no reason to fail: 3 tools/call requests in a row ended with the "
             "server exiting before it answered (")
    cut = [scenario for scenario, message in found.failures().items() if every in message.splitlines()[0]]
    assert len(cut) == 1 and len(found.failures()) == 3, found.failures()
    first = found.failures()[cut[0]].splitlines()[0]
    assert re.search(r"\((health_check \{\}|search_code \{query\}), (health_check \{\}|search_code \{query\}), "
                     r"(health_check \{\}|search_code \{query\}); the last: the server crashed or exited with status 3",
                     first), first
    assert "and so did health_check {} sent to a fresh server as a probe (tools/call health_check: the connection " \
           "closed without an answer (the server crashed or exited with status 3" in first, first
    not_run = [scenario for scenario, (_, reason) in found.outcomes().items()
               if reason.startswith(f"not run: {every}") and reason.endswith(f"; see {cut[0]}")]
    assert len(not_run) >= 5, found.outcomes()


def test_a_server_that_exits_on_some_calls_only_gets_a_verdict_on_every_scenario(hostile):
    found = hostile["crash_on_search"]
    # It answers health_check (the HC-META scenarios judge its answers) and exits on each search_code: after three
    # exits in a row the probe (health_check on a fresh server) is answered, so no scenario is cut for it.
    outcomes = found.outcomes()
    assert not [scenario for scenario, (_, reason) in outcomes.items() if reason.startswith("not run")], outcomes
    searches = {scenario for scenario in EXECUTABLE if scenario.startswith("SC-SEARCH")} - {"SC-SEARCH-08"}
    assert searches <= set(found.failures()), found.failures()
    exits = {scenario for scenario in searches if "(call search_code " in found.failures()[scenario]}
    assert len(exits) >= 6, found.failures()  # SC-SEARCH-06's wait on health_check fails first: it is judged too
    for scenario in exits:
        first = found.failures()[scenario].splitlines()[0]
        assert "tools/call search_code: the connection closed without an answer (the server crashed or exited" \
               in first and "not run" not in first and "exits even on" not in first, (scenario, first)


def test_a_stderr_flood_is_kept_as_a_bounded_tail(hostile):
    found = hostile["stderr_flood"]
    assert found.peak_temp_bytes < 2 * 1024 * 1024, found.peak_temp_bytes  # the server wrote 64 MB to stderr
    message = found.failures()["HC-META-01"]
    assert "the connection closed without an answer (the server crashed or exited" in message, message
    total = FLOOD_MB * 1024 * 1024 + len(b"FLOOD-END\n")
    assert f"of {total:,} bytes are not shown]" in message and "E\nFLOOD-END\n" in message, message[-600:]


def test_a_target_whose_setup_fails_leaves_no_temp_folder(tmp_path):
    profile = write_profile(tmp_path)
    with profile.open("a", encoding="utf-8") as handle:
        handle.write('setup: [["{python}", "-c", "import sys; sys.exit(5)"]]\n')
    temp = tmp_path / "tmp"
    temp.mkdir()
    run = run_gate(tmp_path / "run", "-k", "HC-META or SC-SEARCH-06", profile=profile, env={"TMPDIR": str(temp)})
    assert run.returncode == 1, run.output
    assert "setup command 1 exited with status 5" in run.record("HC-META-01")["failure_message"]
    assert not os.listdir(temp)  # each half-made workspace is removed, and the run's own folder
