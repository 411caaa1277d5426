"""A real index of the polyglot fixture, built once per session (its README maps files to scenarios)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cruxgate.reference.query.engine import QueryEngine

FIXTURE = Path(__file__).resolve().parents[2] / "golden" / "fixtures" / "polyglot"


def open_engine(workspace: Path) -> QueryEngine:
    """A query engine over the workspace's index (the indexer is imported here, not by the pure unit tests)."""
    from cruxgate.reference.index import IndexReader

    return QueryEngine(IndexReader.open(workspace))


@pytest.fixture(scope="session")
def polyglot_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private, indexed copy of the polyglot fixture."""
    from cruxgate.reference.index import index_workspace

    workspace = tmp_path_factory.mktemp("query") / "polyglot"
    shutil.copytree(FIXTURE, workspace)
    index_workspace(workspace)
    return workspace


@pytest.fixture(scope="session")
def polyglot(polyglot_workspace: Path) -> QueryEngine:
    """The engine over the polyglot fixture."""
    return open_engine(polyglot_workspace)
