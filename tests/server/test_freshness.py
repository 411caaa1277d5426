"""The cheap staleness check: git HEAD for a git workspace, else mtimes newer than the manifest."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cruxgate.reference.index.git import git_head
from cruxgate.reference.index.state import read_small_text
from cruxgate.reference.server.freshness import is_stale


def manifest_at(root: Path, head: str | None) -> tuple[dict, int]:
    state = root / ".cruxgate" / "gen-1"
    state.mkdir(parents=True, exist_ok=True)
    path = state / "manifest.json"
    path.write_text("{}", encoding="utf-8")
    return {"git_head": head}, path.stat().st_mtime_ns


def bump(path: Path, after_ns: int) -> None:
    """Set an mtime strictly after `after_ns` without sleeping."""
    os.utime(path, ns=(after_ns + 10**9, after_ns + 10**9))


def test_plain_workspace_fresh_then_edited_then_added(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x = 1\n")
    os.utime(tmp_path / "src" / "a.py", ns=(1, 1))
    os.utime(tmp_path / "src", ns=(1, 1))
    manifest, mtime = manifest_at(tmp_path, None)
    os.utime(tmp_path, ns=(1, 1))
    assert not is_stale(tmp_path, manifest, mtime)
    bump(tmp_path / "src" / "a.py", mtime)
    assert is_stale(tmp_path, manifest, mtime)


def test_state_dir_changes_do_not_count(tmp_path: Path) -> None:
    manifest, mtime = manifest_at(tmp_path, None)
    os.utime(tmp_path, ns=(1, 1))
    bump(tmp_path / ".cruxgate" / "gen-1" / "manifest.json", mtime)
    assert not is_stale(tmp_path, manifest, mtime)


# A plain workspace, by what the index reads of it: each path's change after the manifest counts or not.
LEFT_OUT = ("out/bundle.js", "out", "node_modules/x/index.js", "node_modules/x", "node_modules", "src/run.log")
READ = ("src/a.py", "src", ".gitignore", "src/build")  # `build` a file: only directories of that name are skipped


@pytest.mark.parametrize(("path", "counts"), [(p, False) for p in LEFT_OUT] + [(p, True) for p in READ])
def test_only_what_the_index_reads_counts(tmp_path: Path, path: str, counts: bool) -> None:
    for file, text in ((".gitignore", "out/\n*.log\n"), ("src/a.py", "x = 1\n"), ("src/build", ""),
                       ("src/run.log", ""), ("out/bundle.js", ""), ("node_modules/x/index.js", "")):
        (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / file).write_text(text)
    manifest, mtime = manifest_at(tmp_path, None)
    for walked in sorted(tmp_path.rglob("*"), reverse=True):  # deepest first: setting a file's mtime keeps its dir's
        if ".cruxgate" not in walked.parts:
            os.utime(walked, ns=(1, 1))
    os.utime(tmp_path, ns=(1, 1))
    assert not is_stale(tmp_path, manifest, mtime)
    bump(tmp_path / path, mtime)
    assert is_stale(tmp_path, manifest, mtime) is counts


# A workspace inside a repository (`repo/ws`): the ignore files above it count, created or edited; nothing else does.
ABOVE = (("repo/.gitignore", True), ("repo/.cruxgateignore", True), ("repo/.git/info/exclude", True),
         ("repo/notes.txt", False), ("repo/other/.gitignore", False))


@pytest.mark.parametrize(("path", "counts"), ABOVE)
def test_ignore_files_above_a_workspace_inside_a_repository_count(tmp_path: Path, path: str, counts: bool) -> None:
    workspace = tmp_path / "repo" / "ws"
    for file in ("repo/.git/info/exclude", "repo/notes.txt", "repo/ws/a.py"):
        (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / file).write_text("")
    manifest, mtime = manifest_at(workspace, None)
    os.utime(workspace / "a.py", ns=(1, 1))
    os.utime(workspace, ns=(1, 1))
    assert not is_stale(workspace, manifest, mtime)
    (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / path).write_text("# a comment\n")
    bump(tmp_path / path, mtime)
    assert is_stale(workspace, manifest, mtime) is counts


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True,
                   capture_output=True)


def test_git_workspace_compares_head(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    git(tmp_path, "add", "a.py")
    git(tmp_path, "commit", "-q", "-m", "one")
    head = git_head(tmp_path)
    assert head and len(head) == 40
    manifest, mtime = manifest_at(tmp_path, head)
    assert not is_stale(tmp_path, manifest, mtime)
    (tmp_path / "a.py").write_text("x = 2\n")
    git(tmp_path, "commit", "-q", "-am", "two")
    assert git_head(tmp_path) != head and is_stale(tmp_path, manifest, mtime)
    git(tmp_path, "pack-refs", "--all")
    assert git_head(tmp_path) != head  # read from packed-refs too


def test_not_git() -> None:
    assert git_head(Path("/nonexistent-dir")) is None


def test_costly_fresh_walks_are_reused_briefly(tmp_path: Path, monkeypatch) -> None:
    from cruxgate.reference.server import freshness

    calls: list[int] = []

    def slow_walk(workspace: Path, mtime: int, between: Callable[[], None] | None = None, kept: object = ()) -> bool:
        calls.append(1)
        import time as _time
        _time.sleep(0.01)  # a large tree: the walk costs more than CACHE_ABOVE_SECONDS
        return False

    now = [100.0]
    monkeypatch.setattr(freshness, "tree_changed", slow_walk)
    check = freshness.StalenessCheck(clock=lambda: now[0])
    assert check(tmp_path, {}, 0, "k1") is False and check(tmp_path, {}, 0, "k1") is False
    assert len(calls) == 1  # reused within its window
    check(tmp_path, {}, 0, "k2")
    assert len(calls) == 2  # another index generation: checked again
    now[0] += freshness.CACHE_MAX_SECONDS + 1
    check(tmp_path, {}, 0, "k2")
    assert len(calls) == 3  # the window is bounded
    check(tmp_path, {}, 0, "k2", exact=True)
    assert len(calls) == 4  # strict callers walk even inside a valid window


def test_cheap_walks_are_never_reused(tmp_path: Path) -> None:
    from cruxgate.reference.server.freshness import StalenessCheck

    (tmp_path / "a.py").write_text("x = 1\n")
    os.utime(tmp_path / "a.py", ns=(1, 1))
    manifest, mtime = manifest_at(tmp_path, None)
    os.utime(tmp_path, ns=(1, 1))
    check = StalenessCheck()
    assert check(tmp_path, manifest, mtime, "k") is False
    bump(tmp_path / "a.py", mtime)
    assert check(tmp_path, manifest, mtime, "k") is True  # seen at once on a small tree


def test_a_stale_walk_drops_the_memo(tmp_path: Path, monkeypatch) -> None:
    from cruxgate.reference.server import freshness

    changed = [False]

    def slow_walk(workspace: Path, mtime: int, between: Callable[[], None] | None = None, kept: object = ()) -> bool:
        import time as _time
        _time.sleep(0.01)
        return changed[0]

    monkeypatch.setattr(freshness, "tree_changed", slow_walk)
    check = freshness.StalenessCheck(clock=lambda: 100.0)
    assert check(tmp_path, {}, 0, "k") is False  # memoized: the walk was costly
    changed[0] = True
    assert check(tmp_path, {}, 0, "k", exact=True) is True  # a strict call sees the edit ...
    assert check(tmp_path, {}, 0, "k") is True  # ... and a balanced one no longer answers from the memo


def test_git_head_checks_are_never_reused(tmp_path: Path, monkeypatch) -> None:
    """A slow HEAD check (a loaded machine, the GIL held by prewarm) must not be memoized.

    It was: the memo answered `fresh` after a commit, with the results of the outdated index
    (tests/server/test_states.py::test_git_workspace_freshness_follows_head, flaky under load).
    """
    from cruxgate.reference.server import freshness

    git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    git(tmp_path, "add", "a.py")
    git(tmp_path, "commit", "-q", "-m", "one")
    manifest, mtime = manifest_at(tmp_path, git_head(tmp_path))

    def descheduled(workspace):
        import time as _time
        _time.sleep(freshness.CACHE_ABOVE_SECONDS * 2)  # the process lost the CPU mid-check
        return git_head(workspace)

    monkeypatch.setattr(freshness, "git_head", descheduled)
    check = freshness.StalenessCheck(clock=lambda: 100.0)  # the memo's window never ends
    assert check(tmp_path, manifest, mtime, "k") is False
    git(tmp_path, "commit", "-q", "--allow-empty", "-m", "two")
    assert check(tmp_path, manifest, mtime, "k") is True
    assert check(tmp_path, manifest, mtime, "k", exact=True) is True


def test_read_small_text_reads_whole_files_and_raises_oserror(tmp_path: Path) -> None:
    (tmp_path / "CURRENT").write_text("gen-7\n", encoding="utf-8")
    assert read_small_text(str(tmp_path / "CURRENT")) == "gen-7\n"
    big = "ä" * 70_000  # more than one read's worth of bytes
    (tmp_path / "big").write_text(big, encoding="utf-8")
    assert read_small_text(str(tmp_path / "big")) == big
    with pytest.raises(OSError, match="No such file"):
        read_small_text(str(tmp_path / "missing"))
    # .git/HEAD is the workspace's: a FIFO there must not block the per-call freshness check.
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "latin1").write_bytes(b"caf\xe9\n")
    os.symlink("/etc/hostname", tmp_path / "link")
    for hostile, why in (("fifo", "FIFO"), ("latin1", "not UTF-8"), ("link", "symbolic link")):
        with pytest.raises(OSError, match=why):
            read_small_text(str(tmp_path / hostile))


class Walks:
    """A stand-in for `tree_changed` on a large tree: each walk costs `cost` seconds and notes the thread it ran on."""

    def __init__(self, cost: float = 0.02) -> None:
        self.cost, self.stale = cost, False
        self.threads: list[str] = []
        self.steps: list[float] = []  # when a renewal's walk went on to its next directory

    def __call__(self, workspace: Path, mtime: int, between: Callable[[], None] | None = None,
                 kept: object = ()) -> bool:
        import threading
        import time as _time
        self.threads.append(threading.current_thread().name)
        for _ in range(4):  # a tree of four directories
            if between is not None:
                between()
                self.steps.append(_time.monotonic())
            _time.sleep(self.cost / 4)
        return self.stale

    def on(self, name: str) -> int:
        return sum(thread == name for thread in self.threads)


@pytest.fixture
def renewing(monkeypatch) -> Iterator[Callable[[], Any]]:
    """Makes `StalenessCheck(renew=True)`s whose renewal threads end with the test (they outlive it otherwise, and
    would walk through the next test's stand-in for `tree_changed`); torn down before `monkeypatch` undoes it."""
    import time as _time

    from cruxgate.reference.server import freshness

    made: list[freshness.StalenessCheck] = []

    def make() -> freshness.StalenessCheck:
        made.append(freshness.StalenessCheck(renew=True))
        return made[-1]

    yield make
    for check in made:
        with check._lock:
            check._memo = None  # the thread returns at its next look, before walking again
    deadline = _time.monotonic() + 10
    while any(check._renewing for check in made) and _time.monotonic() < deadline:
        _time.sleep(0.01)
    assert not any(check._renewing for check in made), "a renewal thread outlived its test"


def test_a_server_in_use_renews_a_costly_walk_so_a_call_after_a_pause_does_not_walk(tmp_path: Path, monkeypatch,
                                                                                    renewing) -> None:
    """An agent calls every few seconds: each call walked the whole tree (130 ms at 20k files) once the memo's
    window (20x the walk's cost) had ended; a thread now walks again before it ends."""
    import threading
    import time as _time

    from cruxgate.reference.server import freshness

    walks = Walks()
    monkeypatch.setattr(freshness, "tree_changed", walks)
    monkeypatch.setattr(freshness, "RENEW_MARGIN", 5.0)  # 80 ms of slack for a loaded machine's scheduling
    check = renewing()
    caller = threading.current_thread().name
    assert check(tmp_path, {}, 0, "k") is False and walks.on(caller) == 1
    lapses = 0
    until = _time.monotonic() + walks.cost * freshness.CACHE_FACTOR * 3  # three windows pass without a call
    while _time.monotonic() < until:
        memo = check._memo
        lapses += memo is None or memo[2] <= _time.monotonic()  # a call now would walk
        _time.sleep(0.002)
    assert lapses == 0
    assert check(tmp_path, {}, 0, "k") is False
    assert walks.on(caller) == 1 and walks.on("cruxgate-freshness") >= 2  # renewed meanwhile, not by the call
    walks.stale = True
    _time.sleep(walks.cost * freshness.CACHE_FACTOR * 2)
    assert check(tmp_path, {}, 0, "k") is True  # a renewal that finds an edit drops the memo: the call walks
    assert walks.on(caller) == 2


def test_renewal_stops_once_calls_stop(tmp_path: Path, monkeypatch, renewing) -> None:
    import time as _time

    from cruxgate.reference.server import freshness

    walks = Walks()
    monkeypatch.setattr(freshness, "tree_changed", walks)
    monkeypatch.setattr(freshness, "RENEW_WHILE_USED_SECONDS", walks.cost * freshness.CACHE_FACTOR * 2)
    check = renewing()
    check(tmp_path, {}, 0, "k")
    _time.sleep(walks.cost * freshness.CACHE_FACTOR * 5)
    walked = len(walks.threads)
    _time.sleep(walks.cost * freshness.CACHE_FACTOR * 3)
    assert len(walks.threads) == walked and 2 <= walked <= 5  # a few renewals, then none: no call came
    assert not check._renewing


def test_renewal_stops_for_another_generation(tmp_path: Path, monkeypatch, renewing) -> None:
    import time as _time

    from cruxgate.reference.server import freshness

    walks = Walks()
    monkeypatch.setattr(freshness, "tree_changed", walks)
    check = renewing()
    check(tmp_path, {}, 0, "gen-1")
    walks.cost = 0.0  # the new generation's tree walks cheaply: its calls walk themselves, nothing is renewed
    check(tmp_path, {}, 0, "gen-2")
    assert check._memo is None
    _time.sleep(0.02 * freshness.CACHE_FACTOR * 2)
    walked = len(walks.threads)
    _time.sleep(0.02 * freshness.CACHE_FACTOR * 2)
    assert not check._renewing and len(walks.threads) == walked


def test_a_renewal_walks_only_while_no_call_comes(tmp_path: Path, monkeypatch, renewing) -> None:
    """Walked beside calls, it competed with them for the interpreter (one call in twelve slower at 20k files)."""
    import time as _time

    from cruxgate.reference.server import freshness

    walks = Walks()
    monkeypatch.setattr(freshness, "tree_changed", walks)
    check = renewing()
    calls: list[float] = []
    until = _time.monotonic() + walks.cost * freshness.CACHE_FACTOR * 3
    while _time.monotonic() < until:  # a burst of calls, 10 ms apart, for three windows
        calls.append(_time.monotonic())
        check(tmp_path, {}, 0, "k")
        _time.sleep(0.01)
    _time.sleep(walks.cost * freshness.CACHE_FACTOR)  # then quiet: the renewal goes on
    assert walks.steps and walks.steps[-1] > calls[-1] + freshness.QUIET_SECONDS
    for step in walks.steps:
        last_call = max((call for call in calls if call <= step), default=-1.0)
        assert step - last_call >= freshness.QUIET_SECONDS * 0.9  # (the clocks' reads are not atomic with the call)


def test_a_renewal_that_waited_for_calls_keeps_its_walks_own_window(tmp_path: Path, monkeypatch) -> None:
    """A memo's window is 20x its walk's cost; the time a renewal waited for calls to pause is no part of it."""
    import time as _time

    from cruxgate.reference.server import freshness

    walks = Walks()
    monkeypatch.setattr(freshness, "tree_changed", walks)
    check = freshness.StalenessCheck()
    check(tmp_path, {}, 0, "k")  # a call: its walk was costly, so memoized
    now = check._used = _time.monotonic()  # and another call just now
    assert check._walk(tmp_path, 0, "k", now, frozenset(), renewal=True) is False  # waits QUIET_SECONDS, then walks
    assert walks.steps[0] - now >= freshness.QUIET_SECONDS * 0.9
    assert check._memo is not None
    assert check._memo[2] - now < (walks.cost + freshness.QUIET_SECONDS / 2) * freshness.CACHE_FACTOR
