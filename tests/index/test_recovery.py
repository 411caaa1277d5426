"""The state folder after damage: a garbage CURRENT, leftovers of killed runs, a full disk."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cruxgate.reference.index import index_workspace, read_state
from cruxgate.reference.index.failure import describe_failure
from cruxgate.reference.index.state import STATE_DIR, write_atomic

from .conftest import copy_fixture


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cruxgate", *args], capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.fixture
def small(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("def alpha():\n    return 1\n", encoding="utf-8")
    index_workspace(root)
    return root


def test_a_garbage_current_is_corrupt_and_force_recovers(small: Path) -> None:
    current = small / STATE_DIR / "CURRENT"
    for garbage in (b"gen-1\xff\n", b"\x00\x00", b"../../etc\n", b"gen-1/../../x\n", b"", b"gen-1" * 100):
        current.write_bytes(garbage)
        state = read_state(small)
        assert state.status == "corrupt_manifest" and "CURRENT" in state.reason, garbage
    current.unlink()
    os.mkfifo(current)  # read without blocking, refused like the rest
    assert read_state(small).status == "corrupt_manifest"
    current.unlink()
    current.write_bytes(b"gen-1\xff\n")
    done = cli("index", str(small), "--force", "--quiet")
    assert done.returncode == 0, done.stderr
    assert read_state(small).status == "ready"
    current.write_bytes(b"\x00")
    index_workspace(small)  # without --force too
    assert read_state(small).status == "ready"


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_leftovers_of_killed_runs_are_removed(small: Path) -> None:
    state = small / STATE_DIR
    live = read_state(small).generation
    assert live is not None
    dead = _dead_pid()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (state / f".CURRENT.{dead}.tmp").write_text("gen-7\n", encoding="utf-8")
        (state / f".CURRENT.{alive.pid}.tmp").write_text("gen-8\n", encoding="utf-8")
        (live / f".manifest.json.{dead}.tmp").write_text("{", encoding="utf-8")
        partial = state / "gen-9"  # a killed run's generation: no manifest, never flipped to
        (partial / "tantivy").mkdir(parents=True)
        (partial / "index.db").write_bytes(b"\x00" * 4096)
        index_workspace(small)
        left = sorted(p.name for p in state.iterdir())
        assert f".CURRENT.{dead}.tmp" not in left and "gen-9" not in left
        assert f".CURRENT.{alive.pid}.tmp" in left  # its writer may still be running
        assert not (live / f".manifest.json.{dead}.tmp").exists()
    finally:
        alive.kill()
        alive.wait()


def test_disk_full_is_said_in_words() -> None:
    assert "disk is full" in describe_failure(OSError(errno.ENOSPC, "No space left on device"))
    assert "disk is full" in describe_failure(OSError("31298 requested and 22496 written"))  # numpy's short write
    assert "disk is full" in describe_failure(sqlite3.OperationalError("database or disk is full"))
    wrapped = RuntimeError("commit failed")
    wrapped.__cause__ = OSError(errno.ENOSPC, "No space left on device")
    assert "disk is full" in describe_failure(wrapped)
    assert "disk is full" not in describe_failure(ValueError("something else"))


def test_disk_full_run_on_a_small_filesystem(tmp_path: Path) -> None:
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({done.stderr.strip()}): needs root")
    try:
        ws = copy_fixture(mount / "ws")
        filler = mount / "filler"
        free = shutil.disk_usage(mount).free
        with open(filler, "wb") as fh:
            fh.write(b"\x00" * max(free - 200_000, 0))
        run = cli("index", str(ws), "--quiet")
        assert run.returncode == 1
        assert "disk is full" in run.stderr and "requested and" not in run.stderr.split("disk is full")[0]
        assert read_state(ws).status == "not_indexed"
        filler.unlink()
        assert cli("index", str(ws), "--quiet").returncode == 0
        assert not [p for p in os.listdir(ws / STATE_DIR) if p.endswith(".tmp")]
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_lock_file_that_is_a_link_or_a_fifo_is_an_error(tmp_path: Path) -> None:
    """A tree may bring a `.cruxgate` of its own: its lock file is not followed out of the workspace."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("A = 1\n", encoding="utf-8")
    (ws / STATE_DIR).mkdir()
    elsewhere = tmp_path / "created-elsewhere"
    os.symlink(elsewhere, ws / STATE_DIR / "lock")
    done = cli("index", str(ws), "--quiet", timeout=60)
    assert done.returncode == 2 and not elsewhere.exists(), done.stderr
    (ws / STATE_DIR / "lock").unlink()
    os.mkfifo(ws / STATE_DIR / "lock")
    done = cli("index", str(ws), "--quiet", timeout=60)
    assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr


def test_a_planted_link_at_the_temporary_name_is_not_written_through(small: Path) -> None:
    outside = small.parent / "outside.txt"
    outside.write_text("untouched\n", encoding="utf-8")
    current = small / STATE_DIR / "CURRENT"
    os.symlink(outside, current.with_name(f".CURRENT.{os.getpid()}.tmp"))
    write_atomic(current, "gen-1\n")
    assert outside.read_text(encoding="utf-8") == "untouched\n"
    assert current.read_text(encoding="utf-8") == "gen-1\n" and not current.is_symlink()
