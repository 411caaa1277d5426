"""An error names the value it refuses, cut short: a 1 MB argument never comes back as a 1 MB error."""

from __future__ import annotations

import json

import pytest

from cruxgate.reference.protocol.errors import ECHO_CHARS, TEXT_CHARS, ToolError, bounded, quoted

from .harness import Connection

MEGABYTE = 1 << 20
# Each call puts a 1 MB value where an error quotes it: a path outside, a path inside that is not
# indexed, an unknown argument's name, an unknown tool's name, a wrongly typed value, an unknown ref.
HUGE_CALLS = [
    ("get_file_outline", {"path": "/" + "x" * MEGABYTE}, "invalid_input"),
    ("get_file_outline", {"path": "d/" * (MEGABYTE // 2)}, "invalid_input"),
    ("get_file_outline", {"path": "d/" * 2000}, "file_not_found"),
    ("search_code", {"query": "x", "y" * MEGABYTE: 1}, "invalid_input"),
    ("z" * MEGABYTE, {}, "invalid_input"),
    ("search_code", {"query": "x", "limit": "9" * MEGABYTE}, "invalid_input"),
    ("get_file_outline", {"path": "src/app.py", "ref": "r" * MEGABYTE}, "ref_not_indexed"),
]
# What one error may weigh: the message and each string of `data` at TEXT_CHARS, plus metadata.
ERROR_BYTES = 4 * TEXT_CHARS + 4096


@pytest.mark.parametrize("transport", ["stdio", "http"])
@pytest.mark.parametrize(("tool", "args", "code"), HUGE_CALLS, ids=[f"{t[:20]}-{c}" for t, _, c in HUGE_CALLS])
def test_a_huge_value_is_not_echoed(request: pytest.FixtureRequest, transport: str, tool: str, args: dict,
                                    code: str) -> None:
    server: Connection = request.getfixturevalue(f"{transport}_server")
    response = server.wire.call_tool(tool, args)
    assert response.is_error and response.payload["error"]["code"] == code, response.payload["error"]["message"][:300]
    assert len(response.text or "") < ERROR_BYTES, f"{len(response.text or ''):,} bytes of error for a 1 MB value"
    assert len(response.payload["error"]["message"]) <= TEXT_CHARS
    error = json.dumps(response.payload["error"])
    assert "characters cut" in error or "longer than" in error, "the cut is said, not silent"


def test_bounded_keeps_head_and_tail() -> None:
    text = "head-" + "m" * 10_000 + "-tail"
    cut = bounded(text, 200)
    assert len(cut) <= 200 and cut.startswith("head-") and cut.endswith("-tail") and "characters cut" in cut
    assert bounded("short", 200) == "short"
    assert len(quoted("q" * MEGABYTE)) <= ECHO_CHARS


def test_tool_error_bounds_its_message_and_data() -> None:
    error = ToolError("file_not_found", "m" * MEGABYTE, {"path": "p" * MEGABYTE, "nested": [{"k" * MEGABYTE: 1}]})
    payload = json.dumps(error.envelope())
    assert len(error.message) <= TEXT_CHARS and len(payload) < ERROR_BYTES
