"""Where a file's module path starts: Python's packages (`__init__.py`) and projects (`pyproject.toml`, `setup.py`),
and Rust's crates (`Cargo.toml`); which directory a Go import path names (`go.mod`), and which file a TypeScript or
JavaScript import of a workspace package's name (`package.json`) or of a path alias (`tsconfig.json`'s `paths` and
`baseUrl`) names.

A repository rarely keeps its code at its top: a monorepo holds `services/api/app/` beside `libs/core/src/`, and a
file's module is what its language's imports call it (`app.main`, `core::config`), not its path from the top
(`services.api.app.main`). Import targets are resolved against qualified names, so a module path counted from the
wrong directory left nearly every import of such a tree unresolved. The layout is read from the tree's file list and
its crates' manifests (a crate's name begins its files' module paths, as `use other_crate::...` names them): a file's
module depends on which package and crate markers exist around it, so adding, removing or editing one changes the
modules of other files (`changed_modules`).
"""

from __future__ import annotations

import functools
import json
import posixpath
import re
import tomllib
from collections.abc import Callable, Collection, Iterable
from typing import NamedTuple, TypeVar

import pyjson5

from .languages import LANGUAGES, language_of, python

# The rule above, named in each generation's manifest: a generation whose modules another rule counted is not
# patched (its unchanged files would keep their old modules).
MODULE_LAYOUT = "packages-4"
PYTHON_PACKAGE = "__init__.py"
PYTHON_PROJECT = frozenset({"pyproject.toml", "setup.py"})
RUST_CRATE = "Cargo.toml"
GO_MODULE = "go.mod"
JS_PACKAGE = "package.json"
# Where a package's own sources may begin, after what its package.json names: most workspaces keep `src/index.ts`.
JS_ENTRIES = ("src/index", "index")
# The package.json fields that may name its entry file (after `exports`), in the order they are tried.
_JS_ENTRY_FIELDS = ("source", "module", "main", "types", "typings")
# The files whose `compilerOptions` map a TypeScript or JavaScript import (`paths`, `baseUrl`) for the files below them.
TS_CONFIGS = frozenset({"tsconfig.json", "jsconfig.json"})
# How many configs one config's `extends` chain reads (a chain that loops, or runs long, ends there).
TS_CONFIG_CHAIN = 16
# A go.mod's module directive: `module example.com/m`, the path quoted or not, a comment after it.
_GO_MODULE_LINE = re.compile(r'^\s*module\s+(?:"([^"]+)"|(\S+))', re.MULTILINE)
T = TypeVar("T")


class PathMap(NamedTuple):
    """What one `tsconfig.json` (its `extends` chain included) maps bare imports to: `patterns`, its `paths` (each
    pattern, with at most one `*`, and the paths it stands for, in order), looked up from `root`; `base_url`, the
    folder any other bare import is also looked up in (None: no `baseUrl`). Folders are the tree's ("" its top)."""

    root: str
    patterns: tuple[tuple[str, tuple[str, ...]], ...]
    base_url: str | None

    def candidates(self, source: str) -> list[str]:
        """The tree's paths a bare import may name, in the order TypeScript tries them: the `paths` pattern that
        matches it (one without `*` first, else the one with the longest part before `*`), each of its paths with
        `*` replaced; then `baseUrl` and the import."""
        best: tuple[int, str, tuple[str, ...]] | None = None
        for pattern, targets in self.patterns:
            head, star, tail = pattern.partition("*")
            if not star:
                if pattern == source:
                    best = (len(pattern) + 1, "", targets)
                    break
            elif source.startswith(head) and source.endswith(tail) and len(source) >= len(head) + len(tail) \
                    and (best is None or len(head) > best[0]):
                best = (len(head), source[len(head):len(source) - len(tail)], targets)
        found = [] if best is None else [_in_tree(self.root, target.replace("*", best[1])) for target in best[2]]
        if self.base_url is not None:
            found.append(_in_tree(self.base_url, source))
        return [path for path in found if path is not None]


class Crate(NamedTuple):
    """A `Cargo.toml`'s crate: the name `use` gives it (None: none), and the root files its manifest names for its
    library and binaries outside `src/` (`[lib]` and `[[bin]]` `path`, relative to the manifest's folder), longest
    folder first: a file below one counts its module path from that folder, as from `src/` when it names none."""

    name: str | None
    roots: tuple[str, ...] = ()


