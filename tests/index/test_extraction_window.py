"""A full run's pool runs ahead of the writer by a bounded number of files, its results are the same, and a run
that fails (in a worker or in the writer) while that window is full still ends."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from cruxgate.reference.index import build as build_module
from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.build import Task, _Window
from cruxgate.reference.index.store import GenerationWriter

from .conftest import copy_fixture


def _eventually(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_tasks_are_handed_out_only_while_results_have_room() -> None:
    tasks: list[Task] = [("root", f"f{i}.py", None, None) for i in range(10)]
    window = _Window(tasks, 3)
    fed: list[tuple] = []

    feeder = threading.Thread(target=lambda: fed.extend(window.feed()), daemon=True)
    feeder.start()
    assert _eventually(lambda: len(fed) == 3)
    time.sleep(0.2)
    assert len(fed) == 3  # no room for a fourth until a result is taken
    taken = list(window.taken(iter([("parsed", "a"), ("parsed", "b")])))
    assert taken == [("parsed", "a"), ("parsed", "b")]
    assert _eventually(lambda: len(fed) == 5)
    window.close()  # a feed waiting for room stops: the pool's task thread can end
    feeder.join(timeout=5)
    assert not feeder.is_alive() and fed == tasks[:5]


def _rows(workspace: Path) -> list:
    generation = (workspace / ".cruxgate" / (workspace / ".cruxgate" / "CURRENT").read_text().strip())
    db = sqlite3.connect(generation / "index.db")
    try:
        return [db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("files", "symbols", "symbol_edges", "unresolved_names")]
    finally:
        db.close()


def test_the_smallest_window_indexes_what_the_run_in_process_does(tmp_path: Path, monkeypatch) -> None:
    pooled, alone = copy_fixture(tmp_path / "pooled"), copy_fixture(tmp_path / "alone")
    index_workspace(alone, workers=1)
    monkeypatch.setattr(build_module, "POOL_THRESHOLD", 1)
    monkeypatch.setattr(build_module, "IN_FLIGHT", 1)  # room for one chunk of the pool's: never less
    index_workspace(pooled, workers=2)
    assert _rows(pooled) == _rows(alone)


class Boom(Exception):
    pass


# A run that fails while the window is full ends only because its close makes room: the pool's task thread waits in
# the feed for room, and the pool's terminate joins that thread. Bounded here, so a hang fails the test in seconds.
HANG_SECONDS = 30
REAL_WORK = build_module._work
WINDOW = build_module.CHUNK_SIZE  # IN_FLIGHT patched to 1: room for one chunk
FAILS_ON = f"f{WINDOW:02d}.py"  # the first file of the pool's second chunk


def _work_failing_on_one_file(task: Task) -> tuple:
    """The pool's work, failing on FAILS_ON (runs in a forked worker, so it is found by its module's name)."""
    if task[1] == FAILS_ON:
        raise Boom(f"{task[1]}: the worker failed")
    return REAL_WORK(task)


class CountingWindow(_Window):
    """The run's window, counting the tasks it fed and the results taken (whether the window was full)."""

    last: CountingWindow | None = None

    def __init__(self, tasks: list[Task], size: int) -> None:
        super().__init__(tasks, size)
        self.size, self.fed, self.took = size, 0, 0
        CountingWindow.last = self

    def feed(self) -> Iterator[Task]:
        for task in super().feed():
            self.fed += 1
            yield task

    def taken(self, results: Iterator[tuple]) -> Iterator[tuple]:
        for item in super().taken(results):
            self.took += 1
            yield item


def _tree(root: Path, files: int) -> Path:
    root.mkdir()
    for i in range(files):
        (root / f"f{i:02d}.py").write_text(f"def f{i}():\n    return {i}\n")
    return root


def _run_failing(workspace: Path, monkeypatch) -> BaseException:
    """What an index run with the smallest window raised; the test fails if it did not end within HANG_SECONDS."""
    monkeypatch.setattr(build_module, "POOL_THRESHOLD", 1)
    monkeypatch.setattr(build_module, "IN_FLIGHT", 1)
    monkeypatch.setattr(build_module, "_Window", CountingWindow)
    CountingWindow.last = None
    ended: list[BaseException] = []

    def run() -> None:
        try:
            index_workspace(workspace, workers=2)
        except BaseException as err:  # noqa: BLE001 - handed to the test's thread
            ended.append(err)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(timeout=HANG_SECONDS)
    hung = runner.is_alive()
    if hung and CountingWindow.last is not None:
        CountingWindow.last.room.release()  # free the pool's task thread, so the run ends after all
        runner.join(timeout=HANG_SECONDS)
    assert not hung, f"the run hung for {HANG_SECONDS}s on a pool whose task thread waited for room"
    assert len(ended) == 1
    return ended[0]


def test_a_worker_failing_while_the_window_is_full_ends_the_run(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(build_module, "_work", _work_failing_on_one_file)
    err = _run_failing(_tree(tmp_path / "w", 5 * WINDOW), monkeypatch)
    assert isinstance(err, Boom) and FAILS_ON in str(err)
    window = CountingWindow.last
    assert window is not None and window.size == WINDOW
    # The first chunk's results were taken, and the feed had filled the room they made: no result of the failed
    # chunk was taken, so nothing but the run's close gave the waiting feed room again.
    assert (window.took, window.fed) == (WINDOW, 2 * WINDOW)


def test_a_writer_failing_while_the_pool_waits_for_room_ends_the_run(tmp_path: Path, monkeypatch) -> None:
    real_add = GenerationWriter.add

    def add(self, result, payload):
        if self.file_count >= 2:
            time.sleep(0.5)  # the feed takes the room the last result made and waits for more
            raise Boom("disk full")
        return real_add(self, result, payload)

    monkeypatch.setattr(GenerationWriter, "add", add)
    err = _run_failing(_tree(tmp_path / "w", 5 * WINDOW), monkeypatch)
    assert isinstance(err, Boom)
    window = CountingWindow.last
    assert window is not None and window.fed == window.took + window.size  # the window was full when it failed
