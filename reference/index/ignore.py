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

from .reading import Refused, read_file

# Read in every directory, in this order: a tool-specific file can re-include what git ignores, or leave out
# what git tracks (generated code, vendored trees under another name).
IGNORE_FILES = (".gitignore", ".cruxgateignore")
# The repository's own list of ignored paths beside `.git`'s other data (never committed).
GIT_EXCLUDE = ".git/info/exclude"
# An ignore file larger than this is a data file named like one: not read.
MAX_IGNORE_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class Ignores:
    """The rules in force in one directory of the resolved workspace `root`: (the directory's prefix, its patterns)
    of each ignore file read on the way down, outermost first."""

    root: str
    rules: tuple[tuple[str, GitIgnoreSpec], ...] = ()

    @classmethod
    def of(cls, outer: Ignores | None, directory: str, prefix: str, names: set[str], notes: list[str]) -> Ignores:
        """The rules in force in `directory` on a walk down from the workspace root: the root's when `outer` is None,
        else those of the directory above (`outer`) and `directory`'s own files (see `enter`)."""
        return cls.of_root(directory, names, notes) if outer is None else outer.enter(prefix, names, notes)

    @classmethod
    def of_root(cls, root: str, names: set[str], notes: list[str]) -> Ignores:
        """The rules of the workspace root `root` (resolved), whose entries are `names`; what cannot be read is told
        in `notes`."""
        exclude = None
        if ".git" in names and os.path.lexists(os.path.join(root, GIT_EXCLUDE)):  # a repository may have none
            exclude = _spec(root, GIT_EXCLUDE, notes)
        return cls(root, () if exclude is None else (("", exclude),)).enter("", names, notes)

    def enter(self, prefix: str, names: set[str], notes: list[str]) -> Ignores:
        """The rules in force in the directory `prefix` (its workspace path and a `/`, or "" for the root), whose
        entries are `names`; what cannot be read is told in `notes`."""
        found = [spec for name in IGNORE_FILES if name in names
                 if (spec := _spec(self.root, prefix + name, notes)) is not None]
        return Ignores(self.root, (*self.rules, *((prefix, spec) for spec in found))) if found else self

    def ignored(self, path: str, is_dir: bool) -> bool:
        """Whether the workspace path `path` (a directory: `is_dir`) is left out."""
        verdict: bool | None = None
        for prefix, spec in self.rules:
            relative = path[len(prefix):]
            decided = spec.check_file(relative + "/" if is_dir else relative).include  # `dir/` patterns: dirs only
            if decided is not None:
                verdict = decided
        return bool(verdict)


def _spec(root: str, path: str, notes: list[str]) -> GitIgnoreSpec | None:
    """The patterns of the ignore file at the workspace path `path` under the resolved workspace `root`; None when
    it has none or may not be read.

    It is read as every workspace file is (`reading.read_file`): a link is not followed (as git does not follow a
    linked `.gitignore`), a FIFO never blocks the walk, nothing outside the workspace is read; such a file, or one
    too large, is told in `notes`. A pattern git would not read either is skipped and told in `notes`; the file's
    other patterns still apply."""
    try:
        data = read_file(root, path, MAX_IGNORE_BYTES).data
    except Refused as err:
        notes.append(f"{path}: not read as an ignore file, {err.reason}")
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
                notes.append(f"{path}:{number}: pattern {line!r} skipped, git cannot read it")
            else:
                kept.append(line)
        spec = GitIgnoreSpec.from_lines(kept)
    return spec if any(pattern.include is not None for pattern in spec.patterns) else None  # not only comments
