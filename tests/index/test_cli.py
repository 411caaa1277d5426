"""`cruxgate index` and `cruxgate hook` (`python -m cruxgate`) as subprocesses: exit codes, messages, summary."""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cruxgate.reference.index import IndexReader, index_workspace, read_state
from cruxgate.reference.index.hooks import HOOKS

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cruxgate", *args], capture_output=True, text=True, timeout=120,
                          cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})


def test_index_prints_one_summary_line_and_no_progress_off_a_terminal(workspace: Path) -> None:
    done = cli("index", str(workspace))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("indexed ") and "files" in lines[0] and "symbols" in lines[0]
    assert done.stderr == ""  # no tqdm bar when stderr is not a TTY
    assert read_state(workspace).status == "ready"


def test_index_ends_without_teardown_yet_its_buffered_output_arrives(workspace: Path, tmp_path: Path) -> None:
    # `cruxgate index` exits without the interpreter's teardown (cli.script): with stdout a buffered pipe (no
    # PYTHONUNBUFFERED), what it printed must still arrive, and its exit code be the run's.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    for target, code, stream in ((workspace, 0, "stdout"), (tmp_path / "missing", 2, "stderr")):
        done = subprocess.run([sys.executable, "-m", "cruxgate", "index", str(target)], capture_output=True, text=True,
                              timeout=120, cwd=REPO, env={**env, "PYTHONPATH": str(REPO)})
        assert done.returncode == code, done.stderr
        assert getattr(done, stream).startswith("indexed " if code == 0 else "cruxgate index: error: ")


def test_missing_workspace_exits_2_with_a_message(tmp_path: Path) -> None:
    done = cli("index", str(tmp_path / "nope"))
    assert done.returncode == 2
    assert "does not exist" in done.stderr and str(tmp_path / "nope") in done.stderr
    assert not (tmp_path / "nope").exists()


def test_a_file_is_not_a_workspace(tmp_path: Path) -> None:
    target = tmp_path / "file.py"
    target.write_text("x = 1\n", encoding="utf-8")
    done = cli("index", str(target))
    assert done.returncode == 2 and "not a directory" in done.stderr


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_hooks_produce_their_state(workspace: Path, hook: str) -> None:
    index_workspace(workspace)
    done = cli("hook", hook, str(workspace))
    assert done.returncode == 0, done.stderr
    expected = {"corrupt_manifest": "corrupt_manifest", "reindex_required": "reindex_required",
                "not_indexed": "not_indexed", "legacy_status_idle": "ready",
                "legacy_status_partial_available": "ready", "corrupt_index_segment": "ready",
                "semantic_backend_failure": "ready", "semantic_orphan": "ready"}[hook]
    state = read_state(workspace)
    assert state.status == expected and done.stdout.strip() == f"{hook}: {expected}"
    if hook.startswith("legacy"):
        assert state.manifest["status"] == hook.removeprefix("legacy_status_")
    if hook == "semantic_backend_failure":  # the lexical index stays whole; the semantic one cannot be opened
        from cruxgate.reference.index.semantic import SemanticIndex, SemanticIndexError

        assert state.generation is not None
        with pytest.raises(SemanticIndexError):
            SemanticIndex.open(state.generation)


def test_semantic_orphan_leaves_the_lexical_index_and_keeps_the_semantic_row(workspace: Path, tmp_path: Path) -> None:
    from cruxgate.reference.index.hooks import ORPHAN
    from cruxgate.reference.index.semantic import SemanticIndex

    fixture = workspace
    index_workspace(fixture)
    before = IndexReader.open(fixture)
    stable_id, symbol_id, *location = before.db.execute(
        "SELECT symbol_stable_id, symbol_id, path, line_start, line_end, language FROM symbols "
        "WHERE qualified_name = ?", (ORPHAN,)).fetchone()
    symbols_before = before.searcher("symbols").num_docs
    done = cli("hook", "semantic_orphan", str(fixture))
    assert done.returncode == 0 and done.stdout.strip() == "semantic_orphan: ready", done.stderr
    after = IndexReader.open(fixture)
    assert after.db.execute("SELECT count(*) FROM symbols WHERE qualified_name = ?", (ORPHAN,)).fetchone() == (0,)
    query = after.index("symbols").parse_query(str(symbol_id), ["symbol_id"])
    assert after.searcher("symbols").search(query, 1).hits == []
    assert after.searcher("symbols").num_docs == symbols_before - 1
    assert before.searcher("symbols").search(query, 1).hits != []  # an open reader keeps the files it had
    semantic = SemanticIndex.open(after.generation)
    row = semantic.stable_ids.tolist().index(int(stable_id, 16))  # the semantic row stays, with its location
    orphan = semantic.match(row, 1.0)
    assert [orphan.path, orphan.line_start, orphan.line_end, orphan.language] == location
    # A workspace other than the fixture has no such symbol: the hook says so and fails.
    other = tmp_path / "other"
    other.mkdir()
    (other / "app.py").write_text("def main():\n    pass\n", encoding="utf-8")
    refused = cli("hook", "semantic_orphan", str(other))
    assert refused.returncode != 0 and ORPHAN in refused.stderr


