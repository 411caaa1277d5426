"""A full run's resolver (kinds, parents and Go's directories in memory, the tables keyed by name in a scratch
database) and a patch's (every table read from the generation's database) resolve every edge alike, and as the
full run stored it."""

from __future__ import annotations

import posixpath
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from cruxgate.reference.index import IndexReader, index_workspace, stored_tables
from cruxgate.reference.index.extract import FileExtract, extract
from cruxgate.reference.index.languages import language_of
from cruxgate.reference.index.packages import Layout
from cruxgate.reference.index.resolve import Resolver, import_aliases, registered
from cruxgate.reference.index.stored_tables import lookup_tables, stored_resolver

from .conftest import copy_fixture

# Edges only the tables' rules resolve right. Go: `Helper` is defined in two packages, so only the package's
# directory resolves a call of it; from a third package the call is ambiguous (it resolves to nothing); `pkg.Run()`
# after an import is `Run` of the folder its import path names in the module go.mod declares. Python: `helper` names
# a function in one module and a variable in another; a call can only mean the function; `run_work` is what a
# package's import binds (an alias: the patch's from the database, the full run's from its scratch tables).
# TypeScript: `run` names a top-level function and a method; an import of it can only mean the function; `kit`, a
# package of the tree, re-exports `alpha` (`export *`) and `run` (as `go`). A call on a variable names its type's
# method: Go's `Cart.Total` is in another file than its type, and only its package's `Cart` has it; `self.open()` in
# a subclass names its base's method.
EXTRA_FILES = {
    "zgo/caller/d.go": b"package caller\n\nfunc Use() {\n\tHelper()\n}\n",
    "zgo/other/c.go": b"package other\n\nfunc Helper() {}\n",
    "zgo/pkg/a.go": b"package pkg\n\nfunc Helper() {}\n",
    "zgo/pkg/b.go": b"package pkg\n\nfunc Run() {\n\tHelper()\n}\n",
    "zgo/go.mod": b"module example.com/zgo\n",
    "zgo/main/e.go": b"package main\n\nimport \"example.com/zgo/pkg\"\n\nfunc main() {\n\tpkg.Run()\n}\n",
    "zgo/pkg/cart.go": b"package pkg\n\ntype Cart struct{}\n",
    "zgo/pkg/total.go": b"package pkg\n\nfunc (c *Cart) Total() int { return 0 }\n",
    "zgo/other/cart.go": b"package other\n\ntype Cart struct{}\n\nfunc (c Cart) Total() int { return 1 }\n",
    "zgo/main/f.go": b"package main\n\nimport \"example.com/zgo/pkg\"\n\nfunc sum(c *pkg.Cart) int {\n"
                     b"\treturn c.Total()\n}\n",
    "zpy/typed.py": b"from pkg.impl import work\n\n\nclass Box:\n    def open(self):\n        return 4\n\n\n"
                    b"def unpack(b: Box):\n    c = Box()\n    return b.open() + c.open()\n",
    "zpy/crate.py": b"from zpy.typed import Box\n\n\nclass Crate(Box):\n    def close(self):\n"
                    b"        return self.open()\n",
    "zts/typed.ts": b"import { Box } from './funcs';\n\nexport function pack(b: Box) {\n  const c = new Box();\n"
                    b"  b.run();\n  c.run();\n}\n",
    "zpy/values.py": b"helper = 1\n",
    "zpy/funcs.py": b"def helper():\n    return 2\n",
    "zpy/use.py": b"def main():\n    return helper()\n",
    "zpy/pkg/__init__.py": b"from .impl import work as run_work\n",
    "zpy/pkg/impl.py": b"def work():\n    return 3\n",
    "zpy/call.py": b"from pkg import run_work\n\n\ndef go():\n    return run_work()\n",
    "zts/funcs.ts": b"export function run() {}\n\nexport class Box {\n  run() {}\n}\n",
    "zts/use.ts": b"import { run } from './funcs';\n\nexport function main() {\n  run();\n}\n",
    "zts/kit/package.json": b'{"name": "kit"}\n',
    "zts/kit/src/index.ts": b"export * from './a';\nexport { run as go } from '../../funcs';\n",
    "zts/kit/src/a.ts": b"export function alpha() {}\n",
    "zts/app.ts": b"import { alpha, go } from 'kit';\n\nexport function app() {\n  alpha();\n  go();\n}\n",
}
_STORED_EDGES = ("SELECT from_symbol_id, from_path, line, edge_type, to_symbol_id, to_name FROM symbol_edges "
                 "WHERE from_path = ?")


