"""The benchmarks' corpora and running targets; the SLO options, gate and report come from slo_plugin.py.

The target options are the conformance runner's (--target, --target-profile, --server-cmd,
--server-url, --fixtures-dir: the `conformance.plugin` entry point defines them); a target is
prepared and started by conformance's own lifecycle, so a benchmark sees exactly the server a
conformance run would gate.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bench_cache import cache_dir
from bench_server import BenchServer
from bench_settings import Settings
from corpus import copy_stdlib
from slo_plugin import RECORDER_KEY, pytest_addoption, pytest_configure, record, settings  # noqa: F401  (hooks, fixtures)

from cruxgate.conformance.spec.paths import fixtures_dir
from cruxgate.conformance.target.profile import ProfileError, Target, resolve

FIXTURE = "polyglot"
# The source system's name for the semantic channel's mode; a target that does not know it ignores it.
SEMANTIC_OFF = {"search": {"semantic": {"mode": "off"}}}


# ------------------------------------------------------------------ targets over the wire


@pytest.fixture(scope="session")
def bench_target(pytestconfig: pytest.Config) -> Target:
    """The target the conformance options name (default: the bundled reference over stdio)."""
    try:
        return resolve(pytestconfig.getoption("target"), pytestconfig.getoption("target_profile"),
                       pytestconfig.getoption("server_cmd"), pytestconfig.getoption("server_url"))
    except ProfileError as exc:
        raise pytest.UsageError(str(exc)) from None


def _started(pytestconfig: pytest.Config, target: Target, root: Path, corpus: str,
             config: dict[str, Any] | None = None) -> BenchServer:
    """A BenchServer on `root/corpus`, warm (prewarm finished) before any figure is taken."""
    server = BenchServer(target, pytestconfig.getoption("target"), root, corpus, config)
    recorder = pytestconfig.stash[RECORDER_KEY]
    info = server.server_info() or {}
    recorder.header["target"] = f"{target.name} ({info.get('name', '?')} {info.get('version', '')})".strip()
    server.wait_ready(target.timeouts["start"])
    return server


@pytest.fixture(scope="session")
def fixture_server(pytestconfig: pytest.Config, bench_target: Target) -> Iterator[BenchServer]:
    """The target serving the polyglot golden fixture (outline file, labeled match reasons)."""
    option = pytestconfig.getoption("fixtures_dir")
    server = _started(pytestconfig, bench_target, Path(option) if option else fixtures_dir(), FIXTURE)
    yield server
    server.close()


@pytest.fixture(scope="session")
def stdlib_source(pytestconfig: pytest.Config) -> Path:
    """The stdlib's sources, copied once into the cache (unindexed: each target indexes its own copy)."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    source = cache_dir(pytestconfig, "cruxgate-corpus") / f"stdlib-py{version}"
    marker = source.parent / f"{source.name}.complete"
    if not marker.exists():
        started = time.perf_counter()
        files = copy_stdlib(source)
        marker.write_text(str(files), encoding="utf-8")
        print(f"\n[stdlib corpus] copied {files} files in {time.perf_counter() - started:.1f} s into {source}")
    return source


@pytest.fixture(scope="session")
def corpus_server(pytestconfig: pytest.Config, bench_target: Target, settings: Settings,
                  request: pytest.FixtureRequest) -> Iterator[BenchServer]:
    """The target serving the real corpus (the stdlib); in smoke mode, or with --server-url, the fixture's server."""
    if settings.smoke or bench_target.fixed_url:
        yield request.getfixturevalue("fixture_server")
        return
    source = request.getfixturevalue("stdlib_source")
    server = _started(pytestconfig, bench_target, source.parent, source.name)
    yield server
    server.close()


@pytest.fixture(scope="session")
def lexical_server(pytestconfig: pytest.Config, bench_target: Target, settings: Settings,
                   request: pytest.FixtureRequest) -> Iterator[BenchServer]:
    """The corpus server's twin with the semantic channel off (`search.semantic.mode = "off"`)."""
    if bench_target.fixed_url:
        pytest.skip("a running server (--server-url) cannot be started a second time with another config")
    if settings.smoke:
        option = pytestconfig.getoption("fixtures_dir")
        server = _started(pytestconfig, bench_target, Path(option) if option else fixtures_dir(), FIXTURE,
                          SEMANTIC_OFF)
    else:
        source = request.getfixturevalue("stdlib_source")
        server = _started(pytestconfig, bench_target, source.parent, source.name, SEMANTIC_OFF)
    yield server
    server.close()


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
