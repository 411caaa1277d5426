"""The polyglot fixture, indexed once per test session for every package that reads it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "golden" / "fixtures" / "polyglot"


@pytest.fixture(scope="session")
def polyglot_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """golden/fixtures/polyglot copied and indexed once (read-only: copy it with `polyglot_copy` to change it)."""
    # The indexer is imported here, not at module level, so the pure unit tests never load it.
    from cruxgate.reference.index import index_workspace

    workspace = tmp_path_factory.mktemp("template") / "polyglot"
    shutil.copytree(FIXTURE, workspace, ignore=shutil.ignore_patterns(".cruxgate"))
    index_workspace(workspace)
    return workspace.resolve()


@pytest.fixture(scope="session")
def polyglot_copy(polyglot_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """A factory of private copies of the indexed fixture, named by their user (each copy's index is fresh)."""
    def make(owner: str) -> Path:
        dest = tmp_path_factory.mktemp(owner) / "polyglot"
        # copytree keeps mtimes, so the copied manifest still matches every file: no re-index, no stale state.
        shutil.copytree(polyglot_template, dest, symlinks=True)
        return dest.resolve()
    return make