@dataclass
class Generation:
    """The polyglot fixture and EXTRA_FILES indexed: its database and every file extracted again, numbered as the
    run numbered its symbols, in that order."""

    db: sqlite3.Connection
    files: list[tuple[FileExtract, int]]
    layout: Layout  # the tree's, as the run read it

    def records(self) -> list[tuple[str, str | None, list[tuple], int, list[tuple[str, str]]]]:
        """Every file's (path, language, `registered` symbols, first symbol id, `import_aliases`), as a full run
        spills them."""
        return [(r.path, r.language, list(map(registered, r.symbols)), first, import_aliases(r))
                for r, first in self.files]

    def full_runs(self) -> Iterator[tuple[FileExtract, int, Resolver]]:
        """Each file with a full run's resolver entered at it."""
        records = self.records()
        resolver = Resolver(go_directories={posixpath.dirname(r.path) for r, _ in self.files if r.language == "go"},
                            layout=self.layout)
        for path, _, symbols, first, _ in records:
            resolver.add_symbols(path, symbols, first)
        for attribute, table in lookup_tables(sqlite3.connect(":memory:"), records).items():
            setattr(resolver, attribute, table)
        for (result, first), (_, _, symbols, _, _) in zip(self.files, records, strict=True):
            resolver.enter(result.path, symbols, first, result.language)
            resolver.add_bases(result, first)  # every class's bases before any edge, as a full run gives them
        for (result, first), (_, _, symbols, _, _) in zip(self.files, records, strict=True):
            resolver.enter(result.path, symbols, first, result.language)
            yield result, first, resolver


@pytest.fixture(scope="module")
def generation(tmp_path_factory: pytest.TempPathFactory) -> Generation:
    workspace = copy_fixture(tmp_path_factory.mktemp("resolver") / "ws")
    for path, data in EXTRA_FILES.items():
        (workspace / path).parent.mkdir(parents=True, exist_ok=True)
        (workspace / path).write_bytes(data)
    index_workspace(workspace)
    db = IndexReader.open(workspace).db
    firsts = dict(db.execute("SELECT path, MIN(symbol_id) FROM symbols GROUP BY path"))
    after = db.execute("SELECT MAX(symbol_id) FROM symbols").fetchone()[0] + 1  # a file without symbols
    paths = [path for (path,) in db.execute("SELECT path FROM files")]
    layout = Layout(paths, read=lambda path: (workspace / path).read_text(encoding="utf-8"))
    files = []
    for path in paths:
        lang = language_of(path)
        if lang is not None:
            result = extract(path, (workspace / path).read_bytes(), *lang, module=layout.module(path))
            files.append((FileExtract.loads(result.dumps()), firsts.get(path, after)))
    files.sort(key=lambda file: (file[1], file[0].path))
    for result, first in files:  # the premise: the run numbered each file's symbols from `first`, in this order
        ids = db.execute("SELECT symbol_id, name FROM symbols WHERE path = ? ORDER BY symbol_id", (result.path,))
        assert list(ids) == [(sid, symbol[0]) for sid, symbol in enumerate(map(registered, result.symbols), first)]
    return Generation(db, files, layout)


