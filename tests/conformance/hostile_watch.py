"""Watching a gate run against a hostile server: its own temp folder and process tag, what it left behind.

Each run gets a temp folder of its own (TMPDIR) and a tag in its environment that every process it starts
inherits, so a scan of the process table finds whatever of the run still runs, a child that left its server's
session included. Used by tests/conformance/test_hostile_servers.py and benchmarks/test_hostile_verdicts.py.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

Run = TypeVar("Run")


def tagged(tag: str) -> dict[int, str]:
    """{pid: command line} of every live process whose environment holds HOSTILE_TAG=tag."""
    needle = f"HOSTILE_TAG={tag}".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0") and \
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
    return found


def folder_bytes(folder: Path) -> int:
    """The bytes of every file under `folder` now (files may vanish while it is walked)."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total


@dataclass
class Watched(Generic[Run]):
    """One gate run and what it left behind."""

    run: Run
    seconds: float
    processes_left: dict[int, str]
    temp_left: list[str]
    peak_temp_bytes: int


def watch(directory: Path, start: Callable[[dict[str, str]], Run]) -> Watched[Run]:
    """`start(env)` (a gate run given the environment to add) under a fresh TMPDIR in `directory` and a fresh tag,
    timed, its temp folder sampled while it runs; whatever of it still runs afterwards is killed (and reported)."""
    tag, temp = uuid.uuid4().hex, directory / "tmp"
    temp.mkdir(parents=True)
    peak, done = [0], threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            peak[0] = max(peak[0], folder_bytes(temp))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    try:
        run = start({"TMPDIR": str(temp), "HOSTILE_TAG": tag})
    finally:
        seconds = time.monotonic() - started
        done.set()
        sampler.join()
        time.sleep(0.5)  # a process killed at the very end has left the table by now
        left = tagged(tag)
        for pid in left:  # whatever the verdict, nothing of the run stays running
            os.kill(pid, signal.SIGKILL)
    return Watched(run, seconds, left, sorted(os.listdir(temp)), peak[0])
