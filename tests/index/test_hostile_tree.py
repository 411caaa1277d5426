"""Hostile trees: links, FIFOs, device nodes, non-UTF-8 names and files that change while the run reads them.

Every case must end in a finished run that names what it left out; nothing outside the workspace is indexed.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from cruxgate.reference.index import IndexReader, index_workspace
from cruxgate.reference.index import build as build_module
from cruxgate.reference.index.reading import MAX_FILE_BYTES
from cruxgate.reference.index.scan import ScanReport, scan

SECRET = "OUTSIDE_SECRET_TOKEN"


def indexed(workspace: Path) -> dict[str, str]:
    """path -> content hash of every indexed file."""
    reader = IndexReader.open(workspace)
    try:
        return dict(reader.db.execute("SELECT path, content_hash FROM files"))
    finally:
        reader.close()


def cli_index(workspace: Path, *extra: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`cruxgate index` in a child process, bounded: a run that hangs fails the test instead of the suite."""
    return subprocess.run([sys.executable, "-m", "cruxgate", "index", str(workspace), "--quiet", *extra],
                          capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A small workspace with one ordinary file, and a secret file beside it (outside)."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.py").write_text(f"{SECRET} = 1\n", encoding="utf-8")
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "ok.py").write_text("def ok():\n    return 1\n", encoding="utf-8")
    return root


def test_a_fifo_in_the_tree_never_blocks_the_run(ws: Path) -> None:
    os.mkfifo(ws / "src" / "pipe.py")
    done = cli_index(ws)
    assert done.returncode == 0, done.stderr
    assert set(indexed(ws)) == {"src/ok.py"}
    assert "src/pipe.py: not indexed, not a regular file (FIFO)" in done.stderr


