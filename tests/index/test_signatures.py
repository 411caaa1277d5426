"""A file whose stat signature has not changed since it was read settled is not read again; any other file is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cruxgate.reference.index import build as build_module
from cruxgate.reference.index import index_workspace, reading
from cruxgate.reference.index.extracts import ExtractStore
from cruxgate.reference.index.scan import scan
from cruxgate.reference.index.state import STATE_DIR

from .conftest import copy_fixture

EDITED = "src/auth/tokens.py"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return copy_fixture(tmp_path / "ws")


def settle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file reads as older than the racy window (as an untouched workspace file is)."""
    real = reading.time.time_ns
    monkeypatch.setattr(reading.time, "time_ns", lambda: real() + (reading.RACY_SECONDS + 1) * 10**9)


def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the run reads from the workspace (in process: the edit runs below parse fewer than a pool's worth)."""
    seen: list[str] = []
    real = build_module.read_file

    def read_file(root: str, rel: str, *args, **kwargs):
        seen.append(rel)
        return real(root, rel, *args, **kwargs)

    monkeypatch.setattr(build_module, "read_file", read_file)
    return seen


def remembered(workspace: Path) -> dict[str, tuple[str, str | None]]:
    store = ExtractStore(workspace / STATE_DIR, build_module.TOOL_VERSION)
    try:
        return store.signatures()
    finally:
        store.close()


def test_settled_files_are_not_read_again_and_an_edit_is_read_alone(workspace: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    settle(monkeypatch)
    first = index_workspace(workspace)
    assert len(remembered(workspace)) == first.file_count  # the full run remembers what its workers read
    seen = reads(monkeypatch)
    again = index_workspace(workspace)
    assert seen == [] and again.parsed_files == 0 and again.manifest["cursor"] == first.manifest["cursor"]
    with open(workspace / EDITED, "a", encoding="utf-8") as fh:
        fh.write("\ndef added_by_the_edit():\n    return 1\n")
    patched = index_workspace(workspace)
    assert set(seen) == {EDITED} and patched.parsed_files == 1
    assert patched.symbol_count == first.symbol_count + 1


def test_a_same_size_edit_is_seen_by_its_timestamps(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settle(monkeypatch)
    first = index_workspace(workspace)
    target = workspace / EDITED
    text = target.read_text(encoding="utf-8")
    renamed = text.replace("def ", "def X", 1)[:len(text)]  # same size, one definition renamed
    assert renamed != text and len(renamed.encode()) == len(text.encode())
    stat = target.stat()
    target.write_text(renamed, encoding="utf-8")
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    again = index_workspace(workspace)
    assert again.parsed_files == 1 and again.manifest["cursor"] != first.manifest["cursor"]


def test_a_file_read_within_the_racy_window_is_not_remembered(workspace: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # Just copied: every ctime is younger than RACY_SECONDS, so a same-size edit within the clock's tick could keep
    # the signature; nothing is remembered and the next run reads every file again.
    first = index_workspace(workspace)
    assert remembered(workspace) == {}
    seen = reads(monkeypatch)
    index_workspace(workspace)
    assert len(seen) == first.file_count


def test_the_remembered_text_is_the_signature(workspace: Path) -> None:
    # The scan writes the signature as text at once (one per file of the tree); stores written before remember the
    # text of the tuple, and a file must match it, or every run would read every file again.
    report = scan(workspace)
    assert report.files
    for candidate in report.files:
        st = os.lstat(candidate.absolute)
        assert candidate.signature == reading.signature_text(st) == ":".join(map(str, reading.signature(st)))


@pytest.mark.parametrize("force", [False, True])  # a patch forgets by the paths it read first, a full run by the table
def test_a_deleted_file_is_forgotten(workspace: Path, monkeypatch: pytest.MonkeyPatch, force: bool) -> None:
    settle(monkeypatch)
    index_workspace(workspace)
    assert EDITED in remembered(workspace)
    (workspace / EDITED).unlink()
    summary = index_workspace(workspace, force=force)
    assert (summary.parsed_files == 0) != force  # a patch (nothing to parse) or a full run
    kept = remembered(workspace)
    assert EDITED not in kept and len(kept) == summary.file_count
