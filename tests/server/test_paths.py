"""Path arguments resolve inside the workspace only (.., absolute paths and symlinks included)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cruxgate.reference.protocol.errors import ToolError
from cruxgate.reference.server.paths import workspace_path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("secret\n", encoding="utf-8")
    return root.resolve()


def test_relative_and_absolute_inside(workspace: Path) -> None:
    assert workspace_path(workspace, "src/a.py")[0] == "src/a.py"
    assert workspace_path(workspace, "./src/../src/a.py")[0] == "src/a.py"
    assert workspace_path(workspace, str(workspace / "src" / "a.py"))[0] == "src/a.py"
    assert workspace_path(workspace, "src\\a.py")[0] == "src/a.py"


@pytest.mark.parametrize("raw", ["../secret.txt", "src/../../secret.txt", "/etc/passwd", ".", "a\x00b"])
def test_escapes_are_invalid_input(workspace: Path, raw: str) -> None:
    with pytest.raises(ToolError) as info:
        workspace_path(workspace, raw)
    assert info.value.code == "invalid_input" and info.value.data == {"field": "path"}


def test_symlink_pointing_outside_is_rejected(workspace: Path) -> None:
    os.symlink(workspace.parent / "secret.txt", workspace / "src" / "link.txt")
    with pytest.raises(ToolError) as info:
        workspace_path(workspace, "src/link.txt")
    assert info.value.code == "invalid_input"


def test_private_state_is_not_a_file(workspace: Path) -> None:
    with pytest.raises(ToolError) as info:
        workspace_path(workspace, ".cruxgate/CURRENT")
    assert info.value.code == "file_not_found"


def test_a_sibling_sharing_the_prefix_is_outside(workspace: Path) -> None:
    sibling = workspace.parent / (workspace.name + "x")
    (sibling / "src").mkdir(parents=True)
    (sibling / "src" / "a.py").write_text("y = 2\n", encoding="utf-8")
    for raw in (str(sibling / "src" / "a.py"), f"../{sibling.name}/src/a.py"):
        with pytest.raises(ToolError) as info:
            workspace_path(workspace, raw)
        assert info.value.code == "invalid_input"


def test_symlink_inside_resolves_to_its_target(workspace: Path) -> None:
    os.symlink(workspace / "src", workspace / "alias")
    relative, resolved = workspace_path(workspace, "alias/a.py")
    assert (relative, resolved) == ("src/a.py", workspace / "src" / "a.py")
    with pytest.raises(ToolError) as info:
        workspace_path(workspace, "alias/../.git/HEAD")  # `..` after a link climbs from its target
    assert info.value.code == "file_not_found"
