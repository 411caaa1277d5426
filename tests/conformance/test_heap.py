"""The runner settles its heap once the suite is collected: the SDK imported when a server will run, all frozen."""

from __future__ import annotations

import os
import subprocess
import sys

from gate_harness import DATA, LEAN, SUITE, write_profile

SETTLE = """
import gc, sys
from cruxgate.conformance.runner import heap
assert gc.get_freeze_count() == 0
heap.settle(needs_server={needs_server}, hypothesis_later=False)
print(gc.get_freeze_count(), "mcp" in sys.modules)
"""


def settle_in_a_fresh_process(needs_server: bool) -> tuple[int, bool]:
    done = subprocess.run([sys.executable, "-c", SETTLE.format(needs_server=needs_server)], capture_output=True,
                          text=True, timeout=120, check=True)
    frozen, sdk = done.stdout.split()
    return int(frozen), sdk == "True"


def test_settle_freezes_the_heap_and_imports_the_sdk_only_when_a_server_will_run():
    frozen, sdk = settle_in_a_fresh_process(needs_server=False)
    assert frozen > 10_000 and not sdk
    frozen_with_sdk, sdk = settle_in_a_fresh_process(needs_server=True)
    assert sdk and frozen_with_sdk > frozen + 10_000  # the SDK's models are frozen with the rest


PROBE = '''
import gc, sys

def pytest_runtest_setup(item):
    print(f"PROBE {item.name} frozen={gc.get_freeze_count()} sdk={'mcp' in sys.modules}")
'''


def test_the_runner_settles_after_collection_before_the_first_scenario(tmp_path):
    (tmp_path / "heap_probe.py").write_text(PROBE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "pytest", str(SUITE), *LEAN, "-p", "no:cacheprovider", "-p",
                           "heap_probe", "-s", "-q", "--spec-dir", str(DATA / "spec"), "--fixtures-dir",
                           str(DATA / "fixtures"), "--target-profile", str(write_profile(tmp_path)),
                           "-k", "HC-META-01"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    probe = next(line for line in done.stdout.splitlines() if line.startswith("PROBE HC-META-01"))
    frozen = int(probe.split("frozen=")[1].split()[0])
    assert frozen > 10_000 and probe.endswith("sdk=True"), probe


def test_hypothesis_imported_after_the_run_warns_about_nothing(tmp_path):
    # Every plugin installed is loaded, as in a user's run: anyio's pulls in trio before the freeze, and
    # hypothesis's imports hypothesis for its summary, which asks gc.get_referrers about trio's PRNG.
    done = subprocess.run([sys.executable, "-m", "pytest", str(SUITE), "-p", "no:cacheprovider", "-q",
                           "--spec-dir", str(DATA / "spec"), "--fixtures-dir", str(DATA / "fixtures"),
                           "--target-profile", str(write_profile(tmp_path)), "-k", "HC-META-01"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "HypothesisWarning" not in out and "1 passed, 14 deselected in" in out, out
