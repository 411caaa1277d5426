"""The gate's verdict on each hostile server within 2 minutes, at the default settings, against the bundled spec.

The bar: every hostile server gets its verdict (a red run, exit 1) within 120 s and leaves no process and no
temp folder. Each server of tests/conformance/servers/hostile_server.py runs with its own defaults (answers after
20 s, a 256 MB stderr flood; `slow_under_10` is the slow server answering every request after 9.9 s, just under
the 10 s a request once had to wait to count as slow; `just_inside_timeout` answers every request, the handshake
included, after 29 s, just inside the profile's 30 s `start` and `call` timeouts: the slowest server the pace rule
cuts, after its handshake and two requests) as a bare `--server-cmd`, with no option but that: the run's
deadline (900 s) and the profile timeouts are the runner's defaults, so the pace, exit and fail-fast rules are what
must hold the bar. Run: `python3 -m pytest benchmarks/test_hostile_verdicts.py -q -s` (about 8 minutes; a loaded
machine adds pytest's own start-up to each run: read a miss against the load average printed beside it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cruxgate import conformance

TESTS = Path(__file__).resolve().parents[1] / "tests" / "conformance"
sys.path.insert(0, str(TESTS))  # the watcher the hostile-server tests use

from hostile_watch import watch  # noqa: E402

HOSTILE = TESTS / "servers" / "hostile_server.py"
SUITE = Path(conformance.__file__).resolve().parent / "suite.yaml"
VERDICT_SECONDS = 120.0
SERVERS: dict[str, tuple[str, dict[str, str]]] = {  # name -> (mode, its environment)
    "invalid_utf8": ("invalid_utf8", {}), "slow": ("slow", {}), "slow_under_10": ("slow", {"HOSTILE_DELAY": "9.9"}),
    "no_answer": ("no_answer", {}), "orphan": ("orphan", {}), "stderr_flood": ("stderr_flood", {}),
    "just_inside_timeout": ("slow", {"HOSTILE_DELAY": "29"})}

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="scans the process table in /proc")


@pytest.mark.parametrize("name", SERVERS)
def test_a_hostile_server_gets_its_verdict_within_two_minutes_at_the_defaults(tmp_path: Path, name: str) -> None:
    mode, server_env = SERVERS[name]

    def gate(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "pytest", str(SUITE), "-p", "no:cacheprovider", "-q", "--target=stdio",
                   "--server-cmd", f"{sys.executable} {HOSTILE} {mode}"]
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=1200,
                              env={**os.environ, "COLUMNS": "1000", **server_env, **env})  # summary lines whole

    load = os.getloadavg()[0]
    found = watch(tmp_path, gate)
    summary = found.run.stdout.strip().splitlines()[-1] if found.run.stdout.strip() else "(no output)"
    print(f"\n{name}: {found.seconds:.1f} s, exit {found.run.returncode}, {summary}, load {load:.1f} -> "
          f"{os.getloadavg()[0]:.1f}, peak temp {found.peak_temp_bytes / 1e6:.1f} MB")
    for line in found.run.stdout.splitlines():  # pytest's short summary: what each failed scenario died of
        if line.startswith("FAILED"):
            print(f"  {line[:600]}")
    assert found.run.returncode == 1, found.run.stdout[-3000:] + found.run.stderr[-2000:]
    assert not found.processes_left, found.processes_left
    assert not found.temp_left, found.temp_left
    assert found.seconds < VERDICT_SECONDS, f"{name}: verdict after {found.seconds:.1f} s (load {load:.1f})"
