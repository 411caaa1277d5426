"""The runner's hold on a target's processes and output: an orphan that left its server's session is still found,
stopped and collected; a flood of output is kept as a bounded tail."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cruxgate.conformance.target import reaper
from cruxgate.conformance.target.output_tail import OutputTail

ORPHAN = """
import os, sys, time
if os.fork() == 0:
    os.setsid()
    print(os.getpid(), flush=True)
    time.sleep(60)
    os._exit(0)
time.sleep(0.2)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a child subreaper is Linux's (prctl)")
def test_an_orphan_in_a_session_of_its_own_is_adopted_found_by_its_mark_stopped_and_collected():
    assert reaper.become_subreaper() is None
    try:
        mark = reaper.new_mark()
        parent = subprocess.Popen([sys.executable, "-c", ORPHAN], env={**os.environ, reaper.MARK: mark},
                                  stdout=subprocess.PIPE, text=True)
        assert parent.stdout is not None
        orphan = int(parent.stdout.readline())
        parent.wait(timeout=10)
        deadline = time.monotonic() + 5
        while reaper.snapshot()[orphan].ppid != os.getpid() and time.monotonic() < deadline:
            time.sleep(0.05)
        found = reaper.snapshot()[orphan]
        assert found.ppid == os.getpid() and found.sid == orphan != parent.pid  # adopted, in a session of its own
        assert reaper.tree(None, mark) == {orphan}
        assert orphan in reaper.stop_tree(None, mark, grace=2)
        assert orphan not in reaper.snapshot()  # stopped, and its exit collected: not even a zombie is left
    finally:
        reaper.restore_subreaper()


def test_a_flood_of_output_is_kept_as_a_bounded_tail_that_says_what_it_dropped(tmp_path: Path):
    script = "import sys\nfor _ in range(5 * 1024): sys.stdout.write('x' * 1023 + '\\n')\nprint('LAST')"
    with OutputTail(limit=4096) as output:
        child = subprocess.Popen([sys.executable, "-c", script], stdout=output.fileno())
        output.started()
        child.wait(timeout=30)
        deadline = time.monotonic() + 10
        while output.total < 5 * 1024 * 1024 + 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert output.total == 5 * 1024 * 1024 + len("LAST\n")
        text = output.text(2000)
    # Shown: the last 2000 characters; the final newline is trimmed, not hidden at the start.
    assert text.startswith(f"[... the first {5 * 1024 * 1024 + 5 - 2001:,} of {5 * 1024 * 1024 + 5:,} bytes are "
                           "not shown]\n"), text[:120]
    assert text.endswith("x\nLAST") and len(text) < 2100


def test_a_short_tail_is_whole_and_read_to_its_end_once_the_child_has_exited():
    script = "import sys\nsys.stderr.write('server: crashing on an empty query\\n')"
    for _ in range(20):  # the race: reading the tail the moment the child is gone
        with OutputTail() as output:
            child = subprocess.Popen([sys.executable, "-c", script], stderr=output.fileno())
            output.started()
            child.wait(timeout=30)
            output.wait_for_end(5.0)
            assert output.text(2000) == "server: crashing on an empty query"  # no note: nothing is hidden
