"""Workspace scanning: the files worth indexing, never leaving the workspace."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .state import STATE_DIR

# Directories that hold VCS data, dependencies, build output or caches.
SKIP_DIRS = frozenset({
    STATE_DIR, ".git", ".hg", ".svn", "node_modules", "vendor", "target", "build", "dist", "__pycache__",
    ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".idea", ".gradle", "bower_components",
})
MAX_FILE_BYTES = 1_000_000
BINARY_PROBE = 8192


@dataclass(frozen=True, slots=True)
class Candidate:
    """A file to index: its posix path relative to the workspace and its absolute path."""

    path: str
    absolute: str


@dataclass(slots=True)
class ScanReport:
    """What the scan found and what it left out (and why)."""

    files: list[Candidate]
    skipped_large: int = 0
    skipped_outside: int = 0


def is_binary(head: bytes) -> bool:
    """A NUL byte in the first block marks a binary file."""
    return b"\x00" in head[:BINARY_PROBE]


def scan(workspace: Path) -> ScanReport:
    """Every regular file under `workspace`, sorted by path; skips SKIP_DIRS, large files and symlinks out."""
    root = os.path.realpath(workspace)
    report = ScanReport(files=[])
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not os.path.islink(os.path.join(dirpath, d)))
        rel_dir = os.path.relpath(dirpath, root)
        for name in filenames:
            absolute = os.path.join(dirpath, name)
            if os.path.islink(absolute):
                target = os.path.realpath(absolute)
                if os.path.commonpath([root, target]) != root:
                    report.skipped_outside += 1
                    continue
            try:
                size = os.stat(absolute).st_size
            except OSError:
                continue
            if size > MAX_FILE_BYTES:
                report.skipped_large += 1
                continue
            rel = name if rel_dir == "." else f"{rel_dir}/{name}".replace(os.sep, "/")
            report.files.append(Candidate(rel, absolute))
    report.files.sort(key=lambda c: c.path)
    return report
