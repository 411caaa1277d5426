"""No server outlives an interrupted run: SIGTERM or Ctrl-C while a server hangs in a call leaves nothing behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gate_harness import DATA, LEAN, SERVER, SUITE, write_profile

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")


def children(pid: int) -> dict[int, str]:
    """{pid: command line} of the processes whose parent is `pid`."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                found[int(entry.name)] = command
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").exists() and " Z " not in Path(f"/proc/{pid}/stat").read_text()


@pytest.mark.parametrize(("transport", "sig"), [("http", signal.SIGTERM), ("stdio", signal.SIGINT)])
def test_an_interrupted_run_leaves_no_server_behind(tmp_path, transport, sig):
    profile = write_profile(tmp_path, call=120)  # the hanging call outlasts the test unless the run is stopped
    serve = f"{{python}} {SERVER} serve --workspace {{workspace}} --flaw hang_on_bad_input"
    serve += " --port {port}" if transport == "http" else " --raw"
    runner = subprocess.Popen(
        [sys.executable, "-m", "pytest", str(SUITE), *LEAN, "-p", "no:cacheprovider", "-q", "--spec-dir",
         str(DATA / "spec"), "--fixtures-dir", str(DATA / "fixtures"), "--target-profile", str(profile),
         f"--target={transport}", "--server-cmd", serve, "-k", "SC-SEARCH-04"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    servers: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 60
        while not servers and time.monotonic() < deadline:
            servers = {pid: cmd for pid, cmd in children(runner.pid).items() if "fake_server.py serve" in cmd}
            time.sleep(0.2)
        assert servers, "the runner never started the server"
        time.sleep(2)  # the scenario's call is now hanging in the server
        runner.send_signal(sig)
        output, _ = runner.communicate(timeout=60)
        time.sleep(0.5)
        left = [pid for pid in servers if alive(pid)]
    finally:
        if runner.poll() is None:
            os.killpg(runner.pid, signal.SIGKILL)
        for pid in servers:  # whatever the outcome, the test leaves nothing running either
            if alive(pid):
                os.killpg(pid, signal.SIGKILL)
    assert runner.returncode != 0, output
    assert not left, f"servers left behind: {servers}\n{output}"
