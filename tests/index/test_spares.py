"""A full run leaves spare copies of its database, so the first two patches after it copy nothing either.

The first patch after a full run has no collected generation whose database its logs reach (a full run writes no
log), nor has the second. The full run copies its finished database twice beside it (dot-files no reader opens,
listed with their stamps in `.spares.json`); the first patch takes one over, the second takes the other and replays
the first's log. These tests hold that to a full run's rows, and to a copy of the live database whenever a spare
does not vouch for itself, and show that a run killed after taking a spare leaves the previous generation live.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cruxgate.reference.index import index_workspace, rowlog
from cruxgate.reference.index.rowlog import SPARE_LIST
from cruxgate.reference.index.state import DATABASE

from .conftest import built, copy_fixture
from .test_patch import snapshot, taken_database
from .test_takeover import REPO, edit, generations, live, rows


def spare_names(generation: Path) -> list[str]:
    return sorted(path.name for path in generation.glob(".spare-*"))


def patches(workspace: Path, tmp_path: Path, full_builds: list[Path]) -> list[str | None]:
    """Three edits, each re-indexed as a patch with the rows of a full run: which database each took over."""
    kinds = []
    for n in (1, 2, 3):
        edit(workspace, n)
        with taken_database(workspace) as taken:
            index_workspace(workspace)
            kinds.append(taken())
        assert full_builds == []
        rows(workspace, tmp_path, f"full-{n}")
        full_builds.clear()  # the full runs `rows` made
    return kinds


def test_a_full_run_leaves_two_spares_the_first_two_patches_take(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = copy_fixture(tmp_path / "ws")
    index_workspace(workspace)
    full = live(workspace)
    assert spare_names(full) == [".spare-1.db", ".spare-2.db"]
    assert sorted(json.loads((full / SPARE_LIST).read_text())) == [".spare-1.db", ".spare-2.db"]
    assert (full / ".spare-1.db").read_bytes() == (full / DATABASE).read_bytes()
    assert patches(workspace, tmp_path, built(monkeypatch)) == ["spare", "spare", "collected"]
    assert all(spare_names(path) == [] for path in generations(workspace))  # taken, or gone with their generation


def test_an_unchanged_run_hands_the_spares_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = copy_fixture(tmp_path / "ws")
    index_workspace(workspace)
    full_builds = built(monkeypatch)
    linked = index_workspace(workspace)  # nothing changed: the full run's generation linked
    assert linked.generation == "gen-2"
    assert spare_names(live(workspace)) == [".spare-1.db", ".spare-2.db"]
    assert spare_names(generations(workspace)[0]) == []
    # The third takes the database the unchanged run linked: no longer shared once the full run's generation went.
    assert full_builds == [] and patches(workspace, tmp_path, full_builds) == ["spare", "spare", "collected"]


def test_after_a_patch_and_an_unchanged_run_the_patch_after_next_takes_the_other_spare(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The unchanged run links the patched generation: the two share a database, which the patch after next may not
    # take (a reader may hold the linked one). The full run's other spare, brought forward by the logs, serves it.
    workspace = copy_fixture(tmp_path / "ws")
    index_workspace(workspace)
    full_builds = built(monkeypatch)
    kinds = []
    for n in (1, 2, 3, 4):
        edit(workspace, n)
        with taken_database(workspace) as taken:
            index_workspace(workspace)
            kinds.append(taken())
        if n == 1:
            assert index_workspace(workspace).parsed_files == 0  # nothing changed: the patched generation linked
    assert full_builds == []
    assert kinds == ["spare", "collected", "spare", "collected"]
    assert all(spare_names(path) == [] for path in generations(workspace))  # taken, or gone with their generation
    rows(workspace, tmp_path, "full")


def test_a_full_run_drops_the_spares_no_patch_can_take(tmp_path: Path) -> None:
    workspace = copy_fixture(tmp_path / "ws")
    index_workspace(workspace)
    index_workspace(workspace, force=True)  # the next patches' logs start from this generation
    first, second = generations(workspace)
    assert spare_names(first) == [] and spare_names(second) == [".spare-1.db", ".spare-2.db"]


def _unlisted(generation: Path) -> None:
    (generation / SPARE_LIST).unlink()


def _written(generation: Path) -> None:
    with (generation / ".spare-1.db").open("ab") as file:
        file.write(b"\0" * 4096)


def _linked(generation: Path) -> None:
    os.link(generation / ".spare-1.db", generation.parent / "elsewhere.db")  # a write would show through the link


@pytest.mark.parametrize("spoil", [_unlisted, _written, _linked])
def test_a_spare_that_does_not_vouch_means_a_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  spoil: Callable[[Path], None]) -> None:
    workspace = copy_fixture(tmp_path / "ws")
    index_workspace(workspace)
    spoil(live(workspace))
    if spoil is not _unlisted:
        (live(workspace) / ".spare-2.db").unlink()  # the other spare would serve
    full_builds = built(monkeypatch)
    edit(workspace, 1)
    with taken_database(workspace) as taken:
        index_workspace(workspace)
        assert taken() is None
    assert full_builds == []
    rows(workspace, tmp_path, "full")


_KILLED = """
import os, signal, sys
from cruxgate.reference.index import incremental, index_workspace

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

incremental.replay = die  # once the spare is moved into the new generation
index_workspace(sys.argv[1])
"""


def test_a_run_killed_after_taking_a_spare_leaves_the_previous_generation_live(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = copy_fixture(tmp_path / "ws")
    index_workspace(workspace)
    before = snapshot(workspace)
    edit(workspace, 1)
    done = subprocess.run([sys.executable, "-c", _KILLED, str(workspace)], cwd=REPO, timeout=120,
                          capture_output=True, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()
    assert live(workspace).name == "gen-1" and spare_names(live(workspace)) == [".spare-2.db"]
    assert snapshot(workspace) == before
    full_builds = built(monkeypatch)
    with taken_database(workspace) as taken:
        index_workspace(workspace)  # the other spare
        assert taken() == "spare"
    assert full_builds == []
    rows(workspace, tmp_path, "full")


def test_a_disk_short_of_room_gets_no_spares(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.statvfs

    def short(path: Any) -> Any:
        found = real(path)
        # As much room as one spare would take: a run must not fill the disk for copies a later patch may take.
        room = (live_database(path).stat().st_size // found.f_frsize) + 1
        return os.statvfs_result((*found[:4], room, *found[5:]))

    monkeypatch.setattr(rowlog.os, "statvfs", short)
    workspace = copy_fixture(tmp_path / "ws")
    index_workspace(workspace)
    assert spare_names(live(workspace)) == [] and not (live(workspace) / SPARE_LIST).exists()
    edit(workspace, 1)
    with taken_database(workspace) as taken:
        index_workspace(workspace)
        assert taken() is None
    rows(workspace, tmp_path, "full")


def live_database(generation: Any) -> Path:
    return Path(generation) / DATABASE