class Layout:
    """The package and crate directories of one tree (posix paths relative to the workspace, "" for its top), each
    crate's name, each Go module's directory by its module path, and each TypeScript/JavaScript package's directory
    and entry files by its name.

    `read(path)` gives a manifest's text (None when it cannot be read); `names` gives the crates instead (another
    layout's, to compare which files markers moved without reading anything twice; it reads no go.mod).
    """

    def __init__(self, paths: Iterable[str], read: Callable[[str], str | None] | None = None,
                 names: dict[str, Crate] | None = None) -> None:
        packages: set[str] = set()
        projects: set[str] = set()
        crates: dict[str, Crate] = {}
        go_modules: dict[str, str] = {}
        js_packages: dict[str, tuple[str, tuple[str, ...]]] = {}
        ts_paths: dict[str, PathMap] = {}
        ts_config_files: set[str] = set()
        # Each package's config often extends one base: the reader remembers the configs' texts, read once a run.
        read_config = functools.cache(read) if read is not None else None
        for path in paths:
            directory, _, name = path.rpartition("/")
            if name == PYTHON_PACKAGE:
                packages.add(directory)
            elif name in PYTHON_PROJECT:
                projects.add(directory)
            elif name == RUST_CRATE:
                crates[directory] = names.get(directory, Crate(None)) if names is not None else crate_of(read, path)
            elif name == GO_MODULE and names is None and (module := go_module_path(read, path)) is not None:
                go_modules[module] = directory
            elif name == JS_PACKAGE and names is None and (package := js_package(read, path)) is not None:
                js_packages[package[0]] = (directory, package[1])
            elif name in TS_CONFIGS and names is None:
                mapping = ts_path_map(read_config, path, ts_config_files)
                if mapping is not None:
                    ts_paths[directory] = mapping
        self.packages = frozenset(packages)
        self.projects = frozenset(projects)
        self.crates = crates
        self.go_modules = go_modules  # module path -> the directory of its go.mod
        # A workspace package's name -> its package.json's directory and the files that may be its entry, in order.
        self.js_packages = js_packages
        # A tsconfig.json's or jsconfig.json's directory -> what it maps bare imports to; and every config file those
        # read or name in `extends` (a patch re-resolves TypeScript and JavaScript when one of them changes).
        self.ts_paths = ts_paths
        self.ts_config_files = frozenset(ts_config_files)

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
                return python.dotted(path[len(root) + 1:] if root else path)
            # A module outside any package (a namespace package's, a script's) counts from its project's folder,
            # where its tools put it on the import path, or from the top; either one's `src/` dropped.
            project = nearest(posixpath.dirname(path), self.projects)
            return rules.module_of(path[len(project) + 1:] if project else path)
        elif language == "rust":
            crate = nearest(posixpath.dirname(path), self.crates)
            if crate is not None:
                name, roots = self.crates[crate]
                module = _crate_module(path[len(crate) + 1:] if crate else path, roots, rules.module_of)
                return "::".join(part for part in (name, module) if part)
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


