"""Cheap staleness check of the index against the workspace: git HEAD, else the mtimes of what the index reads
(no file is read but the ignore files)."""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Collection
from functools import partial
from pathlib import Path
from typing import Any

from cruxgate.reference.index.git import git_head
from cruxgate.reference.index.ignore import Ignores
from cruxgate.reference.index.scan import left_out


def newer_than(root: Path, mtime_ns: int, between: Callable[[], None] | None = None,
               kept: Collection[str] = ()) -> bool:
    """True as soon as a file or directory under `root` that the index reads was modified after `mtime_ns` (stat only).

    What the scan leaves out (the skipped directories, what the ignore files leave out) is not walked: a build
    writing into an ignored `out/` or an install into `node_modules` changes nothing the index holds. The ignore
    files above a workspace that lies inside a repository count too (one created or edited since). `kept`: what git
    tracks although an ignore pattern matches it (the manifest's `tracked_ignored`), walked as the scan read it.
    """
    notes: list[str] = []  # an ignore pattern that cannot be read is the index run's to report, not this walk's
    # Resolved, as the ignore files' reads check that what they open lies inside it.
    stack: list[tuple[str, str, Ignores | None]] = [(os.path.realpath(root), "", None)]
    while stack:
        if between is not None:
            between()  # before each directory: a walk in the background lets calls go first
        directory, prefix, outer = stack.pop()
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError:
            continue
        ignores = Ignores.of(outer, directory, prefix, {entry.name for entry in entries}, notes)
        if outer is None and any(_modified_after(path, mtime_ns) for path in ignores.above):
            return True  # an ignore file of the repository the workspace lies in: what it leaves out may differ
        for entry in entries:
            rel = prefix + entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
                if left_out(ignores, entry.name, rel, is_dir, kept):
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if info.st_mtime_ns > mtime_ns:
                return True
            if is_dir:
                stack.append((entry.path, rel + "/", ignores))
    return False


def _modified_after(path: str, mtime_ns: int) -> bool:
    """The file at `path` exists and was modified after `mtime_ns`."""
    try:
        return os.lstat(path).st_mtime_ns > mtime_ns
    except OSError:
        return False


def head_moved(workspace: Path, manifest: dict[str, Any]) -> bool | None:
    """Git workspace: whether HEAD differs from the indexed head; None when `workspace` is not a git workspace."""
    head = git_head(workspace)
    if head is None:
        return None
    indexed = manifest.get("git_head")
    return bool(indexed or head) and indexed != head


def tree_changed(workspace: Path, manifest_mtime_ns: int, between: Callable[[], None] | None = None,
                 kept: Collection[str] = ()) -> bool:
    """Anything under `workspace` changed after the manifest was written (the stat-only walk; `between` is called
    before each directory; `kept`: `newer_than`'s)."""
    # The root's own mtime moves when a top-level entry is added or removed.
    try:
        if workspace.stat().st_mtime_ns > manifest_mtime_ns:
            return True
    except OSError:
        return True
    return newer_than(workspace, manifest_mtime_ns, between, kept)


def is_stale(workspace: Path, manifest: dict[str, Any], manifest_mtime_ns: int) -> bool:
    """Git workspace: HEAD differs from the indexed head. Otherwise: anything changed after the manifest was written."""
    moved = head_moved(workspace, manifest)
    return moved if moved is not None else tree_changed(workspace, manifest_mtime_ns, kept=kept_of(manifest))


def kept_of(manifest: dict[str, Any]) -> frozenset[str]:
    """What git tracks in the workspace although an ignore pattern matches it, as the index run's scan found it."""
    return frozenset(manifest.get("tracked_ignored") or ())


# A walk that costs more than this (a large non-git tree) is reused for a while instead of repeated.
CACHE_ABOVE_SECONDS = 0.005
CACHE_FACTOR = 20  # reuse a costly walk for 20x its cost, so checking stays under ~5% of wall time
CACHE_MAX_SECONDS = 2.0
# While calls keep coming, a costly walk is renewed in a thread before its window ends (starting this many of its
# costs early), so a call after a pause (an agent's turn: seconds) answers from a memo as fresh as a back-to-back
# call's instead of walking (130 ms at 20k files). After this long without a call the thread stops, and the next
# call walks itself.
RENEW_MARGIN = 2.0
RENEW_WHILE_USED_SECONDS = 300.0
# A renewal walks only while no call came for this long (checked before each directory): it competes with calls for
# the interpreter, and walked beside them it slowed one call in twelve at 20k files. Under a steady stream of calls it
# then cannot finish, the memo ends, and a call walks, as it did before renewals.
QUIET_SECONDS = 0.05


