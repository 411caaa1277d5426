"""The files git tracks in the repository a workspace is, or lies in: git reads ignore files for untracked files only,
so a file it tracks is indexed even where an ignore pattern matches it (a package's `**/package.json` meant for the
build's copies also matches the package's own, committed one).

Asked of git itself (`git ls-files`): the index's format has versions and extensions no reader of ours should chase.
Without git, or when it fails or takes too long, the ignore files decide alone, and the scan's notes say so.
"""

from __future__ import annotations

import os
import subprocess

from .ignore import repository_above

# How long the scan waits for git to list a repository's files (a 100k-file index lists in well under a second).
GIT_TIMEOUT = 20.0


def tracked(root: str, notes: list[str]) -> frozenset[str] | None:
    """The workspace paths git tracks under the resolved workspace `root`, and every directory above one (which the
    scan enters even when an ignore pattern leaves it out); None when `root` lies in no repository or git cannot say
    (told in `notes`)."""
    if not os.path.lexists(os.path.join(root, ".git")) and repository_above(root) is None:
        return None
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached"], capture_output=True,
                                timeout=GIT_TIMEOUT, check=True, stdin=subprocess.DEVNULL,
                                env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}).stdout
    except (OSError, subprocess.SubprocessError) as err:
        if isinstance(err, subprocess.CalledProcessError) and b"not a git repository" in (err.stderr or b""):
            return None  # a `.git` git does not read as a repository's: as none
        notes.append(f"git could not list the files it tracks ({_reason(err)}): the ignore files decide alone")
        return None
    files = [os.fsdecode(raw) for raw in listed.split(b"\0") if raw]  # relative to `root`, as the scan names them
    return frozenset((*files, *(folder for path in files for folder in _parents(path))))


def _parents(path: str) -> list[str]:
    """The directories above a workspace path (`a/b/c.py` -> `a`, `a/b`)."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[:depth]) for depth in range(1, len(parts) + 1)]


def _reason(err: OSError | subprocess.SubprocessError) -> str:
    """A short reason git gave no list."""
    if isinstance(err, FileNotFoundError):
        return "no git command"
    if isinstance(err, subprocess.TimeoutExpired):
        return f"no answer in {GIT_TIMEOUT:.0f} s"
    if isinstance(err, subprocess.CalledProcessError):
        return f"exit {err.returncode}"
    return str(err)
