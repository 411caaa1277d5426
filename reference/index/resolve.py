"""Edge resolution across the workspace: a call or import target becomes a symbol id when unambiguous."""

from __future__ import annotations

import posixpath
import re
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from functools import partial
from operator import itemgetter
from sys import intern
from typing import TypeGuard

from .extract import ATTRIBUTE_MARK, CALLABLE_KINDS, SELF_NAMES, VALUE_KINDS, FileExtract, Symbol
from .kinds import kinds_of
from .languages import LANGUAGES, language_of
from .languages.csharp import GLOBAL as GLOBAL_USING
from .packages import Layout, go_package, longest_prefix, nearest

CALLABLE_TARGETS = kinds_of("callable", "type")  # a call may construct a type
CONTAINERS = kinds_of("type", "namespace")
TYPES = kinds_of("type")
TYPED_KINDS = CALLABLE_KINDS | VALUE_KINDS  # what `class_bases` gives the type of: a result, a declared type
# What an extensionless import may name, tried in this order: TypeScript's files first (a declaration file after
# `.ts` and `.tsx`, as TypeScript tries them), then JavaScript's.
_TS_EXTENSIONS = tuple(LANGUAGES["typescript"].grammars)
JS_EXTENSIONS = (*_TS_EXTENSIONS[:2], ".d.ts", *_TS_EXTENSIONS[2:], *LANGUAGES["javascript"].grammars)
# A table value when its key names more than one symbol: a target resolves only when it is unambiguous,
# so a table keeps the one symbol id of a key or this mark, never the list of ids.
AMBIGUOUS = -1
_LAST_SEPARATOR = re.compile(r"(?:\.|::)(?=[^.:]*\Z)")  # the `.` or `::` before a name's last part
Bound = dict[str, tuple[int | None, str]]  # a file's import bindings: name -> (the tree's symbol, if one; the target)
# What a symbol is registered by: (name, qualified name, kind, parent index). After FileExtract.loads symbols are
# plain tuples in Symbol field order (fast to load), so the fields are taken by their positions in Symbol, all at once.
registered = itemgetter(*map(Symbol._fields.index, ("name", "qualified_name", "kind", "parent")))
# How many aliases a name is followed through (`a.X` -> `a.b.X` -> `a.b.c.X`; a re-export of a re-export), so that a
# cycle of re-exports ends.
ALIAS_HOPS = 8
# How many names one Python lookup may pass through: a module that imports all of its own submodules (`from .a import
# *` in `m`) makes `m.a.x` also `m.a.a.x`, `m.b.a.x`..., each a name of its own.
LOOKUP_NAMES = 64
# Where `super` names the class's bases: Python's `super()`, TypeScript's and JavaScript's `super`.
SUPER_LANGUAGES = frozenset({"python", "typescript", "javascript", "java", "csharp", "kotlin", "php", "swift",
                             "scala"})
# Where only a receiver calls a method (Go's `v.m()`, Java's `this.m()` written or implied): a method is never what a
# plain name, looked up across a file or the tree, calls.
RECEIVER_ONLY = frozenset({"go", "java", "cpp", "csharp", "kotlin", "ruby", "php", "swift", "scala"})
# Where a plain name the language's own definitions do not give is looked up among another language's: C++ calls C's
# functions (a C library of the tree, a header C++ does not read as its own).
ALSO_CALLS = {"cpp": "c"}
# Where a name is looked up by its qualified name from the calling definition's scopes outwards (C++'s and C#'s
# namespaces and classes: `total()` in `shop::Cart::add` is `shop::Cart::total`, else `shop::total`, else `total`;
# `Cart::make()` the same way), before the plain lookups: a method written outside its class's file is found so.
SCOPED = frozenset({"cpp", "csharp", "kotlin", "ruby", "php", "swift", "scala"})
# Where a type and a value of one name at a file's top level are one declaration (TypeScript merges an `interface`
# with a `const` or a `function` of its name): a type written by that name means the type, a call the value.
MERGING = frozenset({"typescript"})
# Where a class's methods of one name (its overloads) are what a call of the name names, the first declared: a call
# carries no argument types to choose by.
OVERLOADING = frozenset({"java", "csharp", "cpp", "kotlin", "swift", "scala", "typescript"})
# Where an import names a package, a namespace or a class by its dotted qualified name (`import a.b.Util`, `using A.B;`,
# `import a.b.*`), each of whose members a call may name.
PACKAGE_IMPORTS = frozenset({"java", "csharp", "kotlin", "php", "scala"})
# Where a type's methods may be written outside its body, in other files (a Go type's, in any file of its package; a
# C++ class's, written out of it): a member not among a type's children is looked up by the type's name (`_child`).
MEMBERS_OUTSIDE = frozenset({"go", "cpp"})
# Where a class's methods may be written out of it, in another file (C++'s `void Cart::add() {}`): overloads found by
# their qualified name alone are the first of its definitions, when one file holds them all (`first_defined`).
OUT_OF_CLASS = frozenset({"cpp"})
# Where a module is a type a class may have among its bases (Ruby's `include Audited`: its methods are the class's).
MIXINS = frozenset({"ruby"})
# Where a call never makes a type (C has no constructors): a plain name called names a function, never a struct of
# that name (`stat()` beside `struct stat`).
CALLS_MAKE_NO_TYPE = frozenset({"c"})
# The kinds a plain name called (no receiver) may name, by language (`RECEIVER_ONLY`, `CALLS_MAKE_NO_TYPE`).
PLAIN_TARGETS: dict[str, frozenset[str]] = {
    language: CALLABLE_TARGETS - ({"method"} if language in RECEIVER_ONLY else set())
    - (TYPES if language in CALLS_MAKE_NO_TYPE else set()) for language in LANGUAGES}
