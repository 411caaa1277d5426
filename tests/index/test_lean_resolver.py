"""A full run's lean resolver (file-local and Go tables in memory, those keyed by name on disk) resolves as the whole
one."""

from __future__ import annotations

import posixpath
import sqlite3

import pytest

from cruxgate.reference.index import stored_tables
from cruxgate.reference.index.extract import FileExtract, extract
from cruxgate.reference.index.languages import language_of
from cruxgate.reference.index.resolve import Resolver, registered
from cruxgate.reference.index.stored_tables import lookup_tables

from .conftest import FIXTURE

# A Go call that only the package's directory resolves: `Helper` is defined in two packages; from a third, the
# same call is ambiguous (it resolves to nothing).
GO_PACKAGES = {
    "zgo/caller/d.go": b"package caller\n\nfunc Use() {\n\tHelper()\n}\n",
    "zgo/other/c.go": b"package other\n\nfunc Helper() {}\n",
    "zgo/pkg/a.go": b"package pkg\n\nfunc Helper() {}\n",
    "zgo/pkg/b.go": b"package pkg\n\nfunc Run() {\n\tHelper()\n}\n",
}


def _on_disk(lean: Resolver, records: list[tuple]) -> list[str]:
    """Give a lean resolver its tables keyed by name, on disk as a full run does; their attributes."""
    tables = lookup_tables(sqlite3.connect(":memory:"), records)
    for attribute, table in tables.items():
        setattr(lean, attribute, table)
    return list(tables)


def _extracts() -> list[tuple[FileExtract, int]]:
    """Every source file of the polyglot fixture and GO_PACKAGES extracted, with its first symbol id (numbered as
    a run does)."""
    sources = {p.relative_to(FIXTURE).as_posix(): p.read_bytes() for p in FIXTURE.rglob("*")
               if p.is_file() and ".cruxgate" not in p.parts}
    out, first = [], 1
    for path, data in sorted({**sources, **GO_PACKAGES}.items()):
        lang = language_of(path)
        if lang is None:
            continue
        result = FileExtract.loads(extract(path, data, *lang).dumps())
        out.append((result, first))
        first += len(result.symbols)
    return out


def test_the_lean_resolver_resolves_every_edge_as_the_whole_one() -> None:
    files = _extracts()
    records = [(r.path, r.language, list(map(registered, r.symbols)), first) for r, first in files]
    assert {r.language for r, _ in files} >= {"go", "python", "rust", "typescript"}
    whole = Resolver()
    for record in records:
        whole.add_symbols(*record)
    go = {posixpath.dirname(r.path) for r, _ in files if r.language == "go"}
    lean = Resolver(go_directories=go)
    for record in records:
        lean.add_symbols(*record)
    on_disk = _on_disk(lean, records)
    assert sorted(on_disk) == ["by_name", "by_qualified", "children", "containers", "top_level"]
    assert not any(isinstance(getattr(lean, table), dict) for table in on_disk)
    assert len(lean.kind) == len(lean.parent) == records[-1][3] + len(records[-1][2])
    assert all(directory in go for directory, _ in lean.by_dir_name) and lean.by_dir_name
    resolved = 0
    for (result, first), record in zip(files, records, strict=True):
        lean.enter(result.path, record[2], first)
        assert {path for path, _ in lean.by_file_name} <= {result.path}  # that file's names alone
        rows = lean.edges(result, first)
        assert rows == whole.edges(result, first), result.path
        resolved += sum(row[4] is not None for row in rows)
    assert resolved > 10  # the comparison covers resolved edges, not only misses
    run = next(result for result, _ in files if result.path == "zgo/pkg/b.go")
    assert [row[4] for row in whole.edges(run, next(f for r, f in files if r is run))] == [
        next(f for r, f in files if r.path == "zgo/pkg/a.go")]  # resolved by the directory's table alone


def test_a_plain_call_resolves_as_the_call_rule_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """`edges` resolves a receiverless call inline; each row is what `_call_target` gives that edge. With the
    disk tables' memo emptied at every key, the lean resolver still resolves as the whole one."""
    monkeypatch.setattr(stored_tables, "MEMO_KEYS", 1)
    files = _extracts()
    records = [(r.path, r.language, list(map(registered, r.symbols)), first) for r, first in files]
    whole = Resolver()
    for record in records:
        whole.add_symbols(*record)
    lean = Resolver(go_directories={posixpath.dirname(r.path) for r, _ in files if r.language == "go"})
    for record in records:
        lean.add_symbols(*record)
    _on_disk(lean, records)
    plain = 0
    for (result, first), record in zip(files, records, strict=True):
        rows = whole.edges(result, first)
        lean.enter(result.path, record[2], first)
        assert lean.edges(result, first) == rows, result.path
        bound = {binding: (row[4], row[5]) for edge, row in zip(result.edges, rows, strict=True)
                 if edge[2] == "import" and (binding := edge[5])}
        for (source_index, _, edge_type, to_name, hint, _), row in zip(result.edges, rows, strict=True):
            if edge_type == "import":
                continue
            source = None if source_index < 0 else first + source_index
            target, renamed = whole._call_target(result, hint[1], hint[2], source, bound)
            assert row[4:] == (target, renamed if target is None and renamed else to_name), (result.path, hint)
            plain += hint[2] is None and hint[1] not in bound
    assert plain > 10
    use = next((result, first) for result, first in files if result.path == "zgo/caller/d.go")
    assert [(row[4], row[5]) for row in whole.edges(*use)] == [(None, "Helper")]  # ambiguous: no target
