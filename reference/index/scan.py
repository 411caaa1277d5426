"""Workspace scanning: the files worth indexing (the ignore files respected), never leaving the workspace, never
following a link."""

from __future__ import annotations

import os
import stat
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from .ignore import Ignores
from .reading import MAX_FILE_BYTES, refusal, signature_text, utf8_text
from .state import STATE_DIR
from .tracked import tracked

__all__ = ["BINARY_PROBE", "MAX_FILE_BYTES", "SKIP_DIRS", "Candidate", "ScanReport", "is_binary", "left_out", "scan"]

# Directories that hold VCS data, dependencies, build output or caches.
SKIP_DIRS = frozenset({
    STATE_DIR, ".git", ".hg", ".svn", "node_modules", "vendor", "target", "build", "dist", "__pycache__",
    ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".idea", ".gradle", "bower_components",
})
BINARY_PROBE = 8192
NOT_UTF8 = "its name is not valid UTF-8"


class Candidate(NamedTuple):
    """A file to index: its posix path relative to the workspace, its absolute path and its stat signature (a named
    tuple: one is made per file of the tree by every run, 20k at a time, and a frozen dataclass costs twice as much)."""

    path: str
    absolute: str
    signature: str = ""  # reading.signature_text of its lstat when scanned


@dataclass(slots=True)
class ScanReport:
    """What the scan found and what it left out: large files counted, anything else named with its reason."""

    files: list[Candidate]
    # The files git tracks that an ignore pattern matches, and the directories above them: indexed all the same.
    tracked_ignored: list[str] = field(default_factory=list)
    skipped_large: int = 0
    problems: list[str] = field(default_factory=list)  # "<path>: not indexed, <reason>", in path order
    notes: list[str] = field(default_factory=list)  # what an ignore file holds that was not read (no file skipped)

    @property
    def skipped(self) -> int:
        """Every file left out."""
        return self.skipped_large + len(self.problems)


def left_out(ignores: Ignores, name: str, path: str, is_dir: bool, kept: Collection[str] = (),
             noted: list[str] | None = None) -> bool:
    """Whether the index leaves the entry `name` (workspace path `path`) out by its name alone: a skipped directory,
    or what the ignore files in force (`ignores`) leave out, unless git tracks it (`kept`: tracked files and the
    directories above them; such a path is appended to `noted`). The scan and the server's staleness walk both ask."""
    if is_dir and name in SKIP_DIRS:
        return True
    if not (ignores.rules and ignores.ignored(path, is_dir)):
        return False
    if path in kept:
        if noted is not None:
            noted.append(path)
        return False
    return True


def is_binary(head: bytes) -> bool:
    """A NUL byte in the first block marks a binary file."""
    return b"\x00" in head[:BINARY_PROBE]


def _printable(rel: str) -> str:
    """A path for a warning line: bytes that are not UTF-8 shown as \\xNN."""
    return os.fsencode(rel).decode("utf-8", "backslashreplace")


def scan(workspace: Path) -> ScanReport:
    """Every regular file under `workspace`, sorted by path; skips SKIP_DIRS, what the ignore files leave out
    (`ignore.py`), large files, links and special files."""
    report = ScanReport(files=[])
    problems: list[tuple[str, str]] = []
    root = os.path.realpath(workspace)
    _scan_dir(root, "", report, problems, None, tracked(root, report.notes) or frozenset())
    report.notes.sort()
    report.tracked_ignored.sort()
    report.files.sort(key=lambda c: c.path)
    report.problems = [f"{_printable(rel)}: not indexed, {reason}" for rel, reason in sorted(problems)]
    return report


def _scan_dir(directory: str, prefix: str, report: ScanReport, problems: list[tuple[str, str]],
              outer: Ignores | None, kept: frozenset[str]) -> None:
    """One directory's files into `report`, then its subdirectories', each path `prefix` + name; `outer`: the ignore
    rules of the directory above (None at the root); `kept`: what git tracks (`tracked`).

    As `os.walk` without following links sorts entries: a link to a directory counts as a directory (and is
    not entered), any other link as a file (refused by its lstat). A directory that cannot be listed is left out.
    """
    try:
        with os.scandir(directory) as listing:
            entries = list(listing)
    except OSError:
        return
    ignores = Ignores.of(outer, directory, prefix, {entry.name for entry in entries}, report.notes)
    files = report.files
    for entry in entries:
        name = entry.name
        rel = prefix + name
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if entry.is_symlink() or left_out(ignores, name, rel, True, kept, report.tracked_ignored):
                continue
            if not utf8_text(name):
                problems.append((rel, NOT_UTF8))
                continue
            _scan_dir(entry.path, rel + "/", report, problems, ignores, kept)
            continue
        if left_out(ignores, name, rel, False, kept, report.tracked_ignored):
            continue
        if not utf8_text(name):
            problems.append((rel, NOT_UTF8))
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue  # gone since the directory was listed
        reason = refusal(st)
        if reason is None:
            files.append(Candidate(rel, entry.path, signature_text(st)))
        elif stat.S_ISREG(st.st_mode):  # a regular file is refused for its size only
            report.skipped_large += 1
        else:
            problems.append((rel, reason))