# Where a name defined again in its one file (a branch's definition, `@overload` stubs before the implementation, a
# TypeScript function's overload signatures before its body; C's `#ifdef` / `#else` alternatives, a `#define` after an
# `#undef`) is the last of those definitions, as running (or preprocessing) the file leaves it, not an ambiguous one.
REDEFINING = frozenset({"python", "c", "typescript", "javascript"})
# Where that holds for a plain name looked up across the tree too (`by_name`): in C that lookup is the language's own
# (one namespace for the program: `DEBUGASSERT` of a header's `#if` branches), in Python only a last resort, where a
# property's getter and setter would name a method for any local function called `cached()`.
REDEFINING_ACROSS = frozenset({"c"})
# Where a member a class body defines again is its last definition, as the class's namespace keeps it (`@overload`
# stubs before a method's implementation), not an ambiguous one. TypeScript's overload signatures are declarations a
# call chooses among (`OVERLOADING`), so it is not one of them.
REDEFINING_MEMBERS = frozenset({"python", "javascript"})
# Where a bare call first names a method of the class it is written in, its own or inherited (Java's implicit `this`).
IMPLICIT_THIS = frozenset(rules.name for rules in LANGUAGES.values() if rules.implicit_this)
# A Rust path beginning with one of these names a module of the crate, never a variable.
RUST_PATH_HEADS = frozenset({"crate", "super", "self"})
# How many classes up an inherited method is looked for (a class's bases, their bases...); a class whose ancestry goes
# further inherits nothing here, nor does one whose bases make a cycle. Each class's bases (the first that resolve)
# and its ancestors in order are bounded too: Python's order (C3) of a class costs about the product of the two.
MAX_BASE_DEPTH = 32
MAX_BASES = 32
MAX_ANCESTORS = 64
# How names resolve, named in each generation's manifest: a generation resolved by another rule is not patched (its
# unchanged files' edges, and the tables a patch reads, would be the other rule's).
RESOLUTION = ("aliases-go-ecma-stars-typed-paths-exports-bases-super-across-rustpaths-gomethods-goembeds-java-"
              "overloads-redefined-modvars-c-cpp-cs-kt-rb-php-swift-scala-backticks-returns-chains-gofields-loops-"
              "ktchains-rsuse-rsmade-ctors-typeargs-tsredefined-tsinterfaces-tsmembers-tsthis-merging-pymembers-"
              "attributes-33")


def import_aliases(result: FileExtract) -> list[tuple[str, str]]:
    """(name, target) of each name a module gives others through its imports.

    Python: a name a module binds by an import at its top level: `from .b import X` in module `a` makes `a.X` stand
    for `a.b.X`, so another module's `from a import X` (a package re-exporting what its modules define) names
    `a.b.X`; `from .b import *` gives `a.*` -> `a.b.*`, one row for each such module.

    C#: a namespace a `global using` brings into every file of the project, as `dir/:*` (the declaring file's folder,
    which holds the files it reaches) -> the namespace.

    Rust: a name a module binds by a `use` at its top level: `pub use crate::searcher::SearcherBuilder;` in the crate
    `grep_searcher`'s root makes `grep_searcher::SearcherBuilder` stand for `grep_searcher::searcher::SearcherBuilder`
    (the path made absolute: from `crate`, `self` or `super`, from a module the file declares, else an extern crate's).

    TypeScript and JavaScript: a name a file re-exports: `export { X as Y } from './b'` in `a/index.ts` makes
    `a/index.ts:Y` stand for `/a/b:X` (a module base, `_js_base`, and a name); `export * from './b'` gives
    `a/index.ts:*` -> `/a/b:*`, one row for each such module. A name it exports without `from` stands for what an
    import of the file binds by that name (`import { X } from './b'; export { X }`), else for the file's own
    definition when exported under another name (`export default function F` makes `a/index.ts:default` stand for
    `/a/index.ts:F`).
    """
    if result.language in ("typescript", "javascript"):
        rows = [(f"{result.path}:{hint[3]}", f"{_js_base(result.path, hint[1])}:{hint[2]}")
                for _, _, edge_type, _, hint, _ in result.edges
                if edge_type == "import" and len(hint) == 4 and hint[2] is not None and hint[3]]
        if result.exports:
            bound = {binding: f"{_js_base(result.path, hint[1])}:{hint[2]}"
                     for _, _, edge_type, _, hint, binding in result.edges
                     if edge_type == "import" and binding and len(hint) == 3 and hint[2] is not None}
            rows += [(f"{result.path}:{exported}", bound.get(local, f"/{result.path}:{local}"))
                     for exported, local in result.exports if local in bound or exported != local]
        return rows
    if result.language == "csharp":  # `global using A.B;` in `src/App/Usings.cs`: `src/App/:*` -> `A.B`
        return [(f"{posixpath.dirname(result.path)}/:*", hint[1]) for _, _, edge_type, _, hint, _ in result.edges
                if edge_type == "import" and len(hint) == 4 and hint[3] == GLOBAL_USING]
    if result.language == "rust" and result.module:
        declared = {symbol[0] for symbol in result.symbols if symbol[2] == "module" and symbol[8] < 0}
        return [(f"{result.module}::{binding}", _rust_absolute(result.module, to_name)[0]
                 if to_name.split("::", 1)[0] not in declared else f"{result.module}::{to_name}")
                for source, _, edge_type, to_name, _, binding in result.edges
                if edge_type == "import" and source < 0 and binding and binding != "*"]
    if result.language != "python" or not result.module:
        return []
    return [(f"{result.module}.{binding}", _bound_name(to_name, binding)) if binding else
            (f"{result.module}.*", f"{to_name}.*")  # `from m import *`
            for source, _, edge_type, to_name, hint, binding in result.edges
            if edge_type == "import" and source < 0 and (binding or hint[-1] == "*")]


def alias_part(text: str) -> str:
    """The name an alias's name binds, or its target names last: after the last `:` (TypeScript, JavaScript), else
    the last `.` (Python)."""
    return text.rpartition(":" if ":" in text else ".")[2]


def _js_base(path: str, source: str) -> str:
    """What an ES import's source in `path` names: a relative one, the tree's path it names after `/`; a bare one
    (a package's name), itself."""
    if not source.startswith("."):
        return source
    return "/" + posixpath.normpath(posixpath.join(posixpath.dirname(path), source))


def _bound_name(imported: str, binding: str) -> str:
    """What a Python import's local name stands for: `import a.b` binds `a` (the module `a`); `import a.b as m` and
    `from a import b` bind the name the import names."""
    return binding if imported.split(".", 1)[0] == binding else imported


