"""An indexed private copy of the polyglot fixture and scored search over it (built once per session)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cruxgate.reference.query.scored.search import ScoredSearch

FIXTURE = Path(__file__).resolve().parents[2] / "golden" / "fixtures" / "polyglot"


@pytest.fixture(scope="session")
def scored_polyglot(tmp_path_factory: pytest.TempPathFactory) -> ScoredSearch:
    """`search` as the server runs it, in-process, over an indexed copy of the polyglot fixture."""
    from cruxgate.reference.index import IndexReader, index_workspace
    from cruxgate.reference.query.engine import QueryEngine

    workspace = tmp_path_factory.mktemp("scored") / "polyglot"
    shutil.copytree(FIXTURE, workspace)
    index_workspace(workspace)
    engine = QueryEngine(IndexReader.open(workspace))
    return ScoredSearch(engine, engine.db, workspace)