def ts_path_map(read: Callable[[str], str | None] | None, config: str, files: set[str] | None = None) -> PathMap | None:
    """What the `tsconfig.json` (or `jsconfig.json`) `config` maps bare imports to, its options merged over those of
    the configs its `extends` names (those of the tree: a relative path; a later one of a list over an earlier one);
    None when it maps none. `files` gains every config read or named."""
    root: str | None = None
    patterns: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    base_url: str | None = None
    stack: list[str] = [config]
    seen: set[str] = set()
    while stack and len(seen) < TS_CONFIG_CHAIN:
        path = stack.pop()
        if path in seen:
            continue
        seen.add(path)
        if files is not None:
            files.add(path)
        found = _jsonc(read(path) if read is not None else None)
        directory = posixpath.dirname(path)
        options = found.get("compilerOptions") if isinstance(found, dict) else None
        if isinstance(options, dict):
            if base_url is None and isinstance(options.get("baseUrl"), str):
                base_url = _in_tree(directory, options["baseUrl"])
            if patterns is None and isinstance(options.get("paths"), dict):
                root, patterns = directory, tuple(
                    (pattern, tuple(target for target in targets if isinstance(target, str)))
                    for pattern, targets in options["paths"].items()
                    if pattern.count("*") <= 1 and isinstance(targets, list))
        extends = found.get("extends") if isinstance(found, dict) else None
        for base in [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []:
            if isinstance(base, str) and base.startswith(("./", "../")):
                target = _in_tree(directory, base if base.endswith(".json") else f"{base}.json")
                if target is not None:
                    stack.append(target)  # popped first, so a later entry of a list is read before an earlier one
    if patterns is None and base_url is None:
        return None
    return PathMap(base_url if base_url is not None else root or "", patterns or (), base_url)


def _jsonc(text: str | None) -> object:
    """A config written as JSON with comments and trailing commas, as TypeScript reads it (None when it is not)."""
    if text is None:
        return None
    try:
        return pyjson5.loads(text)
    except pyjson5.Json5Exception:  # not JSON5, or nested deeper than the parser goes
        return None


def _in_tree(directory: str, path: str) -> str | None:
    """`path` read from `directory`, as a path of the tree ("" its top); None when it leaves the tree."""
    joined = posixpath.normpath(posixpath.join(directory, path))
    if joined == ".":
        return ""
    return None if joined == ".." or joined.startswith(("../", "/")) else joined


def nearest(directory: str, marked: Collection[str]) -> str | None:
    """The nearest of the `marked` directories at or above `directory` (None: none is)."""
    while True:
        if directory in marked:
            return directory
        if not directory:
            return None
        directory = posixpath.dirname(directory)


def go_module_path(read: Callable[[str], str | None] | None, manifest: str) -> str | None:
    """The module path a `go.mod` declares (None when it declares none or cannot be read)."""
    text = read(manifest) if read is not None else None
    found = _GO_MODULE_LINE.search(text) if text is not None else None
    return None if found is None else found.group(1) or found.group(2)


def longest_prefix(table: dict[str, T], path: str) -> tuple[T, str] | None:
    """The value `table` holds for the longest `/`-prefix of `path` it has (a Go module's path, a package's name),
    and the rest of `path` after that prefix ("" for the whole of it); None when it has none."""
    prefix, rest = path, ""
    while (found := table.get(prefix)) is None:
        if "/" not in prefix:
            return None
        prefix, _, last = prefix.rpartition("/")
        rest = f"{last}/{rest}" if rest else last
    return found, rest


def go_package(modules: dict[str, str], imported: str) -> str | None:
    """The directory of the tree a Go import path names, by the module (`modules`: module path -> its go.mod's
    directory) whose path is the longest that begins it; None when no module of the tree does."""
    found = longest_prefix(modules, imported)
    if found is None:
        return None
    directory, rest = found
    return posixpath.join(directory, rest) if rest else directory


def js_package(read: Callable[[str], str | None] | None, manifest: str) -> tuple[str, tuple[str, ...]] | None:
    """A package.json's name and the files, relative to its directory, that may be its entry: those its `exports`
    gives for `.` (every condition's, in order), then its entry fields, then `JS_ENTRIES` (None: no name, or JSON
    that does not parse)."""
    text = read(manifest) if read is not None else None
    try:
        found = json.loads(text) if text is not None else None
    except (ValueError, RecursionError):  # nested deeper than the decoder goes: not a manifest to read
        return None
    if not isinstance(found, dict) or not isinstance(name := found.get("name"), str) or not name:
        return None
    exports = found.get("exports")
    if isinstance(exports, dict) and any(key.startswith(".") for key in exports):
        exports = exports.get(".")
    entries = [*_strings(exports), *(found[field] for field in _JS_ENTRY_FIELDS if isinstance(found.get(field), str))]
    return name, tuple(dict.fromkeys(posixpath.normpath(entry) for entry in [*entries, *JS_ENTRIES]))


def _strings(value: object) -> list[str]:
    """The strings of a JSON value, in document order (walked with a stack: a manifest may nest deep)."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict | list):
            stack.extend(reversed(list(item.values()) if isinstance(item, dict) else item))
    return found


def crate_of(read: Callable[[str], str | None] | None, manifest: str) -> Crate:
    """The crate of a `Cargo.toml` (`Crate`): the name `use` gives it (its library's, else its package's, `-` read as
    `_`; None for a manifest that names no crate, a workspace's alone, or cannot be read) and its targets' root
    files."""
    text = read(manifest) if read is not None else None
    if text is None:
        return Crate(None)
    try:
        found = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):  # nested deeper than the parser goes: not a manifest to read
        return Crate(None)
    name = None
    for table in ("lib", "package"):
        entry = found.get(table)
        named = entry.get("name") if isinstance(entry, dict) else None
        if isinstance(named, str) and named.replace("-", "_").isidentifier():
            name = named.replace("-", "_")
            break
    bins = found.get("bin")
    targets = [found.get("lib"), *(bins if isinstance(bins, list) else [])]
    # Only roots outside `src/` count: there the default count already holds, and a `src/bin/` tool counted as its own
    # crate root would share the library's module path (tests, benches and examples are left as folders for the same
    # reason: their modules would meet the library's).
    roots = {root for target in targets if isinstance(target, dict) and isinstance(path := target.get("path"), str)
             and (root := _in_tree("", path)) and root.endswith(".rs") and not root.startswith("src/")}
    return Crate(name, tuple(sorted(roots, key=lambda root: (-len(posixpath.dirname(root)), root))))


def _crate_module(path: str, roots: tuple[str, ...], module_of: Callable[[str], str]) -> str:
    """The module path of `path` (relative to its crate's manifest) in a crate whose manifest names these target root
    files: "" for a root file, counted from a root's folder below it (`crates/core/flags/parse.rs` -> `flags::parse`
    when a `[[bin]]` is `crates/core/main.rs`), else from `src/` (`module_of`)."""
    for root in roots:
        if path == root:
            return ""
        folder = posixpath.dirname(root)
        if folder and path.startswith(folder + "/"):
            return module_of(path[len(folder) + 1:])
    return module_of(path)


def changed_modules(before: Layout, after: Layout, paths: Iterable[str], edited: Iterable[str] = ()) -> list[str]:
    """The `paths` whose module differs between two layouts of a tree, and those inside the crate of an `edited`
    manifest (its name may have changed)."""
    crates = [posixpath.dirname(path) for path in edited if posixpath.basename(path) == RUST_CRATE]
    if (before.packages, before.projects, before.crates) == (after.packages, after.projects, after.crates) \
            and not crates:
        return []
    return [path for path in paths if before.module(path) != after.module(path)
            or any(not crate or path.startswith(crate + "/") for crate in crates)]