def test_a_device_node_is_skipped(ws: Path) -> None:
    try:
        os.mknod(ws / "src" / "zero.py", 0o644 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's numbers
    except (PermissionError, OSError) as err:
        pytest.skip(f"cannot create a device node here ({err.strerror}): needs root or CAP_MKNOD")
    done = cli_index(ws)
    assert done.returncode == 0, done.stderr
    assert set(indexed(ws)) == {"src/ok.py"}
    assert "src/zero.py: not indexed, not a regular file (character device)" in done.stderr


@pytest.mark.parametrize("target", ["/etc/passwd", "/dev/zero", "outside"])
def test_links_are_not_followed(ws: Path, target: str) -> None:
    os.symlink(ws.parent / "outside" / "secret.py" if target == "outside" else target, ws / "src" / "link.py")
    done = cli_index(ws)
    assert done.returncode == 0, done.stderr
    assert set(indexed(ws)) == {"src/ok.py"}
    assert "src/link.py: not indexed, a symbolic link (links are not followed)" in done.stderr


def _swap_after_scan(monkeypatch: pytest.MonkeyPatch, change: Callable[[], None]) -> None:
    """Run `change` right after the scan listed the files, before any of them is read."""
    def scan_then_change(root: Path) -> ScanReport:
        report = scan(root)
        change()
        return report
    monkeypatch.setattr(build_module, "scan", scan_then_change)


def test_a_file_swapped_for_a_link_mid_run_is_not_read(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    victim = ws / "src" / "victim.py"
    victim.write_text("def victim():\n    pass\n", encoding="utf-8")

    def swap() -> None:
        victim.unlink()
        os.symlink(ws.parent / "outside" / "secret.py", victim)
    _swap_after_scan(monkeypatch, swap)
    summary = index_workspace(ws)
    assert set(indexed(ws)) == {"src/ok.py"}
    assert any(p.startswith("src/victim.py: not indexed, a symbolic link") for p in summary.problems)
    reader = IndexReader.open(ws)
    try:
        assert reader.db.execute("SELECT COUNT(*) FROM symbols WHERE name = ?", (SECRET,)).fetchone()[0] == 0
    finally:
        reader.close()


def test_a_directory_swapped_for_a_link_mid_run_is_not_read(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (ws / "pkg").mkdir()
    (ws / "pkg" / "secret.py").write_text("def inside():\n    pass\n", encoding="utf-8")

    def swap() -> None:
        (ws / "pkg" / "secret.py").unlink()
        (ws / "pkg").rmdir()
        os.symlink(ws.parent / "outside", ws / "pkg")
    _swap_after_scan(monkeypatch, swap)
    summary = index_workspace(ws)
    assert set(indexed(ws)) == {"src/ok.py"}
    assert any(p.startswith("pkg/secret.py: not indexed, outside the workspace") for p in summary.problems)


def test_a_file_that_grows_past_the_limit_mid_run_is_not_indexed(ws: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    grows = ws / "src" / "grows.py"
    grows.write_text("def small():\n    pass\n", encoding="utf-8")

    def grow() -> None:
        with open(grows, "a", encoding="utf-8") as fh:
            fh.write("x = 1\n" * (MAX_FILE_BYTES // 6 + 10))
    _swap_after_scan(monkeypatch, grow)
    summary = index_workspace(ws)
    assert set(indexed(ws)) == {"src/ok.py"}
    assert any(p.startswith("src/grows.py: not indexed, larger than") for p in summary.problems)


def test_non_utf8_names_are_skipped_with_a_warning(ws: Path) -> None:
    root = os.fsencode(ws)
    with open(os.path.join(root, b"src", b"caf\xe9.py"), "wb") as fh:
        fh.write(b"def cafe():\n    pass\n")
    os.mkdir(os.path.join(root, b"d\xe9j\xe0"))
    with open(os.path.join(root, b"d\xe9j\xe0", b"inner.py"), "wb") as fh:
        fh.write(b"def inner():\n    pass\n")
    done = cli_index(ws)
    assert done.returncode == 0, done.stderr
    assert set(indexed(ws)) == {"src/ok.py"}
    assert "src/caf\\xe9.py: not indexed, its name is not valid UTF-8" in done.stderr
    assert "d\\xe9j\\xe0: not indexed, its name is not valid UTF-8" in done.stderr


# Sources whose type named by an `impl` or a Go receiver is declared inside that impl or method: taken as the
# definition's parent, it would make the definition its own ancestor.
OWN_ANCESTORS = {
    "assoc.rs": "impl T {\n    type T = u8;\n    const C: u8 = 1;\n}\n",
    "local.go": "package p\n\nfunc (t *T) M() {\n\ttype T struct{}\n\tvar v T\n\tv.M()\n}\n",
    "crossed.go": "package p\n\nfunc (a *A) M1() {\n\ttype B struct{}\n}\n\nfunc (b *B) M2() {\n\ttype A struct{}\n}\n",
    "local.cc": "void T::m() {\n  struct T { int x; };\n  T t;\n  t.m();\n}\n",  # a C++ method written out of its class
}


def test_a_type_declared_inside_what_names_it_never_hangs_the_run(ws: Path) -> None:
    for name, text in OWN_ANCESTORS.items():
        (ws / name).write_text(text, encoding="utf-8")
    done = cli_index(ws)
    assert done.returncode == 0, done.stderr
    reader = IndexReader.open(ws)
    try:
        parents = dict(reader.db.execute(
            "SELECT s.qualified_name, p.qualified_name FROM symbols s JOIN symbol_relations r USING (symbol_id) "
            "LEFT JOIN symbols p ON p.symbol_id = r.parent_symbol_id WHERE s.path IN ('assoc.rs', 'local.go')"))
    finally:
        reader.close()
    assert parents == {"assoc::T::T": None, "assoc::T::C": "assoc::T::T", "T.M": None, "M.T": "T.M"}


def _hierarchy(classes: int, bases: int) -> str:
    """`C0` with a method `m`, then `classes` classes each naming the `bases` classes before it as its bases."""
    lines = ["class C0:\n    def m(self) -> None:\n        pass\n"]
    for i in range(1, classes):
        named = ", ".join(f"C{j}" for j in range(i - 1, max(-1, i - 1 - bases), -1))
        lines.append(f"class C{i}({named}):\n    pass\n")
    return "\n\n".join(lines)


def test_a_deep_wide_or_cyclic_hierarchy_ends_and_inherits_only_within_bounds(ws: Path) -> None:
    """Thousands of classes, each with dozens of bases, and bases in a cycle: the run ends; a call inherits a method
    a few classes up, not one further up than the bound, and nothing through a cycle."""
    (ws / "chain.py").write_text(_hierarchy(3000, 32), encoding="utf-8")
    (ws / "calls.py").write_text(
        "from chain import C5, C2999\n\n\nclass Near(C5):\n    def f(self) -> None:\n        self.m()\n\n\n"
        "class Far(C2999):\n    def f(self) -> None:\n        self.m()\n\n\n"
        "class A(B):\n    def f(self) -> None:\n        self.m()\n\n\nclass B(A):\n    pass\n", encoding="utf-8")
    done = cli_index(ws)
    assert done.returncode == 0, done.stderr
    reader = IndexReader.open(ws)
    try:
        calls = reader.db.execute(
            "SELECT e.line, t.qualified_name FROM symbol_edges e LEFT JOIN symbols t ON t.symbol_id = e.to_symbol_id "
            "WHERE e.from_path = 'calls.py' AND e.edge_type = 'call' ORDER BY e.line").fetchall()
    finally:
        reader.close()
    assert calls == [(6, "chain.C0.m"), (11, None), (16, None)]
