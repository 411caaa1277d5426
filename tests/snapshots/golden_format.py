"""How a tool answer becomes a golden snapshot: volatile values masked, stored as JSON under golden/snapshots/.

The rules (documented in docs/snapshots.md) mask only what changes from run to
run or machine to machine while the answer stays the same:

- the workspace's absolute path, wherever it appears in a string -> ``<workspace>``;
- a number under a key ending in ``_ms`` (``search_time_ms``, ``duration_ms``) -> ``"<ms>"``;
- a string under a key ending in ``_at`` (``indexed_at``, ``started_at``) -> ``"<timestamp>"``;
- ``tool_version`` (the package version, which every release bumps) -> ``"<version>"``;
- inside any string: an ISO-8601 timestamp -> ``<timestamp>``, an index generation
  ``gen-7`` -> ``gen-<n>``, an indexer timing ``in 0.27s (130 files/s)`` -> ``in <s> (<rate>)``;
- a float is rounded to 6 decimals (the wire's own score precision), so a last-bit
  difference in a BM25 sum cannot fail a snapshot on another CPU.

Everything else is kept as the server sent it, list order included: a reordered
result list is a changed answer.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from syrupy.extensions.json import JSONSnapshotExtension

SNAPSHOT_DIR = Path(__file__).resolve().parents[2] / "golden" / "snapshots"

_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?")
_GENERATION = re.compile(r"\bgen-\d+\b")
_INDEX_TIMING = re.compile(r"\bin \d+(?:\.\d+)?s \(\d+(?:\.\d+)? files/s\)")


def _mask_text(text: str, workspace: str) -> str:
    text = text.replace(workspace, "<workspace>")
    text = _TIMESTAMP.sub("<timestamp>", text)
    text = _GENERATION.sub("gen-<n>", text)
    return _INDEX_TIMING.sub("in <s> (<rate>)", text)


def _mask(value: Any, key: str, workspace: str) -> Any:
    if isinstance(value, dict):
        return {k: _mask(v, k, workspace) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask(item, key, workspace) for item in value]
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and key.endswith("_ms"):
        return "<ms>"
    if isinstance(value, str) and key == "tool_version":
        return "<version>"
    if isinstance(value, str) and key.endswith("_at"):
        return "<timestamp>"
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, str):
        return _mask_text(value, workspace)
    return value


def normalize(payload: Any, workspace: Path) -> Any:
    """The payload with every volatile value masked by the rules above."""
    return _mask(payload, "", str(workspace))


def record(tool: str, arguments: Any, payload: dict[str, Any], is_error: bool, workspace: Path) -> dict[str, Any]:
    """What a golden file holds: the call made, whether it failed, and the normalized payload."""
    return {"call": {"tool": tool, "arguments": arguments}, "isError": is_error,
            "payload": normalize(payload, workspace)}


class GoldenJSONExtension(JSONSnapshotExtension):
    """syrupy's JSON extension, one file per assertion in golden/snapshots/<test module>/."""

    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        """golden/snapshots/<test module>: the whole tree is one place to review, not __snapshots__ per folder."""
        return str(SNAPSHOT_DIR / test_location.basename)
