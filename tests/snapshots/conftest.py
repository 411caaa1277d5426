"""Golden snapshot fixtures: one real stdio server per module on its own indexed copy of the polyglot fixture."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from golden_format import GoldenJSONExtension, record
from tests.server.harness import Connection, connect_stdio


class GoldenServer:
    """A started reference server whose answers come back as golden records."""

    def __init__(self, conn: Connection, workspace: Path) -> None:
        self.conn = conn
        self.workspace = workspace

    def answer(self, tool: str, arguments: Any = None) -> dict[str, Any]:
        """Call a tool (one text item, the schema checked by the harness) and normalize it."""
        payload, is_error = self.conn.payload(tool, arguments)
        return record(tool, {} if arguments is None else arguments, payload, is_error, self.workspace)

    def settle(self, timeout: float = 30.0) -> None:
        """Wait until no job runs and prewarm is done, so status answers do not depend on timing."""
        deadline = time.monotonic() + timeout
        while True:
            status, _ = self.conn.payload("index_status")
            if not status["active_jobs"] and status["prewarm"]["status"] != "warming":
                return
            assert time.monotonic() < deadline, f"server did not settle within {timeout}s: {status}"
            time.sleep(0.02)


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """syrupy's snapshot, stored as JSON under golden/snapshots/."""
    return snapshot.use_extension(GoldenJSONExtension)


@pytest.fixture(scope="module")
def golden_server(polyglot_copy: Callable[[str], Path]) -> Iterator[GoldenServer]:
    """One server per module (`cruxgate serve-mcp` over stdio) on its own copy of the indexed polyglot fixture."""
    workspace = polyglot_copy("golden")
    conn = connect_stdio(workspace)
    try:
        server = GoldenServer(conn, workspace)
        server.settle()
        yield server
    finally:
        conn.close()