class Resolver:
    """Symbol tables of every file of a generation; resolves each file's edges to rows.

    It holds only what resolving asks of it, for a tree's tables grow with the tree. `by_file_name` is only asked
    about the file whose edges resolve, so it holds that file's names alone (`enter`); `by_dir_name` (Go's packages)
    only about the directory of a Go file, so it holds the directories in `go_directories`. The tables keyed by name
    across the tree (`by_qualified`, `top_level`, `by_name`, `children`, `containers`) come from the caller: a full
    run's on disk (`stored_tables.lookup_tables`), a patch's from the generation's database
    (`stored_tables.stored_resolver`). What it keeps itself is each symbol's kind and parent, 9 bytes a symbol.
    """

    def __init__(self, go_directories: Collection[str] = (), layout: Layout | None = None) -> None:
        # Each table: key -> the symbol id it names, or AMBIGUOUS. Those keyed by name stay empty until the caller
        # gives them.
        self.by_qualified: dict[tuple[str, str], int] = {}
        # (language, qualified name) -> the first of its definitions when one file holds them all (`OUT_OF_CLASS`).
        self.first_defined: dict[tuple[str, str], int] = {}
        self.by_name: dict[tuple[str, str], int] = {}     # callable/type targets
        self.by_file_name: dict[tuple[str, str], int] = {}
        self.by_dir_name: dict[tuple[str, str], int] = {}
        self.go_directories = frozenset(go_directories)
        # The tree's Go modules (module path -> directory) and TypeScript/JavaScript packages (`packages.Layout`).
        self.go_modules = layout.go_modules if layout is not None else {}
        self.js_packages = layout.js_packages if layout is not None else {}
        self.ts_paths = layout.ts_paths if layout is not None else {}
        # The names the tree's Rust crates are used by (`other_crate::m::f()` needs no `use`).
        self.crates = frozenset(crate.name for crate in layout.crates.values() if crate.name) if layout is not None \
            else frozenset()
        self.top_level: dict[tuple[str, str], int] = {}   # (path, name), parentless
        self.children: dict[tuple[int, str], int] = {}
        # Type id -> (language, directory, qualified name) of a type whose members may be written outside it
        # (`MEMBERS_OUTSIDE`).
        self.outside: dict[int, tuple[str, str, str]] = {}
        # A TypeScript value's id -> the type of its name its file declares beside it (`interface ZodType` and `const
        # ZodType`: declarations TypeScript merges), which a type written by that name means (`MERGING`).
        self.type_beside: dict[int, int] = {}
        # (class, name) -> the first declared of its methods of that name (its overloads; `OVERLOADING`).
        self.overloads: dict[tuple[int, str], int] = {}
        # (language, qualified name) -> its last definition, where one file holds its every one (`REDEFINING`).
        self.redefined: dict[tuple[str, str], int] = {}
        self.containers: dict[tuple[str, str], int] = {}
        # (language, name) -> what the name stands for (`import_aliases`), or AMBIGUOUS; and every module a
        # module imports or re-exports all of (`from m import *`: the name `module.*`; `export * from`: `path:*`).
        self.aliases: dict[tuple[str, str], str | int] = {}
        self.stars: dict[tuple[str, str], tuple[str, ...]] = {}
        # By symbol id (ids start at 1). Both grow with the tree (311k symbols at 20k files): each kind is the one
        # interned string of its word, not a copy per symbol, and the parents are machine integers (0: none).
        self.kind: list[str | None] = [None]
        self.parent = array("q", [0])
        self.paths: set[str] = set()
        # Class id -> the ids of the classes of the tree it names as its bases, in order, each resolved as the class's
        # own file names it (`add_bases`); a class none of whose bases is one of the tree's has no entry.
        self.class_bases: dict[int, tuple[int, ...]] = {}
        # (type id, attribute) -> the type its methods give the attribute (`self.stdout = LineMatcher()`), resolved as
        # the type's own file names it (`add_bases`), for an attribute the type declares no member for.
        self.attribute_types: dict[tuple[int, str], int] = {}
        # `_ancestors` and `_height` of a class, made from `class_bases` as it is.
        self._orders: dict[int, tuple[int, ...]] = {}
        self._heights: dict[int, int | None] = {}
        # False while `add_bases` names bases: a base is found among a class's own members, never inherited ones,
        # or what a base names would depend on which classes' bases were given before it.
        self._inheriting = True
        # The first symbol id of the file whose bases or edges resolve now, and its symbols as `enter` registered
        # them (in `SCOPED` languages): `_scoped` reads the calling definition's qualified name.
        self._first = 0
        self._here: list[tuple] = []
        # The file whose whole-package imports `_wildcard` read last, and their targets.
        self._stars: tuple[str, list[str]] = ("", [])

    def add_symbols(self, path: str, symbols: Iterable[tuple[str, str, str, int]], first_symbol: int,
                    language: str | None = None) -> None:
        """Register one file's symbols given as `registered` tuples (ids first_symbol, first_symbol + 1, ...): their
        kinds and parents, in a Go file's directory `by_dir_name`, and where a type's members may be written outside
        it, the type's name (`outside`); `language`: the file's, when its text decides it (a `.h`)."""
        self.paths.add(path)
        directory = posixpath.dirname(path)
        kinds, parents = self.kind, self.parent
        if len(kinds) < first_symbol:  # ids not registered here (never, as build.py numbers them)
            kinds.extend([None] * (first_symbol - len(kinds)))
            parents.extend([0] * (first_symbol - len(parents)))
        del kinds[first_symbol:], parents[first_symbol:]
        by_dir_name = self.by_dir_name if directory in self.go_directories else None
        language = language or (language_of(path) or ("",))[0]
        go, outside = language == "go", self.outside if language in MEMBERS_OUTSIDE else None
        merging: dict[str, list[int]] | None = {} if language in MERGING else None  # top-level name -> its ids
        for sid, (name, qualified, kind, parent_index) in enumerate(symbols, first_symbol):
            if merging is not None and parent_index < 0:
                merging.setdefault(name, []).append(sid)
            if outside is not None and kind in TYPES:
                outside[sid] = (language, directory, qualified)
            kinds.append(intern(kind))
            parents.append(0 if parent_index < 0 else first_symbol + parent_index)
            if by_dir_name is not None and kind in CALLABLE_TARGETS:
                # A Go method by its type's name alone (`T.m`): a type's methods may be in any file of its package,
                # and a call without a receiver, or on a package (`pkg.F()`), never names a method.
                key = (directory, qualified if go else name)
                if by_dir_name.setdefault(key, sid) != sid:
                    by_dir_name[key] = AMBIGUOUS
        for ids in merging.values() if merging else ():
            types = [sid for sid in ids if kinds[sid] in TYPES]
            if len(ids) > 1 and len(types) == 1:
                self.type_beside.update((sid, types[0]) for sid in ids if sid != types[0])

    def enter(self, path: str, symbols: Iterable[tuple[str, str, str, int]], first_symbol: int,
              language: str | None) -> None:
        """`by_file_name` of the one file (`add_symbols`'s arguments, and its language) whose edges resolve next: what a
        plain name may call there (`PLAIN_TARGETS`); where a name is defined again under the same qualified name, its
        last definition (`REDEFINING`)."""
        table: dict[tuple[str, str], int] = {}
        language = language or ""
        if language in SCOPED:  # what `_scoped` reads the calling definitions' names from
            symbols = self._here = list(symbols)
        targets, redefining = PLAIN_TARGETS.get(language, CALLABLE_TARGETS), language in REDEFINING
        qualified_of: dict[tuple[str, str], str] = {}
        for sid, (name, qualified, kind, _) in enumerate(symbols, first_symbol):
            if kind not in targets:
                continue
            key = (path, name)
            if table.setdefault(key, sid) != sid and table[key] != AMBIGUOUS:
                table[key] = sid if redefining and qualified_of[key] == qualified else AMBIGUOUS
            qualified_of.setdefault(key, qualified)
        self.by_file_name = table

    # -- imports --------------------------------------------------------------------
    def _import_target(self, result: FileExtract, hint: tuple) -> int | None:
        """The symbol an import hint ("import", target) or ("import", module source, name) names, if one."""
        lang = result.language or ""
        if lang == "python":
            return None if hint[-1] == "*" else self._python_definition(hint[1])  # `*`: a module, all of it
        if lang == "rust":
            _, target = hint
            return self._rust_definition(result.module, target)
        if lang in PACKAGE_IMPORTS:  # `a.b.C`, `static a.b.C.m`, `using X = A.B.C`; `a.b.*`, `using A.B`: a package
            return None if len(hint) > 2 and hint[2] == "*" else self._dotted_definition(lang, hint[1])
        if lang in ("typescript", "javascript") and len(hint) >= 3:  # 4 for a re-export: the name exported last
            source, name = hint[1], hint[2]
            if not name or name == "*":
                return None
            file = self._js_module(result, source)
            return None if file is None else self._js_definition(file, name)
        return None

    def _js_module(self, result: FileExtract, source: str) -> str | None:
        """The file an ES import's source names: a relative path's, or a path alias's or a workspace package's
        (`_js_file`)."""
        return self._js_file(_js_base(result.path, source), result.path)

    def _js_file(self, base: str, importer: str) -> str | None:
        """The file a module base written in `importer` names: `/dir/name` a path of the tree (itself, with each
        extension, or its folder's `index`, tried in that order; `./a.js` also as `./a`, which TypeScript reads as
        `a.ts`), else what the nearest `tsconfig.json` above `importer` maps it to (`paths`, `baseUrl`), else a
        workspace package's name (`@scope/pkg`: its entry file; `@scope/pkg/sub`: `sub` in its folder, then in its
        `src/`)."""
        if base.startswith("/"):
            return self._js_probe(base[1:])
        config = nearest(posixpath.dirname(importer), self.ts_paths) if self.ts_paths else None
        if config is not None:
            for path in self.ts_paths[config].candidates(base):
                file = self._js_probe(path)
                if file is not None:
                    return file
        found = longest_prefix(self.js_packages, base)
        if found is None:
            return None
        (directory, entries), rest = found
        for entry in (entries if not rest else (rest, f"src/{rest}")):
            file = self._js_probe(posixpath.join(directory, entry) if directory else entry)
            if file is not None:
                return file
        return None

    def _js_probe(self, base: str) -> str | None:
        """The file of the tree a module path names (None: none)."""
        stem, extension = posixpath.splitext(base)
        for path in (base, stem) if extension in JS_EXTENSIONS else (base,):
            folder = f"{path}/" if path not in ("", ".") else ""
            for candidate in (path, *(path + e for e in JS_EXTENSIONS), *(f"{folder}index{e}" for e in JS_EXTENSIONS)):
                if candidate in self.paths:
                    return candidate
        return None

    def _js_definition(self, file: str, name: str, hops: int = 0, seen: set[tuple[str, str]] | None = None,
                       ) -> int | None:
        """The definition `name` names in the module `file`: its own top-level one, else the one its re-export of that
        name stands for (`export { name } from`), else the one definition its `export * from` modules give. `seen`:
        the (file, name) pairs this lookup has been through, each looked into once (barrels that re-export each
        other, or one module through many paths, cost one visit each)."""
        found = self.top_level.get((file, name))
        seen = set() if seen is None else seen
        if found is not None or hops >= ALIAS_HOPS or (file, name) in seen:
            return _unique(found)
        seen.add((file, name))
        language = (language_of(file) or ("",))[0]
        target = self.aliases.get((language, f"{file}:{name}"))
        if target is not None:
            base, _, original = str(target).rpartition(":")
            followed = None if target == AMBIGUOUS else self._js_file(base, file)
            return None if followed is None else self._js_definition(followed, original, hops + 1, seen)
        definitions = {definition for star in self.stars.get((language, f"{file}:*")) or ()
                       if (followed := self._js_file(star.rpartition(":")[0], file)) is not None
                       and (definition := self._js_definition(followed, name, hops + 1, seen)) is not None}
        return definitions.pop() if len(definitions) == 1 else None

    # -- calls ----------------------------------------------------------------------
    def _enclosing_container(self, sid: int | None) -> int | None:
        kinds, parents = self.kind, self.parent
        while sid:  # None or 0: no (further) parent; ids start at 1
            if sid >= len(kinds):
                return None
            if kinds[sid] in CONTAINERS:
                return sid
            sid = parents[sid]
        return None

    def _call_target(self, result: FileExtract, callee: str, recv: str | None, source: int | None,
                     bound: Bound,
                     typed: str | None = None) -> tuple[int | None, str | None]:
        """(target, replacement to_name) for a call (`typed`: the type the receiver, a variable, is declared with)."""
        lang = result.language or ""
        if typed is not None:
            found = self._method(result, typed, callee, source, bound)
            if found is not None:
                return found, None
        if lang in SCOPED and recv not in ("?", "super"):
            found = self._scoped(result, source, callee, recv)
            if found is not None:
                return found, None
        if recv is None:
            if lang in IMPLICIT_THIS:
                container = self._enclosing_container(source)
                found = None if container is None else self._member(container, callee)
                if found is not None:
                    return found, None
            if callee in bound:
                return bound[callee]
            # The first table that knows the name decides (an ambiguous name resolves to nothing).
            found = self.by_file_name.get((result.path, callee))
            if found is None and lang == "go":  # a Go package is a directory
                found = self.by_dir_name.get((posixpath.dirname(result.path), callee))
            if found is None:
                found = self.by_name.get((lang, callee))
            if found is None and lang in ALSO_CALLS:
                found = self.by_name.get((ALSO_CALLS[lang], callee))
            found = _unique(found)
            if found is None and lang in PACKAGE_IMPORTS:
                found = self._wildcard(result, callee)
            return found, None
        if recv == "?":
            return None, None
        head = recv.split("::", 1)[0].split(".", 1)[0]
        if head in bound:
            return self._through_import(result, bound[head], head, recv, callee), None
        if recv in SELF_NAMES or (recv == "super" and lang in SUPER_LANGUAGES):
            container = self._enclosing_container(source)
            if container is None:  # Rust's `self::f()` in a free function: the module's own `f`
                rust_self = lang == "rust" and recv == "self"
                return (self._rust_path(result.module, recv, callee) if rust_self else None), None
            # `super` skips the class's own members: the method is one its ancestors give.
            return (self._inherited(container, callee) if recv == "super" else self._member(container, callee)), None
        if lang == "rust":
            found = self._rust_path(result.module, recv, callee)
            if found is not None:
                return found, None
        if lang in PACKAGE_IMPORTS:
            found = self._wildcard(result, f"{recv}{LANGUAGES[lang].separator}{callee}")
            if found is not None:
                return found, None
        owner_name = recv.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
        owner = _unique(self.containers.get((lang, owner_name)))
        if owner is None:
            return None, None
        return self._member(owner, callee), None

    def _wildcard(self, result: FileExtract, name: str) -> int | None:
        """What `name` names through the file's imports of a whole package, namespace or class (`PACKAGE_IMPORTS`:
        Java's `import a.b.*` and `import static a.b.C.*`, C#'s `using A.B;` and `using static A.B.C;`), the first of
        them in the file's order that has it, then through the `global using`s of its folder and those above it."""
        language = result.language or ""
        if self._stars[0] != result.path:
            folder, folders = result.path, []
            while folder:  # the `global using`s of the file's folder and of each folder above it, nearest first
                folder = posixpath.dirname(folder)
                folders.append(folder)
            self._stars = (result.path, [
                *(hint[1] for _, _, edge_type, _, hint, _ in result.edges
                  if edge_type == "import" and len(hint) > 2 and hint[2] == "*"),
                *(target for folder in folders for target in self.stars.get((language, f"{folder}/:*")) or ())])
        for target in self._stars[1]:
            found = self._dotted_definition(language, f"{target}{LANGUAGES[language].separator}{name}")
            if found is not None:
                return found
        return None

    def _member(self, owner: int, callee: str) -> int | None:
        """The method `callee` of the container `owner`: its own, else the one it inherits (`_inherited`)."""
        found = self._child(owner, callee)
        return found if found is not None else self._inherited(owner, callee)

    def _child(self, owner: int, name: str) -> int | None:
        """The member `name` of `owner`: the one of that name, or the first declared of a class's overloads
        (`OVERLOADING`: a call gives no argument types to choose among them); else one written outside it
        (`MEMBERS_OUTSIDE`)."""
        found = self.children.get((owner, name))
        if found == AMBIGUOUS:
            return self.overloads.get((owner, name))
        written = self.outside.get(owner) if found is None else None
        return found if written is None else self._member_outside(written, name)

    def _member_outside(self, written: tuple[str, str, str], name: str) -> int | None:
        """The member `name` of a type written outside its body (`MEMBERS_OUTSIDE`; `written`: the type's language,
        directory and qualified name): a Go method of its package (`T.m`), a C++ method by its qualified name (the
        first of its overloads when one file holds them all)."""
        language, directory, qualified = written
        if language == "go":
            return _unique(self.by_dir_name.get((directory, f"{qualified}.{name}")))
        member = f"{qualified}{LANGUAGES[language].separator}{name}"
        found = self.by_qualified.get((language, member))
        if found == AMBIGUOUS and language in OUT_OF_CLASS:
            return self.first_defined.get((language, member))
        return _unique(found)

    def _inherited(self, owner: int, callee: str) -> int | None:
        """The method `callee` class `owner` inherits: that of the first class of its ancestors (`_ancestors`) that
        has one."""
        for base in self._ancestors(owner) if self._inheriting else ():
            found = self._child(base, callee)
            if found is not None:
                return found
        return None

    def _attribute_type(self, owner: int, name: str) -> int | None:
        """The type the methods of type `owner`, or of the first of its ancestors that gives one, give its attribute
        `name` (`attribute_types`)."""
        for cls in (owner, *self._ancestors(owner)):
            found = self.attribute_types.get((cls, name))
            if found is not None:
                return found
        return None

    def _ancestors(self, owner: int) -> tuple[int, ...]:
        """The classes `owner` inherits from, nearest first, as Python orders them (C3; the one order there is for a
        single base, as in TypeScript and JavaScript), over the bases of the tree only (`class_bases`); bases that
        admit no such order, depth first; at most `MAX_ANCESTORS`, and none for a class whose ancestry has a cycle
        or is more than `MAX_BASE_DEPTH` classes deep (`_height`)."""
        if self._height(owner) is None or self._kind_in(owner, CALLABLE_KINDS):
            return ()  # a function's `class_bases` is the type it returns, which it does not inherit from
        known = self._orders.get(owner)
        if known is None:
            lines = [[base, *self._ancestors(base)] for base in self.class_bases.get(owner, ())]
            merged = _c3([*lines, [line[0] for line in lines]])
            if merged is None:
                merged = list(dict.fromkeys(cls for line in lines for cls in line))
            known = self._orders[owner] = tuple(merged[:MAX_ANCESTORS])
        return known

    def _height(self, owner: int) -> int | None:
        """How many classes up `owner`'s ancestry reaches (0: no base of the tree); None when it has a cycle or
        reaches more than `MAX_BASE_DEPTH`. Walked with a stack of its own, not Python's: a chain of bases may be as
        long as a tree makes it."""
        heights = self._heights
        if owner in heights:
            return heights[owner]
        found: dict[int, int | None] = {owner: 0}  # the height so far of each class on the walk's stack
        stack = [(owner, iter(self.class_bases.get(owner, ())))]

        def raise_to(cls: int, base_height: int | None) -> None:
            now = found[cls]
            found[cls] = None if now is None or base_height is None or base_height >= MAX_BASE_DEPTH \
                else max(now, base_height + 1)

        while stack:
            cls, bases = stack[-1]
            base = next(bases, None)
            if base is None:
                stack.pop()
                heights[cls] = height = found.pop(cls)
                if stack:
                    raise_to(stack[-1][0], height)
            elif base in heights:
                raise_to(cls, heights[base])
            elif base in found:  # on the stack: a cycle, which every class on it from `base` up is part of
                raise_to(cls, None)
            else:
                found[base] = 0
                stack.append((base, iter(self.class_bases.get(base, ()))))
        return heights[owner]

    def _type(self, result: FileExtract, typed: str, source: int | None,
              bound: Bound) -> int | None:
        """The type (a class, a struct...; a module in `MIXINS`) the name `typed` names where `result` names it,
        resolved as a call of it would be; None for a name of no type of the tree."""
        if result.language in CALLS_MAKE_NO_TYPE:  # no call names a type: the file's own type, else the tree's one
            own = self.top_level.get((result.path, typed))
            owner = own if self._is_type(own) else _unique(self.containers.get((result.language, typed)))
            return owner if self._is_type(owner) else None
        last = _LAST_SEPARATOR.search(typed)  # a chain may mix them (`Builder::new.name`)
        prefix, name = (typed[:last.start()], typed[last.end():]) if last else ("", typed)
        owner = self._rust_definition(result.module, typed) if prefix and result.language == "rust" else None
        if owner is None:
            owner = self._call_target(result, name, prefix or None, source, bound)[0]
            if owner is not None and owner > 0 and not self._is_type(owner):
                owner = self.type_beside.get(owner) or owner  # a value a type of its name merges with
                parent = self.parent[owner]
                if not self._is_type(owner) and self._is_type(parent) and parent in (
                        _unique(self.containers.get((result.language or "", name))),
                        self.top_level.get((result.path, name))):
                    owner = parent  # a constructor, named as its class is (`GsonBuilder` in its own class)
        if owner is None and prefix and self._inheriting:  # a member of what the prefix is (`make_cart.clone`)
            of_prefix = self._type(result, prefix, source, bound)
            owner = None if of_prefix is None else self._member(of_prefix, name)
            if owner is None and of_prefix is not None:  # an attribute its methods give a type (`result.stdout`)
                return self._attribute_type(of_prefix, name)
        if result.language in MIXINS and self._kind_in(owner, CONTAINERS):
            return owner  # a module, whose methods a class that includes it has
        if self._inheriting and self._kind_in(owner, TYPED_KINDS):
            # A function named as a type (`c = make_cart()`): the type it is declared to return; a field or a variable
            # (`cart.pricing`): the type it is declared with (their `class_bases`). Not while bases are resolved, so
            # that no base depends on the order files are read in.
            returned = self.class_bases.get(owner)
            owner = returned[0] if returned else None
        return owner if self._is_type(owner) else None

    def _is_type(self, sid: int | None) -> bool:
        """`sid` is a type of the tree (a class, a struct, an interface...)."""
        return self._kind_in(sid, TYPES)

    def _kind_in(self, sid: int | None, kinds: Collection[str]) -> TypeGuard[int]:
        """`sid` is a symbol of the tree of one of `kinds` (never None, nor AMBIGUOUS's -1)."""
        return sid is not None and 0 < sid < len(self.kind) and self.kind[sid] in kinds

    def add_bases(self, result: FileExtract, first_symbol: int) -> None:
        """`class_bases` of the classes of `result` (ids from first_symbol; entered), replacing what they had."""
        bound = self._bound(result)
        self._first = first_symbol
        self._orders.clear()
        self._heights.clear()
        self._inheriting = False
        try:
            for index, names in result.bases:
                sid = first_symbol + index
                if names[0].startswith(ATTRIBUTE_MARK):  # an attribute and its type
                    attribute = self._type(result, names[1], sid, bound)
                    if attribute is not None:
                        self.attribute_types[sid, names[0][1:]] = attribute
                    continue
                found = tuple(base for name in names if (base := self._type(result, name, sid, bound)) is not None)
                found = found[:MAX_BASES]
                if found:
                    self.class_bases[sid] = found
                else:
                    self.class_bases.pop(sid, None)
        finally:
            self._inheriting = True

    def _method(self, result: FileExtract, typed: str, callee: str, source: int | None,
                bound: Bound) -> int | None:
        """The method `callee` of the type named `typed` where `result` names it (resolved as a call of the type
        would be): one of the type's members, else one it inherits (`_inherited`); in Go, the method `T.callee` of
        the type's package (its methods may be in any of the package's files), else one its embedded types promote
        (declared in the file of the type that declares it); through a function, the method of the type it returns."""
        if result.language == "go":
            prefix, _, name = typed.rpartition(".")
            if not prefix:
                directory: str | None = posixpath.dirname(result.path)
            elif prefix in bound:
                directory = go_package(self.go_modules, bound[prefix][1])
            else:  # `T.Clone` (a variable's method, its type put first): the type's method, below
                directory = None
            found = None if directory is None else _unique(self.by_dir_name.get((directory, f"{name}.{callee}")))
            if found is None and self._inheriting:  # a type a function returns (of any package), or embedded types
                owner = self._type(result, typed, source, bound)
                found = None if owner is None else self._member(owner, callee)
            return found
        if result.language in SCOPED:
            found = self._scoped(result, source, callee, typed)
            if found is not None:
                return found
        owner = self._type(result, typed, source, bound)
        return None if owner is None else self._member(owner, callee)

    def _scoped(self, result: FileExtract, source: int | None, callee: str, recv: str | None) -> int | None:
        """What `recv` + `callee` (`callee` alone when `recv` is None) names from the symbol `source` (`SCOPED`): under
        the source's own scopes, innermost first (at a method's own class, its member, then what it inherits, for a
        plain name or `this`), then alone; None when nothing does, or the innermost scope that has the name has
        several definitions of it (`this` looks in the class only)."""
        index = -1 if source is None else source - self._first
        symbols = result.symbols or self._here  # a full run's extracts come without their symbols: `enter` has them
        language = result.language or ""
        sep = LANGUAGES[language].separator
        scopes = (symbols[index][1] if 0 <= index < len(symbols) else "").split(sep)[:-1]
        path = callee if recv is None or recv in SELF_NAMES else f"{recv}{sep}{callee}"
        for depth in range(len(scopes), -1, -1):
            found = self.by_qualified.get((language, sep.join((*scopes[:depth], path))))
            if found is not None and found != AMBIGUOUS:
                return found
            if depth == len(scopes) and (recv is None or recv in SELF_NAMES):
                owner = _unique(self.by_qualified.get((language, sep.join(scopes)))) if scopes else None
                member = self._member(owner, callee) if self._is_type(owner) and owner is not None else None
                if member is not None or recv is not None:
                    return member
            if found == AMBIGUOUS:  # several definitions: a class's overloads name their first, else none does
                return self._dotted_definition(language, sep.join((*scopes[:depth], path))) \
                    if language in OVERLOADING else None
        return None

    def _through_import(self, result: FileExtract, bound: tuple[int | None, str], head: str, recv: str,
                        callee: str) -> int | None:
        """The definition a call on an imported name means (`models.Model()` after `from django.db import models`,
        `Foo::new()` after `use crate::a::Foo`), looked up by its qualified name: the import's target, the rest of
        the receiver, the callee. In TypeScript and JavaScript, `ns.f()` after `import * as ns from "./m"` is the
        file's top-level `f`, and `Foo.create()` after `import { Foo } from "./m"` the class's member. In Go,
        `util.F()` after `import "example.com/m/util"` is `F` of the directory that path names in the tree's Go
        module `example.com/m` (its go.mod's directory, then `util/`)."""
        target, imported = bound
        lang = result.language or ""
        if lang in ("typescript", "javascript"):
            if recv != head:
                return None
            if target is not None:
                return self._member(target, callee)
            file = self._js_module(result, imported)
            return None if file is None else self._js_definition(file, callee)
        if lang == "python" or lang in PACKAGE_IMPORTS:
            definition: Callable[[str], int | None]
            if lang == "python":
                owner_name, definition = f"{_bound_name(imported, head)}{recv[len(head):]}", self._python_definition
            else:  # `Util.log()` after `import a.b.Util`, `Outer.Inner.make()` after `import a.b.Outer`
                owner_name = f"{imported}{recv[len(head):]}"
                definition = partial(self._dotted_definition, lang)
            found = definition(f"{owner_name}{LANGUAGES[lang].separator}{callee}")
            if found is None:  # a method the class inherits (`Child.create()`, `mod.Child.create()`)
                owner = definition(owner_name)
                if owner is not None:  # a class's bases, or a module's variable's type (`Q.finite()`)
                    found = self._inherited(owner, callee)
            return found
        if lang == "rust":
            return self._rust_definition(result.module, f"{imported}{recv[len(head):]}::{callee}")
        if lang == "go" and recv == head:  # `pkg.F()`: F in the directory of the package the import path names
            directory = go_package(self.go_modules, imported)
            return None if directory is None else _unique(self.by_dir_name.get((directory, callee)))
        return None

    def _dotted_definition(self, language: str, name: str) -> int | None:
        """The definition of the tree a qualified name names: the one, or the first declared of a class's overloaded
        methods (`a.b.Util.log`, `shop::Cart::add`; `OVERLOADING`)."""
        found = self.by_qualified.get((language, name))
        if found == AMBIGUOUS:
            owner, _, member = name.rpartition(LANGUAGES[language].separator)
            cls = _unique(self.by_qualified.get((language, owner)))
            found = None if cls is None else self._child(cls, member)
            if found is None and language in OUT_OF_CLASS:
                found = self.first_defined.get((language, name))
        return found

    def _python_definition(self, name: str, hops: int = 0, seen: set[str] | None = None) -> int | None:
        """The definition a Python qualified name names: its own, else the one it stands for through the aliases of
        the modules it passes (`_unaliased`), else the one definition the modules a module of it imports all of
        (`from m import *`) give its public name; `seen`: the names this lookup has been through, each once."""
        found = self.by_qualified.get(("python", name))
        if found == AMBIGUOUS:  # defined again in its one file (a branch's definition, `@overload`s): the last
            found = self.redefined.get(("python", name)) or AMBIGUOUS
        seen = set() if seen is None else seen
        if found is not None or hops >= ALIAS_HOPS or name in seen or len(seen) >= LOOKUP_NAMES:
            return _unique(found)
        seen.add(name)
        followed = self._unaliased(name)
        if followed is not None:
            return self._python_definition(followed, hops + 1, seen)
        end = len(name)
        while (end := name.rfind(".", 0, end)) > 0:  # the longest module of `a.b.C.f` that imports all of others
            stars = self.stars.get(("python", f"{name[:end]}.*")) or ()
            if stars:
                break
        if end <= 0 or name.startswith("_", end + 1):  # none; or a private name, which `import *` leaves out
            return None
        definitions = {definition for star in stars
                       if (definition := self._python_definition(f"{star[:-2]}{name[end:]}", hops + 1, seen))
                       is not None}
        return definitions.pop() if len(definitions) == 1 else None

    def _unaliased(self, name: str, language: str = "python", separator: str = ".") -> str | None:
        """`name` with its longest prefix that a module binds by an import replaced by what it stands for
        (`a.X.f` -> `a.b.X.f` when `a` has `from .b import X`); None when no prefix is an alias."""
        end = len(name)
        while end > 0 and separator in (prefix := name[:end]):  # an alias is a module's name and a binding
            target = self.aliases.get((language, prefix))
            if target is not None and target != prefix:  # `from . import b` in `a` binds `a.b` to itself
                return None if target == AMBIGUOUS else f"{target}{name[end:]}"
            end = name.rfind(separator, 0, end)
        return None

    def _rust_path(self, module: str, recv: str, callee: str) -> int | None:
        """The item a Rust call names by a path no `use` binds (`crate::a::f()`, `super::f()`, `other::m::f()` for a
        crate of the tree, `child::f()` for a module this one declares). A single name that is none of those may be
        a variable (`row.get()` is written `row::get` too): None."""
        if "::" not in recv and recv not in RUST_PATH_HEADS and recv not in self.crates:
            declared = _unique(self.by_qualified.get(("rust", f"{module}::{recv}" if module else recv)))
            if declared is None or self.kind[declared] != "module":
                return None
        return self._rust_definition(module, f"{recv}::{callee}")

    def _rust_definition(self, module: str, path: str, hops: int = 0) -> int | None:
        """The definition a Rust path written in `module` names: the first of the qualified names it may mean
        (`_rust_absolute`) that any definition has, when only one has it; else the one it stands for through a
        module's `use` (`grep_searcher::SearcherBuilder`, which the crate's root re-exports: `_unaliased`)."""
        names = _rust_absolute(module, path)
        for name in names:
            found = self.by_qualified.get(("rust", name))
            if found is not None:
                return _unique(found)
        for name in names if hops < ALIAS_HOPS else ():
            followed = self._unaliased(name, "rust", "::")
            if followed is not None and (found := self._rust_definition("", followed, hops + 1)) is not None:
                return found
        return None

    def _bound(self, result: FileExtract, imports: dict[int, int | None] | None = None) -> Bound:
        """What each name the file's imports bind stands for: (the symbol, if one of the tree's; the import's target);
        each import edge's target by its index into `imports`, when given."""
        bound: Bound = {}
        for i, (_, _, edge_type, to_name, hint, binding) in enumerate(result.edges):
            if edge_type == "import":
                target = self._import_target(result, hint)
                if imports is not None:
                    imports[i] = target
                if binding and result.language == "go":
                    binding = _go_package_name(binding, to_name)
                if binding:
                    bound[binding] = (target, to_name)
        return bound

    def edges(self, result: FileExtract, first_symbol: int) -> list[tuple]:
        """Rows (from_symbol_id, from_path, line, edge_type, to_symbol_id, to_name) of one file (its classes' bases
        given to `add_bases` first, as every other file's a method may be inherited through)."""
        rows: list[tuple] = []
        append = rows.append
        self._first = first_symbol
        imports: dict[int, int | None] = {}
        bound = self._bound(result, imports)
        path = result.path
        lang = result.language or ""
        # A plain call of a name no import binds (most edges): `_call_target`'s first case, inline.
        by_file_name, by_name = self.by_file_name.get, self.by_name.get
        by_dir_name = self.by_dir_name.get if lang == "go" else None
        implicit_this = lang in IMPLICIT_THIS
        directory = posixpath.dirname(path)
        for i, (source_index, line, edge_type, to_name, hint, _) in enumerate(result.edges):
            source = None if source_index < 0 else first_symbol + source_index
            if edge_type == "import":
                target = imports[i]
            else:
                callee, recv = hint[1], hint[2]  # ("call", callee, receiver | None[, its type])
                if recv is None and callee not in bound and not implicit_this:
                    target = by_file_name((path, callee))
                    if target is None and by_dir_name is not None:
                        target = by_dir_name((directory, callee))
                    if target is None:
                        target = by_name((lang, callee))
                    if target == AMBIGUOUS:
                        target = None
                else:
                    target, renamed = self._call_target(result, callee, recv, source, bound,
                                                        hint[3] if len(hint) > 3 else None)
                    if target is None and renamed:
                        to_name = renamed
            append((source, path, line, edge_type, target, to_name))
        return rows


