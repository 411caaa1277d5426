"""What gets indexed: skipped directories, binary and large files, symlinks, unreadable and unparsable files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cruxgate.reference.index import IndexReader, index_workspace
from cruxgate.reference.index.scan import MAX_FILE_BYTES, scan

from .conftest import indexed_paths


def test_skips_state_vcs_dependency_and_build_dirs(tmp_path: Path) -> None:
    for rel in ("a.py", ".git/config.py", "node_modules/x/index.js", "target/debug/x.rs", "__pycache__/a.py",
                "vendor/lib.go", "build/out.py", "sub/ok.go"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n", encoding="utf-8")
    index_workspace(tmp_path)
    index_workspace(tmp_path)  # its own .cruxgate is never indexed
    assert indexed_paths(tmp_path) == {"a.py", "sub/ok.go"}


def test_binary_and_large_files_are_skipped_and_counted(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def a():\n    pass\n", encoding="utf-8")
    (tmp_path / "blob.bin").write_bytes(b"\x7fELF\x00\x00\x01")
    (tmp_path / "huge.py").write_text("x = 1\n" * (MAX_FILE_BYTES // 6 + 10), encoding="utf-8")
    summary = index_workspace(tmp_path)
    assert indexed_paths(tmp_path) == {"a.py"}
    assert summary.skipped_files == 2 and summary.file_count == 1


def test_symlinks_never_leave_the_workspace(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("SECRET = 1\n", encoding="utf-8")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "real.py").write_text("REAL = 1\n", encoding="utf-8")
    os.symlink(outside / "secret.py", ws / "link.py")
    os.symlink(outside, ws / "linkdir")
    os.symlink(ws / "real.py", ws / "alias.py")  # inside, but a link too: its target is indexed under its own path
    report = scan(ws)
    assert [c.path for c in report.files] == ["real.py"]
    assert report.problems == ["alias.py: not indexed, a symbolic link (links are not followed)",
                               "link.py: not indexed, a symbolic link (links are not followed)"]
    index_workspace(ws)
    assert indexed_paths(ws) == {"real.py"}


def test_unreadable_file_is_skipped_not_fatal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The read fails (as for a file without read permission), the run goes on without it."""
    (tmp_path / "ok.py").write_text("A = 1\n", encoding="utf-8")
    (tmp_path / "locked.py").write_text("B = 1\n", encoding="utf-8")
    real_open = os.open

    def guarded(file, *args, **kwargs):
        if str(file).endswith("locked.py"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)
    summary = index_workspace(tmp_path)
    monkeypatch.undo()
    assert indexed_paths(tmp_path) == {"ok.py"} and summary.skipped_files == 1
    assert summary.problems == ("locked.py: not indexed, unreadable (Permission denied)",)


def test_a_file_that_does_not_parse_is_indexed_as_far_as_possible(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(
        "def good():\n    return 1\n\n\ndef bad(:\n    return (\n\n\nclass AfterTheError:\n    pass\n",
        encoding="utf-8")
    (tmp_path / "broken.rs").write_text("fn ok() {}\nfn oops( {\n", encoding="utf-8")
    summary = index_workspace(tmp_path)
    assert summary.parse_error_files == 2 and summary.file_count == 2
    reader = IndexReader.open(tmp_path)
    errors = dict(reader.db.execute("SELECT path, parse_error_count FROM files"))
    assert errors["broken.py"] >= 1 and errors["broken.rs"] >= 1
    names = {n for (n,) in reader.db.execute("SELECT name FROM symbols")}
    assert {"good", "ok"} <= names


def test_non_utf8_text_is_indexed(tmp_path: Path) -> None:
    (tmp_path / "latin.py").write_bytes("# caf\xe9\ndef caf():\n    return 'caf\xe9'\n".encode("latin-1"))
    index_workspace(tmp_path)
    reader = IndexReader.open(tmp_path)
    assert reader.db.execute("SELECT name, line_start FROM symbols").fetchall() == [("caf", 2)]


def test_empty_workspace(tmp_path: Path) -> None:
    summary = index_workspace(tmp_path)
    assert (summary.file_count, summary.symbol_count) == (0, 0)
    assert IndexReader.open(tmp_path).searcher("symbols").num_docs == 0
