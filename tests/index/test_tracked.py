"""A file git tracks is indexed even where an ignore pattern matches it: git reads ignore files for untracked files
only (a package's `**/package.json`, meant for a build's copies, also matches the package's own committed one)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cruxgate.reference.index import index_workspace, read_state
from cruxgate.reference.index.scan import scan
from cruxgate.reference.server.freshness import kept_of, newer_than

from .conftest import write_tree

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="no git command on this machine")

TREE = {
    ".gitignore": "**/package.json\nout/\n*.gen.py\n",
    "pkg/package.json": '{"name": "pkg"}\n',
    "pkg/src/a.py": "def a():\n    pass\n",
    "out/keep.py": "def keep():\n    pass\n",
    "out/junk.py": "def junk():\n    pass\n",
    "x.gen.py": "def gen():\n    pass\n",
}


def _repository(root: Path) -> Path:
    """`TREE` in a git repository at `root`: every file added but `out/junk.py` and `x.gen.py`, the ignored two of
    them added by force (as a project commits a file its ignore patterns match)."""
    write_tree(root, TREE)
    for command in (["init", "-q"], ["add", "-A"], ["add", "-f", "pkg/package.json", "out/keep.py"]):
        subprocess.run(["git", "-C", str(root), *command], check=True, capture_output=True)
    return root


def test_a_tracked_file_an_ignore_pattern_matches_is_indexed(tmp_path: Path) -> None:
    report = scan(_repository(tmp_path / "repo"))
    assert [candidate.path for candidate in report.files] == [
        ".gitignore", "out/keep.py", "pkg/package.json", "pkg/src/a.py"]  # not the untracked ignored two
    assert report.tracked_ignored == ["out", "out/keep.py", "pkg/package.json"]
    assert report.notes == []


def test_a_workspace_inside_the_repository_reads_its_tracked_files_from_its_folder(tmp_path: Path) -> None:
    report = scan(_repository(tmp_path / "repo") / "pkg")
    assert [candidate.path for candidate in report.files] == ["package.json", "src/a.py"]
    assert report.tracked_ignored == ["package.json"]


def test_the_staleness_walk_reads_the_tracked_files_as_the_index_did(tmp_path: Path) -> None:
    root = _repository(tmp_path / "repo")
    index_workspace(root)
    state = read_state(root)
    assert state.manifest is not None and state.generation is not None
    assert state.manifest["tracked_ignored"] == ["out", "out/keep.py", "pkg/package.json"]
    written = (state.generation / "manifest.json").stat().st_mtime_ns
    later = written + 10**9
    os.utime(root / "out" / "keep.py", ns=(later, later))
    assert newer_than(root, written, kept=kept_of(state.manifest))  # a file the index holds changed
    assert not newer_than(root, written)  # read without them, the walk would not see it
    os.utime(root / "out" / "keep.py", ns=(written, written))
    os.utime(root / "out" / "junk.py", ns=(later, later))
    assert not newer_than(root, written, kept=kept_of(state.manifest))  # an ignored file git does not track


def test_without_git_the_ignore_files_decide_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repository(tmp_path / "repo")
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    report = scan(root)
    assert [candidate.path for candidate in report.files] == [".gitignore", "pkg/src/a.py"]
    assert report.notes == ["git could not list the files it tracks (no git command): the ignore files decide alone"]


def test_a_manifest_without_tracked_files_names_none(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": "x = 1\n"})
    index_workspace(tmp_path)
    generation = read_state(tmp_path).generation
    assert generation is not None
    manifest = json.loads((generation / "manifest.json").read_text(encoding="utf-8"))
    assert "tracked_ignored" not in manifest and kept_of(manifest) == frozenset()
