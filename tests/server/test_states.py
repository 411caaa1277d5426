"""Index states, freshness policies, config and prewarm, each on its own workspace copy and server."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .harness import FIXTURES, Connection, connect_http, connect_stdio


def hook(name: str, workspace: Path) -> None:
    subprocess.run([sys.executable, "-m", "cruxgate", "hook", name, str(workspace)], check=True, timeout=60,
                   capture_output=True)


def config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cruxgate.toml"
    path.write_text(text, encoding="utf-8")
    return path


def wait_for(conn: Connection, tool: str, args: dict[str, Any], until: Callable[[dict[str, Any]], bool],
             timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        payload, _ = conn.payload(tool, args)
        if until(payload) or time.monotonic() > deadline:
            return payload
        time.sleep(0.1)


def both(workspace: Path) -> list[Connection]:
    return [connect_stdio(workspace), connect_http(workspace)]


def test_not_indexed_then_index_repo(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    shutil.copytree(FIXTURES / "polyglot", workspace)
    conns = both(workspace)
    try:
        for conn in conns:
            payload, is_error = conn.payload("search_code", {"query": "validate_token"})
            assert is_error and payload["error"]["code"] == "index_not_ready"
            assert "remediation" in payload["error"]["data"]
            assert payload["metadata"]["indexing_status"] == "not_indexed"
            health, _ = conn.payload("health_check", {})
            assert health["status"] == "not_indexed"
            assert health["startup_checks"]["index"]["status"] == "not_indexed"
        done, is_error = conns[0].payload("index_repo", {})
        assert not is_error and done["job"]["status"] == "completed"
        for conn in conns:
            payload, is_error = conn.payload("search_code", {"query": "validate_token"})
            assert not is_error and payload["results"]
    finally:
        for conn in conns:
            conn.close()


@pytest.mark.parametrize("state", ["corrupt_manifest", "reindex_required"])
def test_incompatible_index_same_code_on_both_transports(fresh_workspace: Callable[[], Path], state: str) -> None:
    workspace = fresh_workspace()
    conns = both(workspace)
    try:
        hook(state, workspace)  # while the servers run: they must notice
        for conn in conns:
            payload, is_error = conn.payload("locate_symbol", {"name": "Config"})
            assert is_error and payload["error"]["code"] == "index_incompatible"
            data = payload["error"]["data"]
            assert "--force" in data["remediation"] and data["index_status"] == state
            assert payload["metadata"]["indexing_status"] == "failed"
            assert payload["metadata"]["schema_status"] == state
            health, is_error = conn.payload("health_check", {})
            assert not is_error and health["status"] == "error"
            assert health["startup_checks"]["index"]["status"] == state
            if state == "reindex_required":
                index = health["startup_checks"]["index"]
                assert index["current_schema_version"] != index["required_schema_version"]
    finally:
        for conn in conns:
            conn.close()


def test_legacy_persisted_status_reads_as_ready(fresh_workspace: Callable[[], Path]) -> None:
    workspace = fresh_workspace()
    hook("legacy_status_idle", workspace)
    conn = connect_stdio(workspace)
    try:
        for legacy in ("idle", "partial_available"):
            payload, is_error = conn.payload("search_code", {"query": "validate_token"})
            assert not is_error and payload["metadata"]["indexing_status"] == "ready"
            status, _ = conn.payload("index_status", {})
            assert status["status"] == "ready"
            assert legacy not in str(status) and legacy not in str(payload)
            hook("legacy_status_partial_available", workspace)
    finally:
        conn.close()


def test_freshness_policies(fresh_workspace: Callable[[], Path]) -> None:
    workspace = fresh_workspace()
    conn = connect_stdio(workspace)
    try:
        payload, _ = conn.payload("search_code", {"query": "validate_token"})
        assert payload["metadata"]["freshness_status"] == "fresh"
        with open(workspace / "added_module.py", "w", encoding="utf-8") as out:
            out.write("def freshly_added_function():\n    return 42\n")
        strict, is_error = conn.payload("search_code", {"query": "validate_token", "freshness_policy": "strict"})
        assert is_error and strict["error"]["code"] == "index_stale"
        best, is_error = conn.payload("search_code", {"query": "validate_token", "freshness_policy": "best_effort"})
        assert not is_error and best["metadata"]["freshness_status"] == "stale"
        health, _ = conn.payload("health_check", {})
        assert health["active_jobs"] == []  # best_effort never syncs
        balanced, is_error = conn.payload("search_code", {"query": "validate_token"})
        assert not is_error and balanced["metadata"]["freshness_status"] == "stale" and balanced["results"]
        synced = wait_for(conn, "locate_symbol", {"name": "freshly_added_function"},
                          lambda p: p.get("metadata", {}).get("freshness_status") == "fresh")
        assert synced["results"][0]["name"] == "freshly_added_function"
    finally:
        conn.close()


def test_safety_limit_and_invalid_config(fresh_workspace: Callable[[], Path], tmp_path: Path) -> None:
    config = config_file(tmp_path, '[search]\nmax_response_bytes = 2048\nranking_explain_level = "loud"\n')
    conn = connect_stdio(fresh_workspace(), config)
    try:
        args = {"query": "config", "limit": 50, "detail_level": "context"}
        first, is_error = conn.payload("search_code", args)
        again, _ = conn.payload("search_code", args)
        assert not is_error and first == again
        meta = first["metadata"]
        assert meta["result_completeness"] == "truncated" and meta["safety_limit_applied"] is True
        assert first["suggested_next_actions"] and len(first["results"]) < 50
        assert "ranking_reasons" not in meta  # "loud" fell back to off ...
        assert any("ranking_explain_level" in w for w in meta["warnings"])  # ... with a warning
        small, _ = conn.payload("search_code", {"query": "validate_token", "limit": 1, "detail_level": "location"})
        assert "safety_limit_applied" not in small["metadata"] and "suggested_next_actions" not in small
    finally:
        conn.close()


def test_no_prewarm_and_legacy_debug_flag(fresh_workspace: Callable[[], Path], tmp_path: Path) -> None:
    config = config_file(tmp_path, "[debug]\nranking_reasons = true\n")
    conn = connect_stdio(fresh_workspace(), config, "--no-prewarm")
    try:
        health, _ = conn.payload("health_check", {})
        assert health["prewarm"]["status"] == "disabled" and health["status"] == "ready"
        full, _ = conn.payload("search_code", {"query": "Config"})
        assert "bm25_score" in full["metadata"]["ranking_reasons"][0]  # legacy true -> full
        basic, _ = conn.payload("search_code", {"query": "Config", "ranking_explain_level": "basic"})
        assert "bm25_score" not in basic["metadata"]["ranking_reasons"][0]  # the request wins
    finally:
        conn.close()


def git(workspace: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=workspace, check=True,
                   capture_output=True, timeout=30)


def test_git_workspace_freshness_follows_head(tmp_path: Path) -> None:
    from cruxgate.reference.index import index_workspace

    workspace = tmp_path / "ws"
    shutil.copytree(FIXTURES / "polyglot", workspace)
    git(workspace, "init", "-q")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "-m", "fixture")
    index_workspace(workspace)
    conn = connect_stdio(workspace)
    try:
        payload, _ = conn.payload("search_code", {"query": "Config"})
        assert payload["metadata"]["freshness_status"] == "fresh"
        (workspace / "src" / "committed_later.py").write_text("def committed_later():\n    return 1\n")
        git(workspace, "add", "-A")
        git(workspace, "commit", "-q", "-m", "more")
        stale, is_error = conn.payload("search_code", {"query": "Config", "freshness_policy": "strict"})
        assert is_error and stale["error"]["code"] == "index_stale"
        synced = wait_for(conn, "locate_symbol", {"name": "committed_later"},
                          lambda p: p.get("metadata", {}).get("freshness_status") == "fresh")
        assert synced["results"][0]["name"] == "committed_later"
    finally:
        conn.close()


def test_broken_segment_prewarm_error_queries_still_answered(fresh_workspace: Callable[[], Path]) -> None:
    """A damaged index is found when it is opened: health says error with diagnostics, every query is answered
    with index_incompatible and remediation (never a crash, never an answer from half an index)."""
    workspace = fresh_workspace()
    generation = workspace / ".cruxgate" / (workspace / ".cruxgate" / "CURRENT").read_text().strip()
    for meta in (generation / "tantivy" / "symbols").glob("meta.json"):
        meta.write_text("{ not json", encoding="utf-8")
    conn = connect_stdio(workspace)
    try:
        health = wait_for(conn, "health_check", {}, lambda p: p["prewarm"]["status"] not in ("pending", "warming"))
        assert health["prewarm"]["diagnostics"]["code"] == "index_incompatible", health
        assert health["status"] == "error" and health["startup_checks"]["index"]["reason"], health
        for tool, args in (("search_code", {"query": "Config"}), ("get_file_outline", {"path": "src/auth/tokens.py"})):
            broken, is_error = conn.payload(tool, args)
            assert is_error and broken["error"]["code"] == "index_incompatible", broken  # answered, not crashed
            assert "--force" in broken["error"]["data"]["remediation"]
    finally:
        conn.close()
