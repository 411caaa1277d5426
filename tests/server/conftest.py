"""Fixtures: the polyglot fixture indexed once per session, copied per server, and servers per module."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .harness import Connection, connect_http, connect_stdio, index_copy


@pytest.fixture(scope="session")
def indexed_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """golden/fixtures/polyglot copied and indexed once for the whole session."""
    return index_copy("polyglot", tmp_path_factory.mktemp("template") / "polyglot")


@pytest.fixture(scope="session")
def fresh_workspace(indexed_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[[], Path]:
    """A factory of private copies of the indexed workspace (mtimes kept, so the copy is fresh)."""
    def make() -> Path:
        dest = tmp_path_factory.mktemp("ws") / "polyglot"
        shutil.copytree(indexed_template, dest, symlinks=True)
        return dest.resolve()
    return make


@pytest.fixture(scope="module")
def stdio_server(fresh_workspace: Callable[[], Path]) -> Iterator[Connection]:
    """One stdio server per module on its own copy, default config."""
    conn = connect_stdio(fresh_workspace())
    yield conn
    conn.close()


@pytest.fixture(scope="module")
def http_server(fresh_workspace: Callable[[], Path]) -> Iterator[Connection]:
    """One Streamable HTTP server per module on its own copy, default config."""
    conn = connect_http(fresh_workspace())
    yield conn
    conn.close()
