"""What scored search keeps across calls: workspace files while they do not change, the index's answers for good."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cruxgate.reference.index import reading
from cruxgate.reference.query import workspace_files as scored_files
from cruxgate.reference.query.scored.facts import FactsStore, SymbolRow
from cruxgate.reference.query.workspace_files import WorkspaceFiles


def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every file look older than the racy window (as an untouched workspace file is)."""
    real = reading.time.time_ns
    monkeypatch.setattr(reading.time, "time_ns", lambda: real() + (reading.RACY_SECONDS + 1) * 10**9)


def test_a_settled_file_is_read_once_and_re_read_when_it_changes(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    settled(monkeypatch)
    target = tmp_path / "a.py"
    target.write_text("one\ntwo\n", encoding="utf-8")
    files = WorkspaceFiles(tmp_path)
    first = files.lines("a.py")
    assert first == ["one", "two"]
    assert files.lines("a.py") is first  # kept: not read again
    target.write_text("uno\ndos\n", encoding="utf-8")  # same size: only the timestamps tell
    stat = target.stat()
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert files.lines("a.py") == ["uno", "dos"]


def test_a_file_written_just_now_is_not_kept(tmp_path: Path) -> None:
    # Within one tick of the file system's clock a same-size edit keeps size and timestamps: a file that
    # young is read on every call.
    target = tmp_path / "a.py"
    target.write_text("one\n", encoding="utf-8")
    files = WorkspaceFiles(tmp_path)
    assert files.lines("a.py") == ["one"]
    target.write_text("two\n", encoding="utf-8")
    assert files.lines("a.py") == ["two"]


def test_a_missing_file_reads_as_none(tmp_path: Path) -> None:
    assert WorkspaceFiles(tmp_path).lines("gone.py") is None


def test_the_least_recently_used_file_goes_first_when_over_budget(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    settled(monkeypatch)
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text("x" * 100 + "\n", encoding="utf-8")
    one_file = 101 + scored_files.LINE_BYTES  # 101 characters, one line
    files = WorkspaceFiles(tmp_path, budget=2 * one_file)
    a, b = files.lines("a.py"), files.lines("b.py")
    assert files.lines("a.py") is a  # a is now the most recently used
    files.lines("c.py")  # over budget: b goes
    assert files.lines("a.py") is a
    assert files.lines("b.py") is not b


class CountingConnection:
    """A SQLite connection that counts the statements run through it."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.statements = 0

    def execute(self, sql: str, args: Any = ()) -> sqlite3.Cursor:
        self.statements += 1
        return self.conn.execute(sql, args)


@pytest.fixture
def index_db() -> CountingConnection:
    conn = sqlite3.connect(":memory:")
    conn.executescript(
        """
        CREATE TABLE symbols(symbol_id INTEGER PRIMARY KEY, path TEXT, name TEXT, qualified_name TEXT, kind TEXT,
            line_start INTEGER, line_end INTEGER, doc TEXT);
        CREATE TABLE symbol_edges(edge_id INTEGER PRIMARY KEY, from_path TEXT, line INTEGER, edge_type TEXT);
        INSERT INTO symbols VALUES (1, 'a.py', 'Outer', 'Outer', 'class', 1, 20, NULL);
        INSERT INTO symbols VALUES (2, 'a.py', 'inner', 'Outer.inner', 'method', 5, 9, 'Inner doc.');
        INSERT INTO symbols VALUES (3, 'a.py', 'later', 'Outer.later', 'method', 12, 20, NULL);
        INSERT INTO symbols VALUES (4, 'b.py', 'alone', 'alone', 'function', 1, 3, NULL);
        INSERT INTO symbol_edges VALUES (1, 'a.py', 1, 'import');
        INSERT INTO symbol_edges VALUES (2, 'a.py', 6, 'call');
        INSERT INTO symbol_edges VALUES (3, 'a.py', 2, 'import');
        """
    )
    return CountingConnection(conn)


def facts_store(db: CountingConnection) -> FactsStore:
    """A FactsStore reading through the counting connection (it calls only execute(), which that has)."""
    return FactsStore(db)  # type: ignore[arg-type]


def test_facts_hold_the_symbols_over_each_span_and_the_files_import_lines(index_db: CountingConnection) -> None:
    facts = facts_store(index_db).facts([("a.py", 6, 7), ("a.py", 10, 11), ("b.py", 1, 1), ("c.py", 1, 5)])
    assert [s.name for s in facts[("a.py", 6, 7)].symbols] == ["Outer", "inner"]
    assert facts[("a.py", 6, 7)].symbols[1] == SymbolRow(2, "inner", "Outer.inner", "method", 5, 9, "Inner doc.")
    assert [s.name for s in facts[("a.py", 10, 11)].symbols] == ["Outer"]
    assert facts[("a.py", 10, 11)].import_lines == frozenset({1, 2})
    assert [s.name for s in facts[("b.py", 1, 1)].symbols] == ["alone"]
    assert facts[("b.py", 1, 1)].import_lines == frozenset()
    assert facts[("c.py", 1, 5)].symbols == ()


def test_facts_are_read_in_one_statement_per_table_and_kept(index_db: CountingConnection) -> None:
    store = facts_store(index_db)
    spans = [("a.py", line, line) for line in range(1, 21)] + [("b.py", 2, 2)]
    first = store.facts(spans)
    assert index_db.statements == 2
    assert store.facts(spans) == first
    assert index_db.statements == 2  # all kept: nothing read again


def test_many_spans_are_read_in_batches(index_db: CountingConnection) -> None:
    # More spans than one statement takes (the pool is at most 100 hits, but the store must not care).
    spans = [("a.py", line, line + 1000) for line in range(1, 451)]
    facts = facts_store(index_db).facts(spans)
    assert index_db.statements == 3 + 1  # 450 spans in statements of 200, one for the import lines
    assert [s.name for s in facts[("a.py", 450, 1450)].symbols] == []
    assert [s.name for s in facts[("a.py", 7, 1007)].symbols] == ["Outer", "inner", "later"]


def test_the_server_keeps_nothing_of_a_generation_for_the_next(tmp_path: Path) -> None:
    # What the index answered is kept per open index: after a re-index the new generation's symbols count.
    from cruxgate.reference.config import Config
    from cruxgate.reference.index import index_workspace
    from cruxgate.reference.protocol.arguments import parse_arguments
    from cruxgate.reference.server.prewarm import Prewarm
    from cruxgate.reference.server.runtime import Runtime
    from cruxgate.reference.server.tools.search_scored import search

    source = tmp_path / "tokens.py"
    source.write_text("def check():\n    return parse_token()\n", encoding="utf-8")
    index_workspace(tmp_path)
    rt = Runtime(tmp_path, Config())
    rt.prewarm = Prewarm(rt, enabled=False)
    args = parse_arguments("search", {"query": "parse_token", "include_scores": True})
    assert [r["match_reason"] for r in search(rt, args)["results"]] == ["CodeContent"]
    source.write_text("def parse_token():\n    return check()\n", encoding="utf-8")
    index_workspace(tmp_path)
    top = search(rt, args)["results"][0]
    assert (top["line"], top["match_reason"]) == (1, "FunctionName") and top["score"] >= 0.8
