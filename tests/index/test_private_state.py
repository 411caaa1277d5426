"""The index stores the workspace's source text: its folder and files are its owner's only (0700 / 0600)."""

from __future__ import annotations

import argparse
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.state import STATE_DIR, private_state_dir
from cruxgate.reference.server.http_options import add_http_arguments, http_options

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


def git(workspace: Path, *args: str) -> str:
    """git's output in `workspace` (a throw-away identity: nothing here reads the user's config)."""
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=workspace, check=True,
                          capture_output=True, text=True, timeout=60).stdout


def test_git_never_offers_the_state_folder_for_a_commit(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.py").write_text("def a():\n    return 1\n")
    git(workspace, "init", "-q")  # no .gitignore of the workspace's own names .cruxgate
    index_workspace(workspace)
    (workspace / STATE_DIR / "http-token").write_text("not to be committed\n")
    assert (workspace / STATE_DIR / ".gitignore").read_text() == "*\n"
    git(workspace, "add", "-A")
    assert git(workspace, "diff", "--cached", "--name-only").split() == ["a.py"]


def test_a_planted_gitignore_link_is_replaced_not_written_through(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / STATE_DIR).mkdir(parents=True)
    outside = tmp_path / "outside.txt"
    outside.write_text("keep\n")
    (workspace / STATE_DIR / ".gitignore").symlink_to(outside)
    private_state_dir(workspace)
    ignore = workspace / STATE_DIR / ".gitignore"
    assert not ignore.is_symlink() and ignore.read_text() == "*\n"
    assert outside.read_text() == "keep\n"


def test_serving_http_before_any_index_writes_the_gitignore_beside_its_token(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    add_http_arguments(parser)
    options = http_options(parser.parse_args([]), workspace)
    state = workspace / STATE_DIR
    assert options.token == (state / "http-token").read_text().strip()
    assert (state / ".gitignore").read_text() == "*\n"
    assert shared_modes(state) == []