def test_hooks_on_a_workspace_without_an_index_build_one_first(workspace: Path) -> None:
    assert cli("hook", "reindex_required", str(workspace)).returncode == 0
    assert read_state(workspace).status == "reindex_required"
    assert cli("hook", "reindex_required", str(workspace / "missing")).returncode == 2


class FakeTerminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("terminal", "quiet", "bar"),
                         [(True, False, True), (True, True, False), (False, False, False)])
def test_progress_bar_only_on_a_terminal(workspace: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture, terminal: bool, quiet: bool,
                                         bar: bool) -> None:
    from cruxgate.reference.index import command

    err = FakeTerminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    args = argparse.Namespace(workspace=workspace, force=False, quiet=quiet, config=None)
    assert command.run(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("indexed ")
    shown = err.getvalue()
    assert ("indexing" in shown and "file" in shown) is bar
    if bar:
        assert re.search(r"\b(\d+)/\1\b", shown)  # the bar reached total/total
        assert re.search(r"\[\d\d:\d\d<\d\d:\d\d, *[\d.]+ ?\w*file/s\]", shown)  # elapsed<ETA, rate
        assert "writing indices" in shown  # what the run does once every file is read


def test_corrupt_index_segment_breaks_the_symbols_index_only(workspace: Path) -> None:
    index_workspace(workspace)
    assert cli("hook", "corrupt_index_segment", str(workspace)).returncode == 0
    reader = IndexReader.open(workspace)  # the manifest still says ready
    with pytest.raises(ValueError, match="corrupted"):
        reader.searcher("symbols")
    assert reader.searcher("files").num_docs > 0


def test_files_that_could_not_be_read_or_parsed_are_named_on_stderr(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture) -> None:
    import os

    from cruxgate.reference.index import command

    (tmp_path / "ok.py").write_text("A = 1\n", encoding="utf-8")
    (tmp_path / "broken.py").write_text("def bad(:\n", encoding="utf-8")
    (tmp_path / "locked.py").write_text("B = 1\n", encoding="utf-8")
    real_open = os.open

    def guarded(file, *args, **kwargs):
        if str(file).endswith("locked.py"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)
    assert command.run(argparse.Namespace(workspace=tmp_path, force=False, quiet=True, config=None)) == 0
    monkeypatch.undo()
    captured = capsys.readouterr()
    warnings = captured.err.splitlines()
    assert warnings == [
        "cruxgate index: warning: broken.py: 1 syntax error(s), indexed as far as it parses",
        "cruxgate index: warning: locked.py: not indexed, unreadable (Permission denied)",
    ]
    assert "1 with parse errors, 1 skipped" in captured.out


def test_progress_starts_over_when_the_unchanged_check_finds_a_deleted_file(workspace: Path,
                                                                            monkeypatch: pytest.MonkeyPatch,
                                                                            capsys: pytest.CaptureFixture) -> None:
    from cruxgate.reference.index import build as build_module
    from cruxgate.reference.index import command

    first = index_workspace(workspace)
    (workspace / "src/web/app.js").unlink()  # every other file unchanged: the check reads them all, then builds
    monkeypatch.setattr(build_module, "worth_patching", lambda changed, files: False)  # a full run, not a patch
    err = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert command.run(argparse.Namespace(workspace=workspace, force=False, quiet=False, config=None)) == 0
    total = first.file_count - 1
    assert f"0 parsed, {total} unchanged" in capsys.readouterr().out
    passes = err.getvalue().split(f"{total}/{total}")
    assert len(passes) >= 3  # total/total twice: the check's pass, then (after a reset) the build's
    assert not re.search(rf"\b{total + 1}/{total}\b|\b-\d+/{total}\b", err.getvalue())  # never past or below
