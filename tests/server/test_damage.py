"""A damaged index is a clear state: index_incompatible with remediation, and index_status / health_check say so.

Real on-disk indexes, damaged the way a crash or a full disk leaves them, and real servers over stdio.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from cruxgate.reference.index import read_state
from cruxgate.reference.index.state import DATABASE, STATE_DIR, TANTIVY_DIR

from .harness import Connection, connect_stdio

QUERIES = [("search_code", {"query": "validate_token"}), ("locate_symbol", {"name": "UserService"}),
           ("search", {"query": "Config"}), ("get_file_outline", {"path": "src/lib.rs"}),
           ("find_references", {"name": "validate_token"})]


def live_generation(workspace: Path) -> Path:
    generation = read_state(workspace).generation
    assert generation is not None
    return generation


def truncate_database(workspace: Path) -> None:
    path = live_generation(workspace) / DATABASE
    os.truncate(path, path.stat().st_size // 3)


def lose_a_segment(workspace: Path) -> None:
    folder = live_generation(workspace) / TANTIVY_DIR / "symbols"
    segment = next(p for p in sorted(folder.iterdir()) if p.suffix == ".idx")
    segment.unlink()


def garbage_pointer(workspace: Path) -> None:
    (workspace / STATE_DIR / "CURRENT").write_bytes(b"gen-1\xff\n")


def says_damaged(conn: Connection) -> None:
    """Every query is index_incompatible with remediation; index_status and health_check report the state."""
    for tool, args in QUERIES:
        payload, is_error = conn.payload(tool, args)
        assert is_error, f"{tool} answered from a damaged index"
        error = payload["error"]
        assert error["code"] == "index_incompatible", f"{tool}: {error}"
        assert "--force" in error["data"]["remediation"]
    status, is_error = conn.payload("index_status", {})
    assert not is_error and status["status"] == "corrupt_manifest" and status["reason"]
    assert status["metadata"]["indexing_status"] == "failed"
    health, is_error = conn.payload("health_check", {})
    assert not is_error and health["status"] == "error" and health["startup_checks"]["index"]["reason"]


@pytest.mark.parametrize("damage", [truncate_database, lose_a_segment, garbage_pointer])
def test_damage_found_at_open(polyglot_copy: Callable[[str], Path], damage: Callable[[Path], None]) -> None:
    workspace = polyglot_copy("damage")
    damage(workspace)
    conn = connect_stdio(workspace, None, "--no-prewarm")
    try:
        says_damaged(conn)
        done, is_error = conn.payload("index_repo", {"force": True})
        assert not is_error and done["job"]["status"] == "completed", done
        payload, is_error = conn.payload("search_code", {"query": "validate_token"})
        assert not is_error and payload["results"]
    finally:
        conn.close()


def test_damage_found_at_query(polyglot_copy: Callable[[str], Path]) -> None:
    """The index breaks under a running server (the database truncated): the next reads say so, never internal_error."""
    workspace = polyglot_copy("damage")
    conn = connect_stdio(workspace, None, "--no-prewarm")
    try:
        payload, is_error = conn.payload("search_code", {"query": "validate_token"})
        assert not is_error and payload["results"]
        os.truncate(live_generation(workspace) / DATABASE, 8192)
        codes = []
        for tool, args in QUERIES:
            payload, is_error = conn.payload(tool, args)
            codes.append(payload["error"]["code"] if is_error else "ok")
        assert "internal_error" not in codes and "index_incompatible" in codes, codes
        status, _ = conn.payload("index_status", {})
        assert status["status"] == "corrupt_manifest"
        health, _ = conn.payload("health_check", {})
        assert health["status"] == "error"
    finally:
        conn.close()


def test_damage_found_by_the_health_check(polyglot_copy: Callable[[str], Path]) -> None:
    """Pages overwritten in place (size, header and seal intact): SQLite's quick_check in health_check finds it,
    and from then on the index reads as damaged."""
    workspace = polyglot_copy("damage")
    path = live_generation(workspace) / DATABASE
    size = path.stat().st_size
    with open(path, "r+b") as fh:
        fh.seek(size // 3)
        fh.write(b"\xab" * (size // 3))
    conn = connect_stdio(workspace, None, "--no-prewarm")
    try:
        health, _ = conn.payload("health_check", {})
        assert health["status"] == "error" and health["sqlite"]["status"] == "error", health
        says_damaged(conn)
    finally:
        conn.close()


def test_damage_found_when_the_health_check_opens_the_index(polyglot_copy: Callable[[str], Path]) -> None:
    """A segment's metadata unreadable and no prewarm to open the index first: the health check that opens it finds
    the damage, and says error in that same answer, not ready."""
    workspace = polyglot_copy("opened-by-health")
    (live_generation(workspace) / TANTIVY_DIR / "symbols" / "meta.json").write_text("{ not json", encoding="utf-8")
    conn = connect_stdio(workspace, None, "--no-prewarm")
    try:
        health, _ = conn.payload("health_check", {})
        assert health["status"] == "error", health
        assert health["tantivy"] == {"status": "unavailable", "reason": "index_incompatible"}, health
    finally:
        conn.close()
