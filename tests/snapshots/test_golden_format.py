"""The normalizer masks exactly the volatile values of an answer, and the extension writes under golden/snapshots/."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from golden_format import SNAPSHOT_DIR, GoldenJSONExtension, normalize, record

WORKSPACE = Path("/tmp/pytest-of-ci/pytest-7/golden0/polyglot")


def test_volatile_values_are_masked() -> None:
    payload = {
        "workspace": str(WORKSPACE),
        "search_time_ms": 3, "prewarm": {"duration_ms": 12.5, "status": "ready"},
        "indexed_at": "2026-11-23T12:29:14+00:00", "tool_version": "0.1.0",
        "last_job": {"started_at": "2026-11-23T12:30:24+00:00", "summary": {
            "output": "indexed 35 files in 0.27s (130 files/s): 0 parsed -> .cruxgate/gen-12"}},
        "error": {"message": f"{WORKSPACE}/src/x.py changed at 2026-11-23T12:00:00Z"},
    }
    assert normalize(payload, WORKSPACE) == {
        "workspace": "<workspace>",
        "search_time_ms": "<ms>", "prewarm": {"duration_ms": "<ms>", "status": "ready"},
        "indexed_at": "<timestamp>", "tool_version": "<version>",
        "last_job": {"started_at": "<timestamp>", "summary": {
            "output": "indexed 35 files in <s> (<rate>): 0 parsed -> .cruxgate/gen-<n>"}},
        "error": {"message": "<workspace>/src/x.py changed at <timestamp>"},
    }


def test_answers_are_kept_as_sent() -> None:
    payload = {"results": [{"symbol_id": 54, "score": 114.6542434692, "name": "b"}, {"symbol_id": 3, "name": "a"}],
               "total_results": 2, "metadata": {"semantic_enabled": False, "current_schema_version": 1}}
    normalized = normalize(payload, WORKSPACE)
    assert [r["symbol_id"] for r in normalized["results"]] == [54, 3]  # order is part of the answer
    assert normalized["results"][0]["score"] == 114.654243
    assert normalized["metadata"] == {"semantic_enabled": False, "current_schema_version": 1}
    assert record("search_code", {"query": "x"}, payload, False, WORKSPACE)["call"] == {
        "tool": "search_code", "arguments": {"query": "x"}}


def test_snapshots_live_under_golden() -> None:
    location = SimpleNamespace(basename="test_golden_tools")
    assert Path(GoldenJSONExtension.dirname(test_location=location)) == SNAPSHOT_DIR / "test_golden_tools"
    assert SNAPSHOT_DIR.parts[-2:] == ("golden", "snapshots")
