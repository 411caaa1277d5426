"""stdio and Streamable HTTP answer the same input with the same canonical codes and payload shapes."""

from __future__ import annotations

import pytest

from .bad_inputs import BAD_CALLS
from .harness import Connection


@pytest.mark.parametrize(("tool", "args", "field"), BAD_CALLS, ids=[f"{t}-{f}" for t, _, f in BAD_CALLS])
def test_same_invalid_input_same_code(stdio_server: Connection, http_server: Connection, tool: str,
                                      args: dict, field: str) -> None:
    over_stdio, stdio_error = stdio_server.payload(tool, args)
    over_http, http_error = http_server.payload(tool, args)
    assert stdio_error and http_error
    assert over_stdio["error"]["code"] == over_http["error"]["code"] == "invalid_input"
    assert over_stdio["error"]["data"] == over_http["error"]["data"]
    assert over_stdio["error"]["data"]["field"] == field


def test_http_serves_queries_like_stdio(stdio_server: Connection, http_server: Connection) -> None:
    args = {"query": "validate_token", "limit": 5}
    over_stdio, _ = stdio_server.payload("search_code", args)
    over_http, http_error = http_server.payload("search_code", args)
    assert not http_error
    assert [r["result_id"] for r in over_http["results"]] == [r["result_id"] for r in over_stdio["results"]]
    assert over_http["metadata"]["schema_status"] == "compatible"
    assert http_server.tools() == stdio_server.tools()
