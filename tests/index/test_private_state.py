"""The index stores the workspace's source text: its folder and files are its owner's only (0700 / 0600)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.state import STATE_DIR

FIXTURE = Path(__file__).resolve().parents[2] / "golden" / "fixtures" / "polyglot"


def shared_modes(state: Path) -> list[str]:
    """Every entry under `state` (itself too) that group or others may use, with its mode."""
    return [f"{path.relative_to(state.parent)} {stat.filemode(path.lstat().st_mode)}"
            for path in [state, *state.rglob("*")] if path.lstat().st_mode & 0o077]


def test_cruxgate_index_writes_owner_only_files_whatever_the_umask(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    shutil.copytree(FIXTURE, workspace, ignore=shutil.ignore_patterns(STATE_DIR))
    subprocess.run(["sh", "-c", 'umask 022 && exec "$0" -m cruxgate index "$1" --quiet', sys.executable,
                    str(workspace)], check=True, timeout=300, env=dict(os.environ))
    state = workspace / STATE_DIR
    assert (state / "CURRENT").is_file()
    assert shared_modes(state) == []


def test_an_existing_open_state_folder_is_closed(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.py").write_text("def a():\n    return 1\n")
    state = workspace / STATE_DIR
    state.mkdir(mode=0o755)
    state.chmod(0o755)  # as an older version, or a umask of 022, left it
    index_workspace(workspace)
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