def test_a_full_runs_resolver_resolves_every_edge_as_a_patchs_and_as_stored(generation: Generation) -> None:
    assert {r.language for r, _ in generation.files} >= {"go", "python", "rust", "typescript"}
    patch = stored_resolver(generation.db, generation.layout)
    resolved = 0
    for result, first, full in generation.full_runs():
        assert {path for path, _ in full.by_file_name} <= {result.path}  # that file's names alone
        assert all(directory in full.go_directories for directory, _ in full.by_dir_name)
        rows = full.edges(result, first)
        assert rows == patch.edges(result, first), result.path
        assert sorted(rows, key=repr) == sorted(generation.db.execute(_STORED_EDGES, (result.path,)), key=repr)
        resolved += sum(row[4] is not None for row in rows)
    assert resolved > 10  # the comparison covers resolved edges, not only misses
    assert not any(isinstance(getattr(full, table), dict) for table in stored_tables.LOOKUPS)
    assert len(full.kind) == len(full.parent) == max(first + len(r.symbols) for r, first in generation.files)
    firsts = {r.path: (r, first) for r, first in generation.files}
    helper = firsts["zgo/pkg/a.go"][1]
    assert [row[4] for row in patch.edges(*firsts["zgo/pkg/b.go"])] == [helper]  # the package's directory alone
    assert [(row[4], row[5]) for row in patch.edges(*firsts["zgo/caller/d.go"])] == [(None, "Helper")]  # ambiguous
    function = firsts["zpy/funcs.py"][1]
    assert [row[4] for row in patch.edges(*firsts["zpy/use.py"])] == [function]  # never the variable
    assert [row[4] for row in patch.edges(*firsts["zgo/main/e.go"])] == [None, firsts["zgo/pkg/b.go"][1]]
    work = firsts["zpy/pkg/impl.py"][1]
    assert [row[4] for row in patch.edges(*firsts["zpy/call.py"])] == [work, work]  # the import and the call
    alpha, run = firsts["zts/kit/src/a.ts"][1], firsts["zts/funcs.ts"][1]
    assert [row[4] for row in patch.edges(*firsts["zts/app.ts"])] == [alpha, run, alpha, run]  # through `kit`
    assert [row[4] for row in patch.edges(*firsts["zts/use.ts"])] == [run, run]  # the import and the call
    # Calls on variables: the method of the variable's type, the Go one in another file of the type's package.
    assert [row[4] for row in patch.edges(*firsts["zgo/main/f.go"])] == [None, firsts["zgo/pkg/total.go"][1]]
    box = firsts["zpy/typed.py"][1]
    assert [row[4] for row in patch.edges(*firsts["zpy/typed.py"])] == [work, box, box + 1, box + 1]
    assert [row[4] for row in patch.edges(*firsts["zts/typed.ts"])][-2:] == [run + 2, run + 2]  # Box.run
    assert [row[4] for row in patch.edges(*firsts["zpy/crate.py"])] == [box, box + 1]  # a method of the base class


def test_a_plain_call_resolves_as_the_call_rule_says(generation: Generation, monkeypatch: pytest.MonkeyPatch) -> None:
    """`edges` resolves a receiverless call inline; each row is what `_call_target` gives that edge. With the
    scratch tables' memo emptied at every key, a full run's resolver still resolves as a patch's."""
    monkeypatch.setattr(stored_tables, "MEMO_KEYS", 1)
    patch = stored_resolver(generation.db, generation.layout)
    plain = 0
    for result, first, full in generation.full_runs():
        rows = patch.edges(result, first)
        assert full.edges(result, first) == rows, result.path
        bound = {binding: (row[4], row[5]) for edge, row in zip(result.edges, rows, strict=True)
                 if edge[2] == "import" and (binding := edge[5])}
        for (source_index, _, edge_type, to_name, hint, _), row in zip(result.edges, rows, strict=True):
            if edge_type == "import":
                continue
            source = None if source_index < 0 else first + source_index
            target, renamed = patch._call_target(result, hint[1], hint[2], source, bound, (*hint, None)[3])
            assert row[4:] == (target, renamed if target is None and renamed else to_name), (result.path, hint)
            plain += hint[2] is None and hint[1] not in bound
    assert plain > 10
