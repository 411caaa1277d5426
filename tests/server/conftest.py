"""Fixtures: the session's indexed polyglot fixture copied per server, and servers per module."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .harness import Connection, connect_http, connect_stdio


@pytest.fixture(scope="session")
def fresh_workspace(polyglot_copy: Callable[[str], Path]) -> Callable[[], Path]:
    """A factory of private copies of the indexed workspace (mtimes kept, so the copy is fresh)."""
    return lambda: polyglot_copy("ws")


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
