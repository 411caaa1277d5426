"""The query engine over the session's indexed polyglot fixture (golden/fixtures/polyglot.md maps its files)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from cruxgate.reference.query.engine import QueryEngine

FIXTURE = Path(__file__).resolve().parents[2] / "golden" / "fixtures" / "polyglot"


def open_engine(workspace: Path) -> QueryEngine:
    """A query engine over the workspace's index (the indexer is imported here, not by the pure unit tests)."""
    from cruxgate.reference.index import IndexReader

    return QueryEngine(IndexReader.open(workspace))


@pytest.fixture(scope="session")
def polyglot_workspace(polyglot_copy: Callable[[str], Path]) -> Path:
    """A private, indexed copy of the polyglot fixture."""
    return polyglot_copy("query")


@pytest.fixture(scope="session")
def polyglot(polyglot_workspace: Path) -> QueryEngine:
    """The engine over the polyglot fixture."""
    return open_engine(polyglot_workspace)
