"""Scored search over a private copy of the session's indexed polyglot fixture."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from cruxgate.reference.query.scored.search import ScoredSearch

FIXTURE = Path(__file__).resolve().parents[2] / "golden" / "fixtures" / "polyglot"


@pytest.fixture(scope="session")
def scored_polyglot(polyglot_copy: Callable[[str], Path]) -> ScoredSearch:
    """`search` as the server runs it, in-process, over an indexed copy of the polyglot fixture."""
    from cruxgate.reference.index import IndexReader
    from cruxgate.reference.query.engine import QueryEngine

    workspace = polyglot_copy("scored")
    engine = QueryEngine(IndexReader.open(workspace))
    return ScoredSearch(engine, engine.db, workspace)
