"""The one JSON encoding of a payload: sent as the text item and measured by the safety limit."""

from __future__ import annotations

import json
from typing import Any


def to_json(payload: dict[str, Any]) -> str:
    """Compact, UTF-8-preserving JSON of a payload."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def encoded_size(payload: dict[str, Any]) -> int:
    """Size of the payload's JSON in bytes."""
    return len(to_json(payload).encode("utf-8"))
