"""The benchmarks' plugin: the SLO harness's (shipped in the package) plus the reference in process.

The SLO options, targets, gate and report are `cruxgate.conformance.slo.plugin`'s, re-exported here so
`python3 -m pytest benchmarks/test_slo.py` runs the same harness `cruxgate slo` does; the checkout adds
the scale benchmark's last record (docs/scale.json) to the SLO report as information.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest
from scale_report import appendix

from cruxgate.conformance.slo import plugin
from cruxgate.conformance.slo.cache import cache_dir
from cruxgate.conformance.slo.corpus import copy_stdlib
from cruxgate.conformance.slo.plugin import (  # noqa: F401  (hooks and fixtures pytest finds by name)
    RECORDER_KEY,
    bench_target,
    corpus_server,
    fixture_server,
    lexical_server,
    pytest_addoption,
    record,
    settings,
    stdlib_source,
)

SCALE_RECORD = Path(__file__).resolve().parents[1] / "docs" / "scale.json"


def pytest_configure(config: pytest.Config) -> None:
    plugin.pytest_configure(config)
    config.stash[RECORDER_KEY].appendix = lambda: appendix(SCALE_RECORD)


# ------------------------------------------------------------------ the reference in process


@pytest.fixture(scope="session")
def stdlib_workspace(pytestconfig: pytest.Config) -> Path:
    """The stdlib corpus indexed by the reference in process (built on first use, then cached across sessions)."""
    from cruxgate.reference.index import SCHEMA_VERSION, index_workspace, read_state
    from cruxgate.reference.index.semantic.model import FORMAT, SEMANTIC_DIR

    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    workspace = cache_dir(pytestconfig, f"cruxgate-stdlib-py{version}-schema{SCHEMA_VERSION}-semantic{FORMAT}")
    state = read_state(workspace)
    if state.status != "ready" or state.generation is None or not (state.generation / SEMANTIC_DIR).is_dir():
        started = time.perf_counter()
        files = copy_stdlib(workspace)
        index_workspace(workspace, force=True)
        print(f"\n[stdlib corpus] copied {files} files and indexed them in {time.perf_counter() - started:.1f} s "
              f"into {workspace}")
    return workspace


@pytest.fixture(scope="session")
def stdlib_engine(stdlib_workspace: Path) -> Any:
    """A reference query engine over the stdlib index."""
    from cruxgate.reference.index import IndexReader
    from cruxgate.reference.query.engine import QueryEngine

    return QueryEngine(IndexReader.open(stdlib_workspace))


@pytest.fixture(scope="session")
def stdlib_hybrid_engine(stdlib_workspace: Path) -> Any:
    """The same engine with the default semantic channel (hybrid), for search_code(semantic=True)."""
    from cruxgate.reference.config import SemanticConfig
    from cruxgate.reference.index import IndexReader
    from cruxgate.reference.query.engine import QueryEngine
    from cruxgate.reference.query.semantic import channel_for

    reader = IndexReader.open(stdlib_workspace)
    return QueryEngine(reader, semantic=channel_for(SemanticConfig(), reader.generation))