class StalenessCheck:
    """`is_stale` with an adaptive memo for the walk: cheap walks always run; a costly one is reused for a bounded time
    and, with `renew`, walked again in a thread before that time ends while the server is in use.

    A git workspace's check (HEAD against the manifest's `git_head`, two small reads) is never memoized.
    Its cost is only ever high by accident (the process descheduled on a loaded machine, or waiting for
    the GIL while prewarm runs), and a memo of it answered `fresh` for up to 2 s after a commit, with
    the results of the index that commit had outdated.
    """

    def __init__(self, clock: Any = time.monotonic, renew: bool = False) -> None:
        self._clock = clock
        self._renew = renew
        self._lock = threading.Lock()
        self._memo: tuple[Any, bool, float] | None = None  # (manifest key, stale, valid until)
        self._cost = 0.0  # the memo's walk's cost, seconds
        self._used = -math.inf  # the clock at the last call
        self._renewing = False  # a renewal thread runs

    def __call__(self, workspace: Path, manifest: dict[str, Any], manifest_mtime_ns: int, key: Any,
                 exact: bool = False) -> bool:
        """Whether the index behind `key` is stale (a stale answer is never memoized: it only flips by re-index).

        `exact` walks even when a memo is valid: the strict policy must never answer from an index
        that a just-made edit has outdated. A walk that finds the index stale drops the memo, so no
        later call answers `fresh` from a memo the workspace has been seen to outdate.
        """
        moved = head_moved(workspace, manifest)
        if moved is not None:
            return moved
        now = self._clock()
        with self._lock:
            if self._memo is not None and self._memo[0] != key:
                self._memo = None  # another generation's: its renewal ends
            memo = self._memo
            self._used = now
        if not exact and memo is not None and now < memo[2]:  # a memo left is of this `key`
            return memo[1]
        return self._walk(workspace, manifest_mtime_ns, key, now, kept_of(manifest))

    def _walk(self, workspace: Path, manifest_mtime_ns: int, key: Any, now: float, kept: frozenset[str],
              renewal: bool = False) -> bool:
        """Walk the tree (`tree_changed`) and keep its answer as the memo of `key` when it is fresh and was costly; a
        renewal's answer replaces only a memo of the same `key` (a call may have moved on to a new generation)."""
        waited = [0.0]  # what a renewal waited for calls: not the walk's cost
        started = time.perf_counter()
        stale = tree_changed(workspace, manifest_mtime_ns, partial(self._after_calls, waited) if renewal else None,
                             kept)
        cost = time.perf_counter() - started - waited[0]
        start_renewing = False
        with self._lock:
            if renewal and (self._memo is None or self._memo[0] != key):
                return stale
            if stale or (renewal and cost <= CACHE_ABOVE_SECONDS):  # a cheap walk is the calls' own again
                self._memo = None
            elif cost > CACHE_ABOVE_SECONDS:
                self._memo = (key, stale, now + min(cost * CACHE_FACTOR, CACHE_MAX_SECONDS))
                self._cost = cost
                start_renewing = self._renew and not self._renewing
                self._renewing = self._renewing or start_renewing
        if start_renewing:
            threading.Thread(target=self._keep_renewed, args=(workspace, manifest_mtime_ns, key, kept),
                             name="cruxgate-freshness", daemon=True).start()
        return stale

    def _after_calls(self, waited: list[float]) -> None:
        """Wait until no call came for QUIET_SECONDS, adding the seconds waited to `waited[0]`."""
        while True:
            quiet = self._clock() - self._used
            if quiet >= QUIET_SECONDS:
                return
            started = time.perf_counter()
            time.sleep(QUIET_SECONDS - quiet)
            waited[0] += time.perf_counter() - started

    def _keep_renewed(self, workspace: Path, manifest_mtime_ns: int, key: Any, kept: frozenset[str]) -> None:
        """Walk again shortly before the memo of `key` ends, for as long as calls come; stop when the memo is dropped
        (a walk found the index stale), is another generation's, or no call came for RENEW_WHILE_USED_SECONDS."""
        try:
            while True:
                with self._lock:
                    memo, used, cost = self._memo, self._used, self._cost
                now = self._clock()
                if memo is None or memo[0] != key or now - used > RENEW_WHILE_USED_SECONDS:
                    return
                wait = memo[2] - now - cost * RENEW_MARGIN
                if wait > 0:
                    time.sleep(wait)
                    continue
                self._walk(workspace, manifest_mtime_ns, key, now, kept, renewal=True)
        finally:
            with self._lock:
                self._renewing = False