def _c3(lines: list[list[int]]) -> list[int] | None:
    """The C3 merge of `lines` (each base's own order, then the bases): each step the first head that is in no
    line's tail; None when no head is (the bases admit no order). Linear in the lines' items, but for the heads
    each step tries."""
    tails = Counter(cls for line in lines for cls in line[1:])
    starts = [0] * len(lines)
    merged: list[int] = []
    while True:
        heads = [line[start] for line, start in zip(lines, starts, strict=True) if start < len(line)]
        if not heads:
            return merged
        head = next((cls for cls in heads if not tails[cls]), None)
        if head is None:
            return None
        merged.append(head)
        for k, line in enumerate(lines):
            if starts[k] < len(line) and line[starts[k]] == head:
                starts[k] += 1
                if starts[k] < len(line):
                    tails[line[starts[k]]] -= 1  # the line's new head is no longer in its tail


def _go_package_name(binding: str, imported: str) -> str:
    """The name a Go import binds: its alias, else the package's name, which by Go's convention for major versions is
    the path's element before `/v2` (`example.com/m/v2` is package `m`) or before `.v3` (`gopkg.in/yaml.v3`)."""
    if binding != imported.rsplit("/", 1)[-1]:
        return binding  # an alias
    found = _GO_MAJOR.fullmatch(imported)
    return found.group(1) if found else binding


