"""Where a file's module path starts: Python's packages (`__init__.py`) and Rust's crates (`Cargo.toml`).

A repository rarely keeps its code at its top: a monorepo holds `services/api/app/` beside `libs/core/src/`, and a
file's module is what its language's imports call it (`app.main`, `core::config`), not its path from the top
(`services.api.app.main`). Import targets are resolved against qualified names, so a module path counted from the
wrong directory left nearly every import of such a tree unresolved. The layout is read from the tree's file list:
a file's module depends on which package and crate markers exist around it, so adding or removing one changes the
modules of other files (`changed_modules`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from .languages import LANGUAGES, language_of, python

# The rule above, named in each generation's manifest: a generation whose modules another rule counted is not
# patched (its unchanged files would keep their old modules).
MODULE_LAYOUT = "packages-1"
PYTHON_PACKAGE = "__init__.py"
RUST_CRATE = "Cargo.toml"


class Layout:
    """The package and crate directories of one tree (posix paths relative to the workspace, "" for its top)."""

    def __init__(self, paths: Iterable[str]) -> None:
        packages: set[str] = set()
        crates: set[str] = set()
        for path in paths:
            directory, _, name = path.rpartition("/")
            if name == PYTHON_PACKAGE:
                packages.add(directory)
            elif name == RUST_CRATE:
                crates.add(directory)
        self.packages = frozenset(packages)
        self.crates = frozenset(crates)

    def module(self, path: str) -> str:
        """The module prefix of `path`'s qualified names ("" when its language has none, or it has no language)."""
        found = language_of(path)
        if found is None:
            return ""
        language = found[0]
        rules = LANGUAGES[language]
        if language == "python":
            top = self._top_package(posixpath.dirname(path))
            if top is not None:  # the package chain's parent is where `import` starts
                root = posixpath.dirname(top)
                rel = path[len(root) + 1:] if root else path
                return python.dotted(rel)
        elif language == "rust":
            crate = self._crate_of(posixpath.dirname(path))
            if crate:
                return rules.module_of(path[len(crate) + 1:])
        return rules.module_of(path)

    def _top_package(self, directory: str) -> str | None:
        """The outermost directory of the package chain `directory` is in (None: not in a package)."""
        if directory not in self.packages:
            return None
        while directory:
            parent = posixpath.dirname(directory)
            if parent not in self.packages:
                return directory
            directory = parent
        return directory  # the workspace's top is itself a package

    def _crate_of(self, directory: str) -> str | None:
        """The nearest directory at or above `directory` holding a crate manifest (None: none does)."""
        while True:
            if directory in self.crates:
                return directory
            if not directory:
                return None
            directory = posixpath.dirname(directory)


def changed_modules(before: Layout, after: Layout, paths: Iterable[str]) -> list[str]:
    """The `paths` whose module differs between two layouts of a tree."""
    if before.packages == after.packages and before.crates == after.crates:
        return []
    return [path for path in paths if before.module(path) != after.module(path)]
