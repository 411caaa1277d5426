"""The ignore files: what `.gitignore`, `.git/info/exclude` and `.cruxgateignore` leave out of the scan, by git's
rules, and what an index run does when they change."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from cruxgate.reference.index import IndexReader, index_workspace
from cruxgate.reference.index.scan import scan
from cruxgate.reference.server.freshness import newer_than

from .conftest import indexed_paths, write_tree

T = TypeVar("T")

# Each case: a description, the tree (path -> text; ignore files included) and the paths the scan keeps.
CASES = [
    ("a pattern with no slash matches at any depth",
     {".gitignore": "*.log\n", "a.py": "", "x.log": "", "sub/y.log": ""},
     {".gitignore", "a.py"}),
    ("a pattern ending in a slash matches directories only",
     {".gitignore": "out/\n", "out/z.py": "", "sub/out": "", "sub/out2/a.py": ""},
     {".gitignore", "sub/out", "sub/out2/a.py"}),
    ("a leading slash anchors a pattern to its file's directory",
     {".gitignore": "/top.py\n", "top.py": "", "sub/top.py": ""},
     {".gitignore", "sub/top.py"}),
    ("the last matching pattern decides: a negation re-includes",
     {".gitignore": "*.py\n!keep.py\n", "a.py": "", "keep.py": "", "sub/keep.py": ""},
     {".gitignore", "keep.py", "sub/keep.py"}),
    ("a nested file's patterns are relative to its directory and apply under it alone",
     {"sub/.gitignore": "/local.py\ngen/\n", "sub/local.py": "", "sub/gen/a.py": "", "local.py": "",
      "other/gen/b.py": "", "sub/deep/local.py": ""},
     {"sub/.gitignore", "local.py", "other/gen/b.py", "sub/deep/local.py"}),
    ("a deeper file decides after its parents",
     {".gitignore": "*.md\n", "sub/.gitignore": "!README.md\n", "README.md": "", "sub/README.md": ""},
     {".gitignore", "sub/.gitignore", "sub/README.md"}),
    ("nothing under a directory left out comes back",
     {".gitignore": "logs/\n!logs/keep.py\n", "logs/keep.py": "", "a.py": ""},
     {".gitignore", "a.py"}),
    (".git/info/exclude applies, below the workspace's .gitignore",
     {".git/info/exclude": "secret.py\nlocal.cfg\n", ".gitignore": "!local.cfg\n", "secret.py": "", "local.cfg": "",
      "a.py": ""},
     {".gitignore", "local.cfg", "a.py"}),
    (".cruxgateignore decides after .gitignore in its directory",
     {".gitignore": "*.pb.go\n", ".cruxgateignore": "!api.pb.go\nfixtures/\n", "api.pb.go": "", "x.pb.go": "",
      "fixtures/f.py": "", "a.go": ""},
     {".gitignore", ".cruxgateignore", "api.pb.go", "a.go"}),
    ("a file of comments and blank lines leaves nothing out",
     {".gitignore": "# nothing\n\n   \n", "a.py": ""},
     {".gitignore", "a.py"}),
    ("a pattern git cannot read is skipped; the file's others apply",
     {".gitignore": "!\n*.tmp\n", "a.tmp": "", "a.py": ""},
     {".gitignore", "a.py"}),
]


# Each case: a description, a tree holding the workspace `ws/api` (`.git/HEAD` makes a repository's top) and the
# workspace's paths the scan keeps: a workspace inside a repository is read as git reads it.
REPO = {".git/HEAD": "ref: refs/heads/main\n"}
ABOVE = [
    ("the repository's .gitignore applies, its patterns relative to the repository's top",
     {**REPO, ".gitignore": "*.gen.py\n/ws/api/local/\n/api/\n", "ws/api/a.py": "", "ws/api/b.gen.py": "",
      "ws/api/local/x.py": "", "ws/api/api/y.py": ""},
     {"a.py", "api/y.py"}),
    ("the ignore files of a directory between the top and the workspace apply",
     {**REPO, "ws/.gitignore": "api/tmp/\n", "ws/.cruxgateignore": "*.md\n", "ws/api/tmp/y.py": "",
      "ws/api/README.md": "", "ws/api/a.py": ""},
     {"a.py"}),
    ("the repository's .git/info/exclude applies",
     {**REPO, ".git/info/exclude": "secret.py\n", "ws/api/secret.py": "", "ws/api/a.py": ""},
     {"a.py"}),
    ("the workspace's own files decide after the repository's",
     {**REPO, ".gitignore": "*.log\n", "ws/api/.gitignore": "!keep.log\n", "ws/api/keep.log": "",
      "ws/api/x.log": ""},
     {".gitignore", "keep.log"}),
    ("patterns that leave the workspace itself out are not applied to it",
     {**REPO, ".gitignore": "*.py\n/ws/api/\n", "ws/api/a.py": ""},
     {"a.py"}),
    ("a linked worktree's top (its .git a file) is a repository's top too",
     {".git": "gitdir: /elsewhere/.git/worktrees/ws\n", ".gitignore": "*.log\n", "ws/api/x.log": "",
      "ws/api/a.py": ""},
     {"a.py"}),
    ("with no repository above, the ignore files above the workspace are not read",
     {".gitignore": "*.py\n", "ws/api/a.py": ""},
     {"a.py"}),
    ("a workspace that is a repository's top reads nothing above it",
     {**REPO, ".gitignore": "*.py\n", "ws/api/.git/HEAD": "ref: refs/heads/main\n", "ws/api/a.py": ""},
     {"a.py"}),
]


@pytest.mark.parametrize(("tree", "kept"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_the_scan_keeps_what_the_ignore_files_leave_in(tmp_path: Path, tree: dict[str, str], kept: set[str]) -> None:
    write_tree(tmp_path, tree)
    assert {candidate.path for candidate in scan(tmp_path).files} == kept


@pytest.mark.parametrize(("tree", "kept"), [case[1:] for case in ABOVE], ids=[case[0] for case in ABOVE])
def test_a_workspace_inside_a_repository_keeps_what_git_leaves_in(tmp_path: Path, tree: dict[str, str],
                                                                  kept: set[str]) -> None:
    write_tree(tmp_path, tree)
    assert {candidate.path for candidate in scan(tmp_path / "ws" / "api").files} == kept


def test_ignore_files_above_the_workspace_are_named_by_their_path_from_it(tmp_path: Path) -> None:
    write_tree(tmp_path, {**REPO, "ws/.gitignore": "*.tmp\n!\n", "ws/api/a.tmp": "", "ws/api/a.py": ""})
    (tmp_path / ".cruxgateignore").symlink_to(tmp_path / "ws" / ".gitignore")
    report = scan(tmp_path / "ws" / "api")
    assert [candidate.path for candidate in report.files] == ["a.py"]
    assert report.notes == [
        "../../.cruxgateignore: not read as an ignore file, a symbolic link (links are not followed)",
        "../.gitignore:2: pattern '!' skipped, git cannot read it"]
    write_tree(tmp_path, {".gitignore": "ws/\n"})
    assert scan(tmp_path / "ws" / "api").notes[-1] == (
        "the ignore files of the repository at ../.. leave this workspace out: their patterns are not applied to it")


def test_a_directory_above_the_workspace_whose_name_is_not_utf8_is_matched_as_its_patterns_are_read(
        tmp_path: Path) -> None:
    """Its bytes that are not UTF-8 read as U+FFFD on both sides, as the ignore file's own bytes are."""
    workspace = tmp_path / os.fsdecode(b"svc-\xff") / "api"
    write_tree(tmp_path, {**REPO, os.path.join(os.fsdecode(b"svc-\xff"), "api", "a.py"): "",
                          os.path.join(os.fsdecode(b"svc-\xff"), "api", "gen", "g.py"): ""})
    (tmp_path / ".gitignore").write_bytes(b"/svc-\xff/api/gen/\n")
    assert [candidate.path for candidate in scan(workspace).files] == ["a.py"]