# An import path ending in a major version: `.../m/v2` or `.../yaml.v3` (the package's name in group 1).
_GO_MAJOR = re.compile(r"(?:.*/)?([^/]+)(?:/v[0-9]+|\.v[0-9]+)")


def _unique(found: int | None) -> int | None:
    """The symbol id a table value names (None when the key is unknown or ambiguous)."""
    return None if found is None or found == AMBIGUOUS else found


def _rust_absolute(module: str, path: str) -> tuple[str, ...]:
    """`crate::a::b`, `self::b`, `super::b`, `a::b` -> the qualified names it may mean, the likelier first.

    A crate with a manifest begins its modules with its name (`packages.Layout`): `crate::a::b` in `util::x` is
    `util::a::b`. A crate without one (a tree whose top is the crate) has no such name: `crate::a::b` is `a::b`, and
    so is a path written from the crate's top (`a::b`, as the 2015 edition wrote it).
    """
    parts = path.split("::")
    current = module.split("::") if module else []
    if parts[0] == "crate":
        rest = "::".join(parts[1:])
        return (f"{current[0]}::{rest}", rest) if current else (rest,)
    if path.startswith(("self::", "super::")):
        while parts and parts[0] in ("self", "super"):
            if parts[0] == "super" and current:
                current = current[:-1]
            parts = parts[1:]
        return ("::".join(current + parts),)
    # Else the name is an extern crate, an item or module of this module (2018's paths), or of the crate (2015's).
    return tuple(dict.fromkeys((path, f"{module}::{path}", f"{current[0]}::{path}"))) if current else (path,)
