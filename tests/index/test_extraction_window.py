"""A full run's pool runs ahead of the writer by a bounded number of files, and its results are the same."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from cruxgate.reference.index import build as build_module
from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.build import _Window
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
    tasks: list[tuple[str, str, str | None]] = [("root", f"f{i}.py", None) for i in range(10)]
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


def test_a_run_failing_while_the_pool_waits_for_room_ends(tmp_path: Path, monkeypatch) -> None:
    workspace = copy_fixture(tmp_path / "w")
    monkeypatch.setattr(build_module, "POOL_THRESHOLD", 1)
    monkeypatch.setattr(build_module, "IN_FLIGHT", 1)
    real_add = GenerationWriter.add

    def add(self, result, payload):
        if self.file_count >= 2:
            raise Boom("disk full")
        return real_add(self, result, payload)

    monkeypatch.setattr(GenerationWriter, "add", add)
    ended: list[BaseException] = []

    def run() -> None:
        try:
            index_workspace(workspace, workers=2)
        except BaseException as err:  # noqa: BLE001 - handed to the test's thread
            ended.append(err)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(timeout=120)
    assert not runner.is_alive(), "the run hung on a pool whose task thread waited for room"
    assert len(ended) == 1 and isinstance(ended[0], Boom)
