"""Indexed files replaced after indexing (links out, FIFOs, /dev/zero, a shrunk file): nothing outside is served,
nothing blocks, and the change reads as stale, never as internal_error. Real servers over stdio."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

from cruxgate.reference.index import index_workspace

from .harness import Connection, connect_stdio

SECRET = "OUTSIDE_SECRET_LINE"
AUTH = ('"""Auth."""\n\n\nTOKEN_TTL = 30\n\n\ndef refresh_token():\n    """Refresh."""\n    return TOKEN_TTL\n\n\n'
        "def rotate_token():\n    a = TOKEN_TTL\n    b = a + 1\n    return b\n")
QUERIES: list[tuple[str, dict[str, Any]]] = [
    ("search", {"query": "TOKEN_TTL", "limit": 20}),
    ("search", {"query": "refresh_token", "include_scores": True, "include_context": True}),
    ("search_preview", {"query": "TOKEN_TTL"}),
    ("search_code", {"query": "TOKEN_TTL", "detail_level": "context"}),
    ("locate_symbol", {"name": "refresh_token", "detail_level": "context"}),
    ("locate_symbol", {"name": "rotate_token", "detail_level": "context"}),
]


def git_workspace(root: Path, files: dict[str, str]) -> Path:
    """A committed git workspace (freshness then follows HEAD only), indexed; best_effort so no sync starts."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    for argv in (["init", "-q"], ["add", "-A"], ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "x"]):
        subprocess.run(["git", *argv], cwd=root, check=True, capture_output=True, timeout=30)
    index_workspace(root)
    return root


def config(tmp_path: Path) -> Path:
    path = tmp_path / "cruxgate.toml"
    path.write_text('[search]\nfreshness_policy = "best_effort"\n', encoding="utf-8")
    return path


def replace_with(path: Path, make: Any) -> None:
    path.unlink()
    make(path)


def ask_all(conn: Connection) -> list[tuple[str, dict[str, Any], bool]]:
    out = []
    for tool, args in QUERIES:
        payload, is_error = conn.payload(tool, args)
        out.append((tool, payload, is_error))
    return out


def test_replaced_files_are_never_read_through(tmp_path: Path) -> None:
    """Four indexed copies of one file, each replaced: by a link to /etc/passwd, a link to a one-line file
    outside, a FIFO (no writer: a read would block for ever) and a link to /dev/zero (a read never ends)."""
    outside = tmp_path / "secret.txt"
    outside.write_text(SECRET + "\n", encoding="utf-8")
    swaps: dict[str, Any] = {
        "passwd": lambda p: os.symlink("/etc/passwd", p),
        "outside": lambda p: os.symlink(outside, p),
        "fifo": os.mkfifo,
        "zero": lambda p: os.symlink("/dev/zero", p),
    }
    root = git_workspace(tmp_path / "ws", {f"src/{name}.py": AUTH for name in swaps})
    for name, make in swaps.items():
        replace_with(root / "src" / f"{name}.py", make)
    conn = connect_stdio(root, config(tmp_path))
    try:
        for tool, payload, is_error in ask_all(conn):
            text = json.dumps(payload)
            assert "root:x:0:0" not in text and SECRET not in text, f"{tool} served outside content"
            if is_error:
                assert payload["error"]["code"] != "internal_error", f"{tool}: {payload['error']}"
            else:
                assert payload["metadata"]["freshness_status"] == "stale", f"{tool} did not report the change"
        started = time.monotonic()
        health, _ = conn.payload("health_check", {})
        assert time.monotonic() - started < 5 and health["status"] in ("ready", "warming")
    finally:
        conn.close()


def test_a_shrunk_file_is_stale_not_internal_error(tmp_path: Path) -> None:
    root = git_workspace(tmp_path / "ws", {"src/auth.py": AUTH})
    (root / "src" / "auth.py").write_text("x\n", encoding="utf-8")  # an edit, not committed: HEAD has not moved
    conn = connect_stdio(root, config(tmp_path))
    try:
        for tool, payload, is_error in ask_all(conn):
            assert not is_error, f"{tool}: {payload.get('error')}"
            assert payload["metadata"]["freshness_status"] == "stale", tool
        fresh, _ = conn.payload("search", {"query": "TOKEN_TTL"})
        assert fresh["metadata"]["freshness_status"] == "stale"
    finally:
        conn.close()


def test_an_unchanged_git_workspace_stays_fresh(tmp_path: Path) -> None:
    """The check above must not call every file stale: an untouched tree answers fresh."""
    root = git_workspace(tmp_path / "ws", {"src/auth.py": AUTH})
    conn = connect_stdio(root, config(tmp_path))
    try:
        for tool, payload, is_error in ask_all(conn):
            assert not is_error and payload["metadata"]["freshness_status"] == "fresh", tool
    finally:
        conn.close()
