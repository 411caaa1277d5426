"""The workspace's ignore files: which paths its `.gitignore` files, `.git/info/exclude` and `.cruxgateignore` files
leave out of the index.

Git's rules: a file's patterns are relative to its directory; within a file the last pattern that matches a path
decides, and a deeper directory's files decide after its parents' (`.git/info/exclude` first of all, a directory's
`.cruxgateignore` after its `.gitignore`). A directory left out is never entered, so nothing under it comes back (as
in git, `!` cannot re-include a file whose directory is out). The patterns are read by `pathspec`'s gitignore
matcher on its re2 backend, which matches a path against all of a file's patterns at once: a 76-line `.gitignore`
makes a 20k-file scan 0.22 s instead of 0.13 (1.25 s with pathspec's pure-Python matcher).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from pathspec import GitIgnoreSpec

# Read in every directory, in this order: a tool-specific file can re-include what git ignores, or leave out
# what git tracks (generated code, vendored trees under another name).
IGNORE_FILES = (".gitignore", ".cruxgateignore")
# The repository's own list of ignored paths beside `.git`'s other data (never committed).
GIT_EXCLUDE = os.path.join(".git", "info", "exclude")
# An ignore file larger than this is a data file named like one: not read.
MAX_IGNORE_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class Ignores:
    """The rules in force in one directory: (the directory's prefix, its patterns) of each ignore file read on the
    way down, outermost first."""

    rules: tuple[tuple[str, GitIgnoreSpec], ...] = ()

    @classmethod
    def of(cls, outer: Ignores | None, directory: str, prefix: str, names: set[str], notes: list[str]) -> Ignores:
        """The rules in force in `directory` on a walk down from the workspace root: the root's when `outer` is None,
        else those of the directory above (`outer`) and `directory`'s own files (see `enter`)."""
        return cls.of_root(directory, names, notes) if outer is None else outer.enter(directory, prefix, names, notes)

    @classmethod
    def of_root(cls, root: str, names: set[str], notes: list[str]) -> Ignores:
        """The rules of the workspace root `root` (absolute), whose entries are `names`; what cannot be read is told
        in `notes`."""
        exclude = _spec(root, GIT_EXCLUDE, notes) if ".git" in names else None
        return cls(() if exclude is None else (("", exclude),)).enter(root, "", names, notes)

    def enter(self, directory: str, prefix: str, names: set[str], notes: list[str]) -> Ignores:
        """The rules in force in `directory` (absolute; `prefix`: its workspace path and a `/`, or "" for the root),
        whose entries are `names`; what cannot be read is told in `notes`."""
        found = [spec for name in IGNORE_FILES if name in names
                 if (spec := _spec(directory, name, notes, prefix)) is not None]
        return Ignores((*self.rules, *((prefix, spec) for spec in found))) if found else self

    def ignored(self, path: str, is_dir: bool) -> bool:
        """Whether the workspace path `path` (a directory: `is_dir`) is left out."""
        verdict: bool | None = None
        for prefix, spec in self.rules:
            relative = path[len(prefix):]
            decided = spec.check_file(relative + "/" if is_dir else relative).include  # `dir/` patterns: dirs only
            if decided is not None:
                verdict = decided
        return bool(verdict)


def _spec(directory: str, name: str, notes: list[str], prefix: str = "") -> GitIgnoreSpec | None:
    """The patterns of the ignore file `name` in `directory` (`prefix`: the directory's workspace path); None when it
    is missing, unreadable, too large or has none.

    A pattern git would not read either is skipped and told in `notes`; the file's other patterns still apply."""
    shown = prefix + name.replace(os.sep, "/")
    try:
        with open(os.path.join(directory, name), "rb") as handle:
            data = handle.read(MAX_IGNORE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_IGNORE_BYTES:
        notes.append(f"{shown}: not read as an ignore file, larger than {MAX_IGNORE_BYTES:,} bytes")
        return None
    lines = data.decode("utf-8", "replace").splitlines()
    try:
        spec = GitIgnoreSpec.from_lines(lines)
    except ValueError:  # pathspec's pattern errors (their class moved between versions) are ValueErrors
        kept = []
        for number, line in enumerate(lines, 1):
            try:
                GitIgnoreSpec.from_lines([line])
            except ValueError:
                notes.append(f"{shown}:{number}: pattern {line!r} skipped, git cannot read it")
            else:
                kept.append(line)
        spec = GitIgnoreSpec.from_lines(kept)
    return spec if any(pattern.include is not None for pattern in spec.patterns) else None  # not only comments
