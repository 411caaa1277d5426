"""The metadata builder table (seed 004), legacy aliases, optional fields and the error envelope."""

from __future__ import annotations

import pytest

from cruxgate.reference.protocol.errors import REGISTRY, ToolError, invalid_input
from cruxgate.reference.protocol.metadata import add_optional, build_metadata, canonical_status


@pytest.mark.parametrize(("status", "syncing", "indexing", "completeness", "schema"), [
    ("ready", False, "ready", "complete", "compatible"),
    ("not_indexed", False, "not_indexed", "partial", "not_indexed"),
    ("ready", True, "indexing", "partial", "compatible"),
    ("reindex_required", False, "failed", "partial", "reindex_required"),
    ("corrupt_manifest", False, "failed", "partial", "corrupt_manifest"),
    ("corrupt_manifest", True, "failed", "partial", "corrupt_manifest"),
])
def test_builder_table(status: str, syncing: bool, indexing: str, completeness: str, schema: str) -> None:
    meta = build_metadata(status, syncing=syncing)
    assert meta["cruxe_protocol_version"] == "1"
    assert (meta["indexing_status"], meta["result_completeness"], meta["schema_status"]) == (
        indexing, completeness, schema)


@pytest.mark.parametrize("legacy", ["idle", "partial_available"])
def test_legacy_statuses_read_as_ready_and_never_emitted(legacy: str) -> None:
    assert canonical_status(legacy) == "ready"
    meta = build_metadata(legacy)
    assert meta["indexing_status"] == "ready" and legacy not in meta.values()


def test_unknown_status_is_treated_as_corrupt() -> None:
    assert canonical_status("half-baked") == "corrupt_manifest"
    assert canonical_status(None) == "not_indexed"


def test_freshness_and_ref() -> None:
    assert build_metadata("ready", freshness="stale", ref="main")["freshness_status"] == "stale"
    assert build_metadata("ready", syncing=True)["freshness_status"] == "syncing"
    assert build_metadata("ready")["ref"] == "live"
    with pytest.raises(ValueError, match="non-canonical freshness_status"):
        build_metadata("ready", freshness="old")


def test_semantic_fields_are_additive_and_deterministic() -> None:
    assert "semantic_enabled" not in build_metadata("ready")
    meta = build_metadata("ready", semantic=True)
    assert meta["semantic_enabled"] is False and meta["semantic_skipped_reason"] == "semantic_disabled"


def test_optional_fields_only_with_a_value() -> None:
    meta = build_metadata("ready")
    add_optional(meta, suppressed_duplicate_count=0, warnings=[])
    assert "suppressed_duplicate_count" not in meta and "warnings" not in meta and "ranking_reasons" not in meta
    add_optional(meta, suppressed_duplicate_count=2, warnings=["w"], ranking_reasons=[])
    assert meta["suppressed_duplicate_count"] == 2 and meta["warnings"] == ["w"] and meta["ranking_reasons"] == []


def test_error_envelope_uses_registry_codes_only() -> None:
    err = invalid_input("limit", "bad limit")
    assert err.envelope() == {"error": {"code": "invalid_input", "message": "bad limit", "data": {"field": "limit"}}}
    assert ToolError("index_stale", "stale").envelope({"x": 1}) == {
        "error": {"code": "index_stale", "message": "stale"}, "metadata": {"x": 1}}
    assert "internal_error" in REGISTRY
    with pytest.raises(ValueError, match="not a registry error code"):
        ToolError("oops", "not a code")
