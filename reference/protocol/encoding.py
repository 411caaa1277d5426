"""The one JSON encoding of a payload: sent as the text item and measured by the safety limit."""

from __future__ import annotations

from typing import Any

# pydantic-core (the SDK's own serializer, installed with it) writes the same compact, UTF-8-preserving JSON
# as json.dumps(ensure_ascii=False, separators=(",", ":")) about three times faster; the ~60 KB outline of a
# 200-symbol file is encoded on every call, so this is on the hot path.
from pydantic_core import to_json as _to_json_bytes


def to_json_bytes(payload: dict[str, Any] | list[Any]) -> bytes:
    """Compact JSON of a payload (or of a list inside one, such as outline nodes) as UTF-8 bytes."""
    return _to_json_bytes(payload)


def to_json(payload: dict[str, Any]) -> str:
    """Compact, UTF-8-preserving JSON of a payload."""
    return _to_json_bytes(payload).decode("utf-8")


def encoded_size(payload: dict[str, Any]) -> int:
    """Size of the payload's JSON in bytes."""
    return len(_to_json_bytes(payload))