def test_an_ignore_file_that_is_a_fifo_or_a_link_is_not_read_and_blocks_nothing(tmp_path: Path) -> None:
    """Read as every workspace file is: a FIFO never blocks the scan or the staleness walk, a link (to patterns
    outside the workspace here) is not followed, as git does not follow a linked `.gitignore`."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "patterns").write_text("*.py\n", encoding="utf-8")
    workspace = tmp_path / "ws"
    write_tree(workspace, {"a.py": "", "sub/b.py": ""})
    os.mkfifo(workspace / ".gitignore")
    (workspace / "sub" / ".cruxgateignore").symlink_to(outside / "patterns")
    report = within_seconds(lambda: scan(workspace))
    assert {candidate.path for candidate in report.files} == {"a.py", "sub/b.py"}
    assert report.notes == [".gitignore: not read as an ignore file, not a regular file (FIFO)",
                            "sub/.cruxgateignore: not read as an ignore file, a symbolic link (links are not followed)"]
    assert within_seconds(lambda: newer_than(workspace, 1 << 62)) is False


def within_seconds(call: Callable[[], T], seconds: float = 30) -> T:
    """`call()`'s result; fails when it has not returned within `seconds` (its thread, blocked, is left behind)."""
    done: list[T] = []
    worker = threading.Thread(target=lambda: done.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert done, f"blocked for {seconds} s"
    return done[0]


def test_a_skipped_pattern_is_named_in_a_warning_and_skips_no_file(tmp_path: Path) -> None:
    write_tree(tmp_path, {"sub/.gitignore": "*.tmp\n!\n", "sub/a.tmp": "", "a.py": ""})
    summary = index_workspace(tmp_path)
    assert summary.problems == ("sub/.gitignore:2: pattern '!' skipped, git cannot read it",)
    assert (summary.file_count, summary.skipped_files) == (2, 0)


def test_an_edited_ignore_file_takes_files_out_of_the_index_and_back(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app/main.py": "def main():\n    return 1\n", "gen/api.py": "def api():\n    return 2\n"})
    index_workspace(tmp_path)
    assert indexed_paths(tmp_path) == {"app/main.py", "gen/api.py"}
    (tmp_path / ".gitignore").write_text("gen/\n", encoding="utf-8")
    index_workspace(tmp_path)
    assert indexed_paths(tmp_path) == {".gitignore", "app/main.py"}
    reader = IndexReader.open(tmp_path)
    try:
        assert reader.db.execute("SELECT COUNT(*) FROM symbols WHERE name = 'api'").fetchone() == (0,)
    finally:
        reader.close()
    (tmp_path / ".gitignore").write_text("# gen/ is indexed again\n", encoding="utf-8")
    index_workspace(tmp_path)
    assert indexed_paths(tmp_path) == {".gitignore", "app/main.py", "gen/api.py"}
