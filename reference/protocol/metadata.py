"""Protocol v1 metadata, built in this one place from the index state (seed 004's builder table)."""

from __future__ import annotations

from typing import Any

from cruxgate.reference.index.state import LIVE_REF, READY_STATUSES

PROTOCOL_VERSION = "1"

# Builder -> (indexing_status, result_completeness), seed 004 "Builder-to-canonical mapping".
BUILDERS: dict[str, tuple[str, str]] = {
    "ready": ("ready", "complete"),
    "not_indexed": ("not_indexed", "partial"),
    "syncing": ("indexing", "partial"),
    "reindex_required": ("failed", "partial"),
    "corrupt_manifest": ("failed", "partial"),
}

# On-disk index status -> schema_status.
SCHEMA_STATUS: dict[str, str] = {
    "ready": "compatible",
    "not_indexed": "not_indexed",
    "reindex_required": "reindex_required",
    "corrupt_manifest": "corrupt_manifest",
}

# Legacy persisted values (the index's READY_STATUSES besides `ready`) are read as `ready`, never emitted.
LEGACY_STATUS: dict[str, str] = dict.fromkeys(sorted(READY_STATUSES - {"ready"}), "ready")

FRESHNESS_STATUSES = ("fresh", "stale", "syncing")

# Seed 000's semantic fields for metadata built without a query engine (`semantic=True`), as mode off;
# search_code's own come from its engine's channel (reference/query/semantic/channel.py).
SEMANTIC_DISABLED: dict[str, Any] = {
    "semantic_mode": "off",
    "semantic_enabled": False,
    "semantic_ratio_used": 0.0,
    "semantic_triggered": False,
    "semantic_skipped_reason": "semantic_disabled",
    "semantic_fallback": False,
}


def canonical_status(status: str | None) -> str:
    """An index status as one of the four canonical ones (legacy aliases -> ready, unknown -> corrupt)."""
    status = LEGACY_STATUS.get(status or "", status)
    if status in SCHEMA_STATUS:
        return status
    return "not_indexed" if status is None else "corrupt_manifest"


def build_metadata(index_status: str | None, *, syncing: bool = False, freshness: str = "fresh",
                   ref: str | None = None, semantic: bool = False) -> dict[str, Any]:
    """Metadata for a response given the on-disk index status and whether a sync job runs."""
    status = canonical_status(index_status)
    builder = "syncing" if syncing and status in ("ready", "not_indexed") else status
    indexing_status, completeness = BUILDERS[builder]
    if freshness not in FRESHNESS_STATUSES:
        raise ValueError(f"non-canonical freshness_status {freshness!r}")
    metadata: dict[str, Any] = {
        "cruxe_protocol_version": PROTOCOL_VERSION,
        "freshness_status": "syncing" if builder == "syncing" and freshness == "fresh" else freshness,
        "indexing_status": indexing_status,
        "result_completeness": completeness,
        "ref": ref or LIVE_REF,
        "schema_status": SCHEMA_STATUS[status],
    }
    if semantic:
        metadata.update(SEMANTIC_DISABLED)
    return metadata


def add_optional(metadata: dict[str, Any], *, warnings: list[str] | tuple[str, ...] = (),
                 suppressed_duplicate_count: int = 0, ranking_reasons: list[dict[str, Any]] | None = None) -> None:
    """Add the optional fields that have a value (each is omitted otherwise)."""
    if warnings:
        metadata["warnings"] = list(warnings)
    if suppressed_duplicate_count > 0:
        metadata["suppressed_duplicate_count"] = suppressed_duplicate_count
    if ranking_reasons is not None:
        metadata["ranking_reasons"] = ranking_reasons
